//! The session list: one line per session (age, Claude Code/fork/exec/archived marker, title with matched
//! characters highlighted, then, for a hit inside the conversation, ` · ` and the best snippet
//! dimmed with the match highlighted; project, branch); the selected line is reversed/bold with a `▶`
//! marker, so it stands out without colour; a `●` beside the marker says another codex has the
//! session open. Highlights are computed for drawn rows only.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::sanitize;
use crate::search::fulltext::ContentHit;
use crate::search::title::{self, Highlights};
use crate::session::SessionRow;
use crate::textwidth;
use crate::timefmt::{self, Millis};
use crate::tui::action::Action;
use crate::tui::app::App;

use super::marked::marked;
use super::Theme;
use crate::tui::numbers::thousands;

pub(crate) fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let list = app.list();
    let rows = app.rows();
    if list.visible().is_empty() {
        frame.render_widget(Paragraph::new(empty_message(app)).style(theme.empty), area);
        return;
    }
    let height = usize::from(area.height);
    let ctx = RowContext {
        width: usize::from(area.width),
        now: app.screen().now(),
        theme,
    };
    let lines: Vec<Line> = list
        .visible()
        .iter()
        .enumerate()
        .skip(list.offset())
        .take(height)
        .map(|(pos, &i)| {
            // A hit in the first prompt of a session titled by it is shown in the title.
            let content = app
                .searches()
                .hit(i)
                .filter(|hit| hit.first_message > 0 || rows[i].name.is_some());
            let marks = if list.parsed().is_empty() || content.is_some() {
                Highlights::default()
            } else {
                // Only the rows on screen pay for a haystack and their highlights.
                title::highlights(&title::Haystack::new(&rows[i]), list.parsed())
            };
            let open = app.holder_of(&rows[i]).is_some();
            row_line(
                &rows[i],
                &marks,
                content,
                pos == list.selected(),
                open,
                &ctx,
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
                thousands(done as u64),
                thousands(total as u64)
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
        let key = |c| app.keys().key_of(c);
        lines.push(Line::from(format!(
            "  some are hidden: {} shows every folder, {} exec, {} archived",
            key(&Action::ToggleScope),
            key(&Action::ToggleExec),
            key(&Action::ToggleArchived)
        )));
    }
    lines
}

/// The snippet of a content hit for a column `width` cells wide: safe, on one line, starting
/// a little before the match so the match is in view, with the match's character positions.
pub(crate) fn snippet_view(hit: &ContentHit, width: usize) -> (String, Vec<usize>) {
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

/// What every row of one frame is drawn with.
struct RowContext<'t> {
    /// The list's width: each row is exactly this many cells.
    width: usize,
    /// The clock the ages are counted from.
    now: Millis,
    theme: &'t Theme,
}

/// The widths of a row's columns. Fixed so every row lines up: project, branch; the title takes
/// the rest.
struct Columns {
    title: usize,
    project: usize,
    /// `None` when the row is too narrow for a branch column.
    branch: Option<usize>,
}

impl Columns {
    /// The columns of a row `width` cells wide whose kind label (and the space after it) takes
    /// `kind_w` cells.
    fn new(width: usize, kind_w: usize) -> Columns {
        // The marker and the age.
        let left_used = 7;
        // The title is what a reader scans: the branch column only appears when the title keeps
        // at least ~50 cells.
        let show_branch = width >= 84;
        let project = if width >= 64 { 16 } else { 12 };
        let branch = show_branch.then_some(14);
        let right_w = project + 1 + branch.map_or(0, |b| b + 1);
        // One cell separates the title from the right-hand columns.
        let title = width
            .saturating_sub(left_used + 1 + right_w + kind_w)
            .max(8);
        Columns {
            title,
            project,
            branch,
        }
    }
}

/// A row's spans as they are laid out, left to right.
struct RowSpans<'t> {
    spans: Vec<Span<'static>>,
    theme: &'t Theme,
}

impl RowSpans<'_> {
    fn push(&mut self, span: Span<'static>) {
        self.spans.push(span);
    }

    /// `text` cut to `w` cells with the characters at `marks` highlighted, then spaces up to
    /// `w + gap` cells.
    fn column(&mut self, text: &str, marks: &[usize], style: Style, w: usize, gap: usize) {
        let (spans, used) = marked(text, marks, w, style, self.theme.matched);
        self.spans.extend(spans);
        self.spans
            .push(Span::raw(" ".repeat(w.saturating_sub(used) + gap)));
    }

    /// Spaces up to `width` cells, then the line.
    fn into_line(mut self, width: usize) -> Line<'static> {
        let used: usize = self
            .spans
            .iter()
            .map(|s| textwidth::width(&s.content))
            .sum();
        if used < width {
            self.spans.push(Span::raw(" ".repeat(width - used)));
        }
        Line::from(self.spans)
    }
}

