//! The warm-start figures, each measured in the same rounds as the floor it is compared with:
//! the walk-and-stat floor (`floor.rs`), the program's own walk (`Store::files`), the release
//! binary's `list --json` (and `usage --json`, against it) with the rows cache warm, with
//! nothing changed and with one session
//! touched (its modification time set to now, so it is read again) since the last run, and
//! loading that rows cache (whole, and its first section alone, which is all the picker waits
//! for before its first rows).

use std::path::Path;

use codex_picker::store::cache::{self, RowCache};
use codex_picker::store::Store;

use super::{floor, median, run_bin, run_list, time, Table, THREADS};

/// Alternated rounds of the floor, the program's walk and a warm `list --json` (nothing
/// changed, one session touched), so that a drift in the machine's speed moves them alike;
/// `cache` is the `XDG_CACHE_HOME` of the list runs (already written). Adds the figures to `t`;
/// returns the last output of each warm `list` for the caller to check.
pub fn figures(
    t: &mut Table,
    bin: &Path,
    store: &Store,
    cache: &Path,
    rounds: usize,
) -> [String; 2] {
    let mut last = [String::new(), String::new()];
    let (mut floors, mut walks, mut lists, mut rows) = (vec![], vec![], vec![], vec![]);
    let mut usages = vec![];
    // The newest plain session: the one codex would be writing.
    let touched = store
        .files(false)
        .0
        .into_iter()
        .filter(|f| !f.compressed)
        .max_by_key(|f| f.mtime_ms)
        .expect("a plain session")
        .path;
    let pool = codex_picker::store::engine::pool(THREADS, false).expect("threads");
    let claude = super::sources::claude_home(&store.home);
    for _ in 0..rounds {
        floors.push(time(|| floor::walk_and_stat(&store.home, &claude, THREADS)).0);
        walks.push(time(|| pool.install(|| store.files(true))).0);
        let still = run_list(bin, &store.home, Some(cache), &[]);
        usages.push(run_bin(bin, &store.home, Some(cache), &["usage", "--json"]).0);
        touch(&touched);
        let one = run_list(bin, &store.home, Some(cache), &[]);
        lists.push(still.0);
        rows.push(one.0);
        last = [still.1, one.1];
    }
    let (floor, walk, list) = (median(floors), median(walks), median(lists));
    t.row(
        &format!(
            "walk-and-stat floor (every folder listed, every session file stat'ed, {THREADS} threads)"
        ),
        floor,
        None,
        "-",
        true,
    );
    t.row(
        "the program's walk (Store::files)",
        walk,
        Some(floor),
        "-",
        true,
    );
    t.row(
        "warm list --json (cache, nothing changed)",
        list,
        Some(floor),
        "<= 2x walk-and-stat floor",
        list <= floor * 2,
    );
    let usage = median(usages);
    t.row(
        "warm usage --json (tokens by day, every session of both sources)",
        usage,
        Some(list),
        "<= 2x warm list --json",
        usage <= list * 2,
    );
    let one = median(rows);
    t.row(
        "warm list --json, one session touched since the last run",
        one,
        Some(floor),
        "<= 2x walk-and-stat floor",
        one <= floor * 2,
    );
    cache_figures(t, store, cache, rounds);
    last
}

/// Loading the rows cache the list runs wrote under `cache`: whole, and its first section.
fn cache_figures(t: &mut Table, store: &Store, cache: &Path, rounds: usize) {
    let file = cache::cache_file(&cache.join("codex-picker"), &store.cache_home(), "rows");
    let load = median(
        (0..rounds)
            .map(|_| time(|| RowCache::load(&file, &store.home)).0)
            .collect(),
    );
    let head = median(
        (0..rounds)
            .map(|_| time(|| RowCache::head(&file, &store.home)).0)
            .collect(),
    );
    let size = std::fs::metadata(&file).map_or(0, |m| m.len());
    t.row(
        &format!("rows cache load, whole ({:.1} MB)", size as f64 / 1e6),
        load,
        None,
        "-",
        true,
    );
    t.row(
        &format!(
            "rows cache first section ({} newest rows)",
            cache::HEAD_ROWS
        ),
        head,
        None,
        "-",
        true,
    );
}

/// Set a file's modification time to now (its bytes stay as they are).
fn touch(path: &Path) {
    let file = std::fs::File::options().write(true).open(path);
    if let Ok(file) = file {
        let _ = file.set_modified(std::time::SystemTime::now());
    }
}
