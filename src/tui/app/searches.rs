//! The searches asked of the search worker and their newest answers: the search mode, the
//! generation numbers that tell the answer to the newest search from a stale one, the ranked
//! matches (the one box's merged list, or the conversations alone), the content index once it
//! is built, and the snippet of each row found in its conversation. Knows nothing of the query
//! line or the list: they come in as arguments.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::types::{SearchMode, CONTENT_PREFIX};
use crate::search::fulltext::{ContentHit, ContentIndex};
use crate::search::one_box::{self, Found, Titles};
use crate::search::title::Recency;
use crate::workers::search::{Ask, Request};

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
        }
    }

    /// The mode chosen with Ctrl+F.
    pub fn mode(&self) -> SearchMode {
        self.mode
    }

    pub fn set_mode(&mut self, mode: SearchMode) {
        self.mode = mode;
    }

    /// The mode `query` runs in (a leading `/` asks for the conversations alone).
    pub fn effective_mode(&self, query: &str) -> SearchMode {
        if query.starts_with(CONTENT_PREFIX) {
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

    /// The content index, or more of it.
    pub fn set_index(&mut self, index: Arc<ContentIndex>) {
        self.index = Some(index);
    }

    /// The content hit of row `i` in the newest answer: rows listed for their conversation.
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
    /// match. The one box looks in the conversations too once their index is here.
    pub fn ask(&mut self, text: &str, mode: SearchMode, order: Recency) -> Option<Request> {
        let query = text.to_owned();
        if mode == SearchMode::Content {
            if self.index.is_none() {
                self.matches = Some(Vec::new());
                return None;
            }
            self.asked += 1;
            return Some(Request::Ask {
                gen: self.asked,
                ask: Ask::Content { query },
            });
        }
        self.asked += 1;
        let ask = Ask::Titles {
            conversations: self.index.is_some() && one_box::wants_conversations(&query),
            query,
            order,
        };
        Some(Request::Ask {
            gen: self.asked,
            ask,
        })
    }

    /// A one-box answer of generation `gen`, taken unless stale: the title search's rows
    /// (`titles`) and the conversations' `hits` merged into one list ([`one_box::merge`]);
    /// `row_of` names the row of a hit's path (hits of paths without a row are dropped).
    pub fn take_ranked(
        &mut self,
        gen: u64,
        titles: &Titles,
        hits: Vec<ContentHit>,
        row_of: impl Fn(&Path) -> Option<usize>,
    ) -> Option<Freshness> {
        let fresh = self.take(gen)?;
        let mut found = HashMap::with_capacity(hits.len());
        let (mut typed, mut other) = (Vec::with_capacity(hits.len()), Vec::new());
        for hit in hits {
            if let Some(i) = row_of(&hit.path) {
                if hit.every_word_typed {
                    typed.push(i);
                } else {
                    other.push(i);
                }
                found.insert(i, hit);
            }
        }
        let merged = one_box::merge(titles, &typed, &other);
        self.hits.clear();
        let mut list = Vec::with_capacity(merged.len());
        for (i, how) in merged {
            if how == Found::Conversation {
                if let Some(hit) = found.remove(&i) {
                    self.hits.insert(i, hit);
                }
            }
            list.push(i);
        }
        self.matches = Some(list);
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
