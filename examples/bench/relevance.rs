//! Known-item relevance: queries of four consecutive words taken from one session's first
//! prompt, a later prompt or a reply, as a user who remembers them would type them, and where
//! the sessions that hold those words together land in the results.
//!
//! A query's relevant sessions are those whose messages hold its four words together and in
//! order (the index's quoted-phrase search, exact by construction); words that more than three
//! sessions hold are not a known item, and another window is tried. Reports MRR@10, hits@1 and
//! hits@10 by kind, for `list --content` and for the picker's one box (`one_box`), beside the
//! kinds of remembered words (`remembered`). `BENCH_MISSES=1` prints the misses,
//! `BENCH_QUERIES=1` every remembered-words query, and `BENCH_QUERY_SEED=N` draws another
//! sample of queries of every kind (held out from the one tuned against).

use std::collections::HashSet;
use std::time::Instant;

use codex_picker::rollout::record::Role;
use codex_picker::rollout::transcript::{Entry, Parse, TranscriptOptions};
use codex_picker::search::filter;
use codex_picker::search::fulltext::ContentIndex;
use codex_picker::session::SessionRow;
use codex_picker::store::walk::RolloutFile;

use super::common::gen::Rng;
use super::named_checks;
use super::names;
use super::one_box::Picker;
use super::remembered;
use super::whole_word;

/// The seed of one kind's query sample: `base`, moved by `BENCH_QUERY_SEED` when set.
pub fn query_seed(base: u64) -> u64 {
    let moved: u64 = std::env::var("BENCH_QUERY_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    base.wrapping_add(moved.wrapping_mul(1_000_003))
}

/// Sessions sampled (one query of each kind from each, when it has one).
const SESSIONS: usize = 120;
const KINDS: [&str; 3] = ["the first prompt", "a later prompt", "a reply"];

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
pub fn messages(file: &RolloutFile, files: &[RolloutFile]) -> [Vec<String>; 3] {
    let opts = TranscriptOptions::messages_only();
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

/// Where the first relevant session is among the first ten results (1-based).
fn rank_of(ids: &[String], relevant: &HashSet<String>) -> Option<usize> {
    ids.iter()
        .take(10)
        .position(|id| relevant.contains(id))
        .map(|r| r + 1)
}

/// The first ten sessions `list --content QUERY` prints (its filters taken out of the query
/// as the command takes them).
pub fn listed(content: &ContentIndex, query: &str) -> Vec<String> {
    let split = filter::split(query, codex_picker::timefmt::now_ms());
    content
        .search(&split.words, 10)
        .into_iter()
        .map(|h| h.id)
        .collect()
}

/// One kind's figures in both modes.
#[derive(Default)]
struct Both {
    list: Score,
    one_box: Score,
}

impl Both {
    fn add(
        &mut self,
        content: &ContentIndex,
        picker: &mut Picker,
        q: &str,
        relevant: &HashSet<String>,
    ) {
        let listed = rank_of(&listed(content, q), relevant);
        if listed.is_none() && std::env::var_os("BENCH_MISSES").is_some() {
            println!("missed by list --content: {q:?}");
        }
        self.list.add(listed);
        let top = picker.top(q, 10);
        let boxed = rank_of(&top, relevant);
        if boxed != Some(1) && std::env::var_os("BENCH_MISSES").is_some() {
            let first = top
                .first()
                .map(|id| picker.title_of(id))
                .unwrap_or_default();
            let want: Vec<String> = relevant.iter().map(|id| picker.title_of(id)).collect();
            println!("one box {boxed:?}: {q:?} -> top {first:?}; wanted {want:?}");
        }
        self.one_box.add(boxed);
    }

    fn print(&self, kind: &str) {
        let (l, b) = (&self.list, &self.one_box);
        println!(
            "| {kind} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            l.queries,
            l.mrr(),
            l.share(l.at1),
            l.share(l.at10),
            b.mrr(),
            b.share(b.at1),
            b.share(b.at10)
        );
    }
}

/// The relevance figures, printed as a table: known items (four consecutive words of one
/// message) and remembered words (see `remembered`), each in `list --content` and in the
/// picker's one box.
pub fn figures(content: &ContentIndex, files: &[RolloutFile], rows: &[SessionRow], threads: usize) {
    let t = Instant::now();
    let mut picker = Picker::new(rows, content);
    let mut known: [Both; 3] = Default::default();
    let mut rng = Rng::new(super::relevance::query_seed(7));
    let step = (rows.len() / SESSIONS).max(1);
    // The same sample from run to run: rows arrive in the order the reading threads finish.
    let mut sample: Vec<&SessionRow> = rows.iter().collect();
    sample.sort_by(|a, b| a.path.cmp(&b.path));
    for row in sample.into_iter().step_by(step) {
        let Some(file) = files.iter().find(|f| f.path == row.path) else {
            continue;
        };
        for (kind, texts) in messages(file, files).iter().enumerate() {
            if texts.is_empty() {
                continue;
            }
            if let Some((query, relevant)) = known_item(content, texts, &mut rng) {
                known[kind].add(content, &mut picker, &query, &relevant);
            }
        }
    }
    let oracle = remembered::Oracle::build(rows, files, threads);
    let all_kinds: Vec<&str> = remembered::KINDS
        .iter()
        .chain(&names::KINDS)
        .copied()
        .collect();
    let mut kinds: Vec<Both> = all_kinds.iter().map(|_| Both::default()).collect();
    for q in remembered::queries(rows, files, &oracle, SESSIONS) {
        if std::env::var_os("BENCH_QUERIES").is_some() {
            println!(
                "{}: {:?} ({} relevant)",
                all_kinds[q.kind],
                q.text,
                q.relevant.len()
            );
        }
        kinds[q.kind].add(content, &mut picker, &q.text, &q.relevant);
    }
    println!(
        "\n| query kind | queries | list --content MRR@10 | hits@1 | hits@10 | one box MRR@10 | hits@1 | hits@10 |\n|---|---|---|---|---|---|---|---|"
    );
    for (kind, s) in KINDS.iter().zip(&known) {
        s.print(&format!("known item, 4 consecutive words of {kind}"));
    }
    for (kind, s) in all_kinds.iter().zip(&kinds) {
        s.print(kind);
    }
    whole_word::figure(content, &mut picker, &oracle);
    named_checks::print(content, &mut picker, &oracle, rows, files);
    println!("(relevance figures in {:.1} s)", t.elapsed().as_secs_f64());
}
