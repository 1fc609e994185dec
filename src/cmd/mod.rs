//! The non-interactive commands (`list`, `show`) and the store resolution they share with the
//! picker. Returns exit codes; prints per-file problems as `codex-picker: <path>: <reason>`.

pub mod output;

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::cli::{CacheAction, CacheArgs, ListArgs, ShowArgs, StoreArgs};
use crate::rollout::summary::{ScanOptions, ScanState, Until};
use crate::rollout::transcript::{Entry, Parse, TranscriptOptions};
use crate::session::{self, SessionRow};
use crate::store::fork;
use crate::store::walk::RolloutFile;
use crate::store::{self, FileIssue, ListOptions, Store};

pub use crate::cli::{EXIT_CANCELLED, EXIT_ERROR, EXIT_OK};

/// One `codex-picker: <message>` line on stderr, neutralised: messages echo paths and arguments.
fn say(err: &mut dyn Write, msg: &str) {
    let _ = writeln!(err, "codex-picker: {}", crate::sanitize::one_line(msg));
}

fn report(err: &mut dyn Write, issues: &[FileIssue]) {
    for issue in issues {
        let _ = writeln!(err, "{}", crate::sanitize::one_line(&issue.to_string()));
    }
}

fn report_rows(err: &mut dyn Write, rows: &[SessionRow], verbose: bool) {
    if !verbose {
        return;
    }
    for row in rows.iter().filter(|r| r.skipped_lines > 0) {
        let issue = FileIssue {
            path: row.path.clone(),
            reason: store::issues::skipped_lines_note(row.skipped_lines),
        };
        report(err, &[issue]);
    }
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

fn finish(result: io::Result<()>, err: &mut dyn Write) -> i32 {
    match result {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            say(err, &e.to_string());
            EXIT_ERROR
        }
    }
}

pub fn run_list(
    store_args: &StoreArgs,
    args: &ListArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let store = match store::resolve(store_args) {
        Ok(store) => store,
        Err(msg) => {
            say(err, &msg);
            return EXIT_ERROR;
        }
    };
    let opts = ListOptions {
        archived: store_args.archived,
        until: Until::End,
    };
    let (mut rows, issues) = list_rows(&store, store_args, opts, err);
    report(err, &issues);
    report_rows(err, &rows, store_args.verbose);
    if let Some(dir) = &args.cwd {
        let dir = normalise_dir(dir);
        rows.retain(|r| {
            r.cwd
                .as_deref()
                .is_some_and(|c| session::cwd_within(c, &dir))
        });
    }
    if let Some(query) = &args.content {
        let index = content_index(&store, store_args, &rows, err);
        let mut hits = index.search(query, usize::MAX);
        if let Some(limit) = args.limit {
            hits.truncate(limit);
        }
        let by_path: std::collections::HashMap<&Path, &SessionRow> =
            rows.iter().map(|r| (r.path.as_path(), r)).collect();
        let result = hits.iter().try_for_each(|hit| {
            let Some(row) = by_path.get(hit.path.as_path()) else {
                return Ok(());
            };
            write_content_hit(out, row, hit, args.json)
        });
        return finish(result.and_then(|()| out.flush()), err);
    }
    if let Some(limit) = args.limit {
        rows.truncate(limit);
    }
    let result = if args.json {
        output::write_json_rows(out, &rows)
    } else {
        output::write_table(out, &rows, terminal_columns(), crate::timefmt::now_ms())
    };
    store::drop_later(rows);
    finish(result.and_then(|()| out.flush()), err)
}

/// The rows cache file of a store, unless caching is off (`--no-cache`, or the cache folder
/// would be inside the Codex home).
pub fn rows_cache_file(store: &Store, store_args: &StoreArgs) -> Option<PathBuf> {
    if store_args.no_cache {
        return None;
    }
    let file = store::cache::cache_file(&crate::paths::cache_dir(), &store.home, "rows");
    store::cache::allowed(&file, &store.home).then_some(file)
}

/// Every row of the store, through the cache when it is on.
fn list_rows(
    store: &Store,
    store_args: &StoreArgs,
    opts: ListOptions,
    err: &mut dyn Write,
) -> (Vec<SessionRow>, Vec<FileIssue>) {
    let Some(file) = rows_cache_file(store, store_args) else {
        return store::list(store, opts);
    };
    let (rows, issues, report) = store::list_cached(store, opts, &file);
    if store_args.verbose {
        if let Some(why) = &report.ignored {
            let _ = writeln!(
                err,
                "codex-picker: cache {}: not used ({why}); rebuilt",
                file.display()
            );
        }
        if let Some(e) = &report.save_error {
            let _ = writeln!(
                err,
                "codex-picker: cache {}: not saved ({e})",
                file.display()
            );
        }
    }
    (rows, issues)
}

