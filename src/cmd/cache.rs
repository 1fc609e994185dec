//! `codex-picker cache clear` and `cache path`: the cache folder, seen from the command line.

use std::io::Write;

use super::report::finish;
use super::EXIT_ERROR;
use crate::cli::{CacheAction, CacheArgs, StoreArgs};
use crate::store;

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
        CacheAction::Path => match store_args.resolve() {
            Ok(store) => {
                let rows = store::cache::cache_file(&dir, &store.cache_home(), "rows");
                let content = store::cache::cache_file(&dir, &store.cache_home(), "content");
                let index = crate::search::fulltext::cached::index_dir(&content);
                writeln!(out, "{}\n{}", rows.display(), index.display())
            }
            Err(msg) => {
                let _ = writeln!(err, "codex-picker: {msg}");
                return EXIT_ERROR;
            }
        },
    };
    finish(result.and_then(|()| out.flush()), err)
}
