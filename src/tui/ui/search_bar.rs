//! The search line: prompt, query with cursor, and the search mode.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::sanitize;
use crate::textwidth;
use crate::tui::action::Action;
use crate::tui::app::{App, SearchMode};

use super::Theme;

pub(crate) fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let mode = match app.effective_mode() {
        SearchMode::Fuzzy if app.searches().index().is_some() => "titles + conversations",
        SearchMode::Fuzzy => "titles",
        SearchMode::Content => "in conversations",
    };
    let right = if app.searching() {
        format!("searching… {mode} ")
    } else {
        format!("{mode} ")
    };
    let prompt = "❯ ";
    let room = usize::from(area.width)
        .saturating_sub(textwidth::width(prompt) + textwidth::width(&right) + 1);
    let query = sanitize::one_line(app.list().query());
    let mut spans = vec![Span::styled(prompt, theme.prompt)];
    let shown_w;
    if query.is_empty() {
        let (content, help) = (
            app.keys().key_of(&Action::ToggleContent),
            app.keys().key_of(&Action::ToggleHelp),
        );
        let hint = textwidth::truncate(
            &if app.effective_mode() == SearchMode::Content {
                format!(
                    "type words to find inside every conversation · {content} titles · {help} help"
                )
            } else {
                format!("type to search · titles, folders, branches, ids, conversations · {content} conversations only · {help} help")
            },
            room,
        );
        shown_w = 0;
        spans.push(Span::styled(hint.clone(), theme.placeholder));
        let pad = room.saturating_sub(textwidth::width(&hint));
        spans.push(Span::raw(" ".repeat(pad + 1)));
    } else {
        // Keep the end of a long query (where typing happens) in view.
        let shown = textwidth::truncate_left(&query, room);
        shown_w = textwidth::width(&shown);
        spans.push(Span::styled(shown, theme.query));
        spans.push(Span::raw(" ".repeat(room.saturating_sub(shown_w) + 1)));
    }
    spans.push(Span::styled(right, theme.mode));
    frame.render_widget(Line::from(spans), area);
    if !app.screen().help() {
        let x = area.x + u16::try_from(textwidth::width(prompt) + shown_w).unwrap_or(0);
        frame.set_cursor_position((x.min(area.right().saturating_sub(1)), area.y));
    }
}
