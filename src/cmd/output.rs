//! The non-interactive views: `list` as a table or JSON lines, `show` as JSON lines (its text
//! form is [`super::show_text`]).
//!
//! Every string from a rollout is neutralised (`sanitize`) in the text forms, and JSON has the
//! control characters serde_json leaves raw escaped, so no output can drive a terminal.

use std::io::{self, Write};

use serde::Serialize;

use crate::json_out;
use crate::rollout::transcript::Entry;
use crate::rollout::usage::Usage;
use crate::sanitize;
use crate::session::{self, SessionRow};
use crate::sources::Source;
use crate::store::locks::Snapshot;
use crate::textwidth::{fit, truncate, truncate_left, width};
use crate::timefmt::{self, Millis};

/// One session as a JSON line.
pub(crate) fn row_json(row: &SessionRow) -> String {
    let mut buf = Vec::new();
    push_row_json(&mut buf, row);
    String::from_utf8(buf).unwrap_or_default()
}

/// Append one session as JSON (no newline) to `out`, dangerous characters escaped.
fn push_row_json(out: &mut Vec<u8>, row: &SessionRow) {
    let mut updated = String::with_capacity(24);
    timefmt::push_rfc3339(&mut updated, row.updated_ms);
    let mut o = json_out::Object::new(out);
    o.str("id", &row.id)
        .str("source", row.source.as_str())
        .str("path", &path_text(&row.path));
    if let Some(hex) = path_hex(&row.path) {
        o.str("path_bytes", &hex);
    }
    o.opt_str("created_at", row.meta.timestamp.as_deref())
        .str("updated_at", &updated)
        .opt_str("cwd", row.meta.cwd.as_deref())
        .opt_str("git_branch", row.meta.git_branch.as_deref())
        .opt_str("session_source", row.meta.source.as_deref())
        .opt_str("originator", row.meta.originator.as_deref())
        .opt_str("client", row.client())
        .opt_str("cli_version", row.meta.cli_version.as_deref())
        .opt_str("model_provider", row.meta.model_provider.as_deref())
        .bool("interactive", row.interactive)
        .bool("archived", row.archived)
        .opt_str("name", row.name.as_deref())
        .str("title", row.title())
        .opt_str("first_user_message", row.first_user_message.as_deref())
        .str("preview", &row.preview)
        .opt_u64("user_messages", row.user_messages.map(u64::from))
        .opt_u64("assistant_messages", row.assistant_messages.map(u64::from))
        .opt_str("forked_from_id", row.meta.forked_from_id.as_deref())
        .u64("size", row.size)
        .u64("skipped_lines", u64::from(row.skipped_lines));
    push_usage_json(&mut o, row.usage.as_deref());
    o.end();
}

/// `files_changed` (each file's `path` as codex wrote it, its `change`, and `to` for a
/// rename), `tokens` and `models`; `null` each while the whole file is not read, `tokens` also
/// when the session's records give no count.
fn push_usage_json(o: &mut json_out::Object, usage: Option<&Usage>) {
    let Some(usage) = usage else {
        o.null("files_changed").null("tokens").null("models");
        return;
    };
    o.with("files_changed", |out| {
        json_out::push_array(out, usage.files.iter(), |out, file| {
            let mut f = json_out::Object::new(out);
            f.str("path", file.path).str("change", file.change.as_str());
            if let Some(to) = file.to {
                f.str("to", to);
            }
            f.end();
        });
    });
    match &usage.tokens {
        Some(t) => o.with("tokens", |out| {
            let mut j = json_out::Object::new(out);
            j.u64("input", t.input)
                .u64("cached_input", t.cached_input)
                .u64("output", t.output)
                .u64("reasoning", t.reasoning)
                .u64("total", t.total);
            j.end();
        }),
        None => o.null("tokens"),
    };
    o.with("models", |out| {
        json_out::push_array(out, &usage.models, |out, m| json_out::push_str(out, m));
    });
}

/// A path as text: valid UTF-8 (every path codex writes) is checked, not walked chunk by chunk.
fn path_text(path: &std::path::Path) -> std::borrow::Cow<'_, str> {
    path.to_str()
        .map_or_else(|| path.to_string_lossy(), std::borrow::Cow::Borrowed)
}

