//! The picker's one search box, measured in this process: the picker's own state ([`App`]) is
//! given every row and the content index, a query is pasted into it in the default mode, and
//! its searches are answered by the picker's own search thread until it asks no more; the rows
//! the list then shows, in order, are what a person would see.
//!
//! Every folder and archived sessions are shown (the measure is the ranking, not the filters).

use std::sync::Arc;
use std::time::Duration;

use codex_picker::search::fulltext::ContentIndex;
use codex_picker::session::SessionRow;
use codex_picker::tui::action::Action;
use codex_picker::tui::app::{App, Options};
use codex_picker::workers::indexer::Event;
use codex_picker::workers::job::{Answered, SingleJob};
use codex_picker::workers::search::{self, Answer, Search};
use codex_picker::workers::wake::Waker;

/// The picker, its rows and index given, with its search thread.
pub struct Picker {
    app: App,
    search: SingleJob<Search>,
}

impl Picker {
    pub fn new(rows: &[SessionRow], content: &ContentIndex) -> Picker {
        let opts = Options {
            all: true,
            show_archived: true,
            ..Options::default()
        };
        let mut app = App::new(opts, codex_picker::timefmt::now_ms());
        app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 120, 40)));
        app.apply_index(Event::rows(rows.to_vec()));
        app.apply_index(Event::finished(rows.len(), 0, Duration::ZERO));
        app.apply_index(Event::ContentReady(Arc::new(content.clone())));
        let search = search::spawn(Waker::noop());
        let mut p = Picker { app, search };
        p.settle();
        p
    }

    /// Hand the picker's queued searches to its thread and its answers back, until it waits
    /// for none.
    fn settle(&mut self) {
        loop {
            let out = self.app.take_outbox();
            for req in out.search {
                assert!(self.search.request(req), "the search thread");
            }
            if !self.app.searching() {
                return;
            }
            match self.search.recv_timeout(Duration::from_secs(60)) {
                Some(Answered {
                    gen,
                    answer: Answer::Ranked { titles, hits },
                }) => self.app.apply_search(gen, titles, hits),
                Some(Answered {
                    gen,
                    answer: Answer::Content { hits },
                }) => self.app.apply_content(gen, hits),
                None => panic!("the search thread did not answer"),
            }
        }
    }

    /// The title of the session `id` (empty when unknown).
    pub fn title_of(&self, id: &str) -> String {
        let rows = self.app.rows();
        rows.iter()
            .find(|r| r.id == id)
            .map(|r| r.title().chars().take(120).collect())
            .unwrap_or_default()
    }

    /// The ids of the first `n` rows shown for `query` typed into the empty box.
    pub fn top(&mut self, query: &str, n: usize) -> Vec<String> {
        self.app.update(Action::ClearQuery);
        self.settle();
        self.app.update(Action::Paste(query.to_owned()));
        self.settle();
        let rows = self.app.rows();
        self.app
            .list()
            .visible()
            .iter()
            .take(n)
            .map(|&i| rows[i].id.clone())
            .collect()
    }
}
