//! Where each pane sits in the picker's area: shared by drawing and by mouse hit-testing, so a
//! click lands on the row that was drawn there. Pure arithmetic.

use ratatui::layout::Rect;

/// Below this many columns the conversation pane is hidden (→ still opens it full-width).
pub(crate) const NARROW_BELOW: u16 = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Geometry {
    pub search: Rect,
    pub list: Rect,
    /// Empty when the pane is hidden.
    pub conversation: Rect,
    pub status: Rect,
    pub footer: Rect,
}

impl Geometry {
    /// The panes in `area` (the whole screen, or the rows of the inline picker: every pane is
    /// where it is drawn, in the terminal's coordinates, as the mouse reports them).
    /// `conversation_full`: the pane is open over the whole body (narrow terminal).
    pub fn new(area: Rect, conversation_full: bool) -> Geometry {
        let (x, y, width, height) = (area.x, area.y, area.width, area.height);
        let body_h = height.saturating_sub(3);
        let search = Rect::new(x, y, width, height.min(1));
        let status = Rect::new(x, y + 1 + body_h, width, u16::from(height >= 2));
        let footer = Rect::new(x, y + 2 + body_h, width, u16::from(height >= 3));
        let (list, conversation) = if width < NARROW_BELOW {
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
