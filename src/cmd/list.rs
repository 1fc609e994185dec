//! `codex-picker list`: every session as a table or JSON lines, or with `--content` the sessions
//! whose conversation holds the query, best first. The rows are collected from one run of the
//! index engine (`store::engine`); with `--file` the sessions that changed a file
//! ([`super::changed`]). A plain `list --json` writes an unchanged session's line as
//! the rows cache kept it.

use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::output;
use super::report::{finish, report, report_rows, say};
use super::{changed, EXIT_ERROR};
use crate::cli::{ListArgs, StoreArgs};
use crate::rollout::record::Meta;
use crate::rollout::usage::{Change, ChangedFile, Tokens, Usage};
use crate::search::fulltext::tap::{ContentTap, Progress};
use crate::search::fulltext::{cached, ContentHit, ContentIndex};
use crate::session::{self, SessionRow};
use crate::store::engine::{self, Finished, Kind, Lines, Row, Tap};
use crate::store::locks::Snapshot;
use crate::store::{self, cache, Store};

pub fn run_list(
    store_args: &StoreArgs,
    args: &ListArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let store = match store_args.resolve() {
        Ok(store) => store,
        Err(e) => {
            say(err, &e);
            return EXIT_ERROR;
        }
    };
    // Which sessions another codex has open: read once, when the rows are written.
    let locks = store::locks::read(&store);
    // Every session as JSON: unchanged sessions are written as the cache kept them.
    let whole_json = args.json
        && args.cwd.is_none()
        && args.content.is_none()
        && args.file.is_none()
        && args.source.is_none()
        && !store_args.verbose;
    // With `--content` the content index taps the run: the sessions it wants are read whole
    // once, for their rows and their messages.
    let tap = args
        .content
        .as_ref()
        .and_then(|_| content_tap(&store, store_args));
    let kind = Kind::List {
        lines: whole_json.then(|| json_lines(&store)),
    };
    let opts = engine::Options {
        cache: cache_file(&store, store_args, "rows"),
        tap: tap.clone().map(|tap| tap as Arc<dyn Tap>),
        ..engine::Options::new(kind, store_args.archived)
    };
    if whole_json {
        let (rows, issues, _) = engine::collect(&store, &opts);
        report(err, &issues);
        let mut sorted = engine::newest_first(&rows);
        sorted.truncate(args.limit.unwrap_or(usize::MAX));
        let result = write_lines(out, &sorted, &locks);
        drop(sorted);
        store::drop_later(rows);
        return finish(result, err);
    }
    let (mut rows, issues, finished) = engine::rows(&store, &opts);
    if store_args.verbose {
        cache_notes(err, opts.cache.as_deref(), &finished);
    }
    report(err, &issues);
    report_rows(err, &rows, store_args.verbose);
    if let Some(source) = args.source {
        rows.retain(|r| r.source == source);
    }
    if let Some(dir) = &args.cwd {
        let dir = normalise_dir(dir);
        rows.retain(|r| {
            r.meta
                .cwd
                .as_deref()
                .is_some_and(|c| session::cwd_within(c, &dir))
        });
    }
    if let Some(query) = &args.content {
        let index = match &tap {
            Some(tap) => content_index(&store, store_args, tap, err),
            None => ContentIndex::default(),
        };
        let found = Found {
            rows: &rows,
            index: &index,
            locks: &locks,
        };
        return list_content(args, query, &found, out, err);
    }
    if let Some(file) = &args.file {
        let result = list_file(out, &rows, file, args, &locks);
        store::drop_later(rows);
        return finish(result.and_then(|()| out.flush()), err);
    }
    rows.truncate(args.limit.unwrap_or(usize::MAX));
    let result = if args.json {
        output::write_json_rows(out, &rows, &locks)
    } else {
        output::write_table(out, &rows, terminal_columns(), crate::timefmt::now_ms())
    };
    store::drop_later(rows);
    finish(result.and_then(|()| out.flush()), err)
}

/// `list --file PATH`: the sessions among `rows` (newest first) that changed the file, with
/// the change and when.
fn list_file(
    out: &mut dyn Write,
    rows: &[SessionRow],
    file: &Path,
    args: &ListArgs,
    locks: &Snapshot,
) -> io::Result<()> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let path = changed::absolute(file, &cwd);
    let mut found = changed::sessions_that_changed(rows, &path.to_string_lossy());
    found.truncate(args.limit.unwrap_or(usize::MAX));
    if args.json {
        changed::write_json(out, &found, locks)
    } else {
        changed::write_text(out, &found, crate::timefmt::now_ms())
    }
}

