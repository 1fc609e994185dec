//! The search thread: keeps its own copy of the rows' haystacks, runs the newest query (older
//! queued ones are skipped) and answers with the generation it was asked under, so the picker
//! can drop stale answers. Typing never waits for it.

use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use crate::app::Request;
use crate::search::{Haystack, Searcher};

/// Ranked row indices for a generation.
pub struct Answer {
    pub gen: u64,
    pub ranked: Vec<usize>,
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
    while let Ok(first) = rx.recv() {
        let mut latest = None;
        for req in std::iter::once(first).chain(rx.try_iter()) {
            match req {
                Request::AddRows(more) => hays.extend(more),
                Request::ReplaceRow(i, hay) => {
                    if let Some(slot) = hays.get_mut(i) {
                        *slot = hay;
                        searcher.reset();
                    }
                }
                Request::Search { gen, query, order } => latest = Some((gen, query, order)),
                Request::Transcript { .. } => {}
            }
        }
        if let Some((gen, query, order)) = latest {
            let ranked = searcher.search(&hays, &query, order);
            if tx.send(Answer { gen, ranked }).is_err() {
                return;
            }
        }
    }
}
