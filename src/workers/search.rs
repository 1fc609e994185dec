//! The search thread: keeps its own copy of the rows' haystacks (prepared once rows stop
//! streaming in, or when a query needs them) and the content index once it is built, runs the
//! newest query (older queued ones are skipped) and answers with the generation it was asked
//! under, so the picker can drop stale answers. Typing never waits for it.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use std::sync::Arc;

use crate::search::fulltext::{ContentHit, ContentIndex};
use crate::search::one_box;
use crate::search::title::{Haystack, Recency, Searcher};
use crate::session::SessionRow;
use crate::workers::wake::{self, Waker};

/// Sessions a content search in the picker returns: more than any list shows, few enough
/// that each keystroke stays fast.
pub const PICKER_CONTENT_RESULTS: usize = 50;

/// Rows that arrive are prepared for matching once none has come for this long, or as soon as
/// a query needs them: while the first index streams in, this thread then leaves the cores to
/// the indexer instead of preparing each batch as it comes.
const SETTLE: Duration = Duration::from_millis(60);

/// What the picker sends this thread: rows to search, the content index, and searches.
#[derive(Debug, Clone)]
pub enum Request {
    /// New rows, in row order (shared with the picker: kept only until their haystacks are
    /// made).
    AddRows(Vec<Arc<SessionRow>>),
    /// A row changed in place.
    ReplaceRow(usize, Arc<SessionRow>),
    /// The one box: the titles, and the conversations too when `conversations` is set and
    /// the content index is here.
    Search {
        gen: u64,
        query: String,
        order: Recency,
        conversations: bool,
    },
    /// The content index is ready.
    ContentIndex(Arc<ContentIndex>),
    ContentSearch {
        gen: u64,
        query: String,
    },
}

/// The answer to one search, with the generation it was asked under.
pub enum Answer {
    /// The one box: the title search's ranked row indices, those whose own words hold the
    /// typed words first (`held` of them), and the conversations that hold the words, best
    /// first (none when not asked for).
    Ranked {
        gen: u64,
        ranked: Vec<usize>,
        held: usize,
        hits: Vec<ContentHit>,
    },
    /// Content search: matching sessions, best first.
    Content { gen: u64, hits: Vec<ContentHit> },
}

enum Job {
    Fuzzy(u64, String, Recency, bool),
    Content(u64, String),
}

/// Start the thread; each answer wakes the loop through `waker`. It stops when the request
/// channel closes.
pub fn spawn(waker: Waker) -> (Sender<Request>, Receiver<Answer>) {
    let (tx, rx) = mpsc::channel::<Request>();
    let (atx, arx) = wake::channel(waker);
    thread::Builder::new()
        .name("codex-picker-search".into())
        .spawn(move || run(&rx, &atx))
        .expect("spawn the search thread");
    (tx, arx)
}

