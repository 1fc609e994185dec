//! `show` as plain text: the session's facts, then each message under a heading, each marker
//! (a compaction, an interrupted turn, where a fork's own part begins) on a rule of its own,
//! and with `--tools` each tool call as what it did and how it ended, with its facts (files,
//! plan steps, codex's reason for a failure) and the first lines of its output (`--full`: all
//! of it, and each patched file's diff). The words come from [`describe`]; this file only lays
//! them out.
//!
//! Every string from a rollout is neutralised (`sanitize`), tool text with its colour codes
//! removed first, so nothing printed can drive a terminal.

use std::io::{self, Write};

use crate::rollout::describe::{self, Block, Described, Lang};
use crate::rollout::entry::Spoken;
use crate::rollout::record::Role;
use crate::rollout::transcript::{Entry, Transcript};
use crate::sanitize;
use crate::session::{self, SessionRow};

/// Lines of a tool's text printed without `--full`.
const PEEK: usize = 5;

/// What `show` prints besides the messages.
#[derive(Debug, Clone, Copy)]
pub struct TextView {
    /// Tool calls and reasoning.
    pub tools: bool,
    /// Tool texts whole, and each patched file's diff.
    pub full: bool,
}

pub fn write_transcript_text(
    out: &mut dyn Write,
    row: &SessionRow,
    t: &Transcript,
    view: TextView,
) -> io::Result<()> {
    let (user, assistant) = t.counts();
    writeln!(out, "# Session {}", sanitize::one_line(&row.id))?;
    for (key, value) in session::metadata_lines(row).into_iter().skip(1) {
        writeln!(out, "{key}: {}", sanitize::one_line(&value))?;
    }
    if let Some(title) = t.fork_of() {
        writeln!(out, "fork of: {}", sanitize::one_line(&title))?;
    }
    writeln!(out, "messages: {user} user, {assistant} assistant")?;
    for entry in &t.entries {
        match entry {
            Entry::Message { .. } => {
                if let Some(m) = entry.spoken() {
                    message_text(out, m)?;
                }
            }
            Entry::Marker(marker) => marker_text(out, &describe::marker(marker))?,
            Entry::Tool(call) if view.tools => tool_text(out, &describe::tool(call), view)?,
            Entry::Tool(_) => {}
        }
    }
    Ok(())
}

/// A message under a heading that says who spoke (and in which phase), the images sent with
/// it, its text, and what was cut from it.
fn message_text(out: &mut dyn Write, m: Spoken) -> io::Result<()> {
    let who = match m.role {
        Role::User => "User",
        Role::Assistant => "Assistant",
    };
    match m.phase {
        Some(p) => writeln!(out, "\n## {who} ({})\n", sanitize::one_line(p))?,
        None => writeln!(out, "\n## {who}\n")?,
    }
    if let Some(line) = describe::images(m.images) {
        writeln!(out, "[{}]", sanitize::one_line(&line))?;
    }
    writeln!(
        out,
        "{}",
        sanitize::for_terminal(m.text).trim_end_matches('\n')
    )?;
    if m.elided > 0 {
        writeln!(
            out,
            "[… {} more bytes not shown (--full shows them) …]",
            m.elided
        )?;
    }
    Ok(())
}

/// What an entry did and how it ended, on one line: `heading  ✓ how`.
fn heading(d: &Described) -> String {
    let status = d
        .status
        .as_ref()
        .map(|s| format!("  {} {}", s.mark, sanitize::one_line(&s.text)))
        .unwrap_or_default();
    format!("{}{}", sanitize::one_line(&d.head), status.trim_end())
}

/// A marker on a rule of its own, then what it holds (a compaction's summary).
fn marker_text(out: &mut dyn Write, d: &Described) -> io::Result<()> {
    writeln!(out, "\n── {} ──", heading(d))?;
    for block in &d.blocks {
        if let Block::Text { text, .. } = block {
            for line in sanitize::for_terminal(text.trim_end()).split('\n') {
                writeln!(out, "{}", format!("   │ {line}").trim_end())?;
            }
        }
    }
    Ok(())
}

/// A tool call: `  ▸ heading  ✓ how it ended`, then its facts, indented.
fn tool_text(out: &mut dyn Write, d: &Described, view: TextView) -> io::Result<()> {
    writeln!(out, "\n  ▸ {}", heading(d))?;
    for block in &d.blocks {
        match block {
            Block::Note(note) => writeln!(out, "      {}", sanitize::one_line(note))?,
            Block::Reason(reason) => {
                for line in sanitize::tool_text(reason.trim_end()).split('\n') {
                    writeln!(out, "      ! {line}")?;
                }
            }
            Block::Files(files) => {
                for f in files {
                    let to =
                        f.to.map(|to| format!(" → {}", sanitize::one_line(to)))
                            .unwrap_or_default();
                    writeln!(out, "      {} {}{to}", f.mark, sanitize::one_line(f.path))?;
                    if let Some(diff) = f.diff.filter(|_| view.full) {
                        lines(out, diff, usize::MAX, "        ")?;
                    }
                }
            }
            Block::Steps(steps) => {
                for s in steps {
                    let change = s
                        .change
                        .as_deref()
                        .map(|c| format!(" ({})", sanitize::one_line(c)))
                        .unwrap_or_default();
                    writeln!(
                        out,
                        "      {} {}{change}",
                        s.mark,
                        sanitize::one_line(s.text)
                    )?;
                }
            }
            // A patch's text is its files' diffs, shown with them.
            Block::Text {
                lang: Lang::Diff, ..
            } if !view.full => {}
            Block::Text { text, lang, elided } => {
                // A reasoning summary is read whole; other texts are peeked at.
                let keep = if view.full || *lang == Lang::Markdown {
                    usize::MAX
                } else {
                    PEEK
                };
                lines(out, text, keep, "      │ ")?;
                if *elided > 0 && keep == usize::MAX {
                    writeln!(out, "      [… {elided} more bytes not kept …]")?;
                }
            }
        }
    }
    Ok(())
}

/// `text`'s first `keep` lines, each after `indent`, and how many more there are.
fn lines(out: &mut dyn Write, text: &str, keep: usize, indent: &str) -> io::Result<()> {
    let clean = sanitize::tool_text(text.trim_end_matches('\n'));
    let total = clean.split('\n').count();
    for line in clean.split('\n').take(keep) {
        writeln!(out, "{}", format!("{indent}{line}").trim_end())?;
    }
    if total > keep {
        let more = total - keep;
        let lines = if more == 1 { "line" } else { "lines" };
        writeln!(out, "      … {more} more {lines} (--full shows them)")?;
    }
    Ok(())
}