/// What the run found: the rows, the content index, and which sessions are open elsewhere.
struct Found<'a> {
    rows: &'a [SessionRow],
    index: &'a ContentIndex,
    locks: &'a Snapshot,
}

/// `list --content QUERY`: the sessions found whose conversation holds the query.
fn list_content(
    args: &ListArgs,
    query: &str,
    found: &Found,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let (rows, index) = (found.rows, found.index);
    let split = crate::search::filter::split(query, crate::timefmt::now_ms());
    if let Some(e) = &split.error {
        say(err, e);
        return EXIT_ERROR;
    }
    let limit = args.limit.unwrap_or(CONTENT_RESULTS);
    // With filters, hits past the limit may be the ones that pass them.
    let asked = if split.filters.is_empty() {
        limit
    } else {
        usize::MAX
    };
    let by_path: HashMap<&Path, &SessionRow> = rows
        .iter()
        .filter(|r| split.filters.keeps(r))
        .map(|r| (r.path.as_path(), r))
        .collect();
    let mut hits = index.search(&split.words, asked);
    hits.retain(|h| by_path.contains_key(h.path.as_path()));
    hits.truncate(limit);
    let result = hits.iter().try_for_each(|hit| {
        let Some(row) = by_path.get(hit.path.as_path()) else {
            return Ok(());
        };
        write_content_hit(out, row, hit, args.json.then_some(found.locks))
    });
    finish(result.and_then(|()| out.flush()), err)
}

/// One JSON line per row: a kept line as it is, a made row rendered; each with what is live
/// about its session (see `output::live_parts`), written a block at a time.
fn write_lines(out: &mut dyn Write, rows: &[&Row], locks: &Snapshot) -> io::Result<()> {
    // Lines gathered into blocks of about a pipe's worth: a write of many short pieces
    // (`writev`) cost more than copying them together first (2% of a warm run at 10,000
    // sessions, 7% at 30,000, alternated).
    const BLOCK: usize = 1 << 20;
    let mut block = Vec::with_capacity(BLOCK + (64 << 10));
    for row in rows {
        match row {
            Row::Kept(kept) => {
                let (head, tail) = output::live_parts(kept.line(), kept.id(), locks);
                block.extend_from_slice(head);
                block.extend_from_slice(&tail);
            }
            Row::Made(row) => block.extend_from_slice(output::row_json_live(row, locks).as_bytes()),
        }
        block.push(b'\n');
        if block.len() >= BLOCK {
            out.write_all(&block)?;
            block.clear();
        }
    }
    out.write_all(&block)?;
    out.flush()
}

/// How `list --json` lines are made, and what they are made under: their format (the line of a
/// row with every field set, so that a build that writes lines otherwise never uses another's)
/// and the names file as it is now (a line holds its session's name).
fn json_lines(store: &Store) -> Lines {
    let probe = SessionRow {
        id: "0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee".into(),
        path: PathBuf::from("/s/rollout-x.jsonl"),
        source: crate::sources::Source::Claude,
        auto_title: Some("t".into()),
        meta: Meta {
            id: None,
            timestamp: Some("2026-01-01T00:00:00.000Z".into()),
            cwd: Some("/w".into()),
            git_branch: Some("b".into()),
            source: Some("exec".into()),
            originator: Some("o".into()),
            cli_version: Some("v".into()),
            model_provider: Some("p".into()),
            forked_from_id: Some("f".into()),
            history_base: None,
        },
        created_ms: Some(1),
        updated_ms: 2,
        interactive: false,
        archived: true,
        name: Some("n".into()),
        first_user_message: Some("m\u{1b}".into()),
        preview: "m".into(),
        user_messages: Some(3),
        assistant_messages: Some(4),
        size: 5,
        skipped_lines: 6,
        usage: Some(Box::new(Usage {
            files: [ChangedFile {
                path: "/w/a".into(),
                change: Change::Rename,
                to: Some("/w/b".into()),
            }][..]
                .into(),
            tokens: Some(Tokens::default()),
            models: vec!["m".into()],
            ..Usage::default()
        })),
    };
    let names = std::fs::metadata(store.names_file())
        .ok()
        .filter(std::fs::Metadata::is_file);
    let mtime_ns = |m: &std::fs::Metadata| {
        m.modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as u64)
    };
    let mut made_under = output::row_json(&probe).into_bytes();
    made_under.extend(
        names
            .as_ref()
            .map_or(0, std::fs::Metadata::len)
            .to_le_bytes(),
    );
    made_under.extend(names.as_ref().map_or(0, mtime_ns).to_le_bytes());
    Lines {
        render: output::row_json,
        stamp: cache::Stamp(cache::fingerprint(&made_under)),
    }
}

