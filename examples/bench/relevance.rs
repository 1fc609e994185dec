//! Known-item relevance: queries of four consecutive words taken from one session's first
//! prompt, a later prompt or a reply, as a user who remembers them would type them, and where
//! the sessions that hold those words together land in the results.
//!
//! A query's relevant sessions are those whose messages hold its four words together and in
//! order (the index's quoted-phrase search, exact by construction); words that more than three
//! sessions hold are not a known item, and another window is tried. Reports MRR@10, hits@1 and
//! hits@10 of content search by kind, and for first-prompt queries how often the default
//! (title) search puts the session on the first row.

use std::collections::HashSet;

use codex_picker::fulltext::ContentIndex;
use codex_picker::rollout::record::Role;
use codex_picker::rollout::transcript::{Entry, Parse, TranscriptOptions};
use codex_picker::search::{Haystack, Recency, Searcher};
use codex_picker::session::SessionRow;
use codex_picker::store::walk::RolloutFile;

use super::common::gen::Rng;

/// Sessions sampled (one query of each kind from each, when it has one).
const SESSIONS: usize = 120;
const KINDS: [&str; 3] = ["first prompt", "later prompt", "reply"];

#[derive(Default)]
struct Score {
    queries: usize,
    rr: f64,
    at1: usize,
    at10: usize,
}

impl Score {
    fn add(&mut self, rank: Option<usize>) {
        self.queries += 1;
        if let Some(r) = rank {
            self.rr += 1.0 / r as f64;
            self.at1 += usize::from(r == 1);
            self.at10 += usize::from(r <= 10);
        }
    }

    fn mrr(&self) -> f64 {
        self.rr / self.queries.max(1) as f64
    }

    fn share(&self, n: usize) -> f64 {
        n as f64 / self.queries.max(1) as f64
    }
}

/// The messages of `file` by kind (0 first prompt, 1 later prompts, 2 replies).
fn messages(file: &RolloutFile, files: &[RolloutFile]) -> [Vec<String>; 3] {
    let opts = TranscriptOptions {
        max_message_bytes: None,
        tools: false,
        max_tool_output_bytes: None,
        pair_outputs: false,
        ordinal_below: None,
    };
    let mut out: [Vec<String>; 3] = Default::default();
    let Ok(t) =
        codex_picker::store::fork::read_transcript(file, &mut { files }, &opts, Parse::Lean)
    else {
        return out;
    };
    for e in t.entries {
        if let Entry::Message { role, text, .. } = e {
            let kind = match role {
                Role::User if out[0].is_empty() => 0,
                Role::User => 1,
                _ => 2,
            };
            out[kind].push(text);
        }
    }
    out
}

/// Words as the index splits them (letters and digits), as written.
fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// A query of four consecutive words of one of `texts` that at most three sessions hold
/// together, with those sessions' ids; `None` after a few tries.
fn known_item(
    content: &ContentIndex,
    texts: &[String],
    rng: &mut Rng,
) -> Option<(String, HashSet<String>)> {
    for _ in 0..8 {
        let text = &texts[rng.below(texts.len() as u64) as usize];
        let w = words(text);
        if w.len() < 4 {
            continue;
        }
        let at = rng.below((w.len() - 3) as u64) as usize;
        let query = w[at..at + 4].join(" ");
        let holders = content.search(&format!("\"{query}\""), 4);
        if (1..=3).contains(&holders.len()) {
            return Some((query, holders.into_iter().map(|h| h.id).collect()));
        }
    }
    None
}

/// The relevance figures, printed as a table.
pub fn figures(content: &ContentIndex, files: &[RolloutFile], rows: &[SessionRow]) {
    let mut rng = Rng::new(7);
    let mut scores: [Score; 3] = Default::default();
    let mut title = Score::default();
    let hays: Vec<Haystack> = rows.iter().map(Haystack::new).collect();
    let step = (rows.len() / SESSIONS).max(1);
    // The same sample from run to run: rows arrive in the order the reading threads finish.
    let mut sample: Vec<&SessionRow> = rows.iter().collect();
    sample.sort_by(|a, b| a.path.cmp(&b.path));
    for row in sample.into_iter().step_by(step) {
        let Some(file) = files.iter().find(|f| f.path == row.path) else {
            continue;
        };
        let by_kind = messages(file, files);
        for (kind, texts) in by_kind.iter().enumerate() {
            if texts.is_empty() {
                continue;
            }
            let Some((query, relevant)) = known_item(content, texts, &mut rng) else {
                continue;
            };
            let hits = content.search(&query, 10);
            let rank = hits.iter().position(|h| relevant.contains(&h.id));
            scores[kind].add(rank.map(|r| r + 1));
            if kind == 0 {
                let ranked = Searcher::default().search(&hays, &query, Recency::Updated);
                let top = ranked.first().map(|&i| &rows[i].id);
                title.add(top.filter(|id| relevant.contains(*id)).map(|_| 1));
            }
        }
    }
    println!("\n| known-item queries (4 consecutive words) | queries | MRR@10 | hits@1 | hits@10 |\n|---|---|---|---|---|");
    for (kind, s) in KINDS.iter().zip(&scores) {
        println!(
            "| content search, {kind} | {} | {:.3} | {:.3} | {:.3} |",
            s.queries,
            s.mrr(),
            s.share(s.at1),
            s.share(s.at10)
        );
    }
    println!(
        "| title search (default mode), first prompt: session on the first row | {} | - | {:.3} | - |",
        title.queries,
        title.share(title.at1)
    );
}
