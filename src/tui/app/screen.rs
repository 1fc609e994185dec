//! What is UI-wide: the picker's area on the terminal and the layout computed from it, which pane has the
//! focus, the help overlay, the short message of the status line, and the clock the list's ages
//! are drawn against (set by the event loop: the state reads no clock).

use ratatui::layout::Rect;

use super::geometry::Geometry;
use crate::timefmt::Millis;
use crate::tui::action::Focus;

#[derive(Debug, Clone)]
pub struct Screen {
    now: Millis,
    /// Where the picker is drawn: the whole screen, or its rows below the prompt.
    area: Rect,
    geometry: Geometry,
    focus: Focus,
    help: bool,
    /// Shown in the status line until the next key.
    flash: Option<String>,
}

impl Screen {
    pub fn new(now: Millis) -> Screen {
        Screen {
            now,
            area: Rect::default(),
            geometry: Geometry::default(),
            focus: Focus::List,
            help: false,
            flash: None,
        }
    }

    /// The time the list's ages are counted to.
    pub fn now(&self) -> Millis {
        self.now
    }

    pub fn set_now(&mut self, now: Millis) {
        self.now = now;
    }

    /// Where each pane sits for the current size and focus.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    pub fn focus(&self) -> Focus {
        self.focus
    }

    /// The help overlay is open.
    pub fn help(&self) -> bool {
        self.help
    }

    pub fn flash(&self) -> Option<&str> {
        self.flash.as_deref()
    }

    /// The picker's new area (the terminal was resized); the layout follows.
    pub fn resize(&mut self, area: Rect) {
        self.area = area;
        self.relayout();
    }

    /// Give `focus` the focus; the layout follows (a narrow terminal shows one pane at a time).
    pub fn focus_on(&mut self, focus: Focus) {
        self.focus = focus;
        self.relayout();
    }

    fn relayout(&mut self) {
        self.geometry = Geometry::new(self.area, self.focus == Focus::Conversation);
    }

    pub fn open_help(&mut self) {
        self.help = true;
    }

    /// Close the help overlay; whether it was open.
    pub fn close_help(&mut self) -> bool {
        std::mem::take(&mut self.help)
    }

    /// Show `text` in the status line until the next key.
    pub fn notify(&mut self, text: impl Into<String>) {
        self.flash = Some(text.into());
    }

    pub fn clear_flash(&mut self) {
        self.flash = None;
    }

    /// Rows of the list on screen (at least one, so paging always moves); while the
    /// conversation is open over it (a narrow or short picker), the rows it has when shown, so
    /// the list is back as it was.
    pub fn list_height(&self) -> usize {
        let g = self.geometry;
        let rows = if g.list.width == 0 {
            g.conversation.height
        } else {
            g.list.height
        };
        usize::from(rows).max(1)
    }

    /// Lines of the conversation pane on screen (at least one).
    pub fn pane_height(&self) -> usize {
        usize::from(self.geometry.conversation.height).max(1)
    }

    /// Cells of the conversation's text on one line.
    pub fn pane_width(&self) -> usize {
        usize::from(self.geometry.conversation_text().width)
    }
}
