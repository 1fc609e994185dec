//! The picker's state and its transitions: one [`Action`] enum, [`App::update`] returning an
//! [`Effect`], and `apply_*` for background messages (index events, search results,
//! transcripts). Requests for the workers are queued in an [`Outbox`] with generation numbers.
//!
//! Pure: no terminal, no files, no clock (the event loop sets [`App::now`]). Drawing reads this
//! state and never changes it.

mod background;
pub mod conversation;
pub mod geometry;
mod hits;
mod index_status;
mod pane;
mod resume;
mod scope;
mod screen;
mod searches;
mod types;

pub use index_status::IndexStatus;
pub use pane::{Pane, PaneContext};
pub use resume::{resume_command, shell_quote};
pub use screen::Screen;
pub use searches::{Freshness, Searches};
pub use types::*;

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;

use crate::search::{self, Query, Recency};
use crate::session::SessionRow;
use crate::timefmt::Millis;
pub use scope::in_scope;

pub struct App {
    pub opts: Options,
    pub rows: Vec<SessionRow>,
    pub query: String,
    pub parsed: Query,
    searches: Searches,
    /// Rows shown, in order.
    pub visible: Vec<usize>,
    pub hidden: Hidden,
    pub selected: usize,
    pub offset: usize,
    pub scope: Scope,
    pub order: Recency,
    pub show_exec: bool,
    pub show_archived: bool,
    index: IndexStatus,
    screen: Screen,
    pane: Pane,
    outbox: Outbox,
    scope_chosen: bool,
    /// A row of the current folder has been seen. Until one is (and unless the user chose a
    /// scope), the folder scope shows every folder: while indexing, an empty list would hide
    /// sessions already read for no reason.
    folder_seen: bool,
    /// Row index by file path (rows are never moved, only replaced or marked gone).
    /// Row index by path, keyed by the path's bytes (hashing a `Path` parses it).
    by_path: HashMap<OsString, usize>,
    /// Rows whose files vanished.
    gone: HashSet<usize>,
}

impl App {
    pub fn new(opts: Options, now: Millis) -> App {
        let mode = if opts.content {
            SearchMode::Content
        } else {
            SearchMode::Fuzzy
        };
        let mut app = App {
            scope: if opts.all || opts.scope_root.is_none() {
                Scope::All
            } else {
                Scope::Folder
            },
            show_exec: !opts.hide_exec,
            show_archived: opts.show_archived,
            query: opts.query.clone(),
            parsed: search::parse(&opts.query),
            scope_chosen: opts.all,
            folder_seen: false,
            opts,
            screen: Screen::new(now),
            rows: Vec::new(),
            searches: Searches::new(mode),
            visible: Vec::new(),
            hidden: Hidden::default(),
            selected: 0,
            offset: 0,
            order: Recency::Updated,
            index: IndexStatus::default(),
            pane: Pane::default(),
            outbox: Outbox::default(),
            by_path: HashMap::new(),
            gone: HashSet::new(),
        };
        app.parsed = search::parse(app.search_text());
        if !app.query.is_empty() {
            app.request_search();
        }
        app
    }

    /// The mode the current query runs in (a leading `/` asks for content search).
    pub fn effective_mode(&self) -> SearchMode {
        self.searches.effective_mode(&self.query)
    }

    pub fn content_mode(&self) -> bool {
        self.effective_mode() == SearchMode::Content
    }

    /// The query without its mode prefix.
    pub fn search_text(&self) -> &str {
        self.query
            .strip_prefix(CONTENT_PREFIX)
            .unwrap_or(&self.query)
    }

    /// Content search was asked for but its index is still being built.
    pub fn content_pending(&self) -> bool {
        self.content_mode() && self.searches.index().is_none() && !self.parsed.is_empty()
    }

    /// The conversation pane: its lines and where the reader is.
    pub fn pane(&self) -> &Pane {
        &self.pane
    }

