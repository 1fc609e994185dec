//! The search thread: keeps its own copy of the rows' haystacks (prepared once rows stop
//! streaming in, or when a query needs them) and the content index once it is built, and runs
//! the newest query as a [`job`](crate::workers::job) (older queued ones are skipped); each
//! answer carries the generation the picker asked it under, so the picker can drop stale
//! answers. Typing never waits for it.

use std::thread;
use std::time::Duration;

use std::sync::Arc;

use crate::search::fulltext::{ContentHit, ContentIndex};
use crate::search::one_box::{self, Titles};
use crate::search::title::{Haystack, Recency, Searcher};
use crate::session::SessionRow;
use crate::workers::job::{Reply, SingleJob, Work};
use crate::workers::wake::Waker;

/// Sessions a content search in the picker returns: more than any list shows, few enough
/// that each keystroke stays fast.
pub const PICKER_CONTENT_RESULTS: usize = 50;

/// Rows that arrive are prepared for matching once none has come for this long, or as soon as
/// a query needs them: while the first index streams in, this thread then leaves the cores to
/// the indexer instead of preparing each batch as it comes.
const SETTLE: Duration = Duration::from_millis(60);

/// What the picker sends this thread: rows to search and the content index as notes, and
/// searches, each under the generation the picker gave it.
#[derive(Debug, Clone)]
pub enum Request {
    Note(Note),
    Ask { gen: u64, ask: Ask },
}

/// The answer to one search (the job's answer carries its generation).
pub enum Answer {
    /// The one box: the title search's ranked row indices, those whose own words hold the
    /// typed words first, and the conversations that hold the words, best first (none when
    /// not asked for).
    Ranked {
        titles: Titles,
        hits: Vec<ContentHit>,
    },
    /// Content search: matching sessions, best first.
    Content { hits: Vec<ContentHit> },
}

/// What the thread searches: every one is applied, in order.
#[derive(Debug, Clone)]
pub enum Note {
    /// New rows, in row order (shared with the picker: kept only until their haystacks are
    /// made).
    AddRows(Vec<Arc<SessionRow>>),
    /// A row changed in place.
    ReplaceRow(usize, Arc<SessionRow>),
    /// The content index is ready.
    ContentIndex(Arc<ContentIndex>),
}

/// A search: only the newest one waiting runs.
#[derive(Debug, Clone)]
pub enum Ask {
    /// The one box: the titles, and the conversations too when `conversations` is set and
    /// the content index is here.
    Titles {
        query: String,
        order: Recency,
        conversations: bool,
    },
    Content {
        query: String,
    },
}

/// The search thread's state: the haystacks, the rows still to prepare, and the content index.
#[derive(Default)]
pub struct Search {
    hays: Vec<Haystack>,
    searcher: Searcher,
    content: Option<Arc<ContentIndex>>,
    pending: Vec<Arc<SessionRow>>,
}

impl Search {
    fn prepare(&mut self) {
        self.hays
            .extend(self.pending.drain(..).map(|row| Haystack::new(&row)));
    }
}

impl Work for Search {
    type Note = Note;
    type Ask = Ask;
    type Answer = Answer;

    fn note(&mut self, note: Note) {
        match note {
            Note::AddRows(more) => self.pending.extend(more),
            Note::ReplaceRow(i, row) => {
                self.prepare();
                if let Some(slot) = self.hays.get_mut(i) {
                    *slot = Haystack::new(&row);
                    self.searcher.reset();
                }
            }
            Note::ContentIndex(index) => self.content = Some(index),
        }
    }

    fn run(&mut self, ask: Ask, reply: &mut Reply<'_, Self>) {
        self.prepare();
        let answer = match ask {
            Ask::Titles {
                query,
                order,
                conversations,
            } => {
                let content = self.content.as_deref().filter(|_| conversations);
                let (titles, hits) = answer(&mut self.searcher, &self.hays, content, &query, order);
                Answer::Ranked { titles, hits }
            }
            Ask::Content { query } => Answer::Content {
                hits: self
                    .content
                    .as_ref()
                    .map(|index| index.search(&query, PICKER_CONTENT_RESULTS))
                    .unwrap_or_default(),
            },
        };
        reply.send(answer);
    }

