//! `bench`: the scale benchmark. Builds (or reuses) a generated store, measures the floors of
//! the machine (first 128 KB of every file, all bytes once, walking the store and looking at
//! every rollout; 2 threads, page cache warm), then the real indexer, the real release binary
//! and the content index against them, and checks every listed session against the store's
//! `expected.jsonl`.
//!
//! `cargo run --release --example bench -- [--sessions 10000] [--store DIR] [--keep] [--scale F]
//! [--claude N] [--warm] [--relevance]` (`--claude N`: that many Claude Code sessions beside the
//! Codex ones in a store it generates, under `claude/`, which every picker run is pointed at;
//! `--warm`: only the warm-start figures beside the walk-and-stat floor, on a store already
//! generated; `--relevance`: only the content index and the relevance figures)

mod check;
#[path = "../common/mod.rs"]
mod common;
mod content;
mod floor;
mod keystrokes;
mod named_checks;
mod names;
mod one_box;
mod pane;
mod relevance;
mod remembered;
mod rss;
mod screen;
mod sources;
mod warm;
mod whole_word;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codex_picker::search::fulltext::ContentIndex;
use codex_picker::session::SessionRow;
use codex_picker::store::engine;
use codex_picker::store::walk::RolloutFile;
use codex_picker::store::CacheSetup;
use codex_picker::store::Store;
use codex_picker::tui::numbers::thousands;
use codex_picker::workers::indexer::{self, Event, IndexOptions};
use common::gen;

const THREADS: usize = 2;

/// The picker's allocator, so that the timings and the memory probe see what the picker does.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Args {
    sessions: usize,
    store: Option<PathBuf>,
    keep: bool,
    scale: f64,
    seed: u64,
    /// Claude Code sessions in a store the benchmark generates.
    claude: usize,
    warm_only: bool,
    /// Only the relevance figures.
    relevance: bool,
}

fn parse_args() -> Args {
    let mut a = Args {
        sessions: 10_000,
        store: None,
        keep: false,
        scale: 1.0,
        seed: 1,
        claude: 0,
        warm_only: false,
        relevance: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut v = || it.next().expect("a value after the flag");
        match arg.as_str() {
            "--sessions" => a.sessions = v().parse().expect("--sessions N"),
            "--store" => a.store = Some(PathBuf::from(v())),
            "--keep" => a.keep = true,
            "--scale" => a.scale = v().parse().expect("--scale F"),
            "--seed" => a.seed = v().parse().expect("--seed N"),
            "--claude" => a.claude = v().parse().expect("--claude N"),
            "--warm" => a.warm_only = true,
            "--relevance" => a.relevance = true,
            other => panic!("unknown argument {other}"),
        }
    }
    a
}

/// Run `f` on up to `THREADS` threads over `files`.
fn parallel(files: &[RolloutFile], f: impl Fn(&RolloutFile) -> u64 + Sync) -> u64 {
    let next = AtomicUsize::new(0);
    let total = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                let mut sum = 0;
                while let Some(file) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                    sum += f(file);
                }
                total.fetch_add(sum, Ordering::Relaxed);
            });
        }
    });
    total.into_inner()
}

thread_local! {
    /// One read buffer per thread: a fresh zeroed buffer per file would put a memset of its
    /// size into the floor.
    static BUF: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0u8; 256 << 10]);
}

/// Read up to `limit` bytes of a file (the floors): open, read in 256 KB blocks, close.
fn read_prefix(path: &Path, limit: u64) -> u64 {
    let Ok(file) = std::fs::File::open(path) else {
        return 0;
    };
    let mut r = file.take(limit);
    BUF.with(|buf| {
        let mut buf = buf.borrow_mut();
        let mut n = 0;
        while let Ok(k) = r.read(&mut buf) {
            if k == 0 {
                break;
            }
            n += k as u64;
        }
        n
    })
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn time<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let t = Instant::now();
    let v = f();
    (t.elapsed(), v)
}

