//! The search thread: keeps its own copy of the rows' haystacks (and the content index once it
//! is built), runs the newest query (older queued ones are skipped) and answers with the
//! generation it was asked under, so the picker can drop stale answers. Typing never waits for it.

use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use std::sync::Arc;

use crate::app::Request;
use crate::content::{ContentHit, ContentIndex};
use crate::search::{Haystack, Searcher};

/// The answer to one search, with the generation it was asked under.
pub enum Answer {
    /// Fuzzy search: ranked row indices.
    Ranked { gen: u64, ranked: Vec<usize> },
    /// Content search: matching sessions, best first.
    Content { gen: u64, hits: Vec<ContentHit> },
}

enum Job {
    Fuzzy(u64, String, crate::search::Recency),
    Content(u64, String),
}

pub fn spawn() -> (Sender<Request>, Receiver<Answer>) {
    let (tx, rx) = mpsc::channel::<Request>();
    let (atx, arx) = mpsc::channel();
    thread::Builder::new()
        .name("codex-picker-search".into())
        .spawn(move || run(&rx, &atx))
        .expect("spawn the search thread");
    (tx, arx)
}

fn run(rx: &Receiver<Request>, tx: &Sender<Answer>) {
    let mut hays: Vec<Haystack> = Vec::new();
    let mut searcher = Searcher::default();
    let mut content: Option<Arc<ContentIndex>> = None;
    while let Ok(first) = rx.recv() {
        let mut latest = None;
        for req in std::iter::once(first).chain(rx.try_iter()) {
            match req {
                Request::AddRows(more) => hays.extend(more.iter().map(Haystack::new)),
                Request::ReplaceRow(i, row) => {
                    if let Some(slot) = hays.get_mut(i) {
                        *slot = Haystack::new(&row);
                        searcher.reset();
                    }
                }
                Request::Search { gen, query, order } => {
                    latest = Some(Job::Fuzzy(gen, query, order))
                }
                Request::ContentSearch { gen, query } => latest = Some(Job::Content(gen, query)),
                Request::ContentIndex(index) => content = Some(index),
                Request::Transcript { .. } => {}
            }
        }
        let answer = match latest {
            None => continue,
            Some(Job::Fuzzy(gen, query, order)) => Answer::Ranked {
                gen,
                ranked: searcher.search(&hays, &query, order),
            },
            Some(Job::Content(gen, query)) => Answer::Content {
                gen,
                hits: content
                    .as_ref()
                    .map(|index| index.search(&query, usize::MAX))
                    .unwrap_or_default(),
            },
        };
        if tx.send(answer).is_err() {
            return;
        }
    }
}