/// What `--verbose` says about the rows cache.
fn cache_notes(err: &mut dyn Write, file: Option<&Path>, finished: &Finished) {
    let Some(file) = file else { return };
    if let Some(why) = &finished.cache_ignored {
        let _ = writeln!(
            err,
            "codex-picker: cache {}: not used ({why}); rebuilt",
            file.display()
        );
    }
    if let Some(e) = &finished.save_error {
        let _ = writeln!(
            err,
            "codex-picker: cache {}: not saved ({e})",
            file.display()
        );
    }
}

/// Sessions `list --content` prints unless `--limit` says otherwise (at most
/// `search::fulltext::MAX_RESULTS`).
const CONTENT_RESULTS: usize = 100;

/// The cache file of `kind` for a store, unless caching is off (`--no-cache`, or the cache
/// folder would be inside the Codex home).
pub(super) fn cache_file(store: &Store, store_args: &StoreArgs, kind: &str) -> Option<PathBuf> {
    store_args.cache_setup().store_file(store, kind)
}

/// The content index as a tap for the listing's run, kept in the cache folder when caching is
/// on: unchanged sessions are kept as indexed, the others read by the run.
fn content_tap(store: &Store, store_args: &StoreArgs) -> Option<Arc<ContentTap>> {
    let cache = cache_file(store, store_args, "content");
    let threads = store::default_threads();
    let progress: Progress = Box::new(|_, _, _| true);
    cached::tap(cache.as_deref(), store.names(), threads, progress).map(Arc::new)
}

/// The content index the listing's run brought up to date, and with `--verbose` what
/// happened to it.
fn content_index(
    store: &Store,
    store_args: &StoreArgs,
    tap: &ContentTap,
    err: &mut dyn Write,
) -> ContentIndex {
    if store_args.verbose {
        let stats = tap.stats();
        let dir = cache_file(store, store_args, "content").map(|c| cached::index_dir(&c));
        let place = dir
            .as_deref()
            .map_or("in memory".into(), |d| d.display().to_string());
        if let Some(why) = &stats.rebuilt {
            let _ = writeln!(err, "codex-picker: content index {place}: rebuilt ({why})");
        }
        if let Some(why) = &stats.not_updated {
            let _ = writeln!(
                err,
                "codex-picker: content index {place}: not updated ({why})"
            );
        }
    }
    tap.index()
}

/// A content hit: as JSON (the session's line, with what is live about it, and the hit) when
/// `json` gives the locks, else as two lines of text.
fn write_content_hit(
    out: &mut dyn Write,
    row: &SessionRow,
    hit: &ContentHit,
    json: Option<&Snapshot>,
) -> io::Result<()> {
    if let Some(locks) = json {
        let row = output::row_json_live(row, locks);
        let extra = serde_json::json!({
            "score": hit.score,
            "hits": hit.hits,
            "first_message": hit.first_message,
            "snippet": hit.snippet,
            "snippet_match": [hit.snippet_match.start, hit.snippet_match.end],
        });
        let head = row.strip_suffix('}').unwrap_or(&row);
        let extra = crate::sanitize::json_string(&extra);
        return writeln!(out, "{head},\"content\":{extra}}}");
    }
    writeln!(
        out,
        "{}  {:>3} hits  {}",
        row.id,
        hit.hits,
        crate::sanitize::one_line(row.title())
    )?;
    writeln!(out, "    {}", crate::sanitize::one_line(&hit.snippet))
}

fn normalise_dir(dir: &Path) -> PathBuf {
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

fn terminal_columns() -> usize {
    if io::stdout().is_terminal() {
        if let Ok((cols, _)) = ratatui::crossterm::terminal::size() {
            return usize::from(cols);
        }
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(120)
}