/// Run the real indexer; returns (time to first Rows, time to Finished, rows).
fn run_indexer(store: &Store, dir: Option<PathBuf>) -> (Duration, Duration, Vec<SessionRow>) {
    let t = Instant::now();
    let rx = indexer::spawn(
        store.clone(),
        IndexOptions {
            threads: THREADS,
            ..IndexOptions::default()
        },
        CacheSetup {
            dir,
            content: false,
        },
    );
    let mut first = None;
    let mut rows: HashMap<PathBuf, SessionRow> = HashMap::new();
    for ev in rx {
        let Event::Run(ev) = ev else { continue };
        match ev {
            engine::Event::Removed(paths) => paths.iter().for_each(|p| drop(rows.remove(p))),
            engine::Event::Finished(_) => break,
            ev => {
                let Some(r) = ev.into_rows() else { continue };
                first.get_or_insert_with(|| t.elapsed());
                rows.extend(
                    r.into_iter()
                        .map(|r| (r.path.clone(), std::sync::Arc::unwrap_or_clone(r))),
                );
            }
        }
    }
    let done = t.elapsed();
    (first.unwrap_or(done), done, rows.into_values().collect())
}

fn run_list(bin: &Path, store: &Path, cache: Option<&Path>, extra: &[&str]) -> (Duration, String) {
    let mut args = vec!["list", "--json", "--archived"];
    args.extend_from_slice(extra);
    run_bin(bin, store, cache, &args)
}

/// The release binary with `args` on the store (both sources), its cache under `cache` (or
/// none): how long it took and what it printed.
fn run_bin(bin: &Path, store: &Path, cache: Option<&Path>, args: &[&str]) -> (Duration, String) {
    let mut cmd = Command::new(bin);
    cmd.args(args).arg("--codex-home").arg(store);
    sources::point(&mut cmd, store);
    match cache {
        Some(dir) => cmd.env("XDG_CACHE_HOME", dir),
        None => cmd.arg("--no-cache"),
    };
    let t = Instant::now();
    let out = cmd.output().expect("run codex-picker");
    let took = t.elapsed();
    assert!(out.status.success(), "{args:?} failed");
    (took, String::from_utf8(out.stdout).expect("utf-8"))
}

struct Table(Vec<[String; 6]>);

impl Table {
    fn row(
        &mut self,
        figure: &str,
        value: Duration,
        floor: Option<Duration>,
        target: &str,
        met: bool,
    ) {
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1e3);
        let (f, r) = match floor {
            Some(f) => (
                ms(f),
                format!("{:.2}x", value.as_secs_f64() / f.as_secs_f64().max(1e-9)),
            ),
            None => ("-".into(), "-".into()),
        };
        self.0.push([
            figure.into(),
            ms(value),
            f,
            r,
            target.into(),
            if met { "yes" } else { "NO" }.into(),
        ]);
    }

    fn print(&self) {
        println!("\n| figure | value | floor | ratio | target | met |\n|---|---|---|---|---|---|");
        for r in &self.0 {
            println!(
                "| {} | {} | {} | {} | {} | {} |",
                r[0], r[1], r[2], r[3], r[4], r[5]
            );
        }
    }
}

/// What every figure uses: the store, its files, the release binary, a scratch folder, the
/// byte floors and what the generator expects of each session.
struct Ctx {
    store: Store,
    files: Vec<RolloutFile>,
    bin: PathBuf,
    scratch: PathBuf,
    /// Reading each file's first 128 KB, and every byte once.
    head_floor: Duration,
    all_floor: Duration,
    expected: Vec<gen::Expected>,
}

impl Ctx {
    fn dir(&self) -> &Path {
        &self.store.home
    }
}

