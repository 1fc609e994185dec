//! Markdown tables: aligned in columns when they fit the pane, and, when they do not, each row
//! as `header: value` lines (readable at any width, nothing cut).

use super::wrap::wrap_runs;
use super::{Part, Run};
use crate::textwidth::width;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Center,
    Right,
}

/// A table being read: its rows of cells, the first row the header.
#[derive(Debug, Clone, Default)]
pub(crate) struct Table {
    aligns: Vec<Align>,
    rows: Vec<Vec<Vec<Run>>>,
}

const SEP: &str = " │ ";

impl Table {
    pub(crate) fn new(aligns: Vec<Align>) -> Table {
        Table {
            aligns,
            rows: Vec::new(),
        }
    }

    /// A new row starts.
    pub(crate) fn row(&mut self) {
        self.rows.push(Vec::new());
    }

    /// A new cell of the current row starts.
    pub(crate) fn cell(&mut self) {
        if self.rows.is_empty() {
            self.row();
        }
        if let Some(r) = self.rows.last_mut() {
            r.push(Vec::new());
        }
    }

    /// Text of the current cell (breaks inside a cell become spaces).
    pub(crate) fn text(&mut self, text: &str, part: Part) {
        let Some(cell) = self.rows.last_mut().and_then(|r| r.last_mut()) else {
            return;
        };
        let text = text.replace('\n', " ");
        match cell.last_mut() {
            Some((s, p)) if *p == part => s.push_str(&text),
            _ => cell.push((text, part)),
        }
    }

    fn columns(&self) -> usize {
        self.rows.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// The table as lines of at most `avail` cells.
    pub(crate) fn layout(&self, avail: usize) -> Vec<Vec<Run>> {
        let n = self.columns();
        if n == 0 {
            return Vec::new();
        }
        let mut widths = vec![0usize; n];
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                widths[i] = widths[i].max(cell_width(cell));
            }
        }
        let total = widths.iter().sum::<usize>() + width(SEP) * (n - 1);
        if total <= avail {
            self.grid(&widths)
        } else {
            self.records(avail)
        }
    }

    fn grid(&self, widths: &[usize]) -> Vec<Vec<Run>> {
        let mut out = Vec::new();
        for (r, row) in self.rows.iter().enumerate() {
            let mut line: Vec<Run> = Vec::new();
            for (i, w) in widths.iter().enumerate() {
                if i > 0 {
                    line.push((SEP.to_owned(), Part::TableRule));
                }
                let empty = Vec::new();
                let cell = row.get(i).unwrap_or(&empty);
                let pad = w - cell_width(cell);
                let (left, right) = match self.aligns.get(i).copied().unwrap_or(Align::Left) {
                    Align::Left => (0, pad),
                    Align::Right => (pad, 0),
                    Align::Center => (pad / 2, pad - pad / 2),
                };
                line.push((" ".repeat(left), Part::TableRule));
                line.extend(cell_runs(cell, r == 0));
                line.push((" ".repeat(right), Part::TableRule));
            }
            out.push(line);
            if r == 0 {
                let rule: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
                out.push(vec![(rule.join("─┼─"), Part::TableRule)]);
            }
        }
        out
    }

    /// Each body row as `header: value` lines, rows apart by a rule.
    fn records(&self, avail: usize) -> Vec<Vec<Run>> {
        let header = self.rows.first().cloned().unwrap_or_default();
        let mut out = Vec::new();
        for (r, row) in self.rows.iter().enumerate().skip(1) {
            if r > 1 {
                out.push(vec![("─".repeat(avail.min(20)), Part::TableRule)]);
            }
            for (i, cell) in row.iter().enumerate() {
                let mut runs = match header.get(i) {
                    Some(h) if cell_width(h) > 0 => cell_runs(h, true),
                    _ => vec![(format!("{}", i + 1), Part::TableHeader)],
                };
                runs.push((": ".to_owned(), Part::TableHeader));
                runs.extend(cell.iter().cloned());
                out.extend(wrap_runs(&runs, avail));
            }
        }
        if self.rows.len() == 1 {
            out.extend(wrap_runs(&header.concat(), avail));
        }
        out
    }
}

fn cell_width(cell: &[Run]) -> usize {
    cell.iter().map(|(s, _)| width(s)).sum()
}

fn cell_runs(cell: &[Run], header: bool) -> Vec<Run> {
    cell.iter()
        .map(|(s, p)| (s.clone(), if header { Part::TableHeader } else { *p }))
        .collect()
}
