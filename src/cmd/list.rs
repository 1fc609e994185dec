//! `codex-picker list`: every session as a table or JSON lines, or with `--content` the sessions
//! whose conversation holds the query, best first.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::list_memo::{self, Fingerprint, Memo};
use super::EXIT_ERROR;
use super::{finish, normalise_dir, output, report, report_rows, say, terminal_columns};
use crate::cli::{ListArgs, StoreArgs};
use crate::fulltext::{cached, ContentHit, ContentIndex};
use crate::rollout::summary::Until;
use crate::session::{self, SessionRow};
use crate::store::{self, cache, FileIssue, ListOptions, Store};
use crate::workers::indexer::CacheSetup;

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
    let whole_json = args.json && args.cwd.is_none() && args.content.is_none();
    if let (true, false, Some(rows_file), Some(memo_file)) = (
        whole_json,
        store_args.verbose,
        cache_file(&store, store_args, "rows"),
        cache_file(&store, store_args, "list"),
    ) {
        let files = CacheFiles {
            rows: &rows_file,
            memo: &memo_file,
        };
        return list_remembered(&store, opts, files, args.limit, out, err);
    }
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
        let split = crate::query_filter::split(query, crate::timefmt::now_ms());
        if let Some(e) = &split.error {
            say(err, e);
            return EXIT_ERROR;
        }
        let index = content_index(&store, store_args, &rows, err);
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

/// The two cache files of a remembered listing.
struct CacheFiles<'a> {
    rows: &'a Path,
    memo: &'a Path,
}

/// `list --json` of every session, through the output remembered by an earlier run when the
/// walk finds the store as it was then (see `list_memo`), else through the rows cache. The
/// output is remembered when the rows cache had nothing to change: the store held still.
fn list_remembered(
    store: &Store,
    opts: ListOptions,
    files: CacheFiles,
    limit: Option<usize>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    // The memo is read while the store is walked; the rows cache too when there is no memo.
    let (walked, (memo, loaded)) = store::walk_beside(store, opts.archived, || {
        let memo = Memo::load(files.memo);
        let loaded = memo
            .is_none()
            .then(|| store::load_cached(store, files.rows));
        (memo, loaded)
    });
    let fingerprint = Fingerprint::of(store, opts.archived, &walked.0, &walked.1);
    if let Some(memo) = memo.filter(|m| m.made_from(&fingerprint)) {
        let _ = err.write_all(memo.stderr());
        let text = match limit {
            Some(n) => list_memo::first_lines(memo.stdout(), n),
            None => memo.stdout(),
        };
        let result = out.write_all(text).and_then(|()| out.flush());
        store::drop_later(memo);
        return finish(result, err);
    }
    let loaded = loaded.unwrap_or_else(|| store::load_cached(store, files.rows));
    let (mut rows, issues, cached) = store::list_walked(store, opts, files.rows, walked, loaded);
    let mut stderr = Vec::new();
    report(&mut stderr, &issues);
    let _ = err.write_all(&stderr);
    let remember = !cached.changed && limit.is_none();
    rows.truncate(limit.unwrap_or(usize::MAX));
    let mut tee = Tee {
        out,
        kept: remember.then(Vec::new),
    };
    let result = output::write_json_rows(&mut tee, &rows).and_then(|()| tee.flush());
    store::drop_later(rows);
    if let (Ok(()), Some(text)) = (&result, &tee.kept) {
        // Best effort: the listing is right either way.
        let _ = list_memo::save(files.memo, &fingerprint, &stderr, text);
    }
    finish(result, err)
}

/// Output written on, and kept when asked.
struct Tee<'a> {
    out: &'a mut dyn Write,
    kept: Option<Vec<u8>>,
}

impl Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        if let Some(kept) = &mut self.kept {
            kept.extend_from_slice(&buf[..n]);
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Sessions `list --content` prints unless `--limit` says otherwise (at most
/// `fulltext::MAX_RESULTS`).
const CONTENT_RESULTS: usize = 100;

/// The cache file of `kind` for a store, unless caching is off (`--no-cache`, or the cache
/// folder would be inside the Codex home).
fn cache_file(store: &Store, store_args: &StoreArgs, kind: &str) -> Option<PathBuf> {
    let dir = CacheSetup::from_args(store_args).dir;
    cache::located(dir.as_deref(), &store.home, kind)
}

/// Every row of the store, through the cache when it is on.
fn list_rows(
    store: &Store,
    store_args: &StoreArgs,
    opts: ListOptions,
    err: &mut dyn Write,
) -> (Vec<SessionRow>, Vec<FileIssue>) {
    let Some(file) = cache_file(store, store_args, "rows") else {
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

/// The content index of `rows`, kept in the cache folder when caching is on: unchanged
/// sessions are kept as indexed, the others read.
fn content_index(
    store: &Store,
    store_args: &StoreArgs,
    rows: &[SessionRow],
    err: &mut dyn Write,
) -> ContentIndex {
    let (files, _) = store.files(true);
    let ids: HashMap<PathBuf, String> = rows
        .iter()
        .map(|r| (r.path.clone(), r.id.clone()))
        .collect();
    let cache = cache_file(store, store_args, "content");
    let threads = store::default_threads();
    let built = cached::refresh(cache.as_deref(), &ids, &files, threads, &mut |_, _, _| true);
    let Some((index, stats)) = built else {
        return ContentIndex::default();
    };
    if store_args.verbose {
        let dir = cache.as_deref().map(cached::index_dir);
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
    index
}

fn write_content_hit(
    out: &mut dyn Write,
    row: &SessionRow,
    hit: &ContentHit,
    json: bool,
) -> io::Result<()> {
    if json {
        let row = output::row_json(row);
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
