//! The query line and the list under it: the query as typed and parsed (its `dir:`, `branch:`
//! and `date:` filters apart from its words), the order, the rows shown (from the newest
//! answer, or every row when there is no query, through the filters),
//! what the filters hide, the selection and the first row on screen. The rows, the answer and
//! the filters come in as arguments; the list keeps only positions.

use super::filters::Filters;
use super::rows::Rows;
use super::types::{Hidden, Reselect, CONTENT_PREFIX};
use crate::search::filter::{self, FilterError, Split};
use crate::search::title::{self, Query, Recency};
use crate::session::SessionRow;
use crate::timefmt::Millis;
use crate::tui::action::Action;
use std::sync::Arc;

/// The longest query kept: a longer paste is cut here, and the status line says so.
pub(super) const MAX_QUERY_CHARS: usize = 1_000;

#[derive(Debug, Clone)]
pub struct List {
    query: String,
    /// The query's filters (`dir:`, `branch:`, `date:`) and the words left to search.
    split: Split,
    parsed: Query,
    order: Recency,
    /// Rows shown, in order (indices into the rows).
    visible: Vec<usize>,
    hidden: Hidden,
    /// The selected position in `visible`.
    selected: usize,
    /// The first position on screen.
    offset: usize,
}

impl List {
    pub fn new(query: String, order: Recency, now: Millis) -> List {
        let mut list = List {
            query,
            split: Split::default(),
            parsed: Query::default(),
            order,
            visible: Vec::new(),
            hidden: Hidden::default(),
            selected: 0,
            offset: 0,
        };
        list.reparse(now);
        list
    }

    /// The query as typed.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// The query without its mode prefix.
    pub fn search_text(&self) -> &str {
        self.query
            .strip_prefix(CONTENT_PREFIX)
            .unwrap_or(&self.query)
    }

    /// The words to search: the query without its mode prefix and its filters.
    pub fn words(&self) -> &str {
        &self.split.words
    }

    /// The first filter of the query that could not be read, said briefly.
    pub fn filter_error(&self) -> Option<&FilterError> {
        self.split.error.as_ref()
    }

    pub fn parsed(&self) -> &Query {
        &self.parsed
    }

    pub fn order(&self) -> Recency {
        self.order
    }

    /// Rows shown, in order (indices into the rows).
    pub fn visible(&self) -> &[usize] {
        &self.visible
    }

    /// What the filters hide, counted for the status line.
    pub fn hidden(&self) -> Hidden {
        self.hidden
    }

