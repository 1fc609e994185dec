//! The non-interactive commands (`list`, `show`) and the store resolution they share with the
//! picker. Returns exit codes; prints per-file problems as `codex-picker: <path>: <reason>`.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::cli::{CacheAction, CacheArgs, ListArgs, ShowArgs, StoreArgs};
use crate::output;
use crate::session::{self, SessionRow};
use crate::store::summary::{ScanState, Until};
use crate::store::transcript::TranscriptOptions;
use crate::store::walk::RolloutFile;
use crate::store::{self, FileIssue, ListOptions, Store};
use crate::timefmt::Millis;

pub const EXIT_OK: i32 = 0;
pub const EXIT_ERROR: i32 = 2;
pub const EXIT_CANCELLED: i32 = 130;

/// The store named by the flags, or a one-line reason why there is none.
pub fn resolve_store(args: &StoreArgs) -> Result<Store, String> {
    if args.demo {
        let home = crate::demo::materialize(&crate::paths::cache_dir())
            .map_err(|e| format!("cannot lay out the demo store: {e}"))?;
        return Ok(Store { home });
    }
    let env = std::env::var("CODEX_HOME").ok();
    let home = std::env::var("HOME").ok();
    let store = Store::locate(args.codex_home.as_deref(), env.as_deref(), home.as_deref())
        .ok_or_else(|| {
            "cannot find a Codex home: set --codex-home DIR or $CODEX_HOME (or try --demo)"
                .to_owned()
        })?;
    if !store.exists() {
        return Err(format!(
            "no Codex sessions at {} (use --codex-home DIR or $CODEX_HOME to point at a Codex home, or --demo to try the built-in demo store)",
            store.home.display()
        ));
    }
    Ok(store)
}

pub fn now_ms() -> Millis {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(0))
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
            reason: format!("listed; skipped {} unreadable lines", row.skipped_lines),
        };
        report(err, &[issue]);
    }
}

/// `cwd` is `dir` or a folder below it.
pub fn cwd_within(cwd: &str, dir: &Path) -> bool {
    let cwd = Path::new(cwd.trim_end_matches('/'));
    cwd.starts_with(dir)
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
            let _ = writeln!(err, "codex-picker: {e}");
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
    let store = match resolve_store(store_args) {
        Ok(store) => store,
        Err(msg) => {
            let _ = writeln!(err, "codex-picker: {msg}");
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
        rows.retain(|r| r.cwd.as_deref().is_some_and(|c| cwd_within(c, &dir)));
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
        output::write_table(out, &rows, terminal_columns(), now_ms())
    };
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
) -> crate::content::ContentIndex {
    use crate::content::build;
    let (files, _) = store.files(true);
    let ids: std::collections::HashMap<PathBuf, String> = rows
        .iter()
        .map(|r| (r.path.clone(), r.id.clone()))
        .collect();
    let targets = build::targets_for(&files, &ids);
    let cache = rows_cache_file(store, store_args)
        .map(|_| store::cache::cache_file(&crate::paths::cache_dir(), &store.home, "content"));
    let previous = cache.as_deref().and_then(|c| build::load(c).ok());
    let previous_len = previous.as_ref().map(crate::content::ContentIndex::len);
    let built = build::build(
        previous,
        &targets,
        &files,
        store::default_threads(),
        &mut |_, _| true,
    );
    let Some((index, stats)) = built else {
        return crate::content::ContentIndex::default();
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
    hit: &crate::content::ContentHit,
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
        CacheAction::Path => match resolve_store(store_args) {
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

/// The rollout a `show` target names: an existing file, or a session id or unique id prefix.
pub fn find_target(
    store: &Store,
    target: &str,
    files: &[RolloutFile],
) -> Result<RolloutFile, String> {
    let as_path = Path::new(target);
    if as_path.is_file() {
        let meta = std::fs::metadata(as_path).map_err(|e| format!("{target}: {e}"))?;
        return Ok(RolloutFile {
            path: as_path.to_path_buf(),
            archived: false,
            compressed: target.ends_with(".zst"),
            size: meta.len(),
            mtime_ms: store::walk::mtime_ms(&meta),
        });
    }
    let needle = target.trim().to_ascii_lowercase();
    if needle.is_empty() {
        return Err("an empty session id".into());
    }
    let matches: Vec<&RolloutFile> = files
        .iter()
        .filter(|f| {
            f.path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(session::uuid_from_file_name)
                .is_some_and(|id| id.to_ascii_lowercase().starts_with(&needle))
        })
        .collect();
    match matches.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(format!(
            "no session {target} in {} (archived sessions are searched too)",
            store.home.display()
        )),
        many => Err(format!(
            "{target} matches {} sessions; give more of the id",
            many.len()
        )),
    }
}

pub fn run_show(
    store_args: &StoreArgs,
    args: &ShowArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let store = match resolve_store(store_args) {
        Ok(store) => store,
        Err(msg) if Path::new(&args.target).is_file() => {
            // A rollout path works without a store; fork parents are then not followed.
            let _ = msg;
            Store {
                home: PathBuf::from("/nonexistent-codex-home"),
            }
        }
        Err(msg) => {
            let _ = writeln!(err, "codex-picker: {msg}");
            return EXIT_ERROR;
        }
    };
    let (files, _) = store.files(true);
    let file = match find_target(&store, &args.target, &files) {
        Ok(file) => file,
        Err(msg) => {
            let _ = writeln!(err, "codex-picker: {msg}");
            return EXIT_ERROR;
        }
    };
    let opts = TranscriptOptions {
        tools: args.tools,
        ..TranscriptOptions::default()
    };
    let transcript = match store::read_transcript(&file, &files, &opts) {
        Ok(t) => t,
        Err(issue) => {
            report(err, &[issue]);
            return EXIT_ERROR;
        }
    };
    if transcript.meta.is_none() && transcript.entries.is_empty() {
        let reason = if file.size == 0 {
            "empty file"
        } else {
            "no session metadata and no message"
        };
        report(
            err,
            &[FileIssue {
                path: file.path.clone(),
                reason: reason.into(),
            }],
        );
        return EXIT_ERROR;
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
    let result = if args.json {
        output::write_transcript_json(out, &transcript)
    } else {
        output::write_transcript_text(out, &row, &transcript, args.tools)
    };
    finish(result.and_then(|()| out.flush()), err)
}
