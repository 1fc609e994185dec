//! The status line (counts, what is hidden and why, indexing progress, problems, a short
//! confirmation) and the footer with the most used keys; with too few rows for a status line,
//! the short confirmation alone on the picker's last row.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::search::title::Recency;
use crate::textwidth;
use crate::tui::action::{Action, Focus};
use crate::tui::app::{App, Scope};
use crate::tui::keys;
use crate::tui::numbers::thousands;

use super::Theme;

/// `1 session`, `2 sessions`, `1,234 sessions`.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        thousands(n as u64),
        if n == 1 { one } else { many }
    )
}

/// The status text, in parts joined by ` · `.
pub fn status_text(app: &App) -> String {
    let mut parts = Vec::new();
    if let Some((done, total)) = app.index().progress() {
        parts.push(format!(
            "indexed {} / {}",
            thousands(done as u64),
            thousands(total as u64)
        ));
    }
    if let Some((done, total)) = app.index().content_progress() {
        parts.push(format!(
            "conversations indexed {} / {}",
            thousands(done as u64),
            thousands(total as u64)
        ));
    }
    if let Some(e) = app.list().filter_error() {
        parts.insert(0, crate::sanitize::one_line(&e.to_string()));
    }
    if let Some(r) = app.actions().running() {
        parts.insert(0, format!("codex is {} “{}”…", r.change.doing(), r.title));
    }
    if app.content_mode() {
        parts.push(format!(
            "searching inside conversations ({}: titles)",
            app.keys().key_of(&Action::ToggleContent)
        ));
    }
    let filters = app.filters();
    let scope = match filters.effective_scope() {
        _ if filters.scope_provisional() => "all folders: none in this folder so far",
        Scope::Folder => "this folder",
        Scope::All => "all folders",
    };
    let total = app.live_rows();
    parts.push(format!(
        "{} of {} ({scope})",
        thousands(app.list().visible().len() as u64),
        counted(total, "session", "sessions")
    ));
    let h = app.list().hidden();
    let mut hidden = Vec::new();
    if h.scope > 0 {
        let key = app.keys().key_of(&Action::ToggleScope);
        hidden.push(format!(
            "{} other folders ({key})",
            thousands(h.scope as u64)
        ));
    }
    if h.exec > 0 {
        let key = app.keys().key_of(&Action::ToggleExec);
        hidden.push(format!("{} exec ({key})", thousands(h.exec as u64)));
    }
    if h.archived > 0 {
        let key = app.keys().key_of(&Action::ToggleArchived);
        hidden.push(format!("{} archived ({key})", thousands(h.archived as u64)));
    }
    if !hidden.is_empty() {
        parts.push(format!("hidden: {}", hidden.join(", ")));
    }
    parts.push(
        match app.list().order() {
            Recency::Updated => "by update",
            Recency::Created => "by creation",
            Recency::Tokens => "by tokens",
        }
        .into(),
    );
    let issues = app.index().issues();
    if issues > 0 {
        parts.push(counted(issues, "unreadable file", "unreadable files"));
    }
    parts.join(" · ")
}

/// The short message alone on `row` (over the list's last row), when there is one: the picker
/// has no status line.
pub(crate) fn draw_flash(frame: &mut Frame, row: Rect, app: &App, theme: &Theme) {
    if let Some(flash) = app.screen().flash() {
        let text = textwidth::truncate(flash, usize::from(row.width));
        frame.render_widget(ratatui::widgets::Clear, row);
        frame.render_widget(Line::from(Span::styled(text, theme.flash)), row);
    }
}

pub fn draw(frame: &mut Frame, status: Rect, footer: Rect, app: &App, theme: &Theme) {
    let width = usize::from(status.width);
    if status.height > 0 {
        let line = match app.screen().flash() {
            Some(flash) => Line::from(vec![
                Span::styled(textwidth::truncate(flash, width), theme.flash),
                Span::styled(
                    textwidth::truncate(
                        &format!(" · {}", status_text(app)),
                        width.saturating_sub(textwidth::width(flash)),
                    ),
                    theme.status,
                ),
            ]),
            None => Line::from(Span::styled(
                textwidth::truncate(&status_text(app), width),
                theme.status,
            )),
        };
        frame.render_widget(line, status);
    }
    if footer.height > 0 {
        let keys = if app.pane().find().editing() {
            keys::FOOTER_FINDING
        } else if app.screen().focus() == Focus::Conversation {
            app.keys().footer(keys::Section::Conversation)
        } else {
            app.keys().footer(keys::Section::List)
        };
        frame.render_widget(
            Line::from(Span::styled(
                textwidth::truncate(keys, usize::from(footer.width)),
                theme.footer,
            )),
            footer,
        );
    }
}
