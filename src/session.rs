//! The session row: everything the list shows about one rollout, small enough to keep 10,000s.
//!
//! Pure data plus derived labels; filled by `store::summary`, cached by `store::cache`, drawn by
//! `ui`. No IO.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

use crate::rollout::record::Meta;
use crate::rollout::usage::Usage;
use crate::sources::Source;
use crate::timefmt::{self, Millis};

/// One session, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SessionRow {
    pub id: String,
    pub path: PathBuf,
    /// The agent that wrote the session.
    #[serde(default)]
    pub source: Source,
    /// The file's first `session_meta` as written (`timestamp` in UTC). Its `id` is moved to
    /// [`Self::id`] when the row is made, so it is `None` here.
    pub meta: Meta,
    /// `meta.timestamp` as a time.
    pub created_ms: Option<Millis>,
    /// The file's modification time.
    pub updated_ms: Millis,
    pub interactive: bool,
    pub archived: bool,
    pub name: Option<String>,
    /// A title the agent gave the session itself (Claude Code's `ai-title` or `summary`), shown
    /// when it has no name; `None` for Codex's sessions.
    #[serde(default)]
    pub auto_title: Option<String>,
    /// The first real user message, exactly as written; `None` when the session has none.
    pub first_user_message: Option<String>,
    /// `first_user_message` on one line (IDE wrapper stripped, white space collapsed).
    pub preview: String,
    /// Message counts from the transcript; `None` until the whole file has been read.
    pub user_messages: Option<u32>,
    pub assistant_messages: Option<u32>,
    /// File size in bytes when read.
    pub size: u64,
    /// Lines that could not be read (not JSON, truncated, too long).
    pub skipped_lines: u32,
    /// The files the session changed, its tokens and models; `None` until the whole file
    /// has been read. Boxed: a row stays small while it is not known.
    pub usage: Option<Box<Usage>>,
}

impl SessionRow {
    /// The title shown in lists: the name when set, else the automatic title its agent gave
    /// it (Claude Code's), else the preview.
    pub fn title(&self) -> &str {
        [&self.name, &self.auto_title]
            .into_iter()
            .flatten()
            .find(|t| !t.trim().is_empty())
            .map_or(&self.preview, |t| t)
    }

    /// The client that wrote the session: `tui`, `exec`, `vscode`, ... from `originator`
    /// when it names one (codex 0.171's own TUI writes `source: "vscode"`), else `source`
    /// (reading-rules section 6).
    pub fn client(&self) -> Option<&str> {
        self.meta
            .originator
            .as_deref()
            .and_then(client_of_originator)
            .or(self.meta.source.as_deref())
    }

    /// `exec`, `mcp`, `subagent`, ... for non-interactive sessions; `None` for interactive ones.
    pub fn kind_label(&self) -> Option<&str> {
        if self.interactive {
            None
        } else {
            Some(self.meta.source.as_deref().unwrap_or("other"))
        }
    }

    /// Sort key: updated newest first, ties by id descending, then by path (a total order).
    pub fn cmp_updated_desc(a: &Self, b: &Self) -> std::cmp::Ordering {
        Self::cmp_desc(a, b, |r| r.updated_ms)
    }

    /// Sort key: created newest first (falling back to updated), ties by id descending, then by
    /// path (a total order).
    pub fn cmp_created_desc(a: &Self, b: &Self) -> std::cmp::Ordering {
        Self::cmp_desc(a, b, |r| r.created_ms.unwrap_or(r.updated_ms))
    }

    /// Sort key: most tokens first (none known counts as none), then as
    /// [`Self::cmp_updated_desc`].
    pub fn cmp_tokens_desc(a: &Self, b: &Self) -> std::cmp::Ordering {
        b.total_tokens()
            .cmp(&a.total_tokens())
            .then_with(|| Self::cmp_updated_desc(a, b))
    }

    /// The session's total tokens, as far as known (0 before the whole file is read).
    pub fn total_tokens(&self) -> u64 {
        self.usage
            .as_ref()
            .and_then(|u| u.tokens)
            .map_or(0, |t| t.total)
    }

