//! The picker's state and its transitions: one [`Action`] enum, [`App::update`] returning an
//! [`Effect`], and `apply_*` for background messages (index events, search results,
//! transcripts). Requests for the workers are queued in [`App::outbox`] with generation numbers.
//!
//! Pure: no terminal, no files, no clock (the event loop sets [`App::now`]). Drawing reads this
//! state and never changes it.

pub mod conversation;
pub mod geometry;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::index::Event;
use crate::search::{self, Haystack, Query, Recency};
use crate::session::SessionRow;
use crate::store::transcript::Transcript;
use crate::timefmt::Millis;
use conversation::PaneLine;
use geometry::Geometry;

/// Transcripts kept for instant switching back.
const TRANSCRIPT_CACHE: usize = 8;

/// How the query is matched. Content search (inside whole conversations) joins later.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchMode {
    #[default]
    Fuzzy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Sessions whose cwd is within the current folder's repository (or the folder).
    Folder,
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    List,
    Conversation,
}

/// Everything a user can ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Insert(char),
    Paste(String),
    DeleteBack,
    DeleteWord,
    ClearQuery,
    MoveUp,
    MoveDown,
    PageListUp,
    PageListDown,
    First,
    Last,
    /// Scroll the conversation by lines (negative: up).
    Scroll(i32),
    /// Scroll the conversation a page; the sign gives the direction.
    PageConversation(i32),
    /// Scroll the conversation half a page; the sign gives the direction.
    HalfPageConversation(i32),
    FocusConversation,
    FocusList,
    Accept,
    ExecSelected,
    Escape,
    Quit,
    ToggleScope,
    ToggleSort,
    ToggleExec,
    ToggleArchived,
    ToggleTools,
    ToggleHelp,
    CopyId,
    CopyCommand,
    Suspend,
    Resize(u16, u16),
    Click(u16, u16),
    Wheel {
        col: u16,
        row: u16,
        down: bool,
    },
}

/// What the picker ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Cancelled,
    Print(String),
    Exec { id: String, cwd: Option<String> },
}

/// What the event loop must do after an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    None,
    Quit(Outcome),
    /// Put `text` on the clipboard and say `what` was copied.
    Copy {
        text: String,
        what: String,
    },
    Suspend,
}

/// Work for the background threads.
#[derive(Debug, Clone)]
pub enum Request {
    /// New rows for the search worker, in row order.
    AddRows(Vec<Haystack>),
    /// A row changed in place.
    ReplaceRow(usize, Haystack),
    Search {
        gen: u64,
        query: String,
        order: Recency,
    },
    Transcript {
        gen: u64,
        id: String,
        path: PathBuf,
    },
}

/// How the picker starts.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The current folder's repository root (or the folder); `None` disables the folder scope.
    pub scope_root: Option<String>,
    pub all: bool,
    pub hide_exec: bool,
    pub show_archived: bool,
    pub print_command: bool,
    pub exec: bool,
    pub query: String,
}

/// Why rows are not shown, counted for the status line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hidden {
    pub scope: usize,
    pub exec: usize,
    pub archived: usize,
}

#[derive(Debug)]
pub struct App {
    pub opts: Options,
    pub now: Millis,
    pub rows: Vec<SessionRow>,
    pub hays: Vec<Haystack>,
    pub mode: SearchMode,
    pub query: String,
    pub parsed: Query,
    /// Ranked matches of the newest answered search (indices into `rows`).
    matches: Option<Vec<usize>>,
    search_gen: u64,
    answered_gen: u64,
    /// Rows shown, in order.
    pub visible: Vec<usize>,
    pub hidden: Hidden,
    pub selected: usize,
    pub offset: usize,
    pub scope: Scope,
    pub order: Recency,
    pub show_exec: bool,
    pub show_archived: bool,
    pub tools: bool,
    pub help: bool,
    pub focus: Focus,
    pub geometry: Geometry,
    pub size: (u16, u16),
    pub indexing: Option<(usize, usize)>,
    pub indexed: bool,
    pub issues: usize,
    pub flash: Option<String>,
    /// Transcripts by session id, newest last.
    cache: VecDeque<(String, Arc<Result<Transcript, String>>)>,
    transcript_gen: u64,
    pane_for: Option<(String, usize, bool)>,
    pub pane: Vec<PaneLine>,
    pub scroll: usize,
    pub outbox: Vec<Request>,
    scope_chosen: bool,
}