/// A path that is not UTF-8 (`path` shows it with U+FFFD where bytes are not text), as the hex
/// of its bytes, so it is given back exactly: `xxd -r -p` makes it a path again. `None` for a
/// UTF-8 path, which `path` holds exactly.
pub(crate) fn path_hex(path: &std::path::Path) -> Option<String> {
    if path.to_str().is_some() {
        return None;
    }
    let bytes = path.as_os_str().as_encoded_bytes();
    let mut hex = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        hex.push_str(&format!("{b:02x}"));
    }
    Some(hex)
}

/// A session's JSON line with what is live about it added at its end, as two parts to write
/// one after the other: `"open_elsewhere"`, the pid of the process that has the session open,
/// or null. Read when the line is written (a cached line never holds it); left out where the
/// system does not say who holds a lock.
pub(crate) fn live_parts<'a>(
    line: &'a [u8],
    id: &[u8],
    locks: &Snapshot,
) -> (&'a [u8], std::borrow::Cow<'static, [u8]>) {
    match (live_tail(id, locks), line.strip_suffix(b"}")) {
        (Some(tail), Some(head)) => (head, tail),
        _ => (line, std::borrow::Cow::Borrowed(&[])),
    }
}

/// [`live_parts`] on the line `out` ends with.
fn end_live(out: &mut Vec<u8>, id: &[u8], locks: &Snapshot) {
    if let (Some(tail), Some(b'}')) = (live_tail(id, locks), out.last()) {
        out.pop();
        out.extend_from_slice(&tail);
    }
}

/// What replaces the closing `}` of session `id`'s line: its live fields and a new `}`.
fn live_tail(id: &[u8], locks: &Snapshot) -> Option<std::borrow::Cow<'static, [u8]>> {
    let Snapshot::Shown(held) = locks else {
        return None;
    };
    let holder = if held.is_empty() {
        None
    } else {
        std::str::from_utf8(id).ok().and_then(|id| held.holder(id))
    };
    Some(match holder {
        Some(h) => format!(",\"open_elsewhere\":{}}}", h.pid)
            .into_bytes()
            .into(),
        None => b",\"open_elsewhere\":null}".as_slice().into(),
    })
}

/// One session as a JSON line, with what is live about it ([`write_live`]).
pub(crate) fn row_json_live(row: &SessionRow, locks: &Snapshot) -> String {
    let mut buf = Vec::new();
    push_row_json(&mut buf, row);
    end_live(&mut buf, row.id.as_bytes(), locks);
    String::from_utf8(buf).unwrap_or_default()
}

/// Rows a thread renders at a time in [`write_json_rows`].
const JSON_BLOCK: usize = 512;

/// Every row as a JSON line, with what is live about it ([`live_parts`]). Blocks of rows are
/// rendered on the reading threads and written in order: rendering is most of a warm
/// `list --json`, and the rows are independent.
pub(crate) fn write_json_rows(
    out: &mut dyn Write,
    rows: &[SessionRow],
    locks: &Snapshot,
) -> io::Result<()> {
    let threads = crate::store::default_threads();
    let mut bufs: Vec<Vec<u8>> = (0..threads)
        .map(|_| Vec::with_capacity(512 << 10))
        .collect();
    for window in rows.chunks(JSON_BLOCK * threads) {
        let mut blocks = bufs.iter_mut().zip(window.chunks(JSON_BLOCK));
        let first = blocks.next();
        std::thread::scope(|scope| {
            for (buf, block) in blocks {
                scope.spawn(move || render_block(buf, block, locks));
            }
            if let Some((buf, block)) = first {
                render_block(buf, block, locks);
            }
        });
        for buf in &bufs[..window.len().div_ceil(JSON_BLOCK)] {
            out.write_all(buf)?;
        }
    }
    Ok(())
}

fn render_block(buf: &mut Vec<u8>, rows: &[SessionRow], locks: &Snapshot) {
    buf.clear();
    for row in rows {
        push_row_json(buf, row);
        end_live(buf, row.id.as_bytes(), locks);
        buf.push(b'\n');
    }
}