/// The content index of `rows`, through its cache when caching is on: unchanged files are
/// copied from the cached index, the others read.
pub fn content_index(
    store: &Store,
    store_args: &StoreArgs,
    rows: &[SessionRow],
    err: &mut dyn Write,
) -> crate::fulltext::ContentIndex {
    use crate::fulltext::build;
    let (files, _) = store.files(true);
    let ids: std::collections::HashMap<PathBuf, String> = rows
        .iter()
        .map(|r| (r.path.clone(), r.id.clone()))
        .collect();
    let targets = build::targets_for(&files, &ids);
    let cache = rows_cache_file(store, store_args)
        .map(|_| store::cache::cache_file(&crate::paths::cache_dir(), &store.home, "content"));
    let previous = cache.as_deref().and_then(|c| build::load(c).ok());
    let previous_len = previous.as_ref().map(crate::fulltext::ContentIndex::len);
    let built = build::build(
        previous,
        &targets,
        &files,
        store::default_threads(),
        &mut |_, _| true,
    );
    let Some((index, stats)) = built else {
        return crate::fulltext::ContentIndex::default();
    };
    let unchanged = stats.read == 0 && previous_len == Some(index.len());
    if let (Some(file), false) = (cache, unchanged) {
        if let Err(e) = build::save(&index, &file) {
            if store_args.verbose {
                let _ = writeln!(
                    err,
                    "codex-picker: cache {}: not saved ({e})",
                    file.display()
                );
            }
        }
    }
    index
}

