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

/// Keystrokes' latencies, each with the text typed so far, slowest last: the per-keystroke
/// figures of the title search, the content search and the one box.
pub struct Typed(Vec<(Duration, String)>);

impl Typed {
    pub fn new(mut samples: Vec<(Duration, String)>) -> Typed {
        samples.sort();
        Typed(samples)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn p50(&self) -> Duration {
        self.0[self.0.len() / 2].0
    }

    pub fn p99(&self) -> Duration {
        self.0[(self.0.len() * 99 / 100).min(self.0.len() - 1)].0
    }

    /// The `n` slowest keystrokes, slowest first, as `"text typed" 12.3 ms`.
    pub fn slowest(&self, n: usize) -> String {
        let worst: Vec<String> = (self.0.iter().rev().take(n))
            .map(|(d, q)| format!("{q:?} {:.1} ms", d.as_secs_f64() * 1e3))
            .collect();
        worst.join(", ")
    }
}

/// Every keystroke's latency in the title search, and the time to prepare the haystacks.
pub fn latencies(rows: &[SessionRow]) -> (Duration, Typed) {
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
                out.push((t.elapsed(), typed.to_owned()));
                std::hint::black_box(ranked);
            }
        }
    }
    (prepare, Typed::new(out))
}

/// Every keystroke's latency in the one box once the content index is here: the search
/// thread's whole answer (titles and conversations side by side, words first).
pub fn one_box_latencies(rows: &[SessionRow], content: &ContentIndex) -> Typed {
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
    Typed::new(out)
}

/// Words of the generated conversations: three of the queries the content figures type.
const CONTENT_QUERIES: &[&str] = &[
    "retry with backoff",
    "kubernetes deploy pipeline",
    "the culprit was",
];
