//! The help overlay: the rows of the keymap (their keys, their short descriptions) for
//! where the user is, the list or the conversation, centred over the screen.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::textwidth;
use crate::tui::action::{Action, Focus};
use crate::tui::keys;

use super::{dialog, Theme};

/// The overlay's lines, (keys, what they do), for where the keys are pressed: under the list,
/// its rows and the query's syntax, then where the conversation's own keys are; in the
/// conversation, its own rows first, then the keys that work everywhere.
fn entries(focus: Focus, keys: &keys::Keymap) -> Vec<(String, String)> {
    let rows = |section: keys::Section| keys.rows().iter().filter(move |r| r.section == section);
    let line = |r: &keys::KeyRow| (r.label(), r.help.to_owned());
    match focus {
        Focus::List => rows(keys::Section::List)
            .map(line)
            .chain([(
                format!(
                    "{} then {}",
                    keys.key_of(&Action::FocusConversation),
                    keys.key_of(&Action::ToggleHelp)
                ),
                "the conversation's own keys".to_owned(),
            )])
            .collect(),
        Focus::Conversation => std::iter::once(("in the conversation:".to_owned(), String::new()))
            .chain(rows(keys::Section::Conversation).map(line))
            .chain([("everywhere:".to_owned(), String::new())])
            .chain(rows(keys::Section::List).filter(|r| !r.syntax).map(line))
            .collect(),
    }
}

/// The entries that fit in `capacity` lines: when they do not all fit, the last line says how
/// many more a taller terminal shows.
fn fit(mut entries: Vec<(String, String)>, capacity: usize) -> Vec<(String, String)> {
    if entries.len() > capacity {
        let keep = capacity.saturating_sub(1);
        let more = entries.len() - keep;
        entries.truncate(keep);
        entries.push((
            "…".to_owned(),
            format!("{more} more: a taller terminal shows them"),
        ));
    }
    entries
}

pub(crate) fn draw(
    frame: &mut Frame,
    screen: Rect,
    focus: Focus,
    keys: &keys::Keymap,
    theme: &Theme,
) {
    let entries = entries(focus, keys);
    let key_w = entries
        .iter()
        .map(|(k, _)| textwidth::width(k))
        .max()
        .unwrap_or(0);
    let want_w = entries
        .iter()
        .map(|(_, d)| key_w + 2 + textwidth::width(d))
        .max()
        .unwrap_or(0)
        + 4;
    // The blank line and the closing hint under the keys, unless they would leave fewer than
    // four lines of keys (a picker a few rows high: any key closes the help all the same).
    let tail: u16 = if screen.height >= 8 { 2 } else { 0 };
    // Too many keys for the height: two columns, when the width allows.
    let fits = entries.len() + 2 + usize::from(tail) <= usize::from(screen.height);
    let columns = if !fits && usize::from(screen.width) >= 2 * want_w + 2 {
        2
    } else {
        1
    };
    let entries = fit(
        entries,
        usize::from(screen.height.saturating_sub(2 + tail)) * columns,
    );
    let rows = entries.len().div_ceil(columns);
    let area = dialog::centred(
        screen,
        want_w * columns + 3 * (columns - 1),
        rows + 2 + usize::from(tail),
    );
    let text_w = usize::from(area.width.saturating_sub(4));
    let col_w = (text_w + 3) / columns - 3 * (columns - 1);
    let desc_w = col_w.saturating_sub(key_w + 2);
    let cell = |(k, d): &(String, String)| {
        let d = textwidth::truncate(d, desc_w);
        let pad = desc_w.saturating_sub(textwidth::width(&d));
        vec![
            Span::styled(format!("{k:<key_w$}  "), theme.help_key),
            Span::styled(d, theme.help_text),
            Span::raw(" ".repeat(pad)),
        ]
    };
    let mut lines: Vec<Line> = (0..rows)
        .map(|r| {
            let mut spans = cell(&entries[r]);
            if let Some(right) = entries.get(r + rows).filter(|_| columns == 2) {
                spans.push(Span::styled(" │ ", theme.help_border));
                spans.extend(cell(right));
            }
            Line::from(spans)
        })
        .collect();
    if tail > 0 {
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            "Esc or any key closes this help",
            theme.placeholder,
        )));
    }
    dialog::boxed(frame, screen, area, " codex-picker keys ", lines, theme);
}
