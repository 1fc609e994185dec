//! The conversation pane's state: the selected session's lines as built for the pane's width
//! (built as the reader comes to them: a few screens ahead of where the reader is, so the
//! first screen and each page of a session of any size cost what they show), where the reader is, what is shown (tool calls, reasoning, which calls are expanded), the
//! transcripts read so far (the last few, for instant switching back), the content-search hits
//! and the find in the pane. Code blocks are highlighted when they first come on screen. Asks
//! for a transcript by returning the [`Job`]; it never sees the other sub-states, only what
//! [`PaneContext`] and the selected row tell it.

use std::collections::VecDeque;
use std::sync::Arc;

use super::conversation::{self, Built, EntryAt, EntryKind, PaneLine, View};
use super::find::Find;
use super::hits::Hits;
use crate::rollout::transcript::{Entry, Transcript};
use crate::session::SessionRow;
use crate::tui::action::HitStep;
use crate::workers::conversation_reader::{Job, ReadError};

/// Transcripts kept for instant switching back.
const TRANSCRIPT_CACHE: usize = 8;

/// Lines built ahead of the screen: this many screens, and at least [`AHEAD_MIN`] lines.
const AHEAD_SCREENS: usize = 3;
const AHEAD_MIN: usize = 200;

/// What the pane is built for besides its session.
#[derive(Debug, Clone)]
pub struct PaneContext {
    /// Cells of text on a line.
    pub width: usize,
    /// Lines on screen.
    pub height: usize,
    /// The content search whose hits are marked; `None` in fuzzy search.
    pub content_query: Option<String>,
    /// Which other codex has the session open ("open in codex, pid 42"), if one does.
    pub open_in: Option<String>,
}

type Read = Arc<Result<Transcript, ReadError>>;

/// Where the reader is, by entry: kept across a rebuild that changes the lines above.
#[derive(Debug, Clone, Copy)]
struct Anchor {
    entry: usize,
    /// Lines from the entry's first line to the top of the pane.
    offset: usize,
}

#[derive(Debug, Clone, Default)]
pub struct Pane {
    built: Built,
    /// Which of `built.code` are highlighted already.
    lit: Vec<bool>,
    scroll: usize,
    /// Where the pane was put for the shown session (its top, or a content hit): the reader
    /// has moved when `scroll` is elsewhere, and a later answer does not move it again.
    placed: usize,
    view: View,
    /// Transcripts by session id, newest last.
    cache: VecDeque<(String, Read)>,
    /// The generation of the newest transcript asked for.
    asked: u64,
    /// The session the lines were built for; `None` has them built again.
    built_for: Option<String>,
    /// The session the pane last showed.
    shown: Option<String>,
    /// Sessions whose file changed since their transcript was read: read again when shown
    /// (the old one is shown until then).
    stale: Vec<String>,
    hits: Hits,
    find: Find,
    /// The width the lines are built for.
    width: usize,
}

impl Pane {
    /// The lines of the selected session, from the top.
    /// An empty pane whose header prices tokens with `prices`.
    pub fn with_prices(prices: crate::prices::Prices) -> Pane {
        let mut pane = Pane::default();
        pane.view.prices = Arc::new(prices);
        pane
    }

    pub fn lines(&self) -> &[PaneLine] {
        &self.built.lines
    }

