//! Content-search hits in the conversation pane: which lines hold one, whether the pane has
//! already been opened at the first hit for this session and query, and stepping between hits
//! with `n` / `N`.

use super::conversation::{self, PaneLine, Part};
use super::find;
use crate::tui::action::HitStep;

#[derive(Debug, Clone, Default)]
pub(super) struct Hits {
    /// Pane lines holding a hit, in order.
    lines: Vec<usize>,
    /// The terms marked (lowercase).
    terms: Vec<String>,
    /// The hit last jumped to.
    cursor: usize,
    /// The session and content query the pane last opened at a hit for.
    opened_for: Option<(String, String)>,
}

impl Hits {
    /// Mark the hits of `query` (a content search) in `lines`; none without a content search.
    pub(super) fn mark(&mut self, lines: &mut [PaneLine], query: Option<&str>) {
        self.terms = query.map(terms).unwrap_or_default();
        self.lines = conversation::mark_terms(lines, &self.terms, Part::Hit);
    }

    /// Mark the hits again in lines drawn anew (a code block highlighted).
    pub(super) fn mark_again(&self, lines: &mut [PaneLine]) {
        if !self.terms.is_empty() {
            conversation::mark_terms(lines, &self.terms, Part::Hit);
        }
    }

    pub(super) fn lines(&self) -> &[usize] {
        &self.lines
    }

    /// Whether session `id` is shown for `query` for the first time (noted from now on): a
    /// session shown for a new content query opens at its first hit.
    pub(super) fn first_time(&mut self, id: &str, query: &str) -> bool {
        let key = (id.to_owned(), query.to_owned());
        if self.opened_for.as_ref() == Some(&key) {
            return false;
        }
        self.opened_for = Some(key);
        true
    }

    /// The session and content query the pane last opened at a hit for.
    pub(super) fn opened_for(&self) -> Option<&(String, String)> {
        self.opened_for.as_ref()
    }

    /// Another session is shown: it opens at its first hit again.
    pub(super) fn forget_opened(&mut self) {
        self.opened_for = None;
    }

    /// The line of the first hit, now the current one.
    pub(super) fn first(&mut self) -> Option<usize> {
        let line = *self.lines.first()?;
        self.cursor = 0;
        Some(line)
    }

    /// The line of the next or previous hit, wrapping around, now the current one.
    pub(super) fn step(&mut self, step: HitStep) -> Option<usize> {
        self.cursor = find::stepped(step, self.cursor, self.lines.len())?;
        Some(self.lines[self.cursor])
    }

    /// "match k of n" for the current hit.
    pub(super) fn position(&self) -> String {
        format!("match {} of {}", self.cursor + 1, self.lines.len())
    }
}

/// The terms a content search looks for (lowercase).
fn terms(query: &str) -> Vec<String> {
    query.split_whitespace().map(str::to_lowercase).collect()
}