    /// The selected position in [`List::visible`].
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// The first position on screen.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The selected row, if any.
    pub fn selected_row<'r>(&self, rows: &'r Rows) -> Option<&'r SessionRow> {
        self.visible.get(self.selected).map(|&i| &*rows.all()[i])
    }

    /// Apply a query edit (insert, paste, delete, clear); whether the query changed.
    pub fn edit(&mut self, action: &Action) -> bool {
        edit_line(&mut self.query, action)
    }

    /// Cut the query to its first [`MAX_QUERY_CHARS`] characters; whether it was longer.
    pub fn enforce_cap(&mut self) -> bool {
        match self.query.char_indices().nth(MAX_QUERY_CHARS) {
            Some((at, _)) => {
                self.query.truncate(at);
                true
            }
            None => false,
        }
    }

    /// Drop a leading content prefix; whether there was one.
    pub fn drop_content_prefix(&mut self) -> bool {
        if !self.query.starts_with(CONTENT_PREFIX) {
            return false;
        }
        self.query.remove(0);
        true
    }

    /// The query changed (read at `now`, for relative dates): parse it again, back to the top.
    pub fn reparse(&mut self, now: Millis) {
        self.split = filter::split(self.search_text(), now);
        self.parsed = title::parse(&self.split.words);
        self.selected = 0;
        self.offset = 0;
    }

    pub fn toggle_order(&mut self) {
        self.order = match self.order {
            Recency::Updated => Recency::Created,
            Recency::Created => Recency::Tokens,
            Recency::Tokens => Recency::Updated,
        };
    }

    /// Where a list movement goes, for a list `height` rows high; `None` for other actions.
    pub fn target(&self, action: &Action, height: usize) -> Option<usize> {
        let to = match action {
            Action::MoveUp => self.selected.saturating_sub(1),
            Action::MoveDown => self.selected + 1,
            Action::PageListUp => self.selected.saturating_sub(height),
            Action::PageListDown => self.selected + height,
            Action::First => 0,
            Action::Last => self.visible.len().saturating_sub(1),
            _ => return None,
        };
        Some(to)
    }

    /// Select position `i` (clamped) and keep it on a screen `height` rows high.
    pub fn select(&mut self, i: usize, height: usize) {
        self.selected = i.min(self.visible.len().saturating_sub(1));
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        self.offset = self.offset.min(self.visible.len().saturating_sub(height));
    }

    /// Recompute the rows shown: the answer's `matches` while there is a query, else every row
    /// in the list's order; then the filters. Returns the position to select (see
    /// [`Reselect`]), or `None` when nothing changed because the first answer for this query
    /// is still on its way.
    pub fn refilter(
        &mut self,
        rows: &Rows,
        matches: Option<&[usize]>,
        filters: &Filters,
        reselect: Reselect,
    ) -> Option<usize> {
        let keep_id = match reselect {
            Reselect::Keep => self.selected_row(rows).map(|r| r.id.clone()),
            Reselect::Top => None,
        };
        let base: Vec<usize> = match matches {
            Some(m) if !self.parsed.is_empty() => m.to_vec(),
            // The first answer for this query is on its way and refilters when it lands.
            _ if !self.parsed.is_empty() => return None,
            _ => self.every_row(rows.all()),
        };
        let mut hidden = Hidden::default();
        let all = rows.all();
        self.visible = base
            .into_iter()
            .filter(|&i| {
                !rows.is_gone(i)
                    && self.split.filters.keeps(&all[i])
                    && filters.keeps(&all[i], &mut hidden)
            })
            .collect();
        self.hidden = hidden;
        let kept = keep_id.and_then(|id| self.visible.iter().position(|&i| all[i].id == id));
        Some(match reselect {
            Reselect::Keep => kept.unwrap_or(self.selected),
            Reselect::Top => 0,
        })
    }

    /// Every row, newest first by the list's order.
    fn every_row(&self, rows: &[Arc<SessionRow>]) -> Vec<usize> {
        let mut all: Vec<usize> = (0..rows.len()).collect();
        match self.order {
            Recency::Updated => {
                all.sort_by(|&a, &b| SessionRow::cmp_updated_desc(&rows[a], &rows[b]));
            }
            Recency::Created => {
                all.sort_by(|&a, &b| SessionRow::cmp_created_desc(&rows[a], &rows[b]));
            }
            Recency::Tokens => {
                all.sort_by(|&a, &b| SessionRow::cmp_tokens_desc(&rows[a], &rows[b]));
            }
        }
        all
    }
}

/// Apply a line edit to `text` (insert, type, paste on one line, delete a character or a word,
/// clear): the query's and the rename's; whether `text` changed.
pub(super) fn edit_line(text: &mut String, action: &Action) -> bool {
    match action {
        Action::Insert(c) => text.push(*c),
        Action::Type(typed) => text.push_str(typed),
        Action::Paste(pasted) => {
            let line = crate::sanitize::one_line(pasted);
            text.push_str(line.trim());
        }
        Action::DeleteBack => return text.pop().is_some(),
        Action::DeleteWord => {
            let kept = text.trim_end().rfind(' ').map_or(0, |i| i + 1);
            if kept == text.len() {
                return false;
            }
            text.truncate(kept);
        }
        Action::ClearQuery => {
            if text.is_empty() {
                return false;
            }
            text.clear();
        }
        _ => return false,
    }
    true
}
