//! A tool call, a reasoning step or a marker as the pane's lines: what [`describe`] says of it,
//! drawn collapsed (a heading with how it ended, the files a patch changed, a plan's steps,
//! and the first lines of its text) or expanded whole (each file's diff, notes, codex's whole
//! reason for a failure, every line of output). A marker (a compaction, an interrupted turn,
//! the point where a fork's own part begins) is a rule across the pane; a compaction's summary
//! is under it, peeked at until expanded.
//!
//! Pure. Tool output is untrusted like the rest: colour and cursor codes are removed, then every
//! piece is neutralised.

use crate::rollout::describe::{self, Block, Described, Kind, Lang, Tone};
use crate::rollout::entry::Marker;
use crate::rollout::record::{ToolCall, ToolDetail};
use crate::textwidth::{truncate, width};
use crate::tui::render::wrap::{wrap_hard, wrap_runs};
use crate::tui::render::{markdown, Code, PaneLine, Part, Run};

/// Lines of text a collapsed call shows.
const PEEK: usize = 3;
const INDENT: &str = "    ";

/// Whether the row is a reasoning summary rather than a tool call.
pub(crate) fn is_reasoning(call: &ToolCall) -> bool {
    matches!(call.detail, ToolDetail::Reasoning { .. })
}

/// The lines of `call`, expanded (`open`) or not.
pub(crate) fn lines(call: &ToolCall, width: usize, open: bool, expand: &str) -> Vec<PaneLine> {
    let d = describe::tool(call);
    if d.kind == Kind::Reasoning {
        let text = match &call.detail {
            ToolDetail::Reasoning { text } => text.as_str(),
            _ => "",
        };
        return reasoning(text, width);
    }
    let mut v = Drawn {
        out: Vec::new(),
        width: width.max(12),
        open,
        expand,
    };
    v.heading(&d);
    v.blocks(&d);
    v.out
}

/// The lines of a marker: a rule with what happened, and what it holds (a compaction's
/// summary, peeked at unless `open`).
pub(crate) fn marker_lines(
    marker: &Marker,
    width: usize,
    open: bool,
    expand: &str,
) -> Vec<PaneLine> {
    let d = describe::marker(marker);
    let width = width.max(12);
    let icon = match d.kind {
        Kind::Compaction => "⟲",
        Kind::Forked => "⑂",
        _ => "⏹",
    };
    let status = d
        .status
        .as_ref()
        .filter(|s| !s.text.is_empty())
        .map(|s| format!(" · {}", clean_line(&s.text)))
        .unwrap_or_default();
    let said = format!("{icon} {}{status}", clean_line(&d.head));
    let mut out = vec![PaneLine::default()];
    let lead = "── ";
    let used = crate::textwidth::width(lead) + crate::textwidth::width(&said) + 1;
    let text = if used + 3 <= width {
        format!("{lead}{said} {}", "─".repeat(width - used))
    } else {
        crate::textwidth::truncate(&format!("{lead}{said}"), width)
    };
    out.push(PaneLine::one(text, Part::Marker));
    let mut v = Drawn {
        out,
        width,
        open,
        expand,
    };
    v.blocks(&d);
    v.out
}

/// Text made one safe piece: codes stripped, controls neutralised.
fn clean(text: &str) -> String {
    crate::sanitize::tool_text(text)
}

/// Text for one line: [`clean`], and line breaks become spaces.
fn clean_line(text: &str) -> String {
    clean(text).replace('\n', " ")
}

/// A call's or a marker's lines as they are drawn.
struct Drawn<'a> {
    out: Vec<PaneLine>,
    width: usize,
    open: bool,
    /// The key that expands a call, for the line that says what is hidden.
    expand: &'a str,
}

