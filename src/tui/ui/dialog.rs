//! The boxes drawn over the list: the action menu (Ctrl+X), from the same table the keys use;
//! the delete question, which names the session it is about (title, folder, age, number of
//! messages, and who else has it open); the question before acting on a session another codex
//! has open; and the rename box, with the name being typed and the cursor at its end. Every
//! text from the session is made safe for the terminal first.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph};
use ratatui::Frame;

use crate::session::SessionRow;
use crate::sources::Source;
use crate::store::locks::Holder;
use crate::textwidth;
use crate::timefmt::Millis;
use crate::tui::app::{App, Dialog, Item, MENU};
use crate::tui::keys;

use super::{dialog_fit, Theme};

/// Draw the dialog that is open, if any. A box taller than the picker's rows is cut to them
/// (see [`dialog_fit`]): a question is asked on one line instead, the menu and the rename box
/// keep the line the user is on in view.
pub(crate) fn draw(frame: &mut Frame, app: &App, theme: &Theme) {
    let Some(dialog) = app.actions().dialog() else {
        return;
    };
    let screen = frame.area();
    let question = dialog
        .is_question()
        .then(|| question_lines(dialog, app, theme));
    if question
        .as_ref()
        .is_some_and(|lines| !dialog_fit::fits(lines.len(), screen))
    {
        let row = app.screen().geometry().notice;
        dialog_fit::question(frame, row, app, dialog, theme);
        return;
    }
    let mut cursor = None;
    // The line kept in view when the box is cut to the picker's rows.
    let mut focus = 0;
    let (title, lines) = match dialog {
        Dialog::Menu { cursor } => {
            let archived = app.selected_row().is_some_and(|r| r.archived);
            let source = app.selected_row().map_or(Source::Codex, |r| r.source);
            focus = *cursor;
            (
                " actions ",
                menu_lines(*cursor, (archived, source), app.keys(), theme),
            )
        }
        Dialog::ConfirmDelete { .. } => (" delete this session? ", question.unwrap_or_default()),
        Dialog::ConfirmOpen { .. } => (" open in another codex ", question.unwrap_or_default()),
        Dialog::Rename { path, name, .. } => {
            let title = app.row_at(path).map(|r| r.title().to_owned());
            let (lines, at) = rename_lines(title.as_deref(), name, theme);
            cursor = Some(at);
            focus = usize::from(at.0);
            (" rename the session ", lines)
        }
    };
    let text_w = lines.iter().map(Line::width).max().unwrap_or(0);
    let (lines, focus) =
        dialog_fit::window(lines, usize::from(screen.height.saturating_sub(2)), focus);
    let area = centred(screen, (text_w + 4).max(30), lines.len() + 2);
    boxed(frame, screen, area, title, lines, theme);
    // The rename box's cursor: inside the border and the padding, at the end of the name.
    if let Some((_, col)) = cursor {
        let x = (area.x + 2)
            .saturating_add(col)
            .min(area.right().saturating_sub(2));
        let line = u16::try_from(focus).unwrap_or(0);
        frame.set_cursor_position((x, area.y + 1 + line));
    }
}

/// The lines of a question's box (delete; act on a session open elsewhere).
fn question_lines(dialog: &Dialog, app: &App, theme: &Theme) -> Vec<Line<'static>> {
    match dialog {
        Dialog::ConfirmDelete { path, .. } => {
            let row = app.row_at(path);
            let facts = row.map(|row| Facts {
                row,
                counts: app.message_counts(row),
                holder: app.holder_of(row),
            });
            confirm_lines(facts, app.screen().now(), theme)
        }
        Dialog::ConfirmOpen { path, holder, then } => {
            let title = app.row_at(path).map(|r| r.title().to_owned());
            open_lines(title.as_deref(), *holder, app.verb_of(then), theme)
        }
        Dialog::Menu { .. } | Dialog::Rename { .. } => Vec::new(),
    }
}

/// The question before acting on a session another codex has open: its title, then "open in
/// another codex (pid N): resume anyway? y/n".
fn open_lines(
    title: Option<&str>,
    holder: Holder,
    verb: &str,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(title) = title {
        let title = textwidth::truncate(&crate::sanitize::one_line(title), 70);
        lines.push(Line::from(Span::styled(
            format!("“{title}”"),
            theme.help_text,
        )));
    }
    lines.push(Line::from(vec![
        Span::styled(
            format!("{}: {verb} anyway? ", holder.who()),
            theme.help_text,
        ),
        Span::styled("y/n", theme.help_key),
    ]));
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        "y: go ahead · any other key: leave it",
        theme.placeholder,
    )));
    lines
}

