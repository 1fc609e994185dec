//! Drawing: `draw(frame, &App, &Theme)` reads the state and never changes it. One file per pane;
//! every style comes from [`theme`].

pub(crate) mod conversation_view;
pub(crate) mod dialog;
pub(crate) mod dialog_fit;
pub(crate) mod help;
pub(crate) mod marked;
pub(crate) mod search_bar;
pub(crate) mod session_list;
pub mod status;
pub(crate) mod theme;
pub(crate) mod usage_chart;

use ratatui::text::Span;
use ratatui::Frame;

use crate::tui::app::App;
pub use theme::Theme;

/// Draw the whole screen.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme) {
    let g = app.screen().geometry();
    search_bar::draw(frame, g.search, app, theme);
    if g.list.width > 0 {
        session_list::draw(frame, g.list, app, theme);
    }
    if g.conversation.width > 0 {
        conversation_view::draw(frame, g.conversation, app, theme);
    }
    status::draw(frame, g.status, g.footer, app, theme);
    if g.status.height == 0 {
        status::draw_flash(frame, g.notice, app, theme);
    }
    dialog::draw(frame, app, theme);
    if let Some(usage) = app.usage() {
        usage_chart::draw(frame, frame.area(), usage, app.screen().now(), theme);
    }
    if app.screen().help() {
        help::draw(frame, frame.area(), app.screen().focus(), app.keys(), theme);
    }
}

/// A screen with one message (no store), centred.
pub fn draw_message(frame: &mut Frame, message: &str, hint: &str, theme: &Theme) {
    use ratatui::layout::Rect;
    use ratatui::text::Line;
    use ratatui::widgets::{Paragraph, Wrap};
    let area = frame.area();
    let lines = vec![
        Line::from(Span::styled(
            crate::sanitize::one_line(message),
            theme.query,
        )),
        Line::default(),
        Line::from(Span::styled(hint.to_owned(), theme.placeholder)),
    ];
    let h = 6.min(area.height);
    let at = Rect::new(
        area.x + 2,
        area.y + area.height.saturating_sub(h) / 2,
        area.width.saturating_sub(4),
        h,
    );
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), at);
}
