//! The folder, branch and name as fields of the session: a query's word held by a session's
//! labels counts as held by every message of that session, scored with the message, instead of
//! by a short document of its own whose length would decide.
//!
//! The labels are indexed in their own field, one document a session (so their words never
//! match a message's text and their lengths are measured among labels). For each word of a
//! query, [`holders`] finds the sessions whose labels hold it (as typed, in another form, as a
//! prefix or with a typo, each scored and tiered as a message's word is) and [`InLabels`]
//! matches every document of those sessions with that score: one more alternative of the word.
//! Where each session's documents lie in a segment is found once per segment and kept
//! ([`Layout`]); segments never change, so a keystroke only looks it up.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::index::SegmentId;
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, Searcher, SegmentOrdinal, SegmentReader, TERMINATED};

/// The sessions whose labels hold one word, each with its score for it.
pub(super) type Holders = HashMap<u64, Score>;

/// Where each session's documents lie in each segment, found once per segment.
#[derive(Default)]
pub(super) struct Layout {
    segments: Mutex<HashMap<SegmentId, Arc<SegmentLayout>>>,
}

/// One segment's runs of documents of one session each, in document order, and where each
/// session's runs are among them.
#[derive(Default)]
struct SegmentLayout {
    runs: Vec<(u64, Range<DocId>)>,
    by_session: HashMap<u64, Vec<usize>>,
}

impl SegmentLayout {
    /// Read from the segment's session column, once.
    fn read(segment: &SegmentReader) -> SegmentLayout {
        let mut l = SegmentLayout::default();
        let Ok(column) = segment.fast_fields().u64("session") else {
            return l;
        };
        for doc in 0..segment.max_doc() {
            let Some(s) = column.first(doc) else { continue };
            match l.runs.last_mut() {
                Some((last, r)) if *last == s && r.end == doc => r.end = doc + 1,
                _ => {
                    l.by_session.entry(s).or_default().push(l.runs.len());
                    l.runs.push((s, doc..doc + 1));
                }
            }
        }
        l
    }

    /// The runs of `holders`' sessions, in document order, each with its session's score:
    /// looked up by session when they are few, else read in order.
    fn of(&self, holders: &Holders) -> Vec<(Range<DocId>, Score)> {
        if holders.len() * 8 < self.runs.len() {
            let mut out: Vec<(Range<DocId>, Score)> = holders
                .iter()
                .filter_map(|(s, score)| Some((self.by_session.get(s)?, *score)))
                .flat_map(|(at, score)| at.iter().map(move |&i| (self.runs[i].1.clone(), score)))
                .collect();
            out.sort_unstable_by_key(|(r, _)| r.start);
            return out;
        }
        self.runs
            .iter()
            .filter_map(|(s, r)| Some((r.clone(), *holders.get(s)?)))
            .collect()
    }
}

impl Layout {
    /// The runs of `segment`'s sessions (found now when not yet known); segments no longer
    /// searched are forgotten.
    fn of(&self, searcher: &Searcher, segment: &SegmentReader) -> Arc<SegmentLayout> {
        let mut known = self
            .segments
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(l) = known.get(&segment.segment_id()) {
            return Arc::clone(l);
        }
        let live: Vec<SegmentId> = searcher
            .segment_readers()
            .iter()
            .map(SegmentReader::segment_id)
            .collect();
        known.retain(|id, _| live.contains(id));
        let l = Arc::new(SegmentLayout::read(segment));
        known.insert(segment.segment_id(), Arc::clone(&l));
        l
    }

    /// The documents of `holders`' sessions in each segment of `searcher`, each run with its
    /// session's score, in document order.
    pub(super) fn runs(&self, searcher: &Searcher, holders: &Holders) -> InLabels {
        let by_segment = searcher
            .segment_readers()
            .iter()
            .map(|segment| {
                let runs = self.of(searcher, segment).of(holders);
                (segment.segment_id(), Arc::new(runs))
            })
            .collect();
        InLabels(Arc::new(by_segment))
    }
}

/// The sessions whose labels match `query` (a word's alternatives on the label field), each
/// with its best label score.
pub(super) fn holders(searcher: &Searcher, query: &dyn Query) -> Holders {
    searcher.search(query, &PerSession).unwrap_or_default()
}

/// The runs of documents of some sessions in one segment, in order, each with its score.
type SegmentRuns = Arc<Vec<(Range<DocId>, Score)>>;

/// Every document of some sessions, each scored as its session's labels.
#[derive(Clone, Debug)]
pub(super) struct InLabels(Arc<HashMap<SegmentId, SegmentRuns>>);

impl Query for InLabels {
    fn weight(&self, _: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for InLabels {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let runs = self
            .0
            .get(&reader.segment_id())
            .cloned()
            .unwrap_or_default();
        let mut scorer = Runs {
            runs,
            at: 0,
            doc: TERMINATED,
            boost,
        };
        scorer.doc = scorer.runs.first().map_or(TERMINATED, |(r, _)| r.start);
        Ok(Box::new(scorer))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) != doc {
            return Err(tantivy::TantivyError::InvalidArgument(format!(
                "document {doc} is not of these sessions"
            )));
        }
        Ok(Explanation::new("its session's labels", scorer.score()))
    }
}

/// The documents of some runs, in order.
struct Runs {
    runs: SegmentRuns,
    /// The run `doc` is in.
    at: usize,
    doc: DocId,
    boost: Score,
}

impl DocSet for Runs {
    fn advance(&mut self) -> DocId {
        let Some((run, _)) = self.runs.get(self.at) else {
            return TERMINATED;
        };
        if self.doc + 1 < run.end {
            self.doc += 1;
        } else {
            self.at += 1;
            self.doc = self.runs.get(self.at).map_or(TERMINATED, |(r, _)| r.start);
        }
        self.doc
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        // The first run that ends past the target.
        let from = self.at;
        let skip = self.runs[from..].partition_point(|(r, _)| r.end <= target);
        self.at = from + skip;
        self.doc = self
            .runs
            .get(self.at)
            .map_or(TERMINATED, |(r, _)| r.start.max(target));
        self.doc
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.runs.iter().map(|(r, _)| r.len() as u32).sum()
    }
}

impl Scorer for Runs {
    /// The session's label score: its tier as it is, its rest boosted.
    fn score(&mut self) -> Score {
        self.runs
            .get(self.at)
            .map_or(0.0, |(_, s)| super::tier::scale(*s, self.boost))
    }
}

/// The best score of each session among the documents matched.
struct PerSession;

struct SegmentPerSession {
    session: Option<tantivy::columnar::Column<u64>>,
    best: Holders,
}

impl Collector for PerSession {
    type Fruit = Holders;
    type Child = SegmentPerSession;

    fn for_segment(
        &self,
        _: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<Self::Child> {
        Ok(SegmentPerSession {
            session: reader.fast_fields().u64("session").ok(),
            best: Holders::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, fruits: Vec<Holders>) -> tantivy::Result<Holders> {
        let mut out = Holders::new();
        for fruit in fruits {
            for (s, score) in fruit {
                let best = out.entry(s).or_insert(score);
                *best = best.max(score);
            }
        }
        Ok(out)
    }
}

impl SegmentCollector for SegmentPerSession {
    type Fruit = Holders;

    fn collect(&mut self, doc: DocId, score: Score) {
        if let Some(s) = self.session.as_ref().and_then(|c| c.first(doc)) {
            let best = self.best.entry(s).or_insert(score);
            *best = best.max(score);
        }
    }

    fn harvest(self) -> Holders {
        self.best
    }
}
