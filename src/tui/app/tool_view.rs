//! A tool call or reasoning step as the pane's lines: what it did, collapsed to a heading and
//! its first lines, or expanded whole. A command is `$ command` with its exit status and
//! duration, then its output; `apply_patch` is the files it changed (expanded: the patch,
//! coloured as a diff); other tools are their name and arguments; reasoning is its Markdown.
//! Pure. Tool output is untrusted like the rest: colour and cursor codes are removed, then every
//! piece is neutralised.

use crate::rollout::record::{PatchOp, ToolCall, ToolDetail, ToolOutput};
use crate::tui::render::wrap::{wrap_hard, wrap_runs};
use crate::tui::render::{markdown, safe, Code, PaneLine, Part, Run};

/// Lines of output a collapsed call shows.
const PEEK: usize = 3;
const INDENT: &str = "    ";

/// Whether the row is a reasoning summary rather than a tool call.
pub fn is_reasoning(call: &ToolCall) -> bool {
    matches!(call.detail, ToolDetail::Reasoning { .. })
}

/// The lines of `call`, expanded (`open`) or not.
pub fn lines(call: &ToolCall, width: usize, open: bool) -> Vec<PaneLine> {
    let mut v = View {
        out: Vec::new(),
        width: width.max(12),
        open,
    };
    match &call.detail {
        ToolDetail::Reasoning { text } => return reasoning(text, width),
        ToolDetail::Command { command, workdir } => v.command(command, workdir.as_deref(), call),
        ToolDetail::Patch {
            files,
            patch,
            elided,
        } => v.patch(files, patch, *elided, call),
        ToolDetail::Other { name, arguments } => v.other(name, arguments, call),
        ToolDetail::Output(out) => {
            v.heading(vec![("output".to_owned(), Part::Tool)], Some(out));
            v.output(out);
        }
    }
    v.out
}

/// Text made one safe piece: codes stripped, controls neutralised.
fn clean(text: &str) -> String {
    let stripped = strip_ansi_escapes::strip_str(text);
    safe(&stripped).into_owned()
}

/// Text for one line: [`clean`], and line breaks become spaces.
fn clean_line(text: &str) -> String {
    crate::sanitize::one_line(&strip_ansi_escapes::strip_str(text))
}

struct View {
    out: Vec<PaneLine>,
    width: usize,
    open: bool,
}

impl View {
    /// The first line: the open/closed mark, `head`, and how the call ended.
    fn heading(&mut self, head: Vec<Run>, output: Option<&ToolOutput>) {
        let mut runs = vec![(
            if self.open { "  ▾ " } else { "  ▸ " }.to_owned(),
            Part::Tool,
        )];
        runs.extend(head);
        if let Some(o) = output {
            runs.extend(status(o));
        }
        let lines = wrap_runs(&runs, self.width.saturating_sub(5));
        let keep = if self.open { lines.len() } else { 1 };
        let cut = lines.len() > keep;
        for (i, spans) in lines.into_iter().take(keep).enumerate() {
            let mut spans = if i == 0 { spans } else { indent(spans) };
            if cut {
                spans.push(("…".to_owned(), Part::Tool));
            }
            self.out.push(PaneLine { spans });
        }
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
            let more = format!("{INDENT}… {} more lines (e expands)", total - shown);
            self.out.push(PaneLine::one(more, Part::Elided));
        } else if elided > 0 {
            let more = format!("{INDENT}[… {elided} more bytes not kept …]");
            self.out.push(PaneLine::one(more, Part::Elided));
        }
    }

    fn output(&mut self, out: &ToolOutput) {
        let text = clean(out.text.trim_end_matches('\n'));
        if text.is_empty() {
            return;
        }
        let lines = text
            .split('\n')
            .map(|l| vec![(l.to_owned(), Part::ToolOutput)])
            .collect();
        self.body(lines, out.elided);
    }

    fn command(&mut self, command: &str, workdir: Option<&str>, call: &ToolCall) {
        let mut head = vec![("$ ".to_owned(), Part::Tool)];
        let command = clean(command);
        head.push((command.replace('\n', " ⏎ "), Part::Tool));
        if let Some(dir) = workdir.filter(|_| self.open) {
            head.push((format!("  (in {})", clean_line(dir)), Part::ToolOutput));
        }
        self.heading(head, call.output.as_ref());
        if let Some(out) = &call.output {
            self.output(out);
        }
    }

    fn patch(
        &mut self,
        files: &[crate::rollout::record::PatchFile],
        patch: &str,
        elided: u64,
        call: &ToolCall,
    ) {
        let n = files.len();
        let head = vec![(
            format!("apply_patch: {n} file{}", if n == 1 { "" } else { "s" }),
            Part::Tool,
        )];
        self.heading(head, call.output.as_ref());
        for f in files {
            let (mark, part, path) = match &f.op {
                PatchOp::Add => ("A", Code::Inserted, clean_line(&f.path)),
                PatchOp::Update => ("M", Code::DiffMeta, clean_line(&f.path)),
                PatchOp::Delete => ("D", Code::Deleted, clean_line(&f.path)),
                PatchOp::Move { to } => (
                    "R",
                    Code::DiffMeta,
                    format!("{} → {}", clean_line(&f.path), clean_line(to)),
                ),
            };
            self.out.push(PaneLine {
                spans: vec![
                    (format!("{INDENT}{mark} "), Part::Code(part)),
                    (path, Part::ToolOutput),
                ],
            });
        }
        if self.open {
            let lines = clean(patch).split('\n').map(diff_line).collect();
            self.body(lines, elided);
        }
    }

    fn other(&mut self, name: &str, arguments: &str, call: &ToolCall) {
        let head = vec![(clean_line(name), Part::Tool)];
        self.heading(head, call.output.as_ref());
        let args = clean(arguments.trim());
        if !args.is_empty() {
            let lines = args
                .split('\n')
                .map(|l| vec![(l.to_owned(), Part::ToolOutput)])
                .collect();
            self.body(lines, 0);
        }
        if let Some(out) = &call.output {
            self.output(out);
        }
    }
}