/// The rename box: the session's title, the name being typed (its end in view), the keys;
/// and where the cursor goes (line, column within the text).
fn rename_lines(
    title: Option<&str>,
    name: &str,
    theme: &Theme,
) -> (Vec<Line<'static>>, (u16, u16)) {
    const FIELD: usize = 60;
    let mut lines = Vec::new();
    if let Some(title) = title {
        let title = textwidth::truncate(&crate::sanitize::one_line(title), FIELD + 6);
        lines.push(Line::from(Span::styled(
            format!("“{title}”"),
            theme.placeholder,
        )));
    }
    let shown = textwidth::truncate_left(&crate::sanitize::one_line(name), FIELD);
    let used = textwidth::width(&shown);
    let pad = " ".repeat(FIELD + 1 - used.min(FIELD));
    let row = u16::try_from(lines.len()).unwrap_or(0);
    lines.push(Line::from(vec![
        Span::styled("name  ", theme.help_key),
        Span::styled(format!("{shown}{pad}"), theme.query),
    ]));
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        "Enter: codex sets the name · Esc: keep it",
        theme.placeholder,
    )));
    (lines, (row, u16::try_from(6 + used).unwrap_or(u16::MAX)))
}

/// One line per item: its letter, what it does, its key outside the menu.
/// An item a session's agent cannot do is drawn dim, with why.
fn menu_lines(
    cursor: usize,
    (archived, source): (bool, Source),
    keys: &keys::Keymap,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let label = |item: Item| match item.unavailable(source) {
        Some(why) => format!("{}: {why}", item.short()),
        None => item.label(archived).to_owned(),
    };
    let label_w = MENU
        .iter()
        .map(|e| textwidth::width(&label(e.item)))
        .max()
        .unwrap_or(0);
    let mut lines: Vec<Line> = MENU
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let chosen = i == cursor;
            let pick = |s: Style| if chosen { theme.selected } else { s };
            let text = label(e.item);
            let pad = " ".repeat(label_w - textwidth::width(&text));
            let style = match e.item.unavailable(source) {
                Some(_) => theme.placeholder,
                None => theme.help_text,
            };
            Line::from(vec![
                Span::styled(format!("{}  ", e.letter), pick(theme.help_key)),
                Span::styled(format!("{text}{pad}"), pick(style)),
                Span::styled(
                    format!(
                        "  {}",
                        keys::key_name(keys, &e.item.action()).unwrap_or_default()
                    ),
                    pick(theme.placeholder),
                ),
            ])
        })
        .collect();
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        "letter or ↑ ↓ Enter: do it · Esc: close",
        theme.placeholder,
    )));
    lines
}

/// The session named, so the user knows what goes, and the answer keys.
/// What the delete question says of its session.
struct Facts<'a> {
    row: &'a SessionRow,
    /// User and assistant messages, when counted.
    counts: Option<(u32, u32)>,
    /// Another codex that has it open.
    holder: Option<Holder>,
}

fn confirm_lines(facts: Option<Facts>, now: Millis, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let field = |name: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{name:<10}"), theme.placeholder),
            Span::styled(textwidth::truncate(&value, 70), theme.help_text),
        ])
    };
    let mut holder = None;
    if let Some(Facts {
        row,
        counts,
        holder: held,
    }) = facts
    {
        holder = held;
        let title = crate::sanitize::one_line(row.title());
        lines.push(field("title", format!("“{title}”")));
        let folder = row.meta.cwd.as_deref().unwrap_or("(unknown)");
        lines.push(field("folder", crate::sanitize::one_line(folder)));
        let age = match crate::timefmt::relative(row.updated_ms, now) {
            now if now == "now" => "just now".to_owned(),
            age => format!("{age} ago"),
        };
        lines.push(field("updated", age));
        let messages = match counts {
            Some((u, a)) => format!("{u} user · {a} assistant"),
            None => "not counted yet".to_owned(),
        };
        lines.push(field("messages", messages));
        lines.push(field("id", crate::sanitize::one_line(&row.id)));
    }
    lines.push(Line::default());
    if let Some(holder) = holder {
        lines.push(Line::from(Span::styled(
            format!("● {}", holder.describe()),
            theme.part(crate::tui::render::Part::Warning),
        )));
    }
    lines.push(Line::from(Span::styled(
        "`codex delete` removes it for good.",
        theme.help_text,
    )));
    lines.push(Line::from(vec![
        Span::styled("y", theme.help_key),
        Span::styled(" delete · any other key: keep it", theme.placeholder),
    ]));
    lines
}

/// `lines` in a bordered box titled `title`, at `area` of `screen`, over what is below it.
pub(super) fn boxed(
    frame: &mut Frame,
    screen: Rect,
    area: Rect,
    title: &str,
    lines: Vec<Line>,
    theme: &Theme,
) {
    // One column more each side: a wide character half under the border would hide it.
    let x0 = area.x.saturating_sub(1);
    let clear_w = (area.right() + 1).min(screen.right()) - x0;
    frame.render_widget(Clear, Rect::new(x0, area.y, clear_w, area.height));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.help_border)
        .title(title)
        .padding(Padding::horizontal(1));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// A box of `w` by `h` cells, cut to the screen's size, in the middle of `screen`.
pub(super) fn centred(screen: Rect, w: usize, h: usize) -> Rect {
    let w = u16::try_from(w).unwrap_or(u16::MAX).min(screen.width);
    let h = u16::try_from(h).unwrap_or(u16::MAX).min(screen.height);
    Rect::new(
        screen.x + (screen.width - w) / 2,
        screen.y + (screen.height - h) / 2,
        w,
        h,
    )
}
