//! The session list: one line per session (age, title with matched characters highlighted,
//! project, branch, exec/archived marker); the selected line is reversed/bold with a `▶`
//! marker, so it stands out without colour. Highlights are computed for drawn rows only.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::fulltext::ContentHit;
use crate::sanitize;
use crate::search::{self, Highlights};
use crate::session::SessionRow;
use crate::textwidth;
use crate::timefmt;
use crate::tui::app::App;

use super::{marked, Theme};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let list = app.list();
    let rows = app.rows();
    if list.visible().is_empty() {
        frame.render_widget(Paragraph::new(empty_message(app)).style(theme.empty), area);
        return;
    }
    let height = usize::from(area.height);
    let lines: Vec<Line> = list
        .visible()
        .iter()
        .enumerate()
        .skip(list.offset())
        .take(height)
        .map(|(pos, &i)| {
            let content = app.searches().hit(i).filter(|_| app.content_mode());
            let marks = if list.parsed().is_empty() || content.is_some() {
                Highlights::default()
            } else {
                // Only the rows on screen pay for a haystack and their highlights.
                search::highlights(&search::Haystack::new(&rows[i]), list.parsed())
            };
            row_line(
                &rows[i],
                &marks,
                content,
                pos == list.selected(),
                area.width,
                app.screen().now(),
                theme,
            )
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

fn empty_message(app: &App) -> Vec<Line<'static>> {
    let mut lines = vec![Line::default()];
    let text = if app.content_pending() {
        match app.index().content_progress() {
            Some((done, total)) => format!(
                "  building the index of every conversation ({} / {} sessions); results follow",
                super::status::thousands(done),
                super::status::thousands(total)
            ),
            None => "  the index of every conversation is being built; results follow".to_owned(),
        }
    } else if !app.index().finished() && app.rows().is_empty() {
        "  reading sessions…".to_owned()
    } else if app.rows().is_empty() {
        "  no sessions in this Codex home".to_owned()
    } else if !app.list().query().trim().is_empty() {
        "  no session matches the query".to_owned()
    } else {
        "  no session to show here".to_owned()
    };
    lines.push(Line::from(text));
    let h = app.list().hidden();
    if h.scope + h.exec + h.archived > 0 {
        lines.push(Line::from(
            "  some are hidden: Tab shows every folder, Ctrl+E exec, Ctrl+A archived",
        ));
    }
    lines
}

/// The snippet of a content hit for a column `width` cells wide: safe, on one line, starting
/// a little before the match so the match is in view, with the match's character positions.
pub fn snippet_view(hit: &ContentHit, width: usize) -> (String, Vec<usize>) {
    let (before, rest) = hit
        .snippet
        .split_at(hit.snippet_match.start.min(hit.snippet.len()));
    let matched_len = hit.snippet_match.len().min(rest.len());
    let (matched, after) = rest.split_at(matched_len);
    let (before, matched, after) = (
        sanitize::one_line(before),
        sanitize::one_line(matched),
        sanitize::one_line(after),
    );
    let lead = width / 4;
    let before: String = if textwidth::width(&before) > lead {
        format!(
            "…{}",
            textwidth::truncate_left(&before, lead).trim_start_matches('…')
        )
    } else {
        before
    };
    let start = before.chars().count();
    let marks = (start..start + matched.chars().count()).collect();
    (format!("{before}{matched}{after}"), marks)
}

/// One list line, exactly `width` cells.
#[allow(clippy::too_many_arguments)]
fn row_line(
    row: &SessionRow,
    marks: &Highlights,
    content: Option<&ContentHit>,
    selected: bool,
    width: u16,
    now: i64,
    theme: &Theme,
) -> Line<'static> {
    let width = usize::from(width);
    let mut spans: Vec<Span> = Vec::new();
    spans.push(if selected {
        Span::styled("▶ ", theme.marker)
    } else {
        Span::raw("  ")
    });
    spans.push(Span::styled(
        format!("{:>4} ", timefmt::relative(row.updated_ms, now)),
        theme.age,
    ));
    // Right side: project, branch, kind; dropped from the right when space is short.
    let kind = if row.archived {
        Some("archived")
    } else {
        row.kind_label()
    };
    let cwd = row
        .cwd
        .as_deref()
        .map(sanitize::one_line)
        .unwrap_or_default();
    let project = crate::session::project_of(&cwd);
    let project_at = cwd.chars().count().saturating_sub(project.chars().count());
    let project_marks: Vec<usize> = marks.fields[search::CWD]
        .iter()
        .filter_map(|&p| p.checked_sub(project_at))
        .collect();
    let branch = row
        .git_branch
        .as_deref()
        .map(sanitize::one_line)
        .unwrap_or_default();
    // Fixed columns so every row lines up: project, branch; the title takes the rest.
    let left_used = 7;
    // The title is what a reader scans: the branch column only appears when the title keeps
    // at least ~50 cells.
    let show_branch = width >= 84;
    let project_w = if width >= 64 { 16 } else { 12 };
    let branch_w = if show_branch { 14 } else { 0 };
    // A custom `source` can be any text: its label gets a short column.
    let kind = kind.map(|k| textwidth::truncate(&sanitize::one_line(k), 10));
    let kind_w = kind.as_ref().map_or(0, |k| textwidth::width(k) + 1);
    let right_w = project_w + 1 + if show_branch { branch_w + 1 } else { 0 };
    // One cell separates the title from the right-hand columns.
    let title_w = width
        .saturating_sub(left_used + 1 + right_w + kind_w)
        .max(8);
    if let Some(k) = kind {
        spans.push(Span::styled(format!("{k} "), theme.kind));
    }
    let snippet = content.map(|hit| snippet_view(hit, title_w));
    let (title, title_marks, title_style) = match &row.name {
        _ if snippet.is_some() => {
            let (text, marks) = snippet
                .as_ref()
                .map(|(t, m)| (t.clone(), m.as_slice()))
                .unwrap_or_default();
            (text, marks, theme.title)
        }
        Some(n) if !n.trim().is_empty() => (
            sanitize::one_line(n),
            marks.fields[search::NAME].as_slice(),
            theme.title.add_modifier(ratatui::style::Modifier::BOLD),
        ),
        _ if row.preview.trim().is_empty() => ("(no message)".to_owned(), &[][..], theme.empty),
        _ => (
            sanitize::one_line(&row.preview),
            marks.fields[search::PREVIEW].as_slice(),
            theme.title,
        ),
    };
    let (t, used) = marked(&title, title_marks, title_w, title_style, theme.matched);
    spans.extend(t);
    spans.push(Span::raw(" ".repeat(title_w.saturating_sub(used))));
    spans.push(Span::raw(" "));
    let (p, used) = marked(
        &project,
        &project_marks,
        project_w,
        theme.project,
        theme.matched,
    );
    spans.extend(p);
    spans.push(Span::raw(" ".repeat(project_w.saturating_sub(used) + 1)));
    if show_branch {
        let (b, used) = marked(
            &branch,
            &marks.fields[search::BRANCH],
            branch_w,
            theme.branch,
            theme.matched,
        );
        spans.extend(b);
        spans.push(Span::raw(" ".repeat(branch_w.saturating_sub(used))));
    }
    let used: usize = spans.iter().map(|s| textwidth::width(&s.content)).sum();
    if used < width {
        spans.push(Span::raw(" ".repeat(width - used)));
    }
    let line = Line::from(spans);
    if selected {
        line.style(theme.selected)
    } else {
        line
    }
}