impl Drawn<'_> {
    /// The first line: the open/closed mark, what the call did, and how it ended. Collapsed,
    /// it is one line: what the call did is cut first, so how it ended stays in view.
    fn heading(&mut self, d: &Described) {
        let mark = if self.open { "  ▾ " } else { "  ▸ " };
        let head = clean_line(&d.head);
        let mut status = Vec::new();
        if let Some(s) = &d.status {
            let part = match s.tone {
                Tone::Ok => Part::ToolOk,
                Tone::Failed => Part::ToolFailed,
                Tone::Neutral => Part::Marker,
            };
            status.push((format!("  {}", s.mark), part));
            if !s.text.is_empty() {
                let text_part = if s.tone == Tone::Failed {
                    part
                } else {
                    Part::ToolOutput
                };
                status.push((format!(" {}", clean_line(&s.text)), text_part));
            }
        }
        let room = self.width.saturating_sub(5);
        if !self.open {
            let status_w: usize = status.iter().map(|(t, _)| width(t)).sum();
            // The call keeps at least half the line; the rest is how it ended.
            let status_w = status_w
                .min(room / 2)
                .max(room.saturating_sub(width(&head)));
            let head_w = room.saturating_sub(status_w);
            let mut spans = vec![
                (mark.to_owned(), Part::Tool),
                (truncate(&head, head_w), Part::Tool),
            ];
            let mut left = status_w;
            for (text, part) in status {
                let cut = truncate(&text, left);
                left = left.saturating_sub(width(&cut));
                if !cut.is_empty() {
                    spans.push((cut, part));
                }
            }
            self.out.push(PaneLine { spans });
            return;
        }
        let mut runs = vec![(mark.to_owned(), Part::Tool), (head, Part::Tool)];
        runs.extend(status);
        for (i, spans) in wrap_runs(&runs, room).into_iter().enumerate() {
            let spans = if i == 0 { spans } else { indent(spans) };
            self.out.push(PaneLine { spans });
        }
    }

    fn blocks(&mut self, d: &Described) {
        for block in &d.blocks {
            match block {
                Block::Note(note) if self.open => {
                    self.wrapped(&clean_line(note), Part::ToolOutput);
                }
                Block::Note(_) => {}
                Block::Reason(reason) if self.open => {
                    let lines = clean(reason.trim_end())
                        .split('\n')
                        .map(|l| vec![(l.to_owned(), Part::ToolFailed)])
                        .collect();
                    self.body(lines, 0);
                }
                Block::Reason(reason) => {
                    // Collapsed: its first line, on one line.
                    let first = clean_line(reason.trim().split('\n').next().unwrap_or(""));
                    let room = self.width.saturating_sub(INDENT.len() + 2);
                    self.out.push(PaneLine {
                        spans: vec![
                            (format!("{INDENT}! "), Part::ToolFailed),
                            (truncate(&first, room), Part::ToolFailed),
                        ],
                    });
                }
                Block::Files(files) => {
                    for f in files {
                        let code = match f.mark {
                            'A' => Code::Inserted,
                            'D' => Code::Deleted,
                            _ => Code::DiffMeta,
                        };
                        let mut path = clean_line(f.path);
                        if let Some(to) = f.to {
                            path = format!("{path} → {}", clean_line(to));
                        }
                        self.out.push(PaneLine {
                            spans: vec![
                                (format!("{INDENT}{} ", f.mark), Part::Code(code)),
                                (path, Part::ToolOutput),
                            ],
                        });
                        if let Some(diff) = f.diff.filter(|_| self.open) {
                            let lines = match f.mark {
                                'A' => prefixed(diff, '+'),
                                'D' => prefixed(diff, '-'),
                                _ => clean(diff.trim_end_matches('\n'))
                                    .split('\n')
                                    .map(diff_line)
                                    .collect(),
                            };
                            self.body(lines, 0);
                        }
                    }
                }
                Block::Steps(steps) => {
                    for s in steps {
                        let part = if s.done { Part::ToolOk } else { Part::Tool };
                        let mut spans = vec![
                            (format!("{INDENT}{} ", s.mark), part),
                            (clean_line(s.text), Part::ToolOutput),
                        ];
                        if let Some(change) = &s.change {
                            spans.push((format!("  ({})", clean_line(change)), Part::Elided));
                        }
                        self.out.push(PaneLine { spans });
                    }
                }
                Block::Text { text, lang, elided } => self.text(text, *lang, *elided, d.kind),
            }
        }
    }

    /// A text block: a summary as Markdown, a patch as a diff (only expanded), the rest as
    /// plain lines.
    fn text(&mut self, text: &str, lang: Lang, elided: u64, kind: Kind) {
        match lang {
            Lang::Markdown => {
                let width = self.width.saturating_sub(INDENT.len()).max(8);
                let body = markdown::render(text, width, Part::ReasoningText);
                let total = body.lines.len();
                let keep = if self.open { total } else { total.min(PEEK) };
                self.out
                    .extend(body.lines.into_iter().take(keep).map(|mut l| {
                        l.spans.insert(0, (INDENT.to_owned(), Part::ReasoningText));
                        l
                    }));
                if keep < total {
                    self.more(total - keep);
                }
            }
            Lang::Diff if !self.open => {}
            Lang::Diff => {
                let text = clean(text.trim_end_matches('\n'));
                let lines = text.split('\n').map(diff_line).collect();
                self.body(lines, elided);
            }
            // A command's whole line is shown expanded (its first line is the heading).
            Lang::Shell if !self.open => {}
            Lang::Shell | Lang::Arguments | Lang::Output => {
                let part = if lang == Lang::Output || kind == Kind::Output {
                    Part::ToolOutput
                } else {
                    Part::Tool
                };
                let text = clean(text.trim_end_matches('\n'));
                let lines = text
                    .split('\n')
                    .map(|l| vec![(l.to_owned(), part)])
                    .collect();
                self.body(lines, elided);
            }
        }
    }

    fn wrapped(&mut self, text: &str, part: Part) {
        let width = self.width.saturating_sub(INDENT.len()).max(8);
        for piece in crate::tui::render::wrap::wrap(text, width) {
            self.out.push(PaneLine {
                spans: vec![(INDENT.to_owned(), part), (piece, part)],
            });
        }
    }

    fn more(&mut self, n: usize) {
        let lines = if n == 1 { "line" } else { "lines" };
        let more = format!("{INDENT}… {n} more {lines} ({} expands)", self.expand);
        self.out.push(PaneLine::one(more, Part::Elided));
    }

    /// Body lines (already runs), cut to [`PEEK`] when collapsed.
    fn body(&mut self, lines: Vec<Vec<Run>>, elided: u64) {
        let total = lines.len();
        let shown = if self.open { total } else { total.min(PEEK) };
        for spans in lines.into_iter().take(shown) {
            for piece in wrap_hard(&spans, self.width.saturating_sub(INDENT.len() + 2)) {
                let mut line = vec![(format!("{INDENT}│ "), Part::CodeGutter)];
                line.extend(piece);
                self.out.push(PaneLine { spans: line });
            }
        }
        if shown < total {
            self.more(total - shown);
        } else if elided > 0 {
            let more = format!("{INDENT}[… {elided} more bytes not kept …]");
            self.out.push(PaneLine::one(more, Part::Elided));
        }
    }
}

