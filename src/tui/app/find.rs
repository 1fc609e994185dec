//! Find inside the conversation shown: the query typed in the pane, the lines that hold it, and
//! stepping between them. The matches are marked when lines are drawn, so typing never
//! rebuilds the pane.

use super::conversation::{self, PaneLine, Part};
use crate::tui::action::HitStep;

#[derive(Debug, Clone, Default)]
pub struct Find {
    query: String,
    /// The query is being typed (keys go to it).
    editing: bool,
    /// Lines holding the query, in order.
    matches: Vec<usize>,
    cursor: usize,
}

impl Find {
    pub fn editing(&self) -> bool {
        self.editing
    }

    pub fn active(&self) -> bool {
        !self.query.is_empty()
    }

    /// The line find is on.
    pub fn current(&self) -> Option<usize> {
        self.matches.get(self.cursor).copied()
    }

    /// Start typing a new query.
    pub fn start(&mut self) {
        *self = Find {
            editing: true,
            ..Find::default()
        };
    }

    /// Stop typing; the matches stay marked (Esc while typing drops them: `cancel`).
    pub fn done(&mut self) {
        self.editing = false;
    }

    pub fn cancel(&mut self) {
        *self = Find::default();
    }

    pub fn push(&mut self, c: char) {
        self.query.push(c);
    }

    pub fn pop(&mut self) {
        self.query.pop();
    }

    /// Look for the query in `lines`; the first match at or after `from` becomes the current one.
    pub fn search(&mut self, lines: &[PaneLine], from: usize) {
        let needle = self.query.to_lowercase();
        self.matches = if needle.is_empty() {
            Vec::new()
        } else {
            lines
                .iter()
                .enumerate()
                .filter(|(_, l)| body_text(l).to_lowercase().contains(&needle))
                .map(|(i, _)| i)
                .collect()
        };
        self.cursor = self.matches.iter().position(|&l| l >= from).unwrap_or(0);
    }

    /// The next or previous match, wrapping around.
    pub fn step(&mut self, step: HitStep) -> Option<usize> {
        self.cursor = stepped(step, self.cursor, self.matches.len())?;
        self.current()
    }

    /// What to tell the user about the current match.
    pub fn position(&self) -> String {
        match self.matches.len() {
            0 => format!("no \"{}\" in this conversation", self.query),
            n => format!("\"{}\": match {} of {n}", self.query, self.cursor + 1),
        }
    }

    /// `line` (line number `n`) with the query's matches marked, for drawing.
    pub fn marked(&self, line: &PaneLine, n: usize) -> Option<PaneLine> {
        if self.query.is_empty() || self.matches.binary_search(&n).is_err() {
            return None;
        }
        let mark = if self.current() == Some(n) {
            Part::FoundCurrent
        } else {
            Part::Found
        };
        let mut line = line.clone();
        let terms = vec![self.query.to_lowercase().chars().collect()];
        conversation::mark_line(&mut line, &terms, mark);
        Some(line)
    }
}

/// The text of a line's body pieces (what find looks in).
fn body_text(line: &PaneLine) -> String {
    line.spans
        .iter()
        .filter(|(_, p)| p.is_body())
        .map(|(s, _)| s.as_str())
        .collect()
}

/// The place after (or before) `cursor` among `n` places, wrapping around; `None` when there
/// are none.
pub(super) fn stepped(step: HitStep, cursor: usize, n: usize) -> Option<usize> {
    (n > 0).then(|| match step {
        HitStep::Next => (cursor + 1) % n,
        HitStep::Previous => (cursor + n - 1) % n,
    })
}
