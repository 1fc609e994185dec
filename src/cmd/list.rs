//! `codex-picker list`: every session as a table or JSON lines, or with `--content` the sessions
//! whose conversation holds the query, best first.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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
