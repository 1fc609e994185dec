//! Sessions that hold a query's words between their messages: each group of the query in some
//! message or in the labels of the session, no one message holding them all (those are found by
//! the message query and rank above these).
//!
//! The groups are looked for from the rarest: the sessions the first one is in are the only
//! ones the next ones are looked for in, so a rare word next to common ones costs what the
//! rare word does. A session's score is [`WEIGHT`] times the sum of each group's best message
//! score (weighted by the message's place).

use std::collections::{HashMap, HashSet};

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::Column;
use tantivy::query::{BooleanQuery, Occur, Query, TermSetQuery};
use tantivy::{DocAddress, DocId, Score, Searcher, SegmentOrdinal, SegmentReader, Term};

use super::query::{self, Labels, Parsed};
use super::schema::{Fields, Place};
use super::tier;

/// Messages holding the rarest group past which sessions are not looked for this way: the
/// words are then in most sessions, and the sessions holding them in one message already fill
/// any list.
pub(super) const RAREST_MAX: u64 = 20_000;

/// Messages holding the rarest group under which sessions are looked for this way even when
/// enough sessions hold every word in one message: the look is cheap then, and those messages
/// may hold the words only with a typo.
pub(super) const ALWAYS_BELOW: u64 = 5_000;
/// A session found this way scores this much of the sum of its groups' best messages.
pub(super) const WEIGHT: f32 = 0.5;

/// The messages holding the rarest group as written (groups no message holds left out).
pub(super) fn rarest(searcher: &Searcher, fields: &Fields, parsed: &Parsed) -> u64 {
    (0..parsed.groups.len())
        .map(|i| group_freq(searcher, fields, parsed, i))
        .filter(|&f| f > 0)
        .min()
        .unwrap_or(u64::MAX)
}

/// One session found.
#[derive(Debug, Clone, Copy)]
pub(super) struct Spread {
    pub session: u64,
    pub score: f32,
    /// The best message found that is not the labels (the labels when there is none).
    pub best: DocAddress,
    /// Documents of the session that hold a group (each group's best).
    pub docs: usize,
}

/// The best document of each session for one query, weighted by place.
struct BestPerSession;

struct SegmentBest {
    segment: SegmentOrdinal,
    session: Option<Column<u64>>,
    place: Option<Column<u64>>,
    best: HashMap<u64, (Score, DocAddress, bool)>,
}

impl Collector for BestPerSession {
    type Fruit = HashMap<u64, (Score, DocAddress, bool)>;
    type Child = SegmentBest;

    fn for_segment(
        &self,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<SegmentBest> {
        let fast = reader.fast_fields();
        Ok(SegmentBest {
            segment,
            session: fast.u64("session").ok(),
            place: fast.u64(super::schema::PLACE).ok(),
            best: HashMap::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, fruits: Vec<Self::Fruit>) -> tantivy::Result<Self::Fruit> {
        let mut out: Self::Fruit = HashMap::new();
        for fruit in fruits {
            for (s, b) in fruit {
                keep_best(&mut out, s, b);
            }
        }
        Ok(out)
    }
}

/// Keep `b` for session `s` when it is better: a message over the labels, then the score.
fn keep_best(
    map: &mut HashMap<u64, (Score, DocAddress, bool)>,
    s: u64,
    b: (Score, DocAddress, bool),
) {
    map.entry(s)
        .and_modify(|old| {
            if (b.2, b.0) > (old.2, old.0) {
                *old = b;
            }
        })
        .or_insert(b);
}

impl SegmentCollector for SegmentBest {
    type Fruit = HashMap<u64, (Score, DocAddress, bool)>;

    fn collect(&mut self, doc: DocId, score: Score) {
        let Some(session) = self.session.as_ref().and_then(|c| c.first(doc)) else {
            return;
        };
        let code = self.place.as_ref().and_then(|c| c.first(doc)).unwrap_or(2);
        let at = DocAddress::new(self.segment, doc);
        let message = code != Place::Label.code();
        keep_best(
            &mut self.best,
            session,
            (tier::scale(score, Place::weight_of(code)), at, message),
        );
    }

    fn harvest(self) -> Self::Fruit {
        self.best
    }
}

/// The messages holding group `i` exactly (its words' fewest; 0 when none does, or it is a typo).
fn group_freq(searcher: &Searcher, fields: &Fields, parsed: &Parsed, i: usize) -> u64 {
    parsed.groups[i]
        .iter()
        .map(|w| searcher.doc_freq(&query::term(fields, w)).unwrap_or(0))
        .min()
        .unwrap_or(0)
}

/// The sessions, other than `skip`, that hold every group of `parsed` between their documents.
pub(super) fn sessions(
    searcher: &Searcher,
    fields: &Fields,
    parsed: &Parsed,
    forms: &[Vec<String>],
    labels: &Labels,
    skip: &HashSet<u64>,
) -> Vec<Spread> {
    let mut order: Vec<(u64, usize)> = (0..parsed.groups.len())
        .map(|i| (group_freq(searcher, fields, parsed, i), i))
        .collect();
    // A group no message holds as written (a typo, a word being typed) is looked for last,
    // among the sessions the others are in; unless every other group is too common to start
    // from: then the one that may be a typo of a rare word leads (`terminal quokka15zzeta`).
    order.sort_by_key(|&(freq, i)| (if freq == 0 { u64::MAX } else { freq }, i));
    if order.first().is_some_and(|&(freq, _)| freq > RAREST_MAX) {
        let typo = order
            .iter()
            .position(|&(freq, i)| freq == 0 && query::may_be_a_typo(parsed, i));
        if let Some(at) = typo {
            let lead = order.remove(at);
            order.insert(0, lead);
        }
    }
    let hopeless = order.iter().any(|&(freq, i)| {
        freq == 0
            && !query::may_match_otherwise(parsed, i, forms)
            && labels.get(i).is_none_or(Option::is_none)
    });
    if order.len() < 2 || order[0].0 > RAREST_MAX || hopeless {
        return Vec::new();
    }
    let mut found: HashMap<u64, (Score, DocAddress, bool, usize)> = HashMap::new();
    for (n, &(_, i)) in order.iter().enumerate() {
        let mut q = query::group(fields, parsed, i, forms, labels, WEIGHT);
        if n > 0 {
            let within = TermSetQuery::new(
                found
                    .keys()
                    .map(|&s| Term::from_field_u64(fields.session, s)),
            );
            q = Box::new(BooleanQuery::new(vec![
                (Occur::Must, q),
                (Occur::Must, Box::new(within) as Box<dyn Query>),
            ]));
        }
        let Ok(best) = searcher.search(&*q, &BestPerSession) else {
            return Vec::new();
        };
        if n == 0 {
            found = best
                .into_iter()
                .map(|(s, (score, at, message))| (s, (score, at, message, 1)))
                .collect();
        } else {
            found.retain(|s, _| best.contains_key(s));
            for (s, (score, at, message)) in best {
                if let Some(f) = found.get_mut(&s) {
                    f.0 += score;
                    f.3 += 1;
                    if message && !f.2 {
                        (f.1, f.2) = (at, true);
                    }
                }
            }
        }
        if found.is_empty() {
            return Vec::new();
        }
    }
    found
        .into_iter()
        .filter(|(s, _)| !skip.contains(s))
        .map(|(session, (score, best, _, docs))| Spread {
            session,
            score,
            best,
            docs,
        })
        .collect()
}
