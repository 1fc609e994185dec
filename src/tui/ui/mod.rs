//! Drawing: `draw(frame, &App, &Theme)` reads the state and never changes it. One file per pane;
//! every style comes from [`theme`].

pub(crate) mod conversation_view;
pub(crate) mod dialog;
pub(crate) mod help;
pub(crate) mod search_bar;
pub(crate) mod session_list;
pub mod status;
pub(crate) mod theme;

use ratatui::text::Span;
use ratatui::Frame;
use unicode_width::UnicodeWidthChar;

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
    dialog::draw(frame, app, theme);
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

/// `text` as spans in at most `max` cells, characters at `marks` (char offsets, sorted) in
/// `hit`, the rest in `base`; `…` when cut. Returns the spans and the cells used.
pub fn marked<'a>(
    text: &str,
    marks: &[usize],
    max: usize,
    base: ratatui::style::Style,
    hit: ratatui::style::Style,
) -> (Vec<Span<'a>>, usize) {
    let total: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    let limit = if total > max {
        max.saturating_sub(1)
    } else {
        max
    };
    let mut spans = Vec::new();
    let mut cur = String::new();
    let mut cur_hit = false;
    let mut used = 0;
    for (i, c) in text.chars().enumerate() {
        let w = c.width().unwrap_or(0);
        if used + w > limit {
            break;
        }
        let is_hit = marks.binary_search(&i).is_ok();
        if is_hit != cur_hit && !cur.is_empty() {
            spans.push(Span::styled(
                std::mem::take(&mut cur),
                if cur_hit { hit } else { base },
            ));
        }
        cur_hit = is_hit;
        cur.push(c);
        used += w;
    }
    if total > max && max > 0 {
        if cur_hit && !cur.is_empty() {
            spans.push(Span::styled(std::mem::take(&mut cur), hit));
            cur_hit = false;
        }
        cur.push('…');
        used += 1;
    }
    if !cur.is_empty() {
        spans.push(Span::styled(cur, if cur_hit { hit } else { base }));
    }
    (spans, used)
}