impl App {
    pub fn new(opts: Options, now: Millis) -> App {
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
            opts,
            now,
            rows: Vec::new(),
            hays: Vec::new(),
            mode: SearchMode::Fuzzy,
            matches: None,
            search_gen: 0,
            answered_gen: 0,
            visible: Vec::new(),
            hidden: Hidden::default(),
            selected: 0,
            offset: 0,
            order: Recency::Updated,
            tools: false,
            help: false,
            focus: Focus::List,
            geometry: Geometry::default(),
            size: (0, 0),
            indexing: None,
            indexed: false,
            issues: 0,
            flash: None,
            cache: VecDeque::new(),
            transcript_gen: 0,
            pane_for: None,
            pane: Vec::new(),
            scroll: 0,
            outbox: Vec::new(),
        };
        if !app.query.is_empty() {
            app.request_search();
        }
        app
    }

    pub fn selected_row(&self) -> Option<&SessionRow> {
        self.visible.get(self.selected).map(|&i| &self.rows[i])
    }

    /// A search is running for a newer query than the one shown.
    pub fn searching(&self) -> bool {
        !self.query.trim().is_empty() && self.answered_gen < self.search_gen
    }

    fn list_height(&self) -> usize {
        usize::from(self.geometry.list.height).max(1)
    }

    fn pane_height(&self) -> usize {
        usize::from(self.geometry.conversation.height).max(1)
    }

    pub fn take_outbox(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.outbox)
    }

    /// Apply one user action.
    pub fn update(&mut self, action: Action) -> Effect {
        if !matches!(action, Action::Resize(..) | Action::Wheel { .. }) {
            self.flash = None;
        }
        if self.help && !matches!(action, Action::Resize(..)) {
            self.help = false;
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
                self.focus = Focus::Conversation;
                self.relayout();
            }
            Action::FocusList => {
                self.focus = Focus::List;
                self.relayout();
            }
            Action::Accept => return self.accept(self.opts.exec),
            Action::ExecSelected => return self.accept(true),
            Action::Escape => {
                if self.focus == Focus::Conversation {
                    self.focus = Focus::List;
                    self.relayout();
                } else if !self.query.is_empty() {
                    self.clear_query();
                } else {
                    return Effect::Quit(Outcome::Cancelled);
                }
            }
            Action::Quit => return Effect::Quit(Outcome::Cancelled),
            Action::ToggleScope => {
                self.scope_chosen = true;
                if self.opts.scope_root.is_none() {
                    self.flash = Some("no current folder to scope to".into());
                } else {
                    self.scope = match self.scope {
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
                self.tools = !self.tools;
                self.scroll = 0;
                self.rebuild_pane();
            }
            Action::ToggleHelp => self.help = true,
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
                self.size = (w, h);
                self.relayout();
            }
            Action::Click(col, row) => {
                let list = self.geometry.list;
                if geometry::contains(list, col, row) {
                    self.focus = Focus::List;
                    let i = self.offset + usize::from(row - list.y);
                    if i < self.visible.len() {
                        self.select(i);
                    }
                }
            }
            Action::Wheel { col, row, down } => {
                let step = if down { 3 } else { -3 };
                if geometry::contains(self.geometry.conversation, col, row) {
                    self.scroll_by(step);
                } else if geometry::contains(self.geometry.list, col, row) {
                    let to = (self.selected as i64 + step).max(0);
                    self.select(usize::try_from(to).unwrap_or(0));
                }
            }
        }
        Effect::None
    }

    fn accept(&mut self, exec: bool) -> Effect {
        let Some(row) = self.selected_row() else {
            self.flash = Some("no session selected".into());
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
        self.parsed = search::parse(&self.query);
        self.selected = 0;
        self.offset = 0;
        if self.parsed.is_empty() {
            self.matches = None;
            self.answered_gen = self.search_gen;
            self.refilter(false);
        } else {
            self.request_search();
        }
    }

    fn request_search(&mut self) {
        if self.parsed.is_empty() {
            return;
        }
        self.search_gen += 1;
        self.outbox.push(Request::Search {
            gen: self.search_gen,
            query: self.query.clone(),
            order: self.order,
        });
    }

    /// Rows of the current scope and filters, ordered; keeps the selected session when asked.
    fn refilter(&mut self, keep: bool) {
        let keep_id = if keep {
            self.selected_row().map(|r| r.id.clone())
        } else {
            None
        };
        let base: Vec<usize> = match &self.matches {
            Some(m) if !self.parsed.is_empty() => m.clone(),
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
        self.visible = base
            .into_iter()
            .filter(|&i| {
                let row = &self.rows[i];
                if self.scope == Scope::Folder && !in_scope(row, root.as_deref()) {
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

    fn want_transcript(&mut self) {
        let Some(row) = self.selected_row() else {
            self.pane_for = None;
            self.pane.clear();
            return;
        };
        let (id, path) = (row.id.clone(), row.path.clone());
        if self.pane_for.as_ref().is_some_and(|(p, _, _)| *p == id) {
            return;
        }
        self.scroll = 0;
        if !self.cache.iter().any(|(c, _)| *c == id) {
            self.transcript_gen += 1;
            self.outbox.push(Request::Transcript {
                gen: self.transcript_gen,
                id,
                path,
            });
        }
        self.rebuild_pane();
    }

    fn relayout(&mut self) {
        let (w, h) = self.size;
        let full = self.focus == Focus::Conversation;
        self.geometry = Geometry::new(w, h, full);
        self.select(self.selected);
        self.pane_for = None;
        self.rebuild_pane();
    }

    /// Recompute the pane lines for the selected row, width and tool setting.
    fn rebuild_pane(&mut self) {
        let width = usize::from(self.geometry.conversation_text().width);
        let Some(row) = self.selected_row() else {
            self.pane.clear();
            self.pane_for = None;
            return;
        };
        let id = row.id.clone();
        let cached = self
            .cache
            .iter()
            .find(|(c, _)| *c == id)
            .map(|(_, t)| t.clone());
        self.pane = conversation::build(row, cached.as_deref(), width, self.tools);
        self.pane_for = Some((id, width, self.tools));
        self.scroll_by(0);
    }

    fn scroll_by(&mut self, delta: i64) {
        let max = self.pane.len().saturating_sub(self.pane_height()) as i64;
        let to = (self.scroll as i64 + delta).clamp(0, max.max(0));
        self.scroll = usize::try_from(to).unwrap_or(0);
    }

    /// An indexer event.
    pub fn apply_index(&mut self, event: Event) {
        match event {
            Event::Found { total } => self.indexing = Some((0, total)),
            Event::Rows(rows) => {
                let hays: Vec<Haystack> = rows.iter().map(Haystack::new).collect();
                self.hays.extend(hays.iter().cloned());
                self.rows.extend(rows);
                self.outbox.push(Request::AddRows(hays));
                self.rows_changed();
            }
            Event::Updated(rows) => {
                for row in rows {
                    if let Some(i) = self.rows.iter().position(|r| r.path == row.path) {
                        let hay = Haystack::new(&row);
                        self.hays[i] = hay.clone();
                        self.rows[i] = row;
                        self.outbox.push(Request::ReplaceRow(i, hay));
                    }
                }
                self.pane_for = None;
                self.rows_changed();
            }
            Event::Issue(_) => self.issues += 1,
            Event::Progress { done, total } => self.indexing = Some((done, total)),
            Event::Finished { .. } => {
                self.indexing = None;
                self.indexed = true;
                let in_scope = self
                    .rows
                    .iter()
                    .any(|r| in_scope(r, self.opts.scope_root.as_deref()));
                if self.scope == Scope::Folder && !self.scope_chosen && !in_scope {
                    self.scope = Scope::All;
                    let root = self.opts.scope_root.as_deref().unwrap_or("");
                    self.flash = Some(format!(
                        "no sessions in {}: showing every folder",
                        crate::sanitize::one_line(root)
                    ));
                    self.refilter(true);
                }
            }
        }
    }

    fn rows_changed(&mut self) {
        if self.parsed.is_empty() {
            self.refilter(true);
        } else {
            self.request_search();
        }
    }

    /// A search answer; stale generations are dropped.
    pub fn apply_search(&mut self, gen: u64, ranked: Vec<usize>) {
        if gen < self.answered_gen || gen > self.search_gen || self.parsed.is_empty() {
            return;
        }
        let fresh = gen > self.answered_gen;
        self.answered_gen = gen;
        self.matches = Some(ranked);
        // Rows streaming in under the same query keep the selection; a new query starts on top.
        self.refilter(!fresh || self.selected > 0);
    }

    /// A transcript answer; kept in the cache even when the user has moved on.
    pub fn apply_transcript(&mut self, gen: u64, id: String, result: Result<Transcript, String>) {
        let _ = gen;
        self.cache.retain(|(c, _)| *c != id);
        self.cache.push_back((id.clone(), Arc::new(result)));
        while self.cache.len() > TRANSCRIPT_CACHE {
            self.cache.pop_front();
        }
        if self.selected_row().is_some_and(|r| r.id == id) {
            let scroll = self.scroll;
            self.rebuild_pane();
            self.scroll = scroll;
            self.scroll_by(0);
        }
    }

    /// Show a short message in the status line until the next key.
    pub fn notify(&mut self, text: impl Into<String>) {
        self.flash = Some(text.into());
    }
}

/// A row belongs to the folder scope when its cwd is `root` or below it.
pub fn in_scope(row: &SessionRow, root: Option<&str>) -> bool {
    match (root, row.cwd.as_deref()) {
        (Some(root), Some(cwd)) => crate::commands::cwd_within(cwd, Path::new(root)),
        (None, _) => true,
        _ => false,
    }
}

/// Quote for a POSIX shell: bare when safe, else single quotes.
pub fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@%+=,".contains(c));
    if safe {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// `cd <cwd> && codex resume <id>` (just the resume when the cwd is unknown).
pub fn resume_command(row: &SessionRow) -> String {
    let resume = format!("codex resume {}", shell_quote(&row.id));
    match row.cwd.as_deref() {
        Some(cwd) if !cwd.is_empty() => format!("cd {} && {resume}", shell_quote(cwd)),
        _ => resume,
    }
}

#[cfg(test)]
mod tests;
