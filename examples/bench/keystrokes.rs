//! Fuzzy search latency per keystroke over the store's own rows: queries typed one character at
//! a time through the same incremental `Searcher` the picker's search worker uses.

use std::time::{Duration, Instant};

use codex_picker::search::title::{Haystack, Recency, Searcher};
use codex_picker::session::SessionRow;

/// Queries a user might type into the generated store: words of its prompts, a folder, a name,
/// an id prefix, and the extended syntax.
const QUERIES: &[&str] = &[
    "refactor cache",
    "failing test parser",
    "retry backoff",
    "terminal flickers",
    "proj12",
    "named session 42",
    "migration index",
    "'search !case",
    "^fix | module$",
    "the",
];

/// Every keystroke's latency (ms), in typing order.
pub fn latencies(rows: &[SessionRow]) -> (Duration, Vec<Duration>) {
    let t = Instant::now();
    let hays: Vec<Haystack> = rows.iter().map(Haystack::new).collect();
    let prepare = t.elapsed();
    let mut out = Vec::new();
    for _ in 0..3 {
        for q in QUERIES {
            let mut searcher = Searcher::default();
            for (end, c) in q.char_indices() {
                let typed = &q[..end + c.len_utf8()];
                let t = Instant::now();
                let ranked = searcher.search(&hays, typed, Recency::Updated);
                out.push(t.elapsed());
                std::hint::black_box(ranked);
            }
        }
    }
    (prepare, out)
}
