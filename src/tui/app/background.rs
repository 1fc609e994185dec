//! Background messages routed to the sub-states: indexer events (rows streaming in, changed and
//! vanished files, progress, the content index), search answers (fuzzy and content) and
//! transcripts. Pure, like the rest of `app`.

use super::searches::Freshness;
use super::types::Reselect;
use super::App;
use crate::rollout::transcript::Transcript;
use crate::search::fulltext::{ContentHit, ContentIndex};
use crate::search::one_box::Titles;
use crate::session::SessionRow;
use crate::store::engine;
use crate::tui::action::Focus;
use crate::workers::conversation_reader::ReadError;
use crate::workers::indexer::Event;
use crate::workers::search::{Note, Request};
use std::sync::Arc;

impl App {
    /// An indexer event.
    pub fn apply_index(&mut self, event: Event) {
        self.index.apply(&event);
        let (event, whole) = match event {
            Event::Run(event) => (event, false),
            Event::Whole(event) => (event, true),
            Event::ContentProgress { .. } => return,
            Event::ContentReady(index) => return self.take_content_index(index),
        };
        match event {
            // A later run's cached rows, sent before it walks, are what the list has: taking
            // them would bring back, until the walk says they are gone, sessions deleted or
            // moved since the cache was written.
            engine::Event::Rows(_) if !whole && self.index.rerun_before_walk() => {}
            // Rows of a later run (the store read again) may be known already.
            event @ (engine::Event::Rows(_) | engine::Event::Updated(_)) => {
                self.take_rows(event.into_rows().unwrap_or_default());
            }
            engine::Event::Removed(paths) => {
                if let Some(row) = self.selected_row().filter(|r| paths.contains(&r.path)) {
                    let title = super::session_actions::short_title(row.title());
                    self.screen
                        .notify(format!("“{title}” is gone: its file was deleted"));
                }
                self.rows.remove(&paths);
                self.rows_changed();
            }
            engine::Event::Found { .. }
            | engine::Event::Issue(_)
            | engine::Event::Note(_)
            | engine::Event::Progress { .. } => {}
            // Every row is whole: a filter or sort on what sessions changed and used may keep
            // more rows now.
            engine::Event::Finished(_) if whole => self.rows_changed(),
            engine::Event::Finished(_) => {
                self.rows.run_ended();
                if self.filters.settle_scope() {
                    let root = self.filters.root().unwrap_or("");
                    self.screen.notify(format!(
                        "no sessions in {}: showing every folder",
                        crate::sanitize::one_line(root)
                    ));
                    self.refilter(Reselect::Keep);
                }
            }
        }
    }

    /// The content index as far as it goes: searches use it from now on.
    fn take_content_index(&mut self, index: Arc<ContentIndex>) {
        self.outbox
            .search
            .push(Request::Note(Note::ContentIndex(index.clone())));
        self.searches.set_index(index);
        // A query runs again on what is indexed now: the one box's looks in the conversations
        // too from now on.
        if !self.list.parsed().is_empty() {
            self.request_search();
        }
        self.pane.invalidate();
        self.rebuild_pane();
    }

    /// Rows from the indexer: new ones are added (the search worker prepares their haystacks,
    /// off this thread), known ones replace theirs; a session whose file changed is read again
    /// for the pane.
    fn take_rows(&mut self, rows: Vec<Arc<SessionRow>>) {
        self.filters.note(&rows);
        let (new, replaced) = self.rows.upsert(rows);
        if !new.is_empty() {
            self.outbox.search.push(Request::Note(Note::AddRows(new)));
        }
        for &(i, changed) in &replaced {
            let row = &self.rows.all()[i];
            if changed {
                self.pane.outdated(&row.id);
            }
            self.outbox
                .search
                .push(Request::Note(Note::ReplaceRow(i, Arc::clone(row))));
        }
        if !replaced.is_empty() {
            self.pane.invalidate();
        }
        self.rows_changed();
        self.want_transcript();
    }

    /// While the first index streams in, a selection still on the top row (with no query)
    /// follows the top, as rows do not arrive in order; afterwards, or once the user has moved,
    /// the selected session is kept wherever it goes.
    pub fn follows_top(&self) -> bool {
        !self.index.finished() && self.list.selected() == 0 && self.list.parsed().is_empty()
    }

    fn rows_changed(&mut self) {
        if self.list.parsed().is_empty() {
            let reselect = if self.follows_top() {
                Reselect::Top
            } else {
                Reselect::Keep
            };
            self.refilter(reselect);
        } else {
            self.request_search();
        }
    }

    /// A one-box answer (the title search's ranked rows and the conversations' hits); stale
    /// generations are dropped. A row whose own title, folder, branch or id holds the typed
    /// words whole comes first, then the conversations, then the other title matches.
    pub fn apply_search(&mut self, gen: u64, titles: Titles, hits: Vec<ContentHit>) {
        if self.content_mode() || self.list.parsed().is_empty() {
            return;
        }
        let rows = &self.rows;
        let Some(fresh) = self
            .searches
            .take_ranked(gen, &titles, hits, |path| rows.index_of(path))
        else {
            return;
        };
        self.pane.invalidate();
        self.refilter(self.reselect_for(fresh));
    }

    /// A content search answer: the matching sessions, best first, with their snippets.
    pub fn apply_content(&mut self, gen: u64, hits: Vec<ContentHit>) {
        if !self.content_mode() || self.list.parsed().is_empty() {
            return;
        }
        let rows = &self.rows;
        let Some(fresh) = self
            .searches
            .take_content(gen, hits, |path| rows.index_of(path))
        else {
            return;
        };
        self.pane.invalidate();
        self.refilter(self.reselect_for(fresh));
    }

    /// Rows streaming in under the same query keep the selection, and so does a selection the
    /// user moved or is reading in the pane; otherwise a new answer starts on top.
    fn reselect_for(&self, fresh: Freshness) -> Reselect {
        let reading = self.screen.focus() == Focus::Conversation;
        if fresh == Freshness::Repeated || self.list.selected() > 0 || reading {
            Reselect::Keep
        } else {
            Reselect::Top
        }
    }

    /// A transcript the worker read for session `id`; kept in the cache even when the user has
    /// moved on. Whatever its generation: transcripts are kept by session, so a late one is not
    /// stale.
    pub fn apply_transcript(&mut self, id: String, result: Result<Transcript, ReadError>) {
        let ctx = self.pane_context();
        let row = self.list.selected_row(&self.rows);
        // The pane shows the reason in place of the conversation.
        self.pane.loaded(id, result, row, &ctx);
    }
}