fn write_content_hit(
    out: &mut dyn Write,
    row: &SessionRow,
    hit: &crate::fulltext::ContentHit,
    json: bool,
) -> io::Result<()> {
    if json {
        let row = output::row_json(row);
        let extra = serde_json::json!({
            "hits": hit.hits,
            "first_message": hit.first_message,
            "snippet": hit.snippet,
            "snippet_match": [hit.snippet_match.start, hit.snippet_match.end],
        });
        let head = row.strip_suffix('}').unwrap_or(&row);
        let extra = crate::sanitize::escape_json_controls(&extra.to_string());
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

/// `cache clear` / `cache path`.
pub fn run_cache(
    store_args: &StoreArgs,
    args: &CacheArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let dir = crate::paths::cache_dir();
    let result = match args.action {
        CacheAction::Clear => match store::cache::clear(&dir) {
            Ok(removed) if removed.is_empty() => {
                writeln!(out, "nothing to remove in {}", dir.display())
            }
            Ok(removed) => removed
                .iter()
                .try_for_each(|p| writeln!(out, "removed {}", p.display())),
            Err(e) => {
                let _ = writeln!(err, "codex-picker: cannot clear {}: {e}", dir.display());
                return EXIT_ERROR;
            }
        },
        CacheAction::Path => match store::resolve(store_args) {
            Ok(store) => ["rows", "content"].iter().try_for_each(|kind| {
                let file = store::cache::cache_file(&dir, &store.home, kind);
                writeln!(out, "{}", file.display())
            }),
            Err(msg) => {
                let _ = writeln!(err, "codex-picker: {msg}");
                return EXIT_ERROR;
            }
        },
    };
    finish(result.and_then(|()| out.flush()), err)
}

/// The longest message the `show` text view prints whole; `--full` lifts it, JSON is always whole.
pub const SHOW_TEXT_CAP: usize = 64 << 10;

/// The session id a rollout file name carries.
fn file_id(file: &RolloutFile) -> Option<&str> {
    file.path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(session::uuid_from_file_name)
}

/// The rollout a `show` target names: an existing file, or a session id or unique id prefix.
/// Several files with the same id (copies) resolve to the most recently written one. A file
/// whose name carries no id is matched by the id in its `session_meta`.
pub fn find_target(
    store: &Store,
    target: &str,
    files: &[RolloutFile],
) -> Result<RolloutFile, String> {
    let as_path = Path::new(target);
    if as_path.is_file() {
        return RolloutFile::at(as_path).map_err(|e| format!("{target}: {e}"));
    }
    let needle = target.trim().to_ascii_lowercase();
    if needle.is_empty() {
        return Err("an empty session id".into());
    }
    let matches_id = |id: &str| id.to_ascii_lowercase().starts_with(&needle);
    let mut matches: Vec<(&RolloutFile, String)> = files
        .iter()
        .filter_map(|f| {
            file_id(f)
                .filter(|id| matches_id(id))
                .map(|id| (f, id.to_owned()))
        })
        .collect();
    if matches.is_empty() {
        let names = std::collections::HashMap::new();
        matches = files
            .iter()
            .filter(|f| file_id(f).is_none())
            .filter_map(|f| {
                store::summarise(f, Until::FirstPrompt, &names)
                    .ok()
                    .map(|(row, _)| (f, row.id))
            })
            .filter(|(_, id)| matches_id(id))
            .collect();
    }
    let same_id = matches.windows(2).all(|w| w[0].1 == w[1].1);
    match matches.as_slice() {
        [] => Err(format!(
            "no session {target} in {} (archived sessions are searched too)",
            store.home.display()
        )),
        [(one, _)] => Ok((*one).clone()),
        copies if same_id => Ok(copies
            .iter()
            .map(|(f, _)| *f)
            .max_by(|a, b| {
                a.mtime_ms
                    .cmp(&b.mtime_ms)
                    .then_with(|| b.path.cmp(&a.path))
            })
            .cloned()
            .expect("at least two matches")),
        many => Err(format!(
            "{target} matches {} sessions; give more of the id",
            many.len()
        )),
    }
}

/// Warnings for the other files that carry the shown session's id.
fn other_copies(shown: &RolloutFile, files: &[RolloutFile]) -> Vec<FileIssue> {
    let Some(id) = file_id(shown) else {
        return Vec::new();
    };
    files
        .iter()
        .filter(|f| f.path != shown.path && file_id(f) == Some(id))
        .map(|f| FileIssue {
            path: f.path.clone(),
            reason: format!(
                "session id {id} is also in this file; showing {}",
                shown.path.display()
            ),
        })
        .collect()
}

pub fn run_show(
    store_args: &StoreArgs,
    args: &ShowArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let store = match store::resolve(store_args) {
        Ok(store) => store,
        Err(msg) if Path::new(&args.target).is_file() => {
            // A rollout path works without a store; fork parents are then not followed.
            let _ = msg;
            Store {
                home: PathBuf::from("/nonexistent-codex-home"),
            }
        }
        Err(msg) => {
            say(err, &msg);
            return EXIT_ERROR;
        }
    };
    let (files, _) = store.files(true);
    let file = match find_target(&store, &args.target, &files) {
        Ok(file) => file,
        Err(msg) => {
            say(err, &msg);
            return EXIT_ERROR;
        }
    };
    report(err, &other_copies(&file, &files));
    if args.json {
        return show_json(&file, &files, store_args.verbose, out, err);
    }
    let opts = TranscriptOptions {
        tools: args.tools,
        max_message_bytes: (!args.full).then_some(SHOW_TEXT_CAP),
        ..TranscriptOptions::default()
    };
    let transcript = match fork::read_transcript(&file, &mut files.as_slice(), &opts, Parse::Every)
    {
        Ok(t) => t,
        Err(issue) => {
            report(err, &[issue]);
            return EXIT_ERROR;
        }
    };
    if transcript.meta.is_none() && !transcript.entries.iter().any(Entry::is_message) {
        // Decide as the listing does: any message line at all (injected context too) makes a
        // session, even when the transcript keeps none of them.
        let mut state = ScanState::default();
        let scanned = store::scan_file(&file, &mut state, &ScanOptions::new(Until::End));
        if let Some(issue) = scanned
            .err()
            .or_else(|| store::not_a_session(&file, &state))
        {
            report(err, &[issue]);
            return EXIT_ERROR;
        }
    }
    let state = ScanState {
        meta: transcript.meta.clone(),
        ..ScanState::default()
    };
    let mut row = store::row_from_scan(&file, &state, &store.names());
    let (user, assistant) = transcript.counts();
    row.user_messages = Some(user);
    row.assistant_messages = Some(assistant);
    if store_args.verbose && transcript.skipped_lines > 0 {
        report_rows(
            err,
            &[SessionRow {
                skipped_lines: transcript.skipped_lines,
                ..row.clone()
            }],
            true,
        );
    }
    let result = output::write_transcript_text(out, &row, &transcript, args.tools);
    finish(result.and_then(|()| out.flush()), err)
}

/// `show --json`: every message exact, streamed out as it is read, so a rollout of any size is
/// printed holding one line at a time. A first pass learns which message shapes the file uses
/// (and whether it is a session at all); a paginated fork's parent history comes first.
fn show_json(
    file: &RolloutFile,
    files: &[RolloutFile],
    verbose: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let mut state = ScanState::default();
    if let Err(issue) = store::scan_file(file, &mut state, &ScanOptions::new(Until::End)) {
        report(err, &[issue]);
        return EXIT_ERROR;
    }
    if let Some(issue) = store::not_a_session(file, &state) {
        report(err, &[issue]);
        return EXIT_ERROR;
    }
    if verbose && state.skipped_lines > 0 {
        let reason = store::issues::skipped_lines_note(state.skipped_lines);
        report(
            err,
            &[FileIssue {
                path: file.path.clone(),
                reason,
            }],
        );
    }
    let opts = TranscriptOptions {
        tools: false,
        ..TranscriptOptions::default()
    };
    let mut sink = |entry: &Entry| output::write_entry_json(out, entry);
    let streamed = fork::stream_transcript(file, &state, &mut { files }, &opts, &mut sink);
    match streamed {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            let reason = e.to_string();
            report(
                err,
                &[FileIssue {
                    path: file.path.clone(),
                    reason,
                }],
            );
            EXIT_ERROR
        }
        other => finish(other.and_then(|_| out.flush()), err),
    }
}