/// The content of an added (`+`) or deleted (`-`) file as diff lines.
fn prefixed(content: &str, sign: char) -> Vec<Vec<Run>> {
    clean(content.trim_end_matches('\n'))
        .split('\n')
        .map(|l| diff_line(&format!("{sign}{l}")))
        .collect()
}

/// A patch line coloured as a diff.
fn diff_line(line: &str) -> Vec<Run> {
    let part = if line.starts_with("***") || line.starts_with("@@") {
        Code::DiffMeta
    } else if line.starts_with('+') {
        Code::Inserted
    } else if line.starts_with('-') {
        Code::Deleted
    } else {
        Code::Plain
    };
    vec![(line.to_owned(), Part::Code(part))]
}

fn indent(mut spans: Vec<Run>) -> Vec<Run> {
    spans.insert(0, (INDENT.to_owned(), Part::Tool));
    spans
}

/// A reasoning summary: a heading line, then its Markdown, indented.
fn reasoning(text: &str, width: usize) -> Vec<PaneLine> {
    let mut out = vec![PaneLine::one("  ◆ reasoning", Part::ReasoningHeader)];
    let body = markdown::render(text, width.saturating_sub(4).max(8), Part::ReasoningText);
    out.extend(body.lines.into_iter().map(|mut l| {
        l.spans.insert(0, (INDENT.to_owned(), Part::ReasoningText));
        l
    }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::record::{Status, ToolOutput};

    fn output(text: String) -> ToolOutput {
        ToolOutput {
            exit_code: Some(1),
            duration_ms: Some(1500),
            text,
            elided: 3,
            ..ToolOutput::default()
        }
    }

    #[test]
    fn a_failed_command_says_so_and_colour_codes_are_stripped() {
        let mut call = ToolCall::new(
            "function_call".into(),
            None,
            ToolDetail::Command {
                command: "cargo test".into(),
                workdir: None,
                session: None,
            },
        );
        call.output = Some(Box::new(output(
            "\u{1b}[31merror\u{1b}[0m: 1 failed\nline 2\nline 3\nline 4\nline 5".into(),
        )));
        call.status = Status::Failed("exit 1".into());
        call.duration_ms = Some(1500);
        let shut: Vec<String> = lines(&call, 60, false, "e")
            .iter()
            .map(PaneLine::text)
            .collect();
        assert_eq!(shut[0], "  ▸ $ cargo test  ✗ exit 1 · 1.5 s");
        assert_eq!(shut[1], "    │ error: 1 failed");
        assert_eq!(shut.last().unwrap(), "    … 2 more lines (e expands)");
        let open: Vec<String> = lines(&call, 60, true, "e")
            .iter()
            .map(PaneLine::text)
            .collect();
        assert!(open.contains(&"    │ line 5".to_owned()));
        assert_eq!(open.last().unwrap(), "    [… 3 more bytes not kept …]");
    }
}
