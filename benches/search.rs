//! Per-keystroke search latency over 10,000 synthetic rows: queries typed one character at a
//! time, full rescoring and incremental narrowing, p50/p99; plus highlights for one page.
//! Run: `cargo bench --bench search`.

use std::time::{Duration, Instant};

use codex_picker::rollout::record::Meta;
use codex_picker::search::title::{self, Haystack, Recency, Searcher};
use codex_picker::session::SessionRow;

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "fix",
    "the",
    "checkout",
    "rounding",
    "bug",
    "in",
    "cart",
    "total",
    "add",
    "tests",
    "refactor",
    "lexer",
    "parser",
    "migrate",
    "database",
    "schema",
    "release",
    "notes",
    "dashboard",
    "dark",
    "mode",
    "toggle",
    "why",
    "does",
    "nightly",
    "job",
    "run",
    "out",
    "of",
    "memory",
    "terraform",
    "module",
    "s3",
    "bucket",
    "upgrade",
    "python",
    "pagination",
    "orders",
    "page",
    "api",
    "rate",
    "limiting",
    "翻訳",
    "ファイル",
    "キー",
    "🚀",
    "émoji",
    "naïve",
    "café",
    "Kubernetes",
    "deploy",
];
const PROJECTS: &[&str] = &[
    "webshop",
    "api-server",
    "dashboard",
    "parser",
    "infra",
    "ml-pipeline",
    "legacy-app",
    "i18n",
];
const BRANCHES: &[&str] = &[
    "main",
    "master",
    "fix/checkout-rounding",
    "release/2.4",
    "feat/parquet",
];

fn rows(n: usize) -> Vec<SessionRow> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    (0..n)
        .map(|i| {
            let target = 20 + (rng.next() % 280) as usize;
            let mut preview = String::new();
            while preview.chars().count() < target {
                if !preview.is_empty() {
                    preview.push(' ');
                }
                preview.push_str(rng.pick(WORDS));
            }
            SessionRow {
                id: format!(
                    "019a{:04x}-{:04x}-7a41-9c3b-{:012x}",
                    i % 65536,
                    rng.next() % 65536,
                    rng.next() % (1 << 48)
                ),
                name: (i % 7 == 0).then(|| format!("{} {}", rng.pick(WORDS), rng.pick(WORDS))),
                preview,
                meta: Meta {
                    cwd: Some(format!("/home/dev/work/{}", rng.pick(PROJECTS))),
                    git_branch: Some(rng.pick(BRANCHES).to_owned()),
                    ..Meta::default()
                },
                updated_ms: 1_700_000_000_000 + i as i64 * 1000,
                ..SessionRow::default()
            }
        })
        .collect()
}

fn pct(mut v: Vec<Duration>, p: f64) -> f64 {
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i].as_secs_f64() * 1000.0
}

fn main() {
    let rows = rows(10_000);
    let t = Instant::now();
    let hays: Vec<Haystack> = rows.iter().map(Haystack::new).collect();
    println!(
        "prepare 10,000 haystacks: {:.1} ms",
        t.elapsed().as_secs_f64() * 1000.0
    );
    let queries = [
        "checkout rounding",
        "release notes",
        "terraform s3",
        "dark mode",
        "webshop fix",
        "翻訳",
        "'memory !python",
        "^fix | lexer$",
        "019a00",
        "the",
    ];
    let mut full = Vec::new();
    let mut incremental = Vec::new();
    let mut slowest: Vec<(Duration, String)> = Vec::new();
    for _ in 0..3 {
        for q in queries {
            let mut searcher = Searcher::default();
            for (end, c) in q.char_indices() {
                let prefix = &q[..end + c.len_utf8()];
                let t = Instant::now();
                let ranked = title::rank(&hays, &title::parse(prefix), None, Recency::Updated);
                full.push(t.elapsed());
                std::hint::black_box(ranked);
                let t = Instant::now();
                let ranked = searcher.search(&hays, prefix, Recency::Updated);
                incremental.push(t.elapsed());
                slowest.push((t.elapsed(), prefix.to_owned()));
                std::hint::black_box(ranked);
            }
        }
    }
    println!(
        "per keystroke, full rescore:  p50 {:.2} ms  p99 {:.2} ms  ({} keystrokes)",
        pct(full.clone(), 0.5),
        pct(full.clone(), 0.99),
        full.len()
    );
    println!(
        "per keystroke, incremental:   p50 {:.2} ms  p99 {:.2} ms",
        pct(incremental.clone(), 0.5),
        pct(incremental, 0.99)
    );
    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
    let worst: Vec<String> = slowest
        .iter()
        .take(5)
        .map(|(d, q)| format!("{q:?} {:.1} ms", d.as_secs_f64() * 1000.0))
        .collect();
    println!("slowest keystrokes (incremental): {}", worst.join(", "));
    let query = title::parse("checkout rounding");
    let ranked = title::rank(&hays, &query, None, Recency::Updated);
    let mut page = Vec::new();
    for _ in 0..50 {
        let t = Instant::now();
        for &i in ranked.iter().take(40) {
            std::hint::black_box(title::highlights(&hays[i], &query));
        }
        page.push(t.elapsed());
    }
    println!(
        "highlights for one page (40 rows): p50 {:.2} ms  p99 {:.2} ms",
        pct(page.clone(), 0.5),
        pct(page, 0.99)
    );
}
