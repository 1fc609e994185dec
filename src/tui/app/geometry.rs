//! Where each pane sits in the picker's area: shared by drawing and by mouse hit-testing, so a
//! click lands on the row that was drawn there. Pure arithmetic.
//!
//! The full layout is the query line, the list with the conversation beside it, the status line
//! and the keys' line. A picker with fewer rows (`--height 5`) keeps the list's rows first: the
//! keys' line goes below [`FULL_FROM`] rows, then the status line below [`STATUS_FROM`], so the
//! list keeps at least [`LIST_KEEPS`] rows while it can, and the query line is always drawn.
//! Below [`FULL_FROM`] rows the list is drawn alone, as on a narrow terminal: → opens the
//! conversation over it, full width, and ← or Esc brings the list back. With no status line, a
//! short message or a one-line question takes the picker's last row while it lasts.

use ratatui::layout::Rect;

/// Below this many columns the conversation pane is hidden (→ still opens it full-width).
pub(crate) const NARROW_BELOW: u16 = 100;

/// The rows of the list (or of the conversation opened over it) kept before any line around it.
pub(crate) const LIST_KEEPS: u16 = 6;

/// From this many rows, the full layout: the query line, the list with the conversation beside
/// it (on a wide terminal), the status line and the keys' line.
pub(crate) const FULL_FROM: u16 = LIST_KEEPS + 3;

/// From this many rows, the status line under the list; below it, the query line and the list
/// alone.
pub(crate) const STATUS_FROM: u16 = LIST_KEEPS + 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Geometry {
    pub search: Rect,
    pub list: Rect,
    /// Empty when the pane is hidden.
    pub conversation: Rect,
    pub status: Rect,
    pub footer: Rect,
    /// The row a short message or a one-line question is drawn on: the status line, or the
    /// picker's last row (over the list) when there is no status line.
    pub notice: Rect,
}

impl Geometry {
    /// The panes in `area` (the whole screen, or the rows of the inline picker: every pane is
    /// where it is drawn, in the terminal's coordinates, as the mouse reports them).
    /// `conversation_full`: the pane is open over the whole body (a narrow terminal, or too
    /// few rows for the full layout).
    pub fn new(area: Rect, conversation_full: bool) -> Geometry {
        let (x, y, width, height) = (area.x, area.y, area.width, area.height);
        let full = height >= FULL_FROM;
        let has_status = height >= STATUS_FROM;
        let chrome = 1 + u16::from(has_status) + u16::from(full);
        let body_h = height.saturating_sub(chrome);
        let search = Rect::new(x, y, width, height.min(1));
        let status = Rect::new(x, y + 1 + body_h, width, u16::from(has_status));
        let footer = Rect::new(x, y + 2 + body_h, width, u16::from(full));
        let notice = if has_status {
            status
        } else {
            Rect::new(x, y + height.saturating_sub(1), width, height.min(1))
        };
        let (list, conversation) = if width < NARROW_BELOW || !full {
            if conversation_full {
                (Rect::default(), Rect::new(x, y + 1, width, body_h))
            } else {
                (Rect::new(x, y + 1, width, body_h), Rect::default())
            }
        } else {
            let list_w = width * 11 / 20;
            (
                Rect::new(x, y + 1, list_w, body_h),
                Rect::new(x + list_w, y + 1, width - list_w, body_h),
            )
        };
        Geometry {
            search,
            list,
            conversation,
            status,
            footer,
            notice,
        }
    }

    /// The conversation's text area (inside its left rule).
    pub fn conversation_text(&self) -> Rect {
        let c = self.conversation;
        if c.width == 0 {
            return c;
        }
        // The rule at the pane's left is the list's border when the list is beside it.
        let inset = if self.list.width == 0 { 1 } else { 2 };
        Rect::new(
            c.x + inset,
            c.y,
            c.width.saturating_sub(inset + 1),
            c.height,
        )
    }
}

pub(crate) fn contains(r: Rect, col: u16, row: u16) -> bool {
    col >= r.x && col < r.x + r.width && row >= r.y && row < r.y + r.height
}