/// One list line, exactly `ctx.width` cells: marker, open elsewhere (`open`), age, kind,
/// title, project, branch.
fn row_line(
    row: &SessionRow,
    marks: &Highlights,
    content: Option<&ContentHit>,
    selected: bool,
    open: bool,
    ctx: &RowContext,
) -> Line<'static> {
    let theme = ctx.theme;
    let mut spans = RowSpans {
        spans: Vec::new(),
        theme,
    };
    spans.push(if selected {
        Span::styled("▶", theme.marker)
    } else {
        Span::raw(" ")
    });
    spans.push(if open {
        Span::styled("●", theme.part(crate::tui::render::Part::Warning))
    } else {
        Span::raw(" ")
    });
    spans.push(Span::styled(
        format!("{:>4} ", timefmt::relative(row.updated_ms, ctx.now)),
        theme.age,
    ));
    let kind = kind_label(row);
    let cols = Columns::new(
        ctx.width,
        kind.as_ref().map_or(0, |k| textwidth::width(k) + 1),
    );
    if let Some(k) = kind {
        spans.push(Span::styled(format!("{k} "), theme.kind));
    }
    let (title, title_marks, title_style) = title(row, marks, theme);
    match content {
        Some(hit) => title_and_snippet(
            &mut spans,
            (&title, &title_marks, title_style),
            hit,
            cols.title,
        ),
        None => spans.column(&title, &title_marks, title_style, cols.title, 0),
    }
    spans.push(Span::raw(" "));
    let (project, project_marks) = project(row, marks);
    spans.column(&project, &project_marks, theme.project, cols.project, 1);
    if let Some(branch_w) = cols.branch {
        let branch = row
            .meta
            .git_branch
            .as_deref()
            .map(sanitize::one_line)
            .unwrap_or_default();
        let branch_marks = &marks.fields[title::BRANCH];
        spans.column(&branch, branch_marks, theme.branch, branch_w, 0);
    }
    let line = spans.into_line(ctx.width);
    if selected {
        line.style(theme.selected)
    } else {
        line
    }
}

/// The row's kind (archived, exec, another source), `None` for an interactive session, after
/// `⑂` for a fork, after `cc` for a Claude Code session. A custom `source` can be any text: its label gets a short column.
fn kind_label(row: &SessionRow) -> Option<String> {
    let kind = if row.archived {
        Some("archived")
    } else {
        row.kind_label()
    };
    let kind = kind.map(|k| textwidth::truncate(&sanitize::one_line(k), 10));
    let kind = match (row.meta.forked_from_id.is_some(), kind) {
        (true, Some(k)) => Some(format!("⑂ {k}")),
        (true, None) => Some("⑂".to_owned()),
        (false, kind) => kind,
    };
    match (row.source.mark(), kind) {
        (Some(mark), Some(k)) => Some(format!("{mark} {k}")),
        (Some(mark), None) => Some(mark.to_owned()),
        (None, kind) => kind,
    }
}

/// The title column's text, the characters to highlight and its style: the session's name
/// (bold), else the title its agent gave it, else its first message.
fn title(row: &SessionRow, marks: &Highlights, theme: &Theme) -> (String, Vec<usize>, Style) {
    let given = |t: &Option<String>| t.as_ref().filter(|t| !t.trim().is_empty()).is_some();
    match &row.name {
        Some(n) if !n.trim().is_empty() => (
            sanitize::one_line(n),
            marks.fields[title::NAME].clone(),
            theme.title.add_modifier(Modifier::BOLD),
        ),
        _ if given(&row.auto_title) => (
            title::field_text(row, title::NAME),
            marks.fields[title::NAME].clone(),
            theme.title,
        ),
        _ if row.preview.trim().is_empty() => ("(no message)".to_owned(), Vec::new(), theme.empty),
        _ => (
            sanitize::one_line(&row.preview),
            marks.fields[title::PREVIEW].clone(),
            theme.title,
        ),
    }
}

/// Between a content hit's title and its snippet.
const SNIPPET_SEPARATOR: &str = " · ";

/// The title column of a content hit, `w` cells: the session's title, so the user can tell which
/// session it is, then ` · ` and the snippet (dimmed, the match highlighted). The title takes at
/// most two fifths of the column when the snippet needs the rest (more when the snippet is short); a column too narrow for a
/// readable snippet shows the title alone.
fn title_and_snippet(
    spans: &mut RowSpans,
    (title, title_marks, title_style): (&str, &[usize], Style),
    hit: &ContentHit,
    w: usize,
) {
    let sep_w = textwidth::width(SNIPPET_SEPARATOR);
    let title_share = (w * 2 / 5).max(MIN_TITLE);
    // A short snippet leaves the title more room.
    let (snippet, _) = snippet_view(hit, w.saturating_sub(title_share + sep_w));
    let room = w.saturating_sub(sep_w + textwidth::width(&snippet));
    let title_w = textwidth::width(title).min(room.max(title_share)).min(w);
    let snippet_w = w.saturating_sub(title_w + sep_w);
    if snippet_w < MIN_SNIPPET {
        spans.column(title, title_marks, title_style, w, 0);
        return;
    }
    spans.column(title, title_marks, title_style, title_w, 0);
    let dim = spans.theme.title.add_modifier(Modifier::DIM);
    spans.push(Span::styled(SNIPPET_SEPARATOR, dim));
    let (snippet, snippet_marks) = snippet_view(hit, snippet_w);
    spans.column(&snippet, &snippet_marks, dim, snippet_w, 0);
}

/// The fewest cells a content hit's title is cut to while its snippet is shown.
const MIN_TITLE: usize = 12;
/// The fewest cells worth showing a snippet in.
const MIN_SNIPPET: usize = 10;

/// The project column (the end of the session's working folder, as [`project_of`] gives it) and
/// the characters to highlight in it: the working folder's marks, counted from where the project
/// starts.
///
/// [`project_of`]: crate::session::project_of
fn project(row: &SessionRow, marks: &Highlights) -> (String, Vec<usize>) {
    let cwd = row
        .meta
        .cwd
        .as_deref()
        .map(sanitize::one_line)
        .unwrap_or_default();
    let project = crate::session::project_of(&cwd);
    let project_at = cwd.chars().count().saturating_sub(project.chars().count());
    let project_marks = marks.fields[title::CWD]
        .iter()
        .filter_map(|&p| p.checked_sub(project_at))
        .collect();
    (project, project_marks)
}