    /// Sort `rows` by [`Self::cmp_updated_desc`]. The order is found on indices and the rows
    /// moved once: a row is hundreds of bytes, and sorting them in place moved each one about
    /// log2(n) times (a tenth of a warm `list`'s work at 10,000 rows).
    pub fn sort_updated_desc(rows: &mut [Self]) {
        let mut order: Vec<u32> = (0..rows.len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        if order.len() != rows.len() {
            rows.sort_unstable_by(Self::cmp_updated_desc);
            return;
        }
        order.sort_unstable_by(|&a, &b| {
            Self::cmp_updated_desc(&rows[a as usize], &rows[b as usize])
        });
        // Put the permutation in place by its cycles: position k takes the row at order[k].
        for start in 0..order.len() {
            let mut k = start;
            loop {
                let from = order[k] as usize;
                order[k] = k as u32;
                if from == start || from == k {
                    break;
                }
                rows.swap(k, from);
                k = from;
            }
        }
    }

    fn cmp_desc(a: &Self, b: &Self, time: fn(&Self) -> Millis) -> std::cmp::Ordering {
        time(b)
            .cmp(&time(a))
            .then_with(|| b.id.cmp(&a.id))
            .then_with(|| a.path.cmp(&b.path))
    }
}

/// The client an `originator` names: `codex-tui` is `tui`, `codex_cli_rs` (the TUI before it
/// ran on the app-server) `cli`, `codex_exec` `exec`, `codex_vscode` `vscode`, `Codex Desktop`
/// `desktop`, `codex_sdk_ts` `sdk`; another `codex…` name by what follows `codex`. `None` for
/// a name that is not codex's.
pub fn client_of_originator(originator: &str) -> Option<&str> {
    let rest = originator
        .get(..5)
        .filter(|head| head.eq_ignore_ascii_case("codex"))
        .map(|_| originator[5..].trim_start_matches(['-', '_', ' ']))?;
    Some(match rest {
        "" => return None,
        "cli_rs" => "cli",
        "Desktop" | "desktop" => "desktop",
        r if r.starts_with("sdk") => "sdk",
        r => r,
    })
}

/// Interactive sessions are those codex's picker would show: `cli`, `vscode`, its custom
/// interactive sources, or no source at all (files before 2025-10).
pub fn is_interactive_source(source: Option<&str>) -> bool {
    matches!(source, None | Some("cli" | "vscode" | "atlas" | "chatgpt"))
}

/// The uuid at the end of a rollout file name (`rollout-<ts>-<uuid>.jsonl[.zst]`).
pub fn uuid_from_file_name(name: &str) -> Option<&str> {
    let stem = name.strip_suffix(".zst").unwrap_or(name);
    let stem = stem.strip_suffix(".jsonl")?;
    if stem.len() < 36 {
        return None;
    }
    let tail = &stem[stem.len() - 36..];
    is_uuid(tail).then_some(tail)
}

/// `8-4-4-4-12` hex digits.
pub fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// `cwd` is `dir` or a folder below it.
pub fn cwd_within(cwd: &str, dir: &Path) -> bool {
    let cwd = Path::new(cwd.trim_end_matches('/'));
    cwd.starts_with(dir)
}

/// The last two parts of a folder path (`work/proj`), for narrow columns.
pub fn project_of(cwd: &str) -> String {
    let parts: Vec<&str> = cwd.trim_end_matches('/').rsplit('/').take(2).collect();
    let joined: Vec<&str> = parts.into_iter().rev().collect();
    joined.join("/")
}

/// The header of a transcript: id and metadata, one fact per line.
pub fn metadata_lines(row: &SessionRow) -> Vec<(String, String)> {
    let mut lines = vec![("id".to_owned(), row.id.clone())];
    if let Some(name) = &row.name {
        lines.push(("name".into(), name.clone()));
    }
    if let Some(cwd) = &row.meta.cwd {
        lines.push(("cwd".into(), cwd.clone()));
    }
    if let Some(branch) = &row.meta.git_branch {
        lines.push(("branch".into(), branch.clone()));
    }
    if let Some(created) = row.created_ms {
        lines.push(("created".into(), timefmt::format_short(created)));
    }
    lines.push(("updated".into(), timefmt::format_short(row.updated_ms)));
    // The agent is named first: Claude Code always, codex with its version (as before there
    // was another agent).
    let mut origin = Vec::new();
    match (row.source, &row.meta.cli_version) {
        (Source::Codex, Some(v)) => origin.push(format!("codex {v}")),
        (Source::Codex, None) => {}
        (Source::Claude, Some(v)) => origin.push(format!("Claude Code {v}")),
        (Source::Claude, None) => origin.push("Claude Code".to_owned()),
    }
    if let Some(client) = row.client() {
        origin.push(client.to_owned());
    }
    if let Some(p) = &row.meta.model_provider {
        origin.push(p.clone());
    }
    if !origin.is_empty() {
        lines.push(("origin".into(), origin.join(" · ")));
    }
    if let Some(parent) = &row.meta.forked_from_id {
        lines.push(("forked from".into(), parent.clone()));
    }
    if row.archived {
        lines.push(("archived".into(), "yes".into()));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_on_indices_gives_the_order_of_the_comparison() {
        // Rows with repeated times and ids, so that every tie-break is used.
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 33
        };
        for n in [0, 1, 2, 3, 17, 300] {
            let rows: Vec<SessionRow> = (0..n)
                .map(|i| SessionRow {
                    id: format!("id{}", next() % 5),
                    path: PathBuf::from(format!("/s/{}-{i}", next() % 3)),
                    updated_ms: (next() % 4) as Millis,
                    ..SessionRow::default()
                })
                .collect();
            let mut want = rows.clone();
            want.sort_by(SessionRow::cmp_updated_desc);
            let mut got = rows;
            SessionRow::sort_updated_desc(&mut got);
            assert_eq!(got, want, "{n} rows");
        }
    }

    #[test]
    fn uuid_from_names() {
        assert_eq!(
            uuid_from_file_name(
                "rollout-2026-11-30T10-02-41-01a22be8-1d47-79f0-99fd-e14291b12af2.jsonl.zst"
            ),
            Some("01a22be8-1d47-79f0-99fd-e14291b12af2")
        );
        assert_eq!(
            uuid_from_file_name("rollout-2026-11-30T10-02-41-nouuid.jsonl"),
            None
        );
        assert_eq!(uuid_from_file_name("notes.txt"), None);
    }

    #[test]
    fn the_client_is_named_by_the_originator_when_it_names_one() {
        let row = |originator: Option<&str>, source: Option<&str>| SessionRow {
            meta: Meta {
                originator: originator.map(str::to_owned),
                source: source.map(str::to_owned),
                ..Meta::default()
            },
            ..SessionRow::default()
        };
        for (originator, source, client) in [
            (Some("codex-tui"), Some("vscode"), Some("tui")),
            (Some("codex_exec"), Some("exec"), Some("exec")),
            (Some("codex_vscode"), Some("vscode"), Some("vscode")),
            (Some("codex_cli_rs"), Some("cli"), Some("cli")),
            (Some("Codex Desktop"), Some("vscode"), Some("desktop")),
            (Some("codex_sdk_ts"), Some("mcp"), Some("sdk")),
            (Some("my-editor"), Some("vscode"), Some("vscode")),
            (Some("codex"), Some("cli"), Some("cli")),
            (Some("codé"), None, None),
            (None, Some("exec"), Some("exec")),
            (None, None, None),
        ] {
            assert_eq!(row(originator, source).client(), client, "{originator:?}");
        }
    }

    #[test]
    fn interactive_sources() {
        assert!(is_interactive_source(None));
        assert!(is_interactive_source(Some("cli")));
        assert!(is_interactive_source(Some("vscode")));
        assert!(!is_interactive_source(Some("exec")));
        assert!(!is_interactive_source(Some("mcp")));
        assert!(!is_interactive_source(Some("subagent")));
    }
}
