//! A dialog in fewer rows than its box needs (`--height 5`): the box is cut to the picker's
//! rows, its blank lines first, then the lines farthest from the one the user is on (the
//! menu's cursor, the name being typed), which stays in view; a question (delete this
//! session? act on a session open elsewhere?) is asked on one line instead, on the status line
//! or the picker's last row, naming the session, with its answer keys.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Clear;
use ratatui::Frame;

use crate::sanitize;
use crate::textwidth;
use crate::tui::app::{App, Dialog};

use super::Theme;

/// A box of `lines` and its two borders fits in `screen`.
pub(super) fn fits(lines: usize, screen: Rect) -> bool {
    lines + 2 <= usize::from(screen.height)
}

/// At most `room` of `lines`, with the line `focus` among them: blank lines go first, then
/// the lines above the focus line, then those below it. The lines kept, and where the focus
/// line is among them.
pub(super) fn window(
    lines: Vec<Line<'static>>,
    room: usize,
    focus: usize,
) -> (Vec<Line<'static>>, usize) {
    if lines.len() <= room {
        return (lines, focus);
    }
    let blanks_above = lines[..focus.min(lines.len())]
        .iter()
        .filter(|l| l.width() == 0)
        .count();
    let focus = focus - blanks_above;
    let lines: Vec<Line> = lines.into_iter().filter(|l| l.width() > 0).collect();
    let room = room.max(1);
    if lines.len() <= room {
        return (lines, focus);
    }
    let start = (focus + 1).saturating_sub(room);
    let kept = lines.into_iter().skip(start).take(room).collect();
    (kept, focus - start)
}

/// The question of `dialog` on one line at `row`: what it asks, of which session, and the
/// answer keys, the title cut to what is left.
pub(super) fn question(frame: &mut Frame, row: Rect, app: &App, dialog: &Dialog, theme: &Theme) {
    // Before the title, after it, the answer keys and what they do.
    let (path, before, after, keys, says) = match dialog {
        Dialog::ConfirmDelete { path, .. } => {
            let held = app
                .row_at(path)
                .and_then(|r| app.holder_of(r))
                .map(|h| format!(", {}", h.who()))
                .unwrap_or_default();
            let says = " delete · any other key: keep it";
            (path, "delete ", format!("{held}? "), "y", says)
        }
        Dialog::ConfirmOpen { path, holder, then } => {
            let after = format!(" {}: {} anyway? ", holder.who(), app.verb_of(then));
            (path, "", after, "y/n", "")
        }
        Dialog::Menu { .. } | Dialog::Rename { .. } => return,
    };
    let title = app
        .row_at(path)
        .map(|r| sanitize::one_line(r.title()))
        .unwrap_or_default();
    let fixed = [before, &after, keys, says, "“”"]
        .iter()
        .map(|s| textwidth::width(s))
        .sum::<usize>();
    let title = textwidth::truncate(&title, usize::from(row.width).saturating_sub(fixed));
    let line = Line::from(vec![
        Span::styled(format!("{before}“{title}”{after}"), theme.help_text),
        Span::styled(keys, theme.help_key),
        Span::styled(says, theme.placeholder),
    ]);
    frame.render_widget(Clear, row);
    frame.render_widget(line, row);
}