    /// The searches asked and their newest answers.
    pub fn searches(&self) -> &Searches {
        &self.searches
    }

    /// What the indexer has said about its progress.
    pub fn index(&self) -> &IndexStatus {
        &self.index
    }

    pub fn selected_row(&self) -> Option<&SessionRow> {
        self.visible.get(self.selected).map(|&i| &self.rows[i])
    }

    /// A search is running for a newer query than the one shown.
    pub fn searching(&self) -> bool {
        !self.query.trim().is_empty() && self.searches.awaiting()
    }

    fn list_height(&self) -> usize {
        self.screen.list_height()
    }

    fn pane_height(&self) -> usize {
        self.screen.pane_height()
    }

    /// The terminal-wide state: size, layout, focus, help, the status message, the clock.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// The time the list's ages are counted to (the event loop sets it before each frame).
    pub fn set_now(&mut self, now: Millis) {
        self.screen.set_now(now);
    }

    pub fn take_outbox(&mut self) -> Outbox {
        std::mem::take(&mut self.outbox)
    }

    /// Apply one user action.
    pub fn update(&mut self, action: Action) -> Effect {
        if !matches!(action, Action::Resize(..) | Action::Wheel { .. }) {
            self.screen.clear_flash();
        }
        if !matches!(action, Action::Resize(..)) && self.screen.close_help() {
            if matches!(action, Action::ToggleHelp | Action::Escape) {
                return Effect::None;
            }
        }
        match action {
            Action::Insert(c) => {
                self.query.push(c);
                self.query_changed();
            }
            Action::Paste(text) => {
                let line = crate::sanitize::one_line(&text);
                self.query.push_str(line.trim());
                self.query_changed();
            }
            Action::DeleteBack => {
                if self.query.pop().is_some() {
                    self.query_changed();
                }
            }
            Action::DeleteWord => {
                let kept = self.query.trim_end().rfind(' ').map_or(0, |i| i + 1);
                if kept != self.query.len() {
                    self.query.truncate(kept);
                    self.query_changed();
                }
            }
            Action::ClearQuery => self.clear_query(),
            Action::MoveUp => self.select(self.selected.saturating_sub(1)),
            Action::MoveDown => self.select(self.selected + 1),
            Action::PageListUp => self.select(self.selected.saturating_sub(self.list_height())),
            Action::PageListDown => self.select(self.selected + self.list_height()),
            Action::First => self.select(0),
            Action::Last => self.select(self.visible.len().saturating_sub(1)),
            Action::Scroll(n) => self.scroll_by(i64::from(n)),
            Action::PageConversation(dir) => {
                let page = self.pane_height().saturating_sub(2).max(1) as i64;
                self.scroll_by(page * i64::from(dir.signum()));
            }
            Action::HalfPageConversation(dir) => {
                let half = (self.pane_height() / 2).max(1) as i64;
                self.scroll_by(half * i64::from(dir.signum()));
            }
            Action::FocusConversation => {
                self.screen.focus_on(Focus::Conversation);
                self.relayout();
            }
            Action::FocusList => {
                self.screen.focus_on(Focus::List);
                self.relayout();
            }
            Action::Accept => return self.accept(self.opts.exec),
            Action::ExecSelected => return self.accept(true),
            Action::Escape => {
                if self.screen.focus() == Focus::Conversation {
                    self.screen.focus_on(Focus::List);
                    self.relayout();
                } else if !self.query.is_empty() {
                    self.clear_query();
                } else {
                    return Effect::Quit(Outcome::Cancelled);
                }
            }
            Action::Quit => return Effect::Quit(Outcome::Cancelled),
            Action::ToggleScope => {
                let shown = self.effective_scope();
                self.scope_chosen = true;
                if self.opts.scope_root.is_none() {
                    self.screen.notify("no current folder to scope to");
                } else {
                    self.scope = match shown {
                        Scope::Folder => Scope::All,
                        Scope::All => Scope::Folder,
                    };
                    self.refilter(false);
                }
            }
            Action::ToggleSort => {
                self.order = match self.order {
                    Recency::Updated => Recency::Created,
                    Recency::Created => Recency::Updated,
                };
                self.request_search();
                self.refilter(false);
            }
            Action::ToggleExec => {
                self.show_exec = !self.show_exec;
                self.refilter(false);
            }
            Action::ToggleArchived => {
                self.show_archived = !self.show_archived;
                self.refilter(false);
            }
            Action::ToggleTools => {
                let ctx = self.pane_context();
                let row = self.visible.get(self.selected).map(|&i| &self.rows[i]);
                self.pane.toggle_tools(row, &ctx);
            }
            Action::ToggleContent => {
                let mode = if self.query.starts_with(CONTENT_PREFIX) {
                    self.query.remove(0);
                    SearchMode::Fuzzy
                } else {
                    match self.searches.mode() {
                        SearchMode::Fuzzy => SearchMode::Content,
                        SearchMode::Content => SearchMode::Fuzzy,
                    }
                };
                self.searches.set_mode(mode);
                self.searches.forget_answers();
                self.pane.invalidate();
                self.query_changed();
                self.rebuild_pane();
            }
            Action::JumpHit(forward) => {
                let ctx = self.pane_context();
                let said = self.pane.jump_hit(forward, &ctx);
                self.screen.notify(said);
            }
            Action::ToggleHelp => self.screen.open_help(),
            Action::CopyId => {
                if let Some(row) = self.selected_row() {
                    return Effect::Copy {
                        text: row.id.clone(),
                        what: "session id".into(),
                    };
                }
            }
            Action::CopyCommand => {
                if let Some(row) = self.selected_row() {
                    return Effect::Copy {
                        text: resume_command(row),
                        what: "resume command".into(),
                    };
                }
            }
            Action::Suspend => return Effect::Suspend,
            Action::Resize(w, h) => {
                self.screen.resize(w, h);
                self.relayout();
            }
            Action::Click(col, row) => {
                let list = self.screen.geometry().list;
                if geometry::contains(list, col, row) {
                    // Wide, the layout is the same whichever pane has the focus; narrow, the
                    // list is on screen only when it has it.
                    self.screen.focus_on(Focus::List);
                    let i = self.offset + usize::from(row - list.y);
                    if i < self.visible.len() {
                        self.select(i);
                    }
                }
            }
            Action::Wheel { col, row, down } => {
                let step = if down { 3 } else { -3 };
                let at = self.screen.geometry();
                if geometry::contains(at.conversation, col, row) {
                    self.scroll_by(step);
                } else if geometry::contains(at.list, col, row) {
                    let to = (self.selected as i64 + step).max(0);
                    self.select(usize::try_from(to).unwrap_or(0));
                }
            }
        }
        Effect::None
    }

