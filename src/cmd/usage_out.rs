//! How `usage` prints: a table a person reads (a group a line, thousands grouped, a total
//! line), or one JSON object per group; and the rate limits likewise. Text from sessions (a
//! folder, a title) is neutralised before it is printed.

use std::io::{self, Write};

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{json, Value};

use crate::rollout::limits::Reading;
use crate::rollout::usage::Tokens;
use crate::sanitize;
use crate::session::SessionRow;
use crate::textwidth;
use crate::timefmt::{format_rfc3339, format_short, relative, Millis};
use crate::tui::numbers::thousands;
use crate::usage::limits::Limit;
use crate::usage::period::By;
use crate::usage::zone::Zone;
use crate::usage::{total, Group};

/// A report to print.
pub(super) struct Shown<'a> {
    pub by: By,
    pub rows: &'a [SessionRow],
    pub groups: &'a [Group],
    /// The config file prices some model: the cost column is shown.
    pub priced: bool,
}

/// The report's groups as a table or JSON lines.
pub(super) fn write_groups(out: &mut dyn Write, shown: &Shown, json: bool) -> io::Result<()> {
    if json {
        for g in shown.groups {
            sanitize::write_json(&mut *out, &group_json(shown, g))?;
            out.write_all(b"\n")?;
        }
        return Ok(());
    }
    if shown.groups.is_empty() {
        return writeln!(out, "No tokens recorded in these sessions.");
    }
    let mut lines: Vec<[String; 8]> = vec![[
        shown.by.as_str().to_uppercase(),
        "SESSIONS".into(),
        "INPUT".into(),
        "CACHED".into(),
        "OUTPUT".into(),
        "REASONING".into(),
        "TOTAL".into(),
        "COST".into(),
    ]];
    for g in shown.groups {
        lines.push(cells(
            label(shown, g),
            g.sessions.len(),
            &g.tokens,
            g.cost(),
        ));
    }
    // Every token priced: the costs add up; else the total has none either.
    let cost = shown.groups.iter().map(Group::cost).sum::<Option<f64>>();
    let all = sessions_in(shown);
    lines.push(cells("total".into(), all, &total(shown.groups), cost));
    table(out, &lines, shown.priced)?;
    if shown.priced && shown.groups.iter().any(|g| g.unpriced > 0) {
        writeln!(
            out,
            "—: a model without a price in the config file's [prices]"
        )?;
    }
    Ok(())
}