    fn idle(&self) -> Option<Duration> {
        (!self.pending.is_empty()).then_some(SETTLE)
    }

    fn rest(&mut self) {
        self.prepare();
    }
}

/// Start the thread; each answer wakes the loop through `waker`. It stops when the job is
/// dropped.
pub fn spawn(waker: Waker) -> SingleJob<Search> {
    SingleJob::spawn("codex-picker-search", Search::default(), waker)
}

impl SingleJob<Search> {
    /// Send one of the picker's requests: rows and the content index as notes, a search as an
    /// ask under the generation the picker gave it. `false` when the thread is gone (it
    /// panicked: the picker goes on without its answers).
    pub fn request(&mut self, req: Request) -> bool {
        match req {
            Request::Note(note) => self.note(note),
            Request::Ask { gen, ask } => self.submit_as(gen, ask).is_ok(),
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
) -> (Titles, Vec<ContentHit>) {
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
pub fn titles(searcher: &mut Searcher, hays: &[Haystack], query: &str, order: Recency) -> Titles {
    let ranked = searcher.search(hays, query, order);
    if !one_box::wants_conversations(query) {
        return Titles::in_order(ranked);
    }
    let words = one_box::words(query);
    one_box::words_first(ranked, |i| one_box::fit(hays[i].lower(), &words))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::job::Answered;
    use std::path::PathBuf;

    fn row(id: &str, preview: &str) -> SessionRow {
        SessionRow {
            id: id.into(),
            path: PathBuf::from(format!("/s/{id}.jsonl")),
            preview: preview.into(),
            ..SessionRow::default()
        }
    }

    fn ranked(job: &mut SingleJob<Search>, gen: u64, query: &str) -> Vec<usize> {
        let ask = Ask::Titles {
            query: query.into(),
            order: Recency::Updated,
            conversations: true,
        };
        assert!(job.request(Request::Ask { gen, ask }));
        match job
            .recv_timeout(Duration::from_secs(10))
            .expect("an answer")
        {
            Answered {
                gen: g,
                answer: Answer::Ranked { titles, .. },
            } if g == gen => titles.rows,
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
        let t = titles(&mut searcher, &hays, "test fix", Recency::Updated);
        assert_eq!(
            (t.rows.as_slice(), t.held),
            (&[1, 0][..], 1),
            "the whole words first"
        );
        // fzf's syntax keeps the title search's own order.
        let t = titles(&mut searcher, &hays, "'test fix", Recency::Updated);
        assert_eq!((t.rows.as_slice(), t.held), (&[0, 1][..], 0));
    }

    #[test]
    fn rows_not_yet_prepared_are_searched_and_replaced_like_the_others() {
        let mut job = spawn(Waker::noop());
        assert!(job.request(Request::Note(Note::AddRows(vec![
            Arc::new(row("a", "fix the parser")),
            Arc::new(row("b", "tidy")),
        ]))));
        // Asked at once, before the rows settle: they are prepared for the query.
        assert_eq!(ranked(&mut job, 1, "parser"), [0]);
        // A row replaced while still waiting to be prepared keeps its new text.
        assert!(job.request(Request::Note(Note::AddRows(vec![Arc::new(row(
            "c", "speed"
        ))]))));
        assert!(job.request(Request::Note(Note::ReplaceRow(
            2,
            Arc::new(row("c", "parser docs"))
        ))));
        let mut hits = ranked(&mut job, 2, "parser");
        hits.sort();
        assert_eq!(hits, [0, 2]);
        // Rows left to settle are prepared by then, and found the same.
        assert!(job.request(Request::Note(Note::AddRows(vec![Arc::new(row(
            "d", "quokka"
        ))]))));
        std::thread::sleep(SETTLE * 3);
        assert_eq!(ranked(&mut job, 3, "quokka"), [3]);
    }
}
