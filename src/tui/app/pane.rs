//! The conversation pane's state: the selected session's lines as built for the pane's width,
//! where the reader is, whether tool calls are shown, the transcripts read so far (the last few,
//! for instant switching back) and the content-search hits in the lines. Asks for a transcript
//! by returning the [`Job`]; it never sees the other sub-states, only what [`PaneContext`] and
//! the selected row tell it.

use std::collections::VecDeque;
use std::sync::Arc;

use super::conversation::{self, PaneLine};
use super::hits::Hits;
use super::HitStep;
use crate::rollout::transcript::Transcript;
use crate::session::SessionRow;
use crate::workers::transcript::Job;

/// Transcripts kept for instant switching back.
const TRANSCRIPT_CACHE: usize = 8;

/// What the pane is built for besides its session.
#[derive(Debug, Clone)]
pub struct PaneContext {
    /// Cells of text on a line.
    pub width: usize,
    /// Lines on screen.
    pub height: usize,
    /// The content search whose hits are marked; `None` in fuzzy search.
    pub content_query: Option<String>,
}

type Read = Arc<Result<Transcript, String>>;

#[derive(Debug, Clone, Default)]
pub struct Pane {
    lines: Vec<PaneLine>,
    scroll: usize,
    tools: bool,
    /// Transcripts by session id, newest last.
    cache: VecDeque<(String, Read)>,
    /// The generation of the newest transcript asked for.
    asked: u64,
    /// The session the lines were built for; `None` has them built again.
    built_for: Option<String>,
    /// The session the pane last showed.
    shown: Option<String>,
    hits: Hits,
}

impl Pane {
    /// The lines of the selected session, from the top.
    pub fn lines(&self) -> &[PaneLine] {
        &self.lines
    }

    /// The first line on screen.
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// Lines holding a content-search hit, in order.
    pub fn hit_lines(&self) -> &[usize] {
        self.hits.lines()
    }

    /// Show `row` (the selection, if any): a different session is read from the top (a content
    /// search opens it at its first hit), the same one, shown again after a background update,
    /// keeps its place. Returns the transcript to read when it is not read yet.
    pub fn show(&mut self, row: Option<&SessionRow>, ctx: &PaneContext) -> Option<Job> {
        let Some(row) = row else {
            self.built_for = None;
            self.lines.clear();
            return None;
        };
        if self.built_for.as_deref() == Some(row.id.as_str()) {
            return None;
        }
        if self.shown.as_deref() != Some(row.id.as_str()) {
            self.scroll = 0;
            self.hits.forget_opened();
            self.shown = Some(row.id.clone());
        }
        let job = self.cached(&row.id).is_none().then(|| {
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

    /// The lines are stale (the row, the width or the content search changed): the next
    /// [`Pane::show`] builds them again.
    pub fn invalidate(&mut self) {
        self.built_for = None;
    }

    /// Build the lines for `row` (the selection), the context and the tool setting.
    pub fn rebuild(&mut self, row: Option<&SessionRow>, ctx: &PaneContext) {
        let Some(row) = row else {
            self.lines.clear();
            self.built_for = None;
            return;
        };
        let cached = self.cached(&row.id);
        self.lines = conversation::build(row, cached.as_deref(), ctx.width, self.tools);
        let query = ctx.content_query.as_deref();
        self.hits.mark(&mut self.lines, query);
        self.built_for = Some(row.id.clone());
        // A session shown for a new content query opens at its first hit, once it is read.
        if let (Some(_), Some(query)) = (&cached, query) {
            if self.hits.first_time(&row.id, query) {
                if let Some(line) = self.hits.first() {
                    self.show_line(line, ctx.height);
                    return;
                }
            }
        }
        self.scroll_by(0, ctx.height);
    }

    /// A transcript read by the worker; kept even when the user has moved on. `selected` is the
    /// selection now: when it is this session, the pane shows it where the reader was (or at
    /// its first hit when it opens there).
    pub fn loaded(
        &mut self,
        id: String,
        result: Result<Transcript, String>,
        selected: Option<&SessionRow>,
        ctx: &PaneContext,
    ) {
        self.cache.retain(|(c, _)| *c != id);
        self.cache.push_back((id.clone(), Arc::new(result)));
        while self.cache.len() > TRANSCRIPT_CACHE {
            self.cache.pop_front();
        }
        if selected.is_some_and(|r| r.id == id) {
            let (scroll, opened) = (self.scroll, self.hits.opened_for().cloned());
            self.rebuild(selected, ctx);
            if self.hits.opened_for() == opened.as_ref() {
                self.scroll = scroll;
                self.scroll_by(0, ctx.height);
            }
        }
    }

    /// Show or hide tool calls, from the top.
    pub fn toggle_tools(&mut self, row: Option<&SessionRow>, ctx: &PaneContext) {
        self.tools = !self.tools;
        self.scroll = 0;
        self.rebuild(row, ctx);
    }

    /// Scroll by `delta` lines (negative: up), within the lines for a pane `height` high.
    pub fn scroll_by(&mut self, delta: i64, height: usize) {
        let max = self.lines.len().saturating_sub(height) as i64;
        let to = (self.scroll as i64 + delta).clamp(0, max.max(0));
        self.scroll = usize::try_from(to).unwrap_or(0);
    }

    /// Jump to the next or previous content-search hit; returns what to tell the user.
    pub fn jump_hit(&mut self, step: HitStep, ctx: &PaneContext) -> String {
        let Some(line) = self.hits.step(step) else {
            return if ctx.content_query.is_some() {
                "no match in this conversation".into()
            } else {
                "n / N jump between matches of a content search (Ctrl+F)".into()
            };
        };
        self.show_line(line, ctx.height);
        self.hits.position()
    }

    fn cached(&self, id: &str) -> Option<Read> {
        self.cache
            .iter()
            .find(|(c, _)| c == id)
            .map(|(_, t)| t.clone())
    }

    /// Scroll so `line` sits a few lines below the top of the pane.
    fn show_line(&mut self, line: usize, height: usize) {
        self.scroll = line.saturating_sub(3);
        self.scroll_by(0, height);
    }
}