/// Sessions that used tokens in any group.
fn sessions_in(shown: &Shown) -> usize {
    let mut seen: Vec<usize> = shown
        .groups
        .iter()
        .flat_map(|g| g.sessions.iter().map(|s| s.0))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

fn cells(key: String, sessions: usize, t: &Tokens, cost: Option<f64>) -> [String; 8] {
    [
        key,
        sessions.to_string(),
        thousands(t.input),
        thousands(t.cached_input),
        thousands(t.output),
        thousands(t.reasoning),
        thousands(t.total),
        cost_text(cost),
    ]
}

fn cost_text(cost: Option<f64>) -> String {
    cost.map_or_else(|| "—".to_owned(), |c| format!("${c:.2}"))
}

/// A group's first cell: its key, and for a session its title.
fn label(shown: &Shown, g: &Group) -> String {
    let text = match (shown.by, g.sessions.first()) {
        (By::Session, Some(&(i, _))) => {
            let row = &shown.rows[i];
            let id: String = row.id.chars().take(8).collect();
            format!("{id}  {}", textwidth::truncate(row.title(), 48))
        }
        _ => g.key.clone(),
    };
    sanitize::one_line(&text)
}

fn table(out: &mut dyn Write, lines: &[[String; 8]], priced: bool) -> io::Result<()> {
    let columns = if priced { 8 } else { 7 };
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            lines
                .iter()
                .map(|l| textwidth::width(&l[c]))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for (n, line) in lines.iter().enumerate() {
        if n + 1 == lines.len() {
            let rule: usize = widths.iter().sum::<usize>() + 2 * (columns - 1);
            writeln!(out, "{}", "─".repeat(rule))?;
        }
        let mut text = String::new();
        for (c, cell) in line.iter().take(columns).enumerate() {
            let pad = " ".repeat(widths[c] - textwidth::width(cell));
            if c == 0 {
                text.push_str(cell);
                text.push_str(&pad);
            } else {
                text.push_str("  ");
                text.push_str(&pad);
                text.push_str(cell);
            }
        }
        writeln!(out, "{}", text.trim_end())?;
    }
    Ok(())
}

/// A JSON object whose keys are written in the order given (the group's key first), not
/// sorted as a `serde_json::Map` would sort them.
struct Ordered(Vec<(&'static str, Value)>);

impl Serialize for Ordered {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

fn group_json(shown: &Shown, g: &Group) -> Ordered {
    let t = &g.tokens;
    let mut o = vec![(shown.by.as_str(), Value::from(g.key.clone()))];
    if let (By::Session, Some(&(i, _))) = (shown.by, g.sessions.first()) {
        let row = &shown.rows[i];
        o.push(("title", row.title().into()));
        o.push(("folder", json!(row.meta.cwd)));
        o.push(("source", row.source.as_str().into()));
    }
    o.extend([
        ("sessions", g.sessions.len().into()),
        ("input", t.input.into()),
        ("cached_input", t.cached_input.into()),
        ("output", t.output.into()),
        ("reasoning", t.reasoning.into()),
        ("total", t.total.into()),
        ("cost", json!(g.cost())),
        ("unpriced", g.unpriced.into()),
    ]);
    Ordered(o)
}

/// The rate limits: each limit's newest reading, when it resets, and its windows before.
pub(super) fn write_limits(
    out: &mut dyn Write,
    limits: &[Limit],
    json: bool,
    now: Millis,
    zone: &mut dyn Zone,
) -> io::Result<()> {
    if json {
        for l in limits {
            sanitize::write_json(&mut *out, &limit_json(l))?;
            out.write_all(b"\n")?;
        }
        return Ok(());
    }
    if limits.is_empty() {
        return writeln!(
            out,
            "No rate limits recorded: codex writes them with its token counts when the API sends them."
        );
    }
    for l in limits {
        let r = &l.newest;
        let window = r
            .window_name()
            .map_or(String::new(), |w| format!(" ({w} window)"));
        writeln!(
            out,
            "{}{window}: {:.0}% used, read {} ago; {}",
            l.which.as_str(),
            r.used_percent(),
            relative(r.seen_at, now),
            resets(r, now, zone)
        )?;
        for w in l.windows.iter().skip(1) {
            let until = w
                .resets_at
                .map_or("?".to_owned(), |s| local(s * 1000, zone));
            writeln!(out, "  window to {until}: went to {:.0}%", w.used_percent())?;
        }
    }
    Ok(())
}

fn resets(r: &Reading, now: Millis, zone: &mut dyn Zone) -> String {
    match r.resets_at.map(|s| s * 1000) {
        Some(at) if at > now => format!("resets {} (in {})", local(at, zone), relative(now, at)),
        Some(at) => format!("reset at {}, no reading since", local(at, zone)),
        None => "no reset time recorded".to_owned(),
    }
}

/// A time in the local zone, `2026-12-07 14:20`.
fn local(ms: Millis, zone: &mut dyn Zone) -> String {
    format_short(ms + zone.offset_ms(ms))
}

fn limit_json(l: &Limit) -> Ordered {
    let reading = |r: &Reading| {
        vec![
            ("used_percent", json!(r.used_percent())),
            ("window_minutes", json!(r.window_minutes)),
            (
                "resets_at",
                json!(r.resets_at.map(|s| format_rfc3339(s * 1000))),
            ),
            ("seen_at", json!(format_rfc3339(r.seen_at))),
        ]
    };
    let windows: Vec<Value> = l
        .windows
        .iter()
        .map(|w| {
            Value::Object(
                reading(w)
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect(),
            )
        })
        .collect();
    let mut o = vec![("limit", Value::from(l.which.as_str()))];
    o.extend(reading(&l.newest));
    o.push(("windows", Value::Array(windows)));
    Ordered(o)
}