/// An aligned table exactly `cols` cells wide at most; rows never wrap.
pub(crate) fn write_table(
    out: &mut dyn Write,
    rows: &[SessionRow],
    cols: usize,
    now: Millis,
) -> io::Result<()> {
    let table = Table::fitting(cols.max(40));
    let mut header = format!("{} {} {} ", fit("AGE", 5), fit("MSGS", 7), fit("KIND", 6));
    if table.id {
        header.push_str(&fit("ID", 37));
    }
    if table.project {
        header.push_str(&fit("PROJECT", 19));
    }
    if table.branch {
        header.push_str(&fit("BRANCH", 15));
    }
    header.push_str("TITLE");
    writeln!(out, "{}", header.trim_end())?;
    for row in rows {
        let line = table.line(row, now);
        debug_assert!(width(&line) <= table.cols.max(table.fixed + table.title));
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// The columns of a table `cols` cells wide: fixed columns first, the title takes what is left,
/// and the optional columns drop when it is narrow.
struct Table {
    cols: usize,
    id: bool,
    project: bool,
    branch: bool,
    fixed: usize,
    title: usize,
}

impl Table {
    fn fitting(cols: usize) -> Table {
        let (id, project, branch) = (cols >= 80, cols >= 100, cols >= 120);
        let fixed = 5 + 1 + 7 + 1 + 6 + 1 // AGE, MSGS, KIND
            + if id { 36 + 1 } else { 0 }
            + if project { 18 + 1 } else { 0 }
            + if branch { 14 + 1 } else { 0 };
        Table {
            cols,
            id,
            project,
            branch,
            fixed,
            title: cols.saturating_sub(fixed).max(10),
        }
    }

    /// One row's line, not yet trimmed.
    fn line(&self, row: &SessionRow, now: Millis) -> String {
        let msgs = match (row.user_messages, row.assistant_messages) {
            (Some(u), Some(a)) => format!("{u}/{a}"),
            _ => "-".into(),
        };
        let kind = if row.archived {
            "archvd".to_owned()
        } else {
            row.kind_label().unwrap_or("").to_owned()
        };
        let kind = if row.meta.forked_from_id.is_some() {
            format!("⑂ {kind}").trim_end().to_owned()
        } else {
            kind
        };
        // Each agent's sessions are marked as in the picker.
        let kind = match row.source.mark() {
            Some(mark) => format!("{mark} {kind}").trim_end().to_owned(),
            None => kind,
        };
        let mut line = format!(
            "{} {} {} ",
            fit(&timefmt::relative(row.updated_ms, now), 5),
            fit(&msgs, 7),
            fit(&sanitize::one_line(&kind), 6)
        );
        if self.id {
            line.push_str(&fit(&sanitize::one_line(&row.id), 36));
            line.push(' ');
        }
        if self.project {
            let project = row
                .meta
                .cwd
                .as_deref()
                .map(session::project_of)
                .unwrap_or_default();
            let project = truncate_left(&sanitize::one_line(&project), 18);
            line.push_str(&fit(&project, 18));
            line.push(' ');
        }
        if self.branch {
            let branch = sanitize::one_line(row.meta.git_branch.as_deref().unwrap_or(""));
            line.push_str(&fit(&branch, 14));
            line.push(' ');
        }
        let title = sanitize::one_line(row.title());
        let title = if title.is_empty() {
            "(no message)".to_owned()
        } else {
            title
        };
        line.push_str(&truncate(&title, self.title));
        line
    }
}

#[derive(Serialize)]
struct MessageJson<'a> {
    source: &'a str,
    role: &'a str,
    text: &'a str,
    shape: &'a str,
    phase: Option<&'a str>,
}

/// One message entry of a session of `source` as a JSON line (tool entries print nothing):
/// exact text, controls escaped.
pub(crate) fn write_entry_json(
    out: &mut dyn Write,
    source: Source,
    entry: &Entry,
) -> io::Result<()> {
    if let Entry::Message {
        role,
        text,
        shape,
        phase,
        ..
    } = entry
    {
        let json = MessageJson {
            source: source.as_str(),
            role: role.as_str(),
            text,
            shape: shape.as_str(),
            phase: phase.as_deref(),
        };
        // Straight to the output: a giant message is not copied into a string first.
        sanitize::write_json(&mut *out, &json)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::record::Meta;
    use std::path::PathBuf;

    /// The row as serde_json with the safe formatter writes it: the written form must be it.
    #[derive(Serialize)]
    struct RowJson<'a> {
        id: &'a str,
        source: &'a str,
        path: &'a str,
        created_at: Option<&'a str>,
        updated_at: String,
        cwd: Option<&'a str>,
        git_branch: Option<&'a str>,
        session_source: Option<&'a str>,
        originator: Option<&'a str>,
        client: Option<&'a str>,
        cli_version: Option<&'a str>,
        model_provider: Option<&'a str>,
        interactive: bool,
        archived: bool,
        name: Option<&'a str>,
        title: &'a str,
        first_user_message: Option<&'a str>,
        preview: &'a str,
        user_messages: Option<u32>,
        assistant_messages: Option<u32>,
        forked_from_id: Option<&'a str>,
        size: u64,
        skipped_lines: u32,
        files_changed: Option<Vec<FileJson<'a>>>,
        tokens: Option<TokensJson>,
        models: Option<&'a [String]>,
    }

    #[derive(Serialize)]
    struct FileJson<'a> {
        path: &'a str,
        change: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        to: Option<&'a str>,
    }

    #[derive(Serialize)]
    struct TokensJson {
        input: u64,
        cached_input: u64,
        output: u64,
        reasoning: u64,
        total: u64,
    }

    fn oracle(row: &SessionRow) -> String {
        let path = row.path.to_string_lossy();
        sanitize::json_string(&RowJson {
            id: &row.id,
            source: row.source.as_str(),
            path: &path,
            created_at: row.meta.timestamp.as_deref(),
            updated_at: timefmt::format_rfc3339(row.updated_ms),
            cwd: row.meta.cwd.as_deref(),
            git_branch: row.meta.git_branch.as_deref(),
            session_source: row.meta.source.as_deref(),
            originator: row.meta.originator.as_deref(),
            client: row.client(),
            cli_version: row.meta.cli_version.as_deref(),
            model_provider: row.meta.model_provider.as_deref(),
            interactive: row.interactive,
            archived: row.archived,
            name: row.name.as_deref(),
            title: row.title(),
            first_user_message: row.first_user_message.as_deref(),
            preview: &row.preview,
            user_messages: row.user_messages,
            assistant_messages: row.assistant_messages,
            forked_from_id: row.meta.forked_from_id.as_deref(),
            size: row.size,
            skipped_lines: row.skipped_lines,
            files_changed: row.usage.as_ref().map(|u| {
                u.files
                    .iter()
                    .map(|f| FileJson {
                        path: f.path,
                        change: f.change.as_str(),
                        to: f.to,
                    })
                    .collect()
            }),
            tokens: row
                .usage
                .as_ref()
                .and_then(|u| u.tokens)
                .map(|t| TokensJson {
                    input: t.input,
                    cached_input: t.cached_input,
                    output: t.output,
                    reasoning: t.reasoning,
                    total: t.total,
                }),
            models: row.usage.as_ref().map(|u| u.models.as_slice()),
        })
    }

    #[test]
    fn rows_written_as_serde_writes_them() {
        let hostile = "a\u{1b}[31m\"q\"\\ \u{9b}2J\u{7f}\r\n\u{202e}evil\u{2066}— é 🚀\u{0}";
        let full = SessionRow {
            id: "019a-\"id\"".into(),
            path: PathBuf::from(format!("/s/rollout-{hostile}.jsonl")),
            meta: Meta {
                timestamp: Some("2026-11-30T10:02:41.879Z".into()),
                cwd: Some(hostile.into()),
                git_branch: Some("main".into()),
                source: Some("cli".into()),
                originator: Some(hostile.into()),
                cli_version: Some("0.171.0".into()),
                model_provider: Some("openai".into()),
                forked_from_id: Some("parent".into()),
                ..Meta::default()
            },
            updated_ms: 1_764_496_961_879,
            interactive: true,
            archived: true,
            name: Some(hostile.into()),
            first_user_message: Some(hostile.into()),
            preview: hostile.into(),
            user_messages: Some(3),
            assistant_messages: Some(u32::MAX),
            size: u64::MAX,
            skipped_lines: 7,
            usage: Some(Box::new(Usage {
                files: [
                    crate::rollout::usage::ChangedFile {
                        path: hostile.into(),
                        change: crate::rollout::usage::Change::Rename,
                        to: Some(format!("/w/{hostile}")),
                    },
                    crate::rollout::usage::ChangedFile {
                        path: "/w/a.py".into(),
                        change: crate::rollout::usage::Change::Add,
                        to: None,
                    },
                ]
                .into_iter()
                .collect(),
                tokens: Some(crate::rollout::usage::Tokens {
                    input: 5,
                    cached_input: 1,
                    output: u64::MAX,
                    reasoning: 0,
                    total: 9,
                }),
                models: vec![hostile.into(), "gpt-5.5".into()],
                ..Usage::default()
            })),
            ..SessionRow::default()
        };
        let mut untold = full.clone();
        untold.usage = Some(Box::default());
        let claude = SessionRow {
            source: Source::Claude,
            name: None,
            auto_title: Some(format!("titled {hostile}")),
            ..full.clone()
        };
        for row in [full, untold, claude, SessionRow::default()] {
            assert_eq!(row_json(&row), oracle(&row));
        }
    }
}