    fn accept(&mut self, exec: bool) -> Effect {
        let Some(row) = self.selected_row() else {
            self.screen.notify("no session selected");
            return Effect::None;
        };
        if exec {
            return Effect::Quit(Outcome::Exec {
                id: row.id.clone(),
                cwd: row.cwd.clone(),
            });
        }
        let text = if self.opts.print_command {
            resume_command(row)
        } else {
            row.id.clone()
        };
        Effect::Quit(Outcome::Print(text))
    }

    fn clear_query(&mut self) {
        if !self.query.is_empty() {
            self.query.clear();
            self.query_changed();
        }
    }

    fn query_changed(&mut self) {
        self.parsed = search::parse(self.search_text());
        self.selected = 0;
        self.offset = 0;
        if self.parsed.is_empty() {
            self.searches.query_emptied();
            self.refilter(false);
        } else {
            self.request_search();
        }
    }

    fn request_search(&mut self) {
        if self.parsed.is_empty() {
            return;
        }
        let mode = self.effective_mode();
        if mode == SearchMode::Content {
            self.pane.invalidate();
        }
        let text = self.search_text().to_owned();
        match self.searches.ask(&text, mode, self.order) {
            Some(req) => self.outbox.search.push(req),
            None => self.refilter(false),
        }
    }

