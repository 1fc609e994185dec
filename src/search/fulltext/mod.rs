//! Content search: every user and assistant message of every session, to its end, in a
//! Tantivy index kept in the cache folder (never in the store), ranked the way a search engine
//! ranks and grouped by session.
//!
//! Owns the search and what a hit says. One Tantivy document per message, and one of the
//! session's labels (name, folder, branch) in a field of its own (`schema`). A session matches
//! when it holds every word of the query (`query`), each in another form too (`forms`), each
//! anywhere in it, its labels counting in every message of it (`labels`). Sessions rank first by
//! how they hold the words (as typed, in another form or as a prefix, with a typo: `tier`),
//! then by what the words held tell (their rarity, by how each is held: `tier::informed`),
//! then by score: a session with one message holding every word scores as that message (BM25
//! with a bonus for the words together and in order, times the weight of the message's place:
//! first prompt, prompt, reply), one holding them between its messages half the sum of each
//! word's best message (`spread`); recency breaks ties. The hit carries the best message's place
//! and a snippet around its match (`snippet`).
//! The index is kept up to date incrementally, against its session table (`table`), as a tap
//! on the index engine's whole read (`tap`), or built on its own by [`build`]; [`cached`] is
//! the one entry point the picker and `list --content` use.
//! Which text is indexed follows the transcript rule (reading-rules section 5): no tool output,
//! no injected context.

mod alternatives;
pub mod build;
pub(crate) mod cached;
mod forms;
mod labels;
mod near;
mod parts;
mod query;
mod schema;
mod slips;
mod snippet;
mod spread;
mod table;
pub mod tap;
mod tier;

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use tantivy::collector::TopDocs;
use tantivy::{
    DocAddress, DocId, Index, IndexReader, Score, Searcher, SegmentReader, TantivyDocument,
};

use crate::timefmt::Millis;
use schema::{Fields, Place};
use table::Table;

/// Most sessions one search returns.
pub const MAX_RESULTS: usize = 500;

/// One session that holds the query, with its best match.
#[derive(Debug, Clone, PartialEq)]
pub struct ContentHit {
    pub path: PathBuf,
    pub id: String,
    /// The session's score: its best message's (higher is better).
    pub score: f32,
    /// Messages of the session that match (among those the search looked at).
    pub hits: usize,
    /// The position of the best message among the session's messages.
    pub first_message: usize,
    /// Text around the best match of the best message, on one line.
    pub snippet: String,
    /// Where in `snippet` the match is.
    pub snippet_match: Range<usize>,
    pub updated_ms: Millis,
    /// The session holds every word as typed (none only in another form, as a prefix or with
    /// a typo): the one box ranks it with the titles holding the words whole.
    pub every_word_typed: bool,
}

/// The size of an index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContentStats {
    pub sessions: usize,
    pub messages: u64,
    /// The index's files on disk (0 for an index in memory).
    pub disk_bytes: u64,
}

/// An open content index (cheap to clone: clones share it). The default is an empty index.
#[derive(Clone, Default)]
pub struct ContentIndex {
    engine: Option<Arc<Engine>>,
}

struct Engine {
    index: Index,
    reader: IndexReader,
    fields: Fields,
    table: RwLock<Table>,
    dir: Option<PathBuf>,
    /// Where each session's documents lie in each segment (`labels`).
    layout: labels::Layout,
}

impl fmt::Debug for ContentIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.stats();
        write!(
            f,
            "ContentIndex {{ sessions: {}, messages: {} }}",
            s.sessions, s.messages
        )
    }
}

/// The best message found for one session.
struct Best {
    score: f32,
    at: DocAddress,
    hits: usize,
}

