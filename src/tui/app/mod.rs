//! The picker's state and its transitions: [`App::update`] takes an
//! [`Action`](crate::tui::action::Action) and returns an [`Effect`], and `apply_*` for background messages (index events, search results,
//! transcripts). Requests for the workers are queued in an [`Outbox`] with generation numbers.
//!
//! [`App`] owns one sub-state per concern and routes actions and messages to them; none of them
//! holds or changes another:
//! - [`Rows`]: the sessions known so far;
//! - [`List`]: the query, the order, the rows shown and the selection;
//! - [`Filters`]: the scope and the exec and archived filters;
//! - [`Searches`]: the search mode, the searches asked and the newest answers;
//! - [`Pane`]: the conversation pane and the transcripts read;
//! - [`IndexStatus`]: the indexer's progress;
//! - [`Screen`]: size, layout, focus, help, the status message and the clock;
//! - [`Actions`]: the action menu, the questions, the rename box and the change codex is
//!   making;
//! - the thread locks as last read: which sessions another codex has open.
//!
//! What one needs of another (the selected row for the pane, the rows, the answer and the
//! filters for the list) `App` passes as an argument. No terminal and no clock: the time is
//! given ([`App::new`], then the event loop's [`App::set_now`] before each frame and each
//! key), and `date:` filters and the list's ages count from it. It opens no file; its one look
//! at the file system is whether the shown session's folder still exists (a `stat`, for the
//! pane's warning). Drawing reads this state and never changes it.

mod action_state;
mod background;
pub mod conversation;
mod filters;
mod find;
pub(crate) mod geometry;
mod hits;
mod index_status;
mod list;
mod open_elsewhere;
mod pane;
mod rename;
mod resume;
mod rows;
mod screen;
mod searches;
mod session_actions;
pub(crate) mod tool_view;
mod types;
mod update;
mod usage_keys;
mod usage_screen;
mod usage_view;

pub use action_state::{Actions, Dialog, Item, Running, MAX_NAME_CHARS, MENU};
pub use filters::{in_scope, Filters};
pub use index_status::IndexStatus;
pub use list::List;
pub use pane::{Pane, PaneContext};
use resume::Handoff;
pub use rows::Rows;
pub use screen::Screen;
pub use searches::{Freshness, Searches};
pub use types::*;
pub use usage_screen::UsageScreen;

use crate::session::SessionRow;
use crate::timefmt::Millis;
use crate::tui::action::{Action, HitStep};
use std::sync::Arc;

#[derive(Debug)]
pub struct App {
    /// What Enter hands back, and the user's arguments for codex.
    handoff: Handoff,
    rows: Rows,
    list: List,
    filters: Filters,
    searches: Searches,
    pane: Pane,
    index: IndexStatus,
    screen: Screen,
    actions: Actions,
    /// The thread locks as last read (`None`: not read yet).
    locks: Option<crate::store::locks::Snapshot>,
    /// A question about a session open elsewhere was answered `y`: the action it held goes
    /// through without asking again.
    asked_already: bool,
    outbox: Outbox,
    /// The keys in effect (the key table with the config file's `[keys]`).
    keys: crate::tui::keys::Keymap,
    /// The usage screen, when open, with the local zone it is drawn in (the offsets it asked
    /// the system kept while it is open).
    usage: Option<(UsageScreen, crate::usage::zone::Local)>,
    /// The config file's prices, for the usage screen's costs.
    prices: crate::prices::Prices,
}

impl App {
    pub fn new(opts: Options, now: Millis) -> App {
        let mode = if opts.content {
            SearchMode::Content
        } else {
            SearchMode::Fuzzy
        };
        let mut app = App {
            rows: Rows::default(),
            list: List::new(opts.query.clone(), opts.order, now),
            filters: Filters::new(&opts),
            searches: Searches::new(mode),
            pane: Pane::with_prices(opts.prices.clone()),
            index: IndexStatus::default(),
            screen: Screen::new(now),
            actions: Actions::default(),
            locks: None,
            asked_already: false,
            outbox: Outbox::default(),
            handoff: Handoff::new(&opts),
            keys: opts.keys.clone(),
            usage: None,
            prices: opts.prices.clone(),
        };
        app.pane.set_keys(key_hints(&app.keys));
        if !app.list.query().is_empty() {
            app.request_search();
        }
        app
    }

    /// Every row known, gone ones included (the list holds indices into it).
    pub fn rows(&self) -> &[Arc<SessionRow>] {
        self.rows.all()
    }

    /// The row of the file at `path`, if known.
    pub fn row_at(&self, path: &std::path::Path) -> Option<&SessionRow> {
        self.rows.index_of(path).map(|i| &*self.rows.all()[i])
    }

    /// The files of the rows the picker holds (for a later index run: see [`Rows::held`]).
    pub fn held_files(&self) -> crate::store::engine::Held {
        self.rows.held()
    }

    /// The indexer runs again (the store changed, or Ctrl+R).
    pub fn index_restarted(&mut self) {
        self.index.restart();
    }

    /// How many sessions are known, gone ones not counted.
    pub fn live_rows(&self) -> usize {
        self.rows.live()
    }

    /// The query, the rows shown and the selection.
    pub fn list(&self) -> &List {
        &self.list
    }

    /// The scope and the exec and archived filters.
    pub fn filters(&self) -> &Filters {
        &self.filters
    }

    /// The searches asked and their newest answers.
    pub fn searches(&self) -> &Searches {
        &self.searches
    }

    /// The conversation pane: its lines and where the reader is.
    pub fn pane(&self) -> &Pane {
        &self.pane
    }