/// `✓ 1.2 s`, `✗ exit 2 · 0.3 s`: how a call ended, when its output says.
fn status(o: &ToolOutput) -> Vec<Run> {
    let mut runs = Vec::new();
    let time = o.duration_ms.map(|ms| match ms {
        0..=999 => format!("{ms} ms"),
        _ => format!("{:.1} s", ms as f64 / 1000.0),
    });
    match o.exit_code {
        Some(0) => runs.push(("  ✓".to_owned(), Part::ToolOk)),
        Some(code) => runs.push((format!("  ✗ exit {code}"), Part::ToolFailed)),
        None => {}
    }
    if let Some(t) = time {
        let sep = if o.exit_code.is_some() { " · " } else { "  " };
        runs.push((format!("{sep}{t}"), Part::ToolOutput));
    }
    runs
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
    use crate::rollout::record::PatchFile;
    use proptest::prelude::*;

    fn hostile() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("\u{1b}[31mred\u{1b}[0m".to_owned()),
            Just("\u{1b}]52;c;cm0gLXJm\u{7}".to_owned()),
            Just("\u{1b}]8;;http://x/\u{1b}\\".to_owned()),
            Just("\u{9b}2J".to_owned()),
            Just("\u{1b}P+q\u{1b}\\".to_owned()),
            Just("\r\n\t\u{7f}\u{202e}".to_owned()),
            Just("```\n".to_owned()),
            Just("日本🚀".to_owned()),
            "[a-z ]{0,10}",
            any::<char>().prop_map(String::from),
        ];
        proptest::collection::vec(piece, 0..20).prop_map(|v| v.concat())
    }

    fn output(text: String) -> ToolOutput {
        ToolOutput {
            exit_code: Some(1),
            duration_ms: Some(1500),
            text,
            elided: 3,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn no_control_character_from_a_tool_reaches_a_line(a in hostile(), b in hostile(), width in 1usize..90, open: bool, which in 0usize..5) {
            let detail = match which {
                0 => ToolDetail::Command { command: a.clone(), workdir: Some(b.clone()) },
                1 => ToolDetail::Patch { files: vec![PatchFile { op: PatchOp::Move { to: b.clone() }, path: a.clone() }], patch: b.clone(), elided: 0 },
                2 => ToolDetail::Other { name: a.clone(), arguments: b.clone() },
                3 => ToolDetail::Reasoning { text: a.clone() },
                _ => ToolDetail::Output(output(a.clone())),
            };
            let call = ToolCall { kind: a, summary: String::new(), call_id: None, detail, output: Some(output(b)) };
            for line in lines(&call, width, open) {
                for (s, _) in &line.spans {
                    prop_assert!(!s.chars().any(|c| crate::sanitize::is_dangerous(c) || c == '\t' || c == '\n'), "{:?}", s);
                }
            }
        }
    }

    #[test]
    fn a_failed_command_says_so_and_colour_codes_are_stripped() {
        let call = ToolCall {
            kind: "function_call".into(),
            summary: String::new(),
            call_id: None,
            detail: ToolDetail::Command {
                command: "cargo test".into(),
                workdir: None,
            },
            output: Some(output(
                "\u{1b}[31merror\u{1b}[0m: 1 failed\nline 2\nline 3\nline 4\nline 5".into(),
            )),
        };
        let shut: Vec<String> = lines(&call, 60, false).iter().map(PaneLine::text).collect();
        assert_eq!(shut[0], "  ▸ $ cargo test  ✗ exit 1 · 1.5 s");
        assert_eq!(shut[1], "    │ error: 1 failed");
        assert_eq!(shut.last().unwrap(), "    … 2 more lines (e expands)");
        let open: Vec<String> = lines(&call, 60, true).iter().map(PaneLine::text).collect();
        assert!(open.contains(&"    │ line 5".to_owned()));
        assert_eq!(open.last().unwrap(), "    [… 3 more bytes not kept …]");
    }
}