impl ContentIndex {
    /// Sessions indexed.
    pub fn len(&self) -> usize {
        self.engine.as_ref().map_or(0, |e| e.table().len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn stats(&self) -> ContentStats {
        let Some(e) = &self.engine else {
            return ContentStats::default();
        };
        let disk_bytes = e.dir.as_deref().map_or(0, |d| {
            std::fs::read_dir(d)
                .into_iter()
                .flatten()
                .flatten()
                .filter_map(|f| f.metadata().ok())
                .map(|m| m.len())
                .sum()
        });
        ContentStats {
            sessions: e.table().len(),
            messages: e.reader.searcher().num_docs(),
            disk_bytes,
        }
    }

    /// The sessions that hold `text` (see `query` for the syntax), best first, at most
    /// `limit` (and [`MAX_RESULTS`]).
    pub fn search(&self, text: &str, limit: usize) -> Vec<ContentHit> {
        let Some(e) = &self.engine else {
            return Vec::new();
        };
        let parsed = query::parse(text);
        let searcher = e.reader.searcher();
        let forms: Vec<Vec<String>> = parsed
            .groups
            .iter()
            .map(|g| match g.as_slice() {
                [word] => forms::other_forms(&searcher, e.fields.text, word),
                _ => Vec::new(),
            })
            .collect();
        let labels = e.labels(&searcher, &parsed);
        let doc_freq = |t: &tantivy::Term| searcher.doc_freq(t).unwrap_or(0);
        let Some(q) = query::build(&e.fields, &parsed, &forms, &labels, doc_freq) else {
            return Vec::new();
        };
        let limit = limit.clamp(1, MAX_RESULTS);
        let table = e.table();
        let mut columns = HashMap::new();
        let mut together = e.together(&searcher, &*q, limit, &mut columns);
        together.retain(|(s, _)| table.get(*s).is_some());
        let updated = |s: u64| table.get(s).map_or(0, |t| t.mtime_ms);
        let order = |(sa, a): &(u64, Best), (sb, b): &(u64, Best)| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| updated(*sb).cmp(&updated(*sa)))
                .then_with(|| sa.cmp(sb))
        };
        // Sessions holding the words between their messages count for less than one message
        // holding them, but more than a message that holds them only with a typo.
        let rare = spread::rarest(&searcher, &e.fields, &parsed) <= spread::ALWAYS_BELOW;
        let groups = parsed.groups.len();
        if together.len() < limit || rare {
            // A session whose one message holds every word as typed is not looked for again;
            // one whose message holds some only in another form or with a typo may hold them
            // as typed between its messages, a higher tier: it keeps the better of the two.
            let skip: HashSet<u64> = together
                .iter()
                .filter(|(_, b)| tier::every_word_typed(b.score, groups))
                .map(|(s, _)| *s)
                .collect();
            let spread: Vec<(u64, Best)> =
                spread::sessions(&searcher, &e.fields, &parsed, &forms, &labels, &skip)
                    .into_iter()
                    .filter(|s| table.get(s.session).is_some())
                    .map(|s| {
                        let best = Best {
                            score: tier::scale(s.score, spread::WEIGHT),
                            at: s.best,
                            hits: s.docs,
                        };
                        (s.session, best)
                    })
                    .collect();
            let mut by_session: HashMap<u64, Best> = together.drain(..).collect();
            for (s, b) in spread {
                match by_session.get(&s) {
                    Some(old) if old.score >= b.score => {}
                    _ => {
                        by_session.insert(s, b);
                    }
                }
            }
            together.extend(by_session);
        }
        together.sort_by(order);
        together.truncate(limit);
        together
            .into_iter()
            .filter_map(|(s, b)| {
                let session = table.get(s)?;
                let doc: TantivyDocument = searcher.doc(b.at).ok()?;
                let message = [e.fields.text, e.fields.label]
                    .into_iter()
                    .find_map(|f| {
                        doc.get_first(f)
                            .and_then(|v| tantivy::schema::Value::as_str(&v))
                    })
                    .unwrap_or_default();
                let (snippet, snippet_match) = snippet::best(message, &parsed, &forms);
                let ordinal = e.number(&searcher, &mut columns, b.at, "ordinal");
                Some(ContentHit {
                    path: session.path.clone(),
                    id: session.id.clone(),
                    score: b.score,
                    hits: b.hits,
                    first_message: ordinal.unwrap_or(0) as usize,
                    snippet,
                    snippet_match,
                    updated_ms: session.mtime_ms,
                    every_word_typed: tier::every_word_typed(b.score, groups),
                })
            })
            .collect()
    }
}

type Columns = HashMap<(u32, &'static str), tantivy::columnar::Column<u64>>;

impl Engine {
    /// For each group of `parsed`, the sessions whose labels hold it (none when no session's
    /// do), each scored as its labels hold it.
    fn labels(&self, searcher: &Searcher, parsed: &query::Parsed) -> Vec<Option<labels::InLabels>> {
        (0..parsed.groups.len())
            .map(|i| {
                let forms = match parsed.groups[i].as_slice() {
                    [word] => forms::other_forms(searcher, self.fields.label, word),
                    _ => Vec::new(),
                };
                let q = query::in_labels(&self.fields, parsed, i, &forms);
                let holders = labels::holders(searcher, &q);
                (!holders.is_empty()).then(|| self.layout.runs(searcher, &holders))
            })
            .collect()
    }

    /// Sessions with one message that holds every group of the query `q`, each with its best
    /// message (unordered).
    fn together(
        &self,
        searcher: &Searcher,
        q: &dyn tantivy::query::Query,
        limit: usize,
        columns: &mut Columns,
    ) -> Vec<(u64, Best)> {
        // Messages, best first; several may belong to one session.
        let wanted = TopDocs::with_limit(limit * 8 + 64).tweak_score(|segment: &SegmentReader| {
            let place = segment.fast_fields().u64(schema::PLACE).ok();
            move |doc: DocId, score: Score| {
                let code = place.as_ref().and_then(|c| c.first(doc)).unwrap_or(2);
                tier::scale(score, Place::weight_of(code))
            }
        });
        let Ok(docs) = searcher.search(q, &wanted) else {
            return Vec::new();
        };
        let mut best: HashMap<u64, Best> = HashMap::new();
        for (score, at) in docs {
            let Some(session) = self.number(searcher, columns, at, "session") else {
                continue;
            };
            best.entry(session)
                .and_modify(|b| b.hits += 1)
                .or_insert(Best { score, at, hits: 1 });
        }
        best.into_iter().collect()
    }

    fn table(&self) -> std::sync::RwLockReadGuard<'_, Table> {
        self.table
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The number fast field `name` of the document at `at`.
    fn number(
        &self,
        searcher: &Searcher,
        columns: &mut Columns,
        at: DocAddress,
        name: &'static str,
    ) -> Option<u64> {
        let key = (at.segment_ord, name);
        if let std::collections::hash_map::Entry::Vacant(slot) = columns.entry(key) {
            let reader = searcher.segment_reader(at.segment_ord);
            slot.insert(reader.fast_fields().u64(name).ok()?);
        }
        columns.get(&key)?.first(at.doc_id)
    }
}

#[cfg(test)]
mod search_tests;
#[cfg(test)]
mod words_tests;
