//! The usage screen, over the whole picker: a bar chart of tokens per day or week (a bar a
//! group, the selected one lit), or the folders or models as horizontal bars; the selected
//! group's totals; the sessions behind it, largest first, with the cursor; the screen's keys.
//! Titles and folders come from sessions: they are neutralised before they are drawn.

use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use super::Theme;
use crate::sanitize;
use crate::textwidth;
use crate::timefmt::{relative, Millis};
use crate::tui::app::UsageScreen;
use crate::tui::numbers::thousands;
use crate::usage::limits::Limit;
use crate::usage::Group;

/// Draw the screen over `area`; the limits' resets are counted from `now`.
pub(crate) fn draw(
    frame: &mut Frame,
    area: Rect,
    screen: &UsageScreen,
    now: Millis,
    theme: &Theme,
) {
    frame.render_widget(Clear, area);
    let title = format!(" usage · tokens by {} ", screen.by().as_str());
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.help_border)
        .title(Span::styled(title, theme.help_key));
    if let Some(limits) = limits_text(screen.limits(), now) {
        block = block.title_top(Line::from(Span::styled(limits, theme.help_text)).right_aligned());
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let chart_h = (inner.height.saturating_sub(4) / 2).clamp(3, 16);
    let [chart, totals, list, keys] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(chart_h),
            Constraint::Length(2),
            Constraint::Min(1),
            Constraint::Length(1),
        ])
        .areas(inner);
    if screen.groups().is_empty() {
        let empty = "No tokens recorded in these sessions yet.";
        frame.render_widget(Paragraph::new(Span::styled(empty, theme.empty)), chart);
    } else if screen.by().is_time() {
        time_chart(frame, chart, screen, theme);
    } else {
        name_chart(frame, chart, screen, theme);
    }
    if let Some(g) = screen.selected() {
        frame.render_widget(Paragraph::new(totals_lines(g, theme)), totals);
        sessions(frame, list, screen, g, theme);
    }
    let hint = "← → day   ↑ ↓ session   Enter go to it   Tab day/week/folder/model   Esc close";
    frame.render_widget(Paragraph::new(Span::styled(hint, theme.footer)), keys);
}

/// Codex's rate limits as the title's right part: `5h 41% (resets in 2h) · 7d 32% (...)`.
fn limits_text(limits: &[Limit], now: Millis) -> Option<String> {
    let parts: Vec<String> = limits
        .iter()
        .map(|l| {
            let r = &l.newest;
            let name = r
                .window_name()
                .unwrap_or_else(|| l.which.as_str().to_owned());
            let resets = match r.resets_at.map(|s| s * 1000) {
                Some(at) if at > now => format!("resets in {}", relative(now, at)),
                Some(_) => "reset since".to_owned(),
                None => "read".to_owned() + " " + &relative(r.seen_at, now) + " ago",
            };
            format!("{name} {:.0}% ({resets})", r.used_percent())
        })
        .collect();
    (!parts.is_empty()).then(|| format!(" limits: {} ", parts.join(" · ")))
}

/// A compact count: `950`, `12k`, `3.4M`, `1.2B`.
fn compact(n: u64) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=999_999 => format!("{}k", n / 1_000),
        1_000_000..=999_999_999 => format!("{:.1}M", n as f64 / 1e6),
        _ => format!("{:.1}B", n as f64 / 1e9),
    }
}

/// Bars of the groups that fit, the selected one among them (the newest at the right).
fn time_chart(frame: &mut Frame, area: Rect, screen: &UsageScreen, theme: &Theme) {
    let (bar_w, gap) = (5u16, 1u16);
    let fit = usize::from((area.width / (bar_w + gap)).max(1));
    let groups = screen.groups();
    // The newest bars stay in view while the selected one is among them; further back, the
    // selected bar is the rightmost.
    let end = if screen.at() + fit >= groups.len() {
        groups.len()
    } else {
        screen.at() + 1
    };
    let start = end.saturating_sub(fit);
    let lit = theme.selected.add_modifier(Modifier::BOLD);
    let bars: Vec<Bar> = groups[start..end]
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let selected = start + i == screen.at();
            // Day of the month under a day's bar, month and day under a week's.
            let label = if g.key.len() >= 10 && screen.by() == crate::usage::period::By::Day {
                g.key[8..10].to_owned()
            } else {
                g.key.get(5..).unwrap_or(&g.key).to_owned()
            };
            let style = if selected { lit } else { theme.project };
            Bar::default()
                .value(g.tokens.total)
                .text_value(compact(g.tokens.total))
                .label(Line::from(label))
                .style(style)
                .value_style(style.add_modifier(Modifier::REVERSED))
        })
        .collect();
    let chart = BarChart::default()
        .data(BarGroup::default().bars(&bars))
        .bar_width(bar_w)
        .bar_gap(gap);
    frame.render_widget(chart, area);
}

