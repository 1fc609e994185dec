//! Search latency per keystroke over the store's own rows: queries typed one character at a
//! time through the same incremental `Searcher` the picker's search worker uses, the titles
//! alone and the one box (titles and conversations, as the search thread answers).

use std::time::{Duration, Instant};

use codex_picker::search::fulltext::ContentIndex;
use codex_picker::search::title::{Haystack, Recency, Searcher};
use codex_picker::session::SessionRow;
use codex_picker::workers::search::answer;

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

/// Every keystroke's latency (ms) in the one box once the content index is here: the search
/// thread's whole answer (titles and conversations side by side, words first).
pub fn one_box_latencies(rows: &[SessionRow], content: &ContentIndex) -> Vec<(Duration, String)> {
    let hays: Vec<Haystack> = rows.iter().map(Haystack::new).collect();
    let mut out = Vec::new();
    for q in QUERIES.iter().chain(CONTENT_QUERIES) {
        let mut searcher = Searcher::default();
        for (end, c) in q.char_indices() {
            let typed = &q[..end + c.len_utf8()];
            let t = Instant::now();
            let answer = answer(&mut searcher, &hays, Some(content), typed, Recency::Updated);
            out.push((t.elapsed(), typed.to_owned()));
            std::hint::black_box(answer);
        }
    }
    out
}

/// Words of the generated conversations, as the content figures type them.
const CONTENT_QUERIES: &[&str] = &[
    "retry with backoff",
    "kubernetes deploy pipeline",
    "the culprit was",
];