    /// Rows of the current scope and filters, ordered; keeps the selected session when asked.
    fn refilter(&mut self, keep: bool) {
        let keep_id = if keep {
            self.selected_row().map(|r| r.id.clone())
        } else {
            None
        };
        let base: Vec<usize> = match self.searches.matches() {
            Some(m) if !self.parsed.is_empty() => m.to_vec(),
            // The first answer for this query is on its way and refilters when it lands.
            _ if !self.parsed.is_empty() => return,
            _ => {
                let mut all: Vec<usize> = (0..self.rows.len()).collect();
                let rows = &self.rows;
                match self.order {
                    Recency::Updated => {
                        all.sort_by(|&a, &b| SessionRow::cmp_updated_desc(&rows[a], &rows[b]));
                    }
                    Recency::Created => {
                        all.sort_by(|&a, &b| SessionRow::cmp_created_desc(&rows[a], &rows[b]));
                    }
                }
                all
            }
        };
        let mut hidden = Hidden::default();
        let root = self.opts.scope_root.clone();
        let scope = self.effective_scope();
        self.visible = base
            .into_iter()
            .filter(|&i| {
                let row = &self.rows[i];
                if self.gone.contains(&i) {
                    false
                } else if scope == Scope::Folder && !in_scope(row, root.as_deref()) {
                    hidden.scope += 1;
                    false
                } else if !row.interactive && !self.show_exec {
                    hidden.exec += 1;
                    false
                } else if row.archived && !self.show_archived {
                    hidden.archived += 1;
                    false
                } else {
                    true
                }
            })
            .collect();
        self.hidden = hidden;
        let kept = keep_id.and_then(|id| self.visible.iter().position(|&i| self.rows[i].id == id));
        self.select(kept.unwrap_or(if keep { self.selected } else { 0 }));
    }

    /// Select a visible row (clamped), keep it on screen, and ask for its transcript.
    fn select(&mut self, i: usize) {
        self.selected = i.min(self.visible.len().saturating_sub(1));
        let h = self.list_height();
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + h {
            self.offset = self.selected + 1 - h;
        }
        self.offset = self.offset.min(self.visible.len().saturating_sub(h));
        self.want_transcript();
    }

    /// Show the selected session in the pane, asking for its transcript when not read yet.
    fn want_transcript(&mut self) {
        let ctx = self.pane_context();
        let row = self.visible.get(self.selected).map(|&i| &self.rows[i]);
        if let Some(job) = self.pane.show(row, &ctx) {
            self.outbox.transcripts.push(job);
        }
    }

    /// What the pane needs to know of the rest: its room and the content search.
    fn pane_context(&self) -> PaneContext {
        PaneContext {
            width: self.screen.pane_width(),
            height: self.screen.pane_height(),
            content_query: self.content_mode().then(|| self.search_text().to_owned()),
        }
    }

    fn relayout(&mut self) {
        self.select(self.selected);
        self.pane.invalidate();
        self.rebuild_pane();
    }

    /// Build the pane's lines again for the selected row.
    fn rebuild_pane(&mut self) {
        let ctx = self.pane_context();
        let row = self.visible.get(self.selected).map(|&i| &self.rows[i]);
        self.pane.rebuild(row, &ctx);
    }

    fn scroll_by(&mut self, delta: i64) {
        self.pane.scroll_by(delta, self.screen.pane_height());
    }

    /// Show a short message in the status line until the next key.
    pub fn notify(&mut self, text: impl Into<String>) {
        self.screen.notify(text);
    }
}

#[cfg(test)]
mod tests;