fn main() {
    if let Some(pos) = std::env::args().position(|a| a == "--rss-probe") {
        let dir = std::env::args()
            .nth(pos + 1)
            .expect("--rss-probe DIR CACHE");
        let cache = std::env::args()
            .nth(pos + 2)
            .expect("--rss-probe DIR CACHE");
        rss::probe(Path::new(&dir), Path::new(&cache), THREADS);
        return;
    }
    if let Some(pos) = std::env::args().position(|a| a == "--pane-probe") {
        let arg = |n| {
            std::env::args()
                .nth(pos + n)
                .expect("--pane-probe DIR FILE")
        };
        pane::probe(Path::new(&arg(1)), Path::new(&arg(2)));
        return;
    }
    let args = parse_args();
    let (store_dir, generated) = match &args.store {
        Some(d) => (d.clone(), false),
        None => (
            PathBuf::from(format!("bench-store-{}", args.sessions)),
            true,
        ),
    };
    if args.warm_only {
        warm_only(&store_dir);
        return;
    }
    let ctx = setup(&args, &store_dir);
    if args.relevance {
        relevance_only(&ctx);
        return;
    }
    let mut t = Table(Vec::new());
    let rows = index_figures(&mut t, &ctx);
    let row_count = rows.len();
    let mut bad = Vec::new();
    let list_cache = list_figures(&mut t, &ctx, &mut bad);
    screen_figures(&mut t, &ctx, &list_cache, row_count);
    pane::figures(&mut t, &ctx);
    let content = content::figures(&mut t, &ctx);
    one_box_figures(&mut t, &rows, &content);
    relevance::figures(&content, &ctx.files, &rows, THREADS);
    drop(rows);
    let hwm = rss_figure(&ctx);
    t.print();
    content::print_stats(&content);
    println!("peak RSS of a picker-like process (indexer + content index built from nothing in an empty cache, rows and index held, searches): {:.1} MB (target < 250 MB): {}", hwm as f64 / 1024.0, if hwm < 250 * 1024 { "met" } else { "NOT met" });

    // Correctness at scale.
    bad.dedup();
    bad.extend(content::check(&content, &ctx.expected));
    if row_count != ctx.expected.len() {
        bad.push(format!(
            "indexer gave {row_count} rows for {} sessions",
            ctx.expected.len()
        ));
    }
    for b in bad.iter().take(20) {
        println!("  {b}");
    }
    println!(
        "correctness ({} sessions, list cold/first-cache/warm, indexer, content): {}",
        ctx.expected.len(),
        if bad.is_empty() { "PASS" } else { "FAIL" }
    );
    let _ = std::fs::remove_dir_all(&ctx.scratch);
    if generated && !args.keep {
        let _ = std::fs::remove_dir_all(ctx.dir());
    }
    if !bad.is_empty() {
        std::process::exit(1);
    }
}

/// `--warm`: the warm figures alone (beside their floor) on an existing store, each output
/// checked against the store's expectations.
fn warm_only(store_dir: &Path) {
    let home = store_dir.canonicalize().expect("a generated store");
    let expected = gen::read_expected(&home).expect("expected.jsonl");
    let store = sources::store(home);
    let bin = release_binary();
    let scratch = tempfile_dir();
    let list_cache = scratch.join("list-cache");
    let mut bad = Vec::new();
    let first = run_list(&bin, store.home.as_path(), Some(&list_cache), &[]).1;
    let mut t = Table(Vec::new());
    for json in std::iter::once(first).chain(warm::figures(&mut t, &bin, &store, &list_cache, 7)) {
        bad.extend(check::check_list(&store.home, &json, &expected));
    }
    t.print();
    bad.dedup();
    for b in bad.iter().take(20) {
        println!("  {b}");
    }
    let verdict = if bad.is_empty() { "PASS" } else { "FAIL" };
    println!("correctness (warm list outputs): {verdict}");
    let _ = std::fs::remove_dir_all(&scratch);
    if !bad.is_empty() {
        std::process::exit(1);
    }
}

/// The release binary beside this example (built by `cargo build --release`).
fn release_binary() -> PathBuf {
    let bin = std::env::current_exe()
        .expect("own path")
        .parent()
        .and_then(Path::parent)
        .expect("target folder")
        .join("codex-picker");
    assert!(
        bin.exists(),
        "build the release binary first: cargo build --release"
    );
    bin
}

