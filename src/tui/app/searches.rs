//! The searches asked of the search worker and their newest answers: the search mode, the
//! generation numbers that tell the answer to the newest search from a stale one, the ranked
//! matches, the content index once it is built, and the snippet of each row a content search
//! matched. Knows nothing of the query line or the list: they come in as arguments.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::{SearchMode, CONTENT_PREFIX};
use crate::search::fulltext::{ContentHit, ContentIndex};
use crate::search::title::Recency;
use crate::workers::search::Request;

/// How an answer taken compares with the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Freshness {
    /// The answer to a newer search than the last one taken.
    New,
    /// The same generation answered again.
    Repeated,
}

#[derive(Debug, Clone)]
pub struct Searches {
    mode: SearchMode,
    /// The generation of the newest search asked.
    asked: u64,
    /// The generation of the newest answer taken.
    answered: u64,
    /// Ranked matches of the newest answer taken (indices into the rows).
    matches: Option<Vec<usize>>,
    /// The content index, once built.
    index: Option<Arc<ContentIndex>>,
    /// The hit of each row matched by the newest content answer.
    hits: HashMap<usize, ContentHit>,
    /// Whether the conversations are searched in place of a title search that found nothing.
    fallback: Fallback,
}

/// The conversations searched for a query the titles do not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fallback {
    Off,
    On,
    /// Tried for this query, and no conversation held it either.
    Tried,
}

impl Searches {
    pub fn new(mode: SearchMode) -> Searches {
        Searches {
            mode,
            asked: 0,
            answered: 0,
            matches: None,
            index: None,
            hits: HashMap::new(),
            fallback: Fallback::Off,
        }
    }

    /// The mode chosen with Ctrl+F.
    pub fn mode(&self) -> SearchMode {
        self.mode
    }

    pub fn set_mode(&mut self, mode: SearchMode) {
        self.mode = mode;
        self.fallback = Fallback::Off;
    }

    /// Search the conversations for this query, since its title search found nothing; false
    /// when that was tried already and found nothing either.
    pub fn fall_back(&mut self) -> bool {
        let fresh = self.fallback == Fallback::Off;
        if fresh {
            self.fallback = Fallback::On;
        }
        fresh
    }

    /// No conversation holds the query: back to its title matches, for this query.
    pub fn fallback_found_nothing(&mut self) {
        self.fallback = Fallback::Tried;
    }

    /// A new query starts with its title search again.
    pub fn end_fallback(&mut self) {
        self.fallback = Fallback::Off;
    }

    /// The conversations are searched because the title search found nothing.
    pub fn fell_back(&self) -> bool {
        self.fallback == Fallback::On
    }

    /// The mode `query` runs in (a leading `/` asks for content search, and so does a title
    /// search that found nothing).
    pub fn effective_mode(&self, query: &str) -> SearchMode {
        if query.starts_with(CONTENT_PREFIX) || self.fell_back() {
            SearchMode::Content
        } else {
            self.mode
        }
    }

    /// A search newer than the last answer taken is on its way.
    pub fn awaiting(&self) -> bool {
        self.answered < self.asked
    }

    /// The ranked matches of the newest answer taken, if any.
    pub fn matches(&self) -> Option<&[usize]> {
        self.matches.as_deref()
    }

    /// The content index, once built.
    pub fn index(&self) -> Option<&Arc<ContentIndex>> {
        self.index.as_ref()
    }

    /// The content index, or more of it: a query no conversation held may be held now.
    pub fn set_index(&mut self, index: Arc<ContentIndex>) {
        self.index = Some(index);
        if self.fallback == Fallback::Tried {
            self.fallback = Fallback::Off;
        }
    }

    /// The content hit of row `i` in the newest content answer.
    pub fn hit(&self, i: usize) -> Option<&ContentHit> {
        self.hits.get(&i)
    }

    /// Drop the answers taken (the mode changed: they answer another question).
    pub fn forget_answers(&mut self) {
        self.matches = None;
        self.hits.clear();
    }

    /// The query is empty: nothing is matched and no answer is awaited.
    pub fn query_emptied(&mut self) {
        self.matches = None;
        self.answered = self.asked;
    }

    /// The request for a search of `text` in `mode`. `None` while a content search waits for
    /// its index: it is asked once the index is ready, and meanwhile nothing is claimed to
    /// match.
    pub fn ask(&mut self, text: &str, mode: SearchMode, order: Recency) -> Option<Request> {
        let query = text.to_owned();
        if mode == SearchMode::Content {
            if self.index.is_none() {
                self.matches = Some(Vec::new());
                return None;
            }
            self.asked += 1;
            return Some(Request::ContentSearch {
                gen: self.asked,
                query,
            });
        }
        self.asked += 1;
        Some(Request::Search {
            gen: self.asked,
            query,
            order,
        })
    }

    /// A fuzzy answer of generation `gen`, taken unless stale.
    pub fn take_ranked(&mut self, gen: u64, ranked: Vec<usize>) -> Option<Freshness> {
        let fresh = self.take(gen)?;
        self.matches = Some(ranked);
        Some(fresh)
    }

    /// A content answer of generation `gen`, taken unless stale: hits are ranked by the row
    /// each path is (`row_of`); hits of paths without a row are dropped.
    pub fn take_content(
        &mut self,
        gen: u64,
        hits: Vec<ContentHit>,
        row_of: impl Fn(&Path) -> Option<usize>,
    ) -> Option<Freshness> {
        let fresh = self.take(gen)?;
        self.hits.clear();
        let mut ranked = Vec::with_capacity(hits.len());
        for hit in hits {
            if let Some(i) = row_of(&hit.path) {
                ranked.push(i);
                self.hits.insert(i, hit);
            }
        }
        self.matches = Some(ranked);
        Some(fresh)
    }

    /// Whether the answer of generation `gen` is the newest one worth taking.
    fn take(&mut self, gen: u64) -> Option<Freshness> {
        if gen < self.answered || gen > self.asked {
            return None;
        }
        let fresh = if gen > self.answered {
            Freshness::New
        } else {
            Freshness::Repeated
        };
        self.answered = gen;
        Some(fresh)
    }
}