fn run(rx: &Receiver<Request>, tx: &wake::Sender<Answer>) {
    let mut hays: Vec<Haystack> = Vec::new();
    let mut searcher = Searcher::default();
    let mut content: Option<Arc<ContentIndex>> = None;
    let mut pending: Vec<Arc<SessionRow>> = Vec::new();
    let prepare = |hays: &mut Vec<Haystack>, pending: &mut Vec<Arc<SessionRow>>| {
        hays.extend(pending.drain(..).map(|row| Haystack::new(&row)));
    };
    loop {
        let first = if pending.is_empty() {
            rx.recv().map_err(|_| RecvTimeoutError::Disconnected)
        } else {
            rx.recv_timeout(SETTLE)
        };
        let first = match first {
            Ok(req) => req,
            Err(RecvTimeoutError::Timeout) => {
                prepare(&mut hays, &mut pending);
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        let mut latest = None;
        for req in std::iter::once(first).chain(rx.try_iter()) {
            match req {
                Request::AddRows(more) => pending.extend(more),
                Request::ReplaceRow(i, row) => {
                    prepare(&mut hays, &mut pending);
                    if let Some(slot) = hays.get_mut(i) {
                        *slot = Haystack::new(&row);
                        searcher.reset();
                    }
                }
                Request::Search {
                    gen,
                    query,
                    order,
                    conversations,
                } => latest = Some(Job::Fuzzy(gen, query, order, conversations)),
                Request::ContentSearch { gen, query } => latest = Some(Job::Content(gen, query)),
                Request::ContentIndex(index) => content = Some(index),
            }
        }
        if latest.is_some() {
            prepare(&mut hays, &mut pending);
        }
        let answer = match latest {
            None => continue,
            Some(Job::Fuzzy(gen, query, order, conversations)) => {
                let content = content.as_deref().filter(|_| conversations);
                let ((ranked, held), hits) = answer(&mut searcher, &hays, content, &query, order);
                Answer::Ranked {
                    gen,
                    ranked,
                    held,
                    hits,
                }
            }
            Some(Job::Content(gen, query)) => Answer::Content {
                gen,
                hits: content
                    .as_ref()
                    .map(|index| index.search(&query, PICKER_CONTENT_RESULTS))
                    .unwrap_or_default(),
            },
        };
        if tx.send(answer).is_err() {
            return;
        }
    }
}

/// The one box's answer to one query: the title search ([`titles`]) and, when `content` is
/// given, the content search, side by side on two threads.
pub fn answer(
    searcher: &mut Searcher,
    hays: &[Haystack],
    content: Option<&ContentIndex>,
    query: &str,
    order: Recency,
) -> ((Vec<usize>, usize), Vec<ContentHit>) {
    let Some(index) = content else {
        return (titles(searcher, hays, query, order), Vec::new());
    };
    thread::scope(|scope| {
        let hits = scope.spawn(|| index.search(query, PICKER_CONTENT_RESULTS));
        let ranked = titles(searcher, hays, query, order);
        (ranked, hits.join().unwrap_or_default())
    })
}

/// The one box's title search: the ranked rows, those whose own words hold the typed words
/// first when the query is also for the conversations, and how many those are.
pub fn titles(
    searcher: &mut Searcher,
    hays: &[Haystack],
    query: &str,
    order: Recency,
) -> (Vec<usize>, usize) {
    let ranked = searcher.search(hays, query, order);
    if !one_box::wants_conversations(query) {
        return (ranked, 0);
    }
    let words = one_box::words(query);
    one_box::words_first(ranked, |i| one_box::fit(hays[i].lower(), &words))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn row(id: &str, preview: &str) -> SessionRow {
        SessionRow {
            id: id.into(),
            path: PathBuf::from(format!("/s/{id}.jsonl")),
            preview: preview.into(),
            ..SessionRow::default()
        }
    }

    fn ranked(tx: &Sender<Request>, rx: &Receiver<Answer>, gen: u64, query: &str) -> Vec<usize> {
        tx.send(Request::Search {
            gen,
            query: query.into(),
            order: Recency::Updated,
            conversations: true,
        })
        .unwrap();
        match rx.recv_timeout(Duration::from_secs(10)).expect("an answer") {
            Answer::Ranked { gen: g, ranked, .. } if g == gen => ranked,
            _ => panic!("not the answer to search {gen}"),
        }
    }

    #[test]
    fn a_title_holding_the_whole_words_outranks_letters_inside_longer_words() {
        // Both match every letter compactly at word starts; the newer one only holds "test"
        // inside "tests".
        let mut rows = [
            row("newer", "tests fix"),
            row("older", "test fix, then tidy"),
        ];
        rows[0].updated_ms = 2;
        rows[1].updated_ms = 1;
        let hays: Vec<Haystack> = rows.iter().map(Haystack::new).collect();
        let mut searcher = Searcher::default();
        let fuzzy = searcher.search(&hays, "test fix", Recency::Updated);
        assert_eq!(
            fuzzy,
            [0, 1],
            "the fuzzy match alone puts the newer row first"
        );
        let (ranked, held) = titles(&mut searcher, &hays, "test fix", Recency::Updated);
        assert_eq!(
            (ranked.as_slice(), held),
            (&[1, 0][..], 1),
            "the whole words first"
        );
        // fzf's syntax keeps the title search's own order.
        let (ranked, held) = titles(&mut searcher, &hays, "'test fix", Recency::Updated);
        assert_eq!((ranked.as_slice(), held), (&[0, 1][..], 0));
    }

    #[test]
    fn rows_not_yet_prepared_are_searched_and_replaced_like_the_others() {
        let (tx, rx) = spawn(Waker::noop());
        tx.send(Request::AddRows(vec![
            Arc::new(row("a", "fix the parser")),
            Arc::new(row("b", "tidy")),
        ]))
        .unwrap();
        // Asked at once, before the rows settle: they are prepared for the query.
        assert_eq!(ranked(&tx, &rx, 1, "parser"), [0]);
        // A row replaced while still waiting to be prepared keeps its new text.
        tx.send(Request::AddRows(vec![Arc::new(row("c", "speed"))]))
            .unwrap();
        tx.send(Request::ReplaceRow(2, Arc::new(row("c", "parser docs"))))
            .unwrap();
        let mut hits = ranked(&tx, &rx, 2, "parser");
        hits.sort();
        assert_eq!(hits, [0, 2]);
        // Rows left to settle are prepared by then, and found the same.
        tx.send(Request::AddRows(vec![Arc::new(row("d", "quokka"))]))
            .unwrap();
        std::thread::sleep(SETTLE * 3);
        assert_eq!(ranked(&tx, &rx, 3, "quokka"), [3]);
    }
}
