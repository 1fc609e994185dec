//! The conversation pane: the selected session's lines (built by `app::conversation`), from the
//! scroll offset, behind a left rule that doubles as a scroll bar; a fork's parent history is
//! dimmed.

use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::tui::action::Focus;
use crate::tui::app::App;

use super::Theme;

pub(crate) fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let text = app.screen().geometry().conversation_text();
    if app.screen().geometry().list.width > 0 {
        // The rule doubles as a scroll bar: the thick part is the visible share.
        let rule_style = if app.screen().focus() == Focus::Conversation {
            theme.marker
        } else {
            theme.rule
        };
        let h = usize::from(area.height);
        let pane = app.pane();
        let total = pane.line_total().max(1);
        let (from, to) = if total > h {
            let from = pane.scroll() * h / total;
            (
                from,
                ((pane.scroll() + h) * h).div_ceil(total).max(from + 1),
            )
        } else {
            (0, 0)
        };
        let rule: Vec<Line> = (0..h)
            .map(|y| {
                let c = if y >= from && y < to { "┃" } else { "│" };
                Line::from(Span::styled(c, rule_style))
            })
            .collect();
        frame.render_widget(
            Paragraph::new(rule),
            Rect::new(area.x, area.y, 1, area.height),
        );
    }
    if app.selected_row().is_none() {
        return;
    }
    let pane = app.pane();
    let inherited = pane.inherited().unwrap_or_default();
    let lines: Vec<Line> = (pane.scroll()..pane.scroll() + usize::from(text.height))
        .map_while(|n| Some((n, pane.drawn_line(n)?)))
        .map(|(n, l)| {
            // A fork's parent history is drawn dimmed above the rule where its own part begins.
            let dim = inherited.contains(&n);
            Line::from(
                l.spans
                    .iter()
                    .map(|(s, part)| {
                        let style = theme.part(*part);
                        let style = if dim {
                            style.add_modifier(Modifier::DIM)
                        } else {
                            style
                        };
                        Span::styled(s.clone(), style)
                    })
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), text);
}