/// Generate the store when it is not there, find the release binary, warm the page cache and
/// measure the byte floors (median of 3).
fn setup(args: &Args, store_dir: &Path) -> Ctx {
    if !store_dir.join("expected.jsonl").exists() {
        let opts = gen::GenOptions {
            sessions: args.sessions,
            seed: args.seed,
            scale: args.scale,
            threads: THREADS,
            claude: args.claude,
        };
        let (took, bytes) = time(|| gen::generate(store_dir, &opts).expect("generate the store"));
        println!(
            "generated {} sessions, {:.2} GB in {:.1} s",
            args.sessions,
            bytes as f64 / 1e9,
            took.as_secs_f64()
        );
    }
    let store_dir = store_dir.canonicalize().expect("store folder");
    let expected = gen::read_expected(&store_dir).expect("expected.jsonl");
    let store = sources::store(store_dir);
    let (files, _) = store.files(true);
    let total_bytes: u64 = files.iter().map(|f| f.size).sum();
    println!(
        "store {}: {} files, {:.2} GB",
        store.home.display(),
        files.len(),
        total_bytes as f64 / 1e9
    );
    let bin = release_binary();
    parallel(&files, |f| read_prefix(&f.path, u64::MAX));
    let floor = |limit: u64| {
        median(
            (0..3)
                .map(|_| time(|| parallel(&files, |f| read_prefix(&f.path, limit))).0)
                .collect(),
        )
    };
    let (head_floor, all_floor) = if args.relevance {
        (Duration::ZERO, Duration::ZERO)
    } else {
        (floor(128 << 10), floor(u64::MAX))
    };
    Ctx {
        store,
        files,
        bin,
        scratch: tempfile_dir(),
        head_floor,
        all_floor,
        expected,
    }
}

/// The indexer in this process: cold (no cache) with the search figures over its rows, then
/// warm (a cache written by one run, nothing changed since). Returns the rows.
fn index_figures(t: &mut Table, ctx: &Ctx) -> Vec<SessionRow> {
    let runs: Vec<_> = (0..3).map(|_| run_indexer(&ctx.store, None)).collect();
    let cold_first = median(runs.iter().map(|r| r.0).collect());
    let cold_index = median(runs.iter().map(|r| r.1).collect());
    let rows = runs.into_iter().next().map(|r| r.2).unwrap_or_default();
    let (prepare, keys) = keystrokes::latencies(&rows);
    let row_count = rows.len();
    t.row(
        "cold preview index (indexer, no cache)",
        cold_index,
        Some(ctx.head_floor),
        "<= 2x 128 KB floor",
        cold_index <= ctx.head_floor * 2,
    );
    t.row(
        "time to first Rows, cold",
        cold_first,
        None,
        "< 100 ms",
        cold_first < Duration::from_millis(100),
    );
    let (key_p50, key_p99) = (keys.p50(), keys.p99());
    let label = format!(
        "search p50 per keystroke, {row_count} rows ({} keystrokes)",
        keys.len()
    );
    t.row(&label, key_p50, None, "-", true);
    let fast = key_p99 < Duration::from_millis(16);
    t.row("search p99 per keystroke", key_p99, None, "< 16 ms", fast);
    let label = "search haystacks for every row (once)";
    t.row(label, prepare, None, "-", true);
    let idx_cache = ctx.scratch.join("index-cache");
    run_indexer(&ctx.store, Some(idx_cache.clone()));
    let warm: Vec<_> = (0..5)
        .map(|_| run_indexer(&ctx.store, Some(idx_cache.clone())))
        .collect();
    let warm_first = median(warm.iter().map(|r| r.0).collect());
    let warm_done = median(warm.iter().map(|r| r.1).collect());
    t.row(
        "time to first Rows, warm (cache)",
        warm_first,
        None,
        "< 100 ms",
        warm_first < Duration::from_millis(100),
    );
    let label = "warm indexer refresh to Finished";
    t.row(label, warm_done, None, "-", true);
    rows
}

/// The release binary's `list --json`: cold (exact counts, no cache), with an empty cache, then
/// warm (see `warm`). Outputs are checked at once and dropped, so they do not count in this
/// process's RSS; problems go to `bad`. Returns the cache folder the lists wrote.
fn list_figures(t: &mut Table, ctx: &Ctx, bad: &mut Vec<String>) -> PathBuf {
    let mut check = |(took, json): (Duration, String)| {
        bad.extend(check::check_list(ctx.dir(), &json, &ctx.expected));
        took
    };
    let cold_lists: Vec<_> = (0..2)
        .map(|_| check(run_list(&ctx.bin, ctx.dir(), None, &[])))
        .collect();
    let cold_list = median(cold_lists);
    t.row(
        "cold list --json (release binary, --no-cache)",
        cold_list,
        Some(ctx.all_floor),
        "<= 2x all-bytes floor",
        cold_list <= ctx.all_floor * 2,
    );
    let list_cache = ctx.scratch.join("list-cache");
    let first_cached = check(run_list(&ctx.bin, ctx.dir(), Some(&list_cache), &[]));
    t.row(
        "first list --json with an empty cache",
        first_cached,
        Some(ctx.all_floor),
        "-",
        true,
    );
    for json in warm::figures(t, &ctx.bin, &ctx.store, &list_cache, 7) {
        check((Duration::ZERO, json));
    }
    list_cache
}