/// The folders or models, a line each, largest first, around the selected one.
fn name_chart(frame: &mut Frame, area: Rect, screen: &UsageScreen, theme: &Theme) {
    let groups = screen.groups();
    let height = usize::from(area.height);
    let start = screen.at().saturating_sub(height.saturating_sub(1));
    let most = groups.first().map_or(1, |g| g.tokens.total.max(1));
    let label_w = usize::from(area.width / 3);
    let bar_room = usize::from(area.width).saturating_sub(label_w + 10);
    let lines: Vec<Line> = groups
        .iter()
        .enumerate()
        .skip(start)
        .take(height)
        .map(|(i, g)| {
            let name = textwidth::fit(&sanitize::one_line(&g.key), label_w);
            let filled = (g.tokens.total as f64 / most as f64 * bar_room as f64).round() as usize;
            let style = if i == screen.at() {
                theme.selected
            } else {
                theme.project
            };
            Line::from(vec![
                Span::styled(format!("{name} "), style),
                Span::styled("█".repeat(filled.max(1)), style),
                Span::raw(format!(" {}", compact(g.tokens.total))),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

fn totals_lines<'a>(g: &Group, theme: &Theme) -> Vec<Line<'a>> {
    let t = &g.tokens;
    let cost = g.cost().map_or(String::new(), |c| format!(" · ${c:.2}"));
    vec![
        Line::from(vec![
            Span::styled(
                sanitize::one_line(&g.key),
                theme.title.add_modifier(Modifier::BOLD),
            ),
            Span::styled(
                format!(
                    " · {} session{} · {} tokens{cost}",
                    g.sessions.len(),
                    if g.sessions.len() == 1 { "" } else { "s" },
                    thousands(t.total)
                ),
                theme.help_text,
            ),
        ]),
        Line::from(Span::styled(
            format!(
                "input {} ({} cached) · output {} ({} reasoning)",
                thousands(t.input),
                thousands(t.cached_input),
                thousands(t.output),
                thousands(t.reasoning)
            ),
            theme.age,
        )),
    ]
}

/// The group's sessions, largest first, the cursor's lit and kept in view.
fn sessions(frame: &mut Frame, area: Rect, screen: &UsageScreen, g: &Group, theme: &Theme) {
    let rows = screen.rows();
    let height = usize::from(area.height);
    let start = screen.cursor().saturating_sub(height.saturating_sub(1));
    let width = usize::from(area.width);
    let lines: Vec<Line> = g
        .sessions
        .iter()
        .enumerate()
        .skip(start)
        .take(height)
        .filter_map(|(i, (r, t))| {
            let row = rows.get(*r)?;
            let mark = if row.source.mark().is_some() {
                "cc "
            } else {
                ""
            };
            let folder = row
                .meta
                .cwd
                .as_deref()
                .and_then(|c| c.rsplit('/').find(|p| !p.is_empty()))
                .unwrap_or("");
            let text = format!("{mark}{}  · {folder}", sanitize::one_line(row.title()));
            let count = format!("{:>8}  ", compact(t.total));
            let text = textwidth::fit(&text, width.saturating_sub(count.len()));
            let style = if i == screen.cursor() {
                theme.selected
            } else {
                Style::default()
            };
            Some(Line::from(vec![
                Span::styled(count, theme.age),
                Span::styled(sanitize::one_line(&text), style),
            ]))
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::limits::{Reading, Which};

    #[test]
    fn limits_say_how_far_each_went_and_when_it_resets() {
        let reading = |which, used, minutes, resets_at| Reading {
            which,
            used,
            window_minutes: Some(minutes),
            resets_at: Some(resets_at),
            seen_at: 0,
        };
        let limits = [
            Limit {
                which: Which::Primary,
                newest: reading(Which::Primary, 4100, 300, 7_200),
                windows: Vec::new(),
            },
            Limit {
                which: Which::Secondary,
                newest: reading(Which::Secondary, 3240, 10_080, 10),
                windows: Vec::new(),
            },
        ];
        assert_eq!(
            limits_text(&limits, 0).as_deref(),
            Some(" limits: 5h 41% (resets in 2h) · 7d 32% (resets in 10s) ")
        );
        assert_eq!(
            limits_text(&limits[1..], 20_000).as_deref(),
            Some(" limits: 7d 32% (reset since) ")
        );
        assert_eq!(limits_text(&[], 0), None);
        assert_eq!(
            [
                compact(950),
                compact(12_345),
                compact(3_400_000),
                compact(1_200_000_000)
            ],
            ["950", "12k", "3.4M", "1.2B"]
        );
    }
}