    /// What the indexer has said about its progress.
    pub fn index(&self) -> &IndexStatus {
        &self.index
    }

    /// The terminal-wide state: size, layout, focus, help, the status message, the clock.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// The usage screen, when open.
    pub fn usage(&self) -> Option<&UsageScreen> {
        self.usage.as_ref().map(|(screen, _)| screen)
    }

    /// The keys in effect: dispatch, the help, the footer and the menu read them.
    pub fn keys(&self) -> &crate::tui::keys::Keymap {
        &self.keys
    }

    /// The time the list's ages and `date:` filters are counted to (the event loop sets it
    /// before each frame and each key).
    pub fn set_now(&mut self, now: Millis) {
        self.screen.set_now(now);
    }

    /// Show a short message in the status line until the next key.
    pub fn notify(&mut self, text: impl Into<String>) {
        self.screen.notify(text);
    }

    /// The work queued for the workers since the last call.
    pub fn take_outbox(&mut self) -> Outbox {
        std::mem::take(&mut self.outbox)
    }

    /// The mode the current query runs in (a leading `/` asks for content search).
    pub fn effective_mode(&self) -> SearchMode {
        self.searches.effective_mode(self.list.query())
    }

    pub fn content_mode(&self) -> bool {
        self.effective_mode() == SearchMode::Content
    }

    /// The pane opens the selected session at the typed words: the conversations alone are
    /// searched, or the one box found the session in its conversation.
    fn shows_conversation_hit(&self) -> bool {
        self.content_mode()
            || (self.list.visible().get(self.list.selected()))
                .is_some_and(|&i| self.searches.hit(i).is_some())
    }

    /// Content search was asked for but its index is still being built.
    pub fn content_pending(&self) -> bool {
        self.content_mode() && self.searches.index().is_none() && !self.list.parsed().is_empty()
    }

    /// A search is running for a newer query than the one shown.
    pub fn searching(&self) -> bool {
        !self.list.query().trim().is_empty() && self.searches.awaiting()
    }

    pub fn selected_row(&self) -> Option<&SessionRow> {
        self.list.selected_row(&self.rows)
    }

    /// The query changed: search again, or show every row when it is empty.
    fn query_changed(&mut self) {
        self.list.reparse(self.screen.now());
        if self.list.parsed().is_empty() {
            self.searches.query_emptied();
            self.refilter(Reselect::Top);
        } else {
            self.request_search();
        }
    }

    fn request_search(&mut self) {
        if self.list.parsed().is_empty() {
            return;
        }
        let mode = self.effective_mode();
        if mode == SearchMode::Content {
            self.pane.invalidate();
        }
        let asked = self
            .searches
            .ask(self.list.words(), mode, self.list.order());
        match asked {
            Some(req) => self.outbox.search.push(req),
            None => self.refilter(Reselect::Top),
        }
    }

    /// Rows of the current answer, scope and filters, ordered; the selection goes where
    /// `reselect` says.
    fn refilter(&mut self, reselect: Reselect) {
        let matches = self.searches.matches();
        if let Some(to) = self
            .list
            .refilter(&self.rows, matches, &self.filters, reselect)
        {
            self.select(to);
        }
    }

    /// Select a visible row (clamped), keep it on screen, and show it in the pane.
    fn select(&mut self, i: usize) {
        self.list.select(i, self.screen.list_height());
        self.want_transcript();
    }

    /// Show the selected session in the pane, asking for its transcript when not read yet.
    fn want_transcript(&mut self) {
        let ctx = self.pane_context();
        let row = self.list.selected_row(&self.rows);
        if let Some(job) = self.pane.show(row, &ctx) {
            self.outbox.transcripts.push(job);
        }
    }

    /// Build the pane's lines again for the selected row.
    fn rebuild_pane(&mut self) {
        let ctx = self.pane_context();
        self.pane.rebuild(self.list.selected_row(&self.rows), &ctx);
    }

    /// What the pane needs to know of the rest: its room and the content search.
    fn pane_context(&self) -> PaneContext {
        PaneContext {
            width: self.screen.pane_width(),
            height: self.screen.pane_height(),
            content_query: self
                .shows_conversation_hit()
                .then(|| self.list.words().to_owned()),
            open_in: self
                .selected_holder()
                .map(crate::store::locks::Holder::describe),
        }
    }

    /// The layout changed: the list keeps the selection in view, the pane is built again.
    fn relayout(&mut self) {
        self.select(self.list.selected());
        self.pane.invalidate();
        self.rebuild_pane();
    }

    fn scroll_by(&mut self, delta: i64) {
        self.pane.scroll_by(delta, self.screen.pane_height());
    }
}

#[cfg(test)]
mod tests;

/// The keys the pane's notes name, from the key table in effect (a key rebound to nothing
/// keeps its default's name out: the note then names none).
fn key_hints(keys: &crate::tui::keys::Keymap) -> conversation::KeyHints {
    use crate::tui::keys::{key_label, key_name};
    let name = |action: Action| key_name(keys, &action).unwrap_or_else(|| "no key".into());
    let label = |action: Action| key_label(keys, &action).unwrap_or_else(|| "no key".into());
    conversation::KeyHints {
        tools: name(Action::ToggleTools),
        reasoning: name(Action::ToggleReasoning),
        expand: label(Action::Expand { all: false }),
        expand_all: label(Action::Expand { all: true }),
        content: name(Action::ToggleContent),
        find: label(Action::FindStart),
        next_match: label(Action::JumpHit(HitStep::Next)),
        previous_match: label(Action::JumpHit(HitStep::Previous)),
    }
}