/// The picker itself in tmux: launch to the first row on screen, cold and warm (the rows cache
/// the list runs wrote in `list_cache`), and, cold, to the status line counting every session.
fn screen_figures(t: &mut Table, ctx: &Ctx, list_cache: &Path, row_count: usize) {
    let every_row = format!(" of {} sessions", thousands(row_count as u64));
    for (label, cache, until, target) in [
        (
            "first rows on screen (tmux), cold, --no-cache",
            None,
            screen::Until::FirstRow,
            Some(100),
        ),
        (
            "first rows on screen (tmux), warm",
            Some(list_cache),
            screen::Until::FirstRow,
            Some(100),
        ),
        (
            "every row in the picker (tmux), cold, --no-cache",
            None,
            screen::Until::Text(&every_row),
            None,
        ),
    ] {
        // `--all`: the status line then has room for its count of every session beside the
        // content progress (started outside any session's folder, it first says so at length).
        let args = if target.is_none() { "--all" } else { "" };
        let Some(times) = screen::shown(&ctx.bin, ctx.dir(), cache, &ctx.scratch, 7, until, args)
        else {
            println!("picker ({label}): skipped (no tmux, or not shown within 10 s)");
            continue;
        };
        let shown = median(times);
        let label = format!("picker launch -> {label}");
        match target {
            Some(ms) => t.row(
                &label,
                shown,
                None,
                &format!("< {ms} ms"),
                shown < Duration::from_millis(ms),
            ),
            // The target of the cold preview, taken literally: it also holds the process
            // start and the picker's own drawing and matching.
            None => t.row(
                &label,
                shown,
                Some(ctx.head_floor),
                "<= 2x 128 KB floor",
                shown <= ctx.head_floor * 2,
            ),
        }
    }
}

/// The one box per keystroke, titles and conversations (the search thread's whole answer).
fn one_box_figures(t: &mut Table, rows: &[SessionRow], content: &ContentIndex) {
    let keys = keystrokes::one_box_latencies(rows, content);
    println!("slowest one-box keystrokes: {}", keys.slowest(4));
    let (p50, p99) = (keys.p50(), keys.p99());
    let label = format!(
        "one box p50 per keystroke, titles + conversations ({} keystrokes)",
        keys.len()
    );
    t.row(&label, p50, None, "-", true);
    let (target, limit) = if rows.len() > 15_000 {
        ("< 50 ms", 50)
    } else {
        ("< 30 ms", 30)
    };
    let met = p99 < Duration::from_millis(limit);
    t.row("one box p99 per keystroke", p99, None, target, met);
}

/// `--relevance`: the rows and the content index (built in a scratch folder, timed), then the
/// relevance figures alone.
fn relevance_only(ctx: &Ctx) {
    let (_, took, rows) = run_indexer(&ctx.store, None);
    println!("{} rows in {:.1} s", rows.len(), took.as_secs_f64());
    let mut t = Table(Vec::new());
    let content = content::figures(&mut t, ctx);
    one_box_figures(&mut t, &rows, &content);
    t.print();
    content::print_stats(&content);
    relevance::figures(&content, &ctx.files, &rows, THREADS);
    let _ = std::fs::remove_dir_all(&ctx.scratch);
}

/// The peak resident set (KB) of a picker-like process, run apart (see `rss`).
fn rss_figure(ctx: &Ctx) -> u64 {
    // As the picker runs by default: its cache on, empty (so the content index is built).
    let cache = ctx.scratch.join("rss-cache");
    let _ = std::fs::remove_dir_all(&cache);
    let probe = Command::new(std::env::current_exe().expect("own path"))
        .arg("--rss-probe")
        .arg(ctx.dir())
        .arg(&cache)
        .output()
        .expect("run the RSS probe");
    String::from_utf8_lossy(&probe.stdout)
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX)
}

fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codex-picker-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}