    /// Line `n` as drawn: with the find's matches marked.
    pub fn drawn_line(&self, n: usize) -> Option<std::borrow::Cow<'_, PaneLine>> {
        let line = self.built.lines.get(n)?;
        Some(match self.find.marked(line, n) {
            Some(marked) => std::borrow::Cow::Owned(marked),
            None => std::borrow::Cow::Borrowed(line),
        })
    }

    /// The lines of a fork's parent history, drawn dimmed.
    pub fn inherited(&self) -> Option<std::ops::Range<usize>> {
        self.built.inherited.clone()
    }

    /// How many lines the whole conversation has (estimated from the lines built so far,
    /// while not every entry is built): the scroll bar's length.
    pub fn line_total(&self) -> usize {
        let Some(next) = self.built.next else {
            return self.built.lines.len();
        };
        let entries = self
            .transcript()
            .and_then(|t| t.as_ref().as_ref().ok().map(|t| t.entries.len()))
            .unwrap_or(next);
        self.built.estimated_lines(entries)
    }

    /// The first line on screen.
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// Lines holding a content-search hit, in order.
    pub fn hit_lines(&self) -> &[usize] {
        self.hits.lines()
    }

    /// The find in the pane.
    pub fn find(&self) -> &Find {
        &self.find
    }

    /// What is shown besides the messages.
    /// Name these keys in the pane's notes (the key table's, once it is read).
    pub fn set_keys(&mut self, keys: super::conversation::KeyHints) {
        self.view.keys = keys;
    }

    pub fn view(&self) -> &View {
        &self.view
    }

    /// The transcript of the session shown, when read.
    pub fn transcript(&self) -> Option<Read> {
        self.cached(self.shown.as_deref()?)
    }

    /// Show `row` (the selection, if any): a different session is read from the top (a content
    /// search opens it at its first hit), the same one, shown again after a background update,
    /// keeps its place. Returns the transcript to read when it is not read yet.
    pub fn show(&mut self, row: Option<&SessionRow>, ctx: &PaneContext) -> Option<Job> {
        let Some(row) = row else {
            self.built_for = None;
            self.built = Built::default();
            return None;
        };
        if self.built_for.as_deref() == Some(row.id.as_str()) {
            return None;
        }
        if self.shown.as_deref() != Some(row.id.as_str()) {
            self.scroll = 0;
            self.placed = 0;
            self.hits.forget_opened();
            self.find.cancel();
            self.view.expanded = Default::default();
            self.shown = Some(row.id.clone());
        }
        let stale = self.stale.iter().position(|s| *s == row.id);
        if let Some(at) = stale {
            self.stale.swap_remove(at);
        }
        let job = (self.cached(&row.id).is_none() || stale.is_some()).then(|| {
            self.asked += 1;
            Job {
                gen: self.asked,
                id: row.id.clone(),
                path: row.path.clone(),
            }
        });
        self.rebuild(Some(row), ctx);
        job
    }

    /// Session `id`'s file changed (it grew, or was rewritten): its transcript is read again
    /// the next time it is shown, and the pane keeps its reading position when it comes.
    pub fn outdated(&mut self, id: &str) {
        if self.cached_ref(id).is_some() && !self.stale.iter().any(|s| s == id) {
            self.stale.push(id.to_owned());
        }
        if self.built_for.as_deref() == Some(id) {
            self.built_for = None;
        }
    }

    /// The lines are stale (the row, the width or the content search changed): the next
    /// [`Pane::show`] builds them again.
    pub fn invalidate(&mut self) {
        self.built_for = None;
    }

    /// Build the lines for `row` (the selection), the context and the view: a few screens
    /// past where the reader is, every line when a search must see them all.
    pub fn rebuild(&mut self, row: Option<&SessionRow>, ctx: &PaneContext) {
        let Some(row) = row else {
            self.built = Built::default();
            self.built_for = None;
            return;
        };
        let cached = self.cached(&row.id);
        self.view.folder_missing = folder_missing(row);
        self.view.open_in.clone_from(&ctx.open_in);
        self.width = ctx.width;
        let query = ctx.content_query.as_deref();
        let until = if query.is_some() || self.find.active() {
            usize::MAX
        } else {
            self.scroll + ahead(ctx.height)
        };
        self.built = conversation::build(row, cached.as_deref(), ctx.width, &self.view, until);
        self.lit = vec![false; self.built.code.len()];
        self.hits.mark(&mut self.built.lines, query);
        if self.find.active() {
            self.find.search(&self.built.lines, self.scroll);
        }
        self.built_for = Some(row.id.clone());
        // A session shown for a new content query opens at its first hit, once it is read,
        // unless the reader has moved in it since it was shown or last put at a hit.
        if let (Some(_), Some(query)) = (&cached, query) {
            if self.scroll == self.placed && self.hits.first_time(&row.id, query) {
                // A hit in the top half of the first screen is in view from the top, header
                // and all.
                if let Some(line) = self.hits.first().filter(|&l| l >= ctx.height / 2) {
                    self.show_line(line, ctx.height);
                    self.placed = self.scroll;
                    return;
                }
            }
        }
        self.scroll_by(0, ctx.height);
    }

    /// Build entries until line `until` exists, or every entry is built.
    fn ensure(&mut self, until: usize) {
        if self.built.next.is_none() || self.built.lines.len() >= until {
            return;
        }
        let Some(read) = self.transcript() else {
            return;
        };
        let Ok(t) = read.as_ref() else { return };
        conversation::extend(&mut self.built, t, self.width, &self.view, until);
        self.lit.resize(self.built.code.len(), false);
    }

    /// Build entries until entry `entry` (or the first one after it that is shown) is built.
    fn ensure_entry(&mut self, entry: usize) {
        while self.built.next.is_some_and(|next| next <= entry) {
            let more = self.built.lines.len() + AHEAD_MIN;
            self.ensure(more);
        }
    }

    /// A transcript read by the worker; kept even when the user has moved on. `selected` is the
    /// selection now: when it is this session, the pane shows it where the reader was (or at
    /// its first hit when it opens there).
    pub fn loaded(
        &mut self,
        id: String,
        result: Result<Transcript, ReadError>,
        selected: Option<&SessionRow>,
        ctx: &PaneContext,
    ) {
        self.cache.retain(|(c, _)| *c != id);
        self.cache.push_back((id.clone(), Arc::new(result)));
        while self.cache.len() > TRANSCRIPT_CACHE {
            self.cache.pop_front();
        }
        if selected.is_some_and(|r| r.id == id) {
            let anchor = self.anchor();
            let (scroll, opened) = (self.scroll, self.hits.opened_for().cloned());
            self.rebuild(selected, ctx);
            if self.hits.opened_for() == opened.as_ref() {
                self.scroll = scroll;
                self.restore(anchor, ctx.height);
            }
        }
    }

    /// Change what is shown, keeping the entry at the top in place (`f` changes the view).
    fn reshow(&mut self, row: Option<&SessionRow>, ctx: &PaneContext, f: impl FnOnce(&mut View)) {
        let anchor = self.anchor();
        f(&mut self.view);
        self.rebuild(row, ctx);
        self.restore(anchor, ctx.height);
    }

    /// What the header says of the session changed (its name, another codex opening it):
    /// build the lines again, the reader kept where they were.
    pub fn header_changed(&mut self, row: Option<&SessionRow>, ctx: &PaneContext) {
        self.reshow(row, ctx, |_| {});
    }

    /// Show or hide tool calls.
    pub fn toggle_tools(&mut self, row: Option<&SessionRow>, ctx: &PaneContext) {
        self.reshow(row, ctx, |v| v.tools = !v.tools);
    }

    /// Show or hide reasoning; returns what to tell the user.
    pub fn toggle_reasoning(&mut self, row: Option<&SessionRow>, ctx: &PaneContext) -> String {
        self.reshow(row, ctx, |v| v.reasoning = !v.reasoning);
        if self.view.reasoning {
            "reasoning shown"
        } else {
            "reasoning hidden"
        }
        .into()
    }

    /// Expand or collapse the tool call on screen (the first one in view, else the last one
    /// above); `all` expands or collapses every call. Returns what to tell the user.
    pub fn toggle_expand(
        &mut self,
        row: Option<&SessionRow>,
        ctx: &PaneContext,
        all: bool,
    ) -> String {
        if all {
            if !self.view.tools {
                return format!("tool calls are hidden: {} shows them", self.view.keys.tools);
            }
            self.reshow(row, ctx, |v| {
                v.expanded.all = !v.expanded.all;
                v.expanded.flipped.clear();
            });
            return if self.view.expanded.all {
                "every tool call expanded"
            } else {
                "every tool call collapsed"
            }
            .into();
        }
        let Some(target) = self.tool_in_view(ctx.height) else {
            return "no tool call on screen".into();
        };
        let top = target.line.saturating_sub(self.scroll);
        flip(&mut self.view, target.entry);
        self.rebuild(row, ctx);
        if let Some(now) = self.built.entries.iter().find(|e| e.entry == target.entry) {
            self.scroll = now.line.saturating_sub(top);
            self.scroll_by(0, ctx.height);
        }
        if self.view.expanded.is(target.entry) {
            "tool call expanded"
        } else {
            "tool call collapsed"
        }
        .into()
    }

    /// The tool call (or marker: a compaction's summary expands) on screen.
    fn tool_in_view(&self, height: usize) -> Option<EntryAt> {
        let tools = self
            .built
            .entries
            .iter()
            .filter(|e| matches!(e.kind, EntryKind::Tool | EntryKind::Marker));
        let end = self.scroll + height;
        tools
            .clone()
            .find(|e| e.line >= self.scroll && e.line < end)
            .or_else(|| tools.rev().find(|e| e.line < self.scroll))
            .copied()
    }

    /// The entry at the top of the pane and how far into it the reader is.
    fn anchor(&self) -> Option<Anchor> {
        let e = self
            .built
            .entries
            .iter()
            .rev()
            .find(|e| e.line <= self.scroll)?;
        Some(Anchor {
            entry: e.entry,
            offset: self.scroll - e.line,
        })
    }

    fn restore(&mut self, anchor: Option<Anchor>, height: usize) {
        if let Some(a) = anchor {
            self.ensure_entry(a.entry);
            // The entry itself, or the nearest one before it that is still shown.
            let at = self.built.entries.iter().rev().find(|e| e.entry <= a.entry);
            if let Some(e) = at {
                let offset = if e.entry == a.entry { a.offset } else { 0 };
                self.scroll = e.line + offset;
            }
        }
        self.scroll_by(0, height);
    }

    /// Scroll by `delta` lines (negative: up), within the lines for a pane `height` high; the
    /// code blocks that come on screen are highlighted.
    pub fn scroll_by(&mut self, delta: i64, height: usize) {
        let wanted = (self.scroll as i64 + delta).max(0) as usize;
        self.ensure(wanted + ahead(height));
        let max = self.built.lines.len().saturating_sub(height) as i64;
        let to = (self.scroll as i64 + delta).clamp(0, max.max(0));
        self.scroll = usize::try_from(to).unwrap_or(0);
        self.light(height);
    }

    /// Highlight the code blocks on screen that are not yet.
    fn light(&mut self, height: usize) {
        let (from, to) = (self.scroll, self.scroll + height);
        for (i, block) in self.built.code.iter().enumerate() {
            if self.lit[i] || block.first >= to || block.first + block.count <= from {
                continue;
            }
            self.lit[i] = true;
            let mut lines = block.highlighted();
            if lines.len() != block.count {
                continue;
            }
            self.hits.mark_again(&mut lines);
            let range = block.first..block.first + block.count;
            self.built.lines.splice(range, lines);
        }
    }

    /// Go to the first or the last line.
    pub fn to_end(&mut self, last: bool, height: usize) {
        if last {
            self.ensure(usize::MAX);
        }
        self.scroll = if last { usize::MAX / 2 } else { 0 };
        self.scroll_by(0, height);
    }

    /// Go to the next or previous message (`prompts`: user prompt); returns what to tell the
    /// user when there is none.
    pub fn jump_entry(&mut self, step: HitStep, prompts: bool, height: usize) -> Option<String> {
        let wanted = |e: &&EntryAt| match prompts {
            true => e.kind == EntryKind::User,
            false => matches!(e.kind, EntryKind::User | EntryKind::Assistant),
        };
        if step == HitStep::Next {
            // The next one may be past what is built.
            while self.built.next.is_some()
                && !self
                    .built
                    .entries
                    .iter()
                    .any(|e| wanted(&e) && e.line > self.scroll)
            {
                let more = self.built.lines.len() + ahead(height);
                self.ensure(more);
            }
        }
        let mut entries = self.built.entries.iter().filter(wanted);
        let to = match step {
            HitStep::Next => entries.find(|e| e.line > self.scroll),
            HitStep::Previous => entries.rev().find(|e| e.line < self.scroll),
        };
        let what = if prompts { "prompt" } else { "message" };
        let Some(to) = to.copied() else {
            let side = if step == HitStep::Next {
                "after"
            } else {
                "before"
            };
            return Some(format!("no {what} {side} this one"));
        };
        self.scroll = to.line;
        self.scroll_by(0, height);
        None
    }

    /// The message at the top of the pane (the last one starting at or above it).
    pub fn message_at_top(&self) -> Option<&Entry> {
        let is_message = |e: &&EntryAt| matches!(e.kind, EntryKind::User | EntryKind::Assistant);
        let mut messages = self.built.entries.iter().filter(is_message);
        let at = messages
            .clone()
            .rev()
            .find(|e| e.line <= self.scroll + 1)
            .or_else(|| messages.next())?;
        self.cache_entry(at.entry)
    }

    fn cache_entry(&self, i: usize) -> Option<&Entry> {
        let read = self.cached_ref(self.shown.as_deref()?)?;
        read.as_ref().as_ref().ok()?.entries.get(i)
    }

    /// Start typing a find query: it searches every line, so every line is built.
    pub fn find_start(&mut self) {
        self.ensure(usize::MAX);
        self.find.start();
    }

    /// A key while the find query is typed: the query changes and the pane moves to the first
    /// match from where the reader is.
    pub fn find_edit(&mut self, c: Option<char>, height: usize) {
        match c {
            Some(c) => self.find.push(c),
            None => self.find.pop(),
        }
        self.find.search(&self.built.lines, self.scroll);
        if let Some(line) = self.find.current() {
            self.show_line(line, height);
        }
    }

    /// Enter (keep the matches) or Esc (drop them) while typing.
    pub fn find_end(&mut self, keep: bool) -> Option<String> {
        if keep && self.find.active() {
            self.find.done();
            Some(self.find.position())
        } else {
            self.find.cancel();
            None
        }
    }

    /// Jump to the next or previous match: of the find when there is one, else of the content
    /// search; returns what to tell the user.
    pub fn jump_hit(&mut self, step: HitStep, ctx: &PaneContext) -> String {
        if self.find.active() {
            if let Some(line) = self.find.step(step) {
                self.show_line(line, ctx.height);
            }
            return self.find.position();
        }
        let Some(line) = self.hits.step(step) else {
            return if ctx.content_query.is_some() {
                "no match in this conversation".into()
            } else {
                {
                    let k = &self.view.keys;
                    format!(
                        "{} / {}: next / previous match of a find ({}) or a content search ({})",
                        k.next_match, k.previous_match, k.find, k.content
                    )
                }
            };
        };
        self.show_line(line, ctx.height);
        self.hits.position()
    }

    /// The user and assistant messages of session `id`, when its conversation has been read.
    pub fn counts_of(&self, id: &str) -> Option<(u32, u32)> {
        match self.cached_ref(id)?.as_ref() {
            Ok(t) => Some(t.counts()),
            Err(_) => None,
        }
    }

    fn cached(&self, id: &str) -> Option<Read> {
        self.cached_ref(id).cloned()
    }

    fn cached_ref(&self, id: &str) -> Option<&Read> {
        self.cache.iter().find(|(c, _)| c == id).map(|(_, t)| t)
    }

    /// Scroll so `line` sits a few lines below the top of the pane.
    fn show_line(&mut self, line: usize, height: usize) {
        self.scroll = line.saturating_sub(3);
        self.scroll_by(0, height);
    }
}

/// Lines built past the top of the screen for a pane `height` lines high.
fn ahead(height: usize) -> usize {
    (AHEAD_SCREENS * height).max(AHEAD_MIN)
}

/// Expand a collapsed call or collapse an expanded one (against the all-expanded setting).
fn flip(view: &mut View, entry: usize) {
    if !view.expanded.flipped.remove(&entry) {
        view.expanded.flipped.insert(entry);
    }
}

/// Whether the session's folder no longer exists: the one look at the file system in the
/// pane's state (a `stat`, when a session is shown or acted on).
pub(super) fn folder_missing(row: &SessionRow) -> bool {
    row.meta
        .cwd
        .as_deref()
        .is_some_and(|c| !c.is_empty() && !std::path::Path::new(c).is_dir())
}
