//! Markdown export: one session as a Markdown document (`show --markdown`; made to be called
//! by the picker too), written entry by entry so that a session of any size streams out one
//! message at a time.
//!
//! Pure: it writes to any [`Write`]. Two ways in:
//! - [`write_markdown`]: a row and a whole [`Transcript`] in memory;
//! - [`MarkdownWriter`]: streaming; [`MarkdownWriter::header`] once, then
//!   [`MarkdownWriter::entry`] for each entry as it is read.
//!
//! The document:
//! - `# <title>`, then the metadata as a list (`- **id**: …`, cwd, branch, times, origin, the
//!   message counts when known) and the resume command in inline code;
//! - each message as `<!-- message N role -->` (role `user` or `assistant`), then a heading
//!   `## N · User` or `## N · Assistant · final answer`, then its text as written (it is
//!   Markdown already); the comment marks where a message starts for a reader of the file;
//! - each marker (a compaction with the summary codex wrote, an interrupted turn, where a
//!   fork's own part begins) as a bold line of its own;
//! - with tools, each tool call as a bold line saying what it did and how it ended (`✓`, `✗`
//!   with codex's reason), then its facts: the files a patch changed (each with codex's diff),
//!   a plan's steps as a task list, notes, and texts (the command, what it printed, the
//!   arguments) in fenced blocks whose fence is longer than any run of backticks inside. The
//!   words are [`describe`]'s, as in every view.
//!
//! Every string from the rollout is untrusted. Control characters are removed
//! ([`sanitize::for_document`]); header values are escaped to plain text; a message keeps its
//! Markdown but is made to end where the message ends: a fenced code block or an HTML block it
//! leaves open is closed after it (where it ends is asked of the parser the picker draws with,
//! pulldown-cmark), a message that still would not end is written as plain text in a fenced
//! block, and a line of it that reads like a message marker gets a backslash before its `<`,
//! in a code block too (so it is shown, not taken for one).

use std::borrow::Cow;
use std::io::{self, Write};

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag};

use crate::rollout::describe::{self, Block, Described, Lang};
use crate::rollout::record::{self, Role};
use crate::rollout::transcript::{Entry, Transcript};
use crate::sanitize;
use crate::session::{self, SessionRow};

/// A whole session as Markdown: the header (counting the transcript's messages), then every
/// entry; tool calls, outputs and reasoning only when `tools` is set.
pub fn write_markdown(
    out: &mut dyn Write,
    row: &SessionRow,
    transcript: &Transcript,
    tools: bool,
) -> io::Result<()> {
    let fork_of = transcript.fork_of();
    write_header(out, row, fork_of.as_deref(), Some(transcript.counts()))?;
    let mut writer = MarkdownWriter::new(out, tools);
    for entry in &transcript.entries {
        writer.entry(entry)?;
    }
    Ok(())
}

/// Writes a session's Markdown as its entries come: [`Self::header`] first, then
/// [`Self::entry`] for each entry in order (messages are numbered as they are written).
pub struct MarkdownWriter<'a> {
    out: &'a mut dyn Write,
    tools: bool,
    messages: u32,
}

impl<'a> MarkdownWriter<'a> {
    /// A writer to `out`; tool entries are written only when `tools` is set.
    pub fn new(out: &'a mut dyn Write, tools: bool) -> Self {
        MarkdownWriter {
            out,
            tools,
            messages: 0,
        }
    }

    /// The title, the metadata list (the parent of a fork, the message counts when the row
    /// has them) and the resume command.
    pub fn header(&mut self, row: &SessionRow, fork_of: Option<&str>) -> io::Result<()> {
        let counts = row.user_messages.zip(row.assistant_messages);
        write_header(self.out, row, fork_of, counts)
    }

    /// One entry: a message under its marker and heading, or a tool block (when tools are
    /// shown).
    pub fn entry(&mut self, entry: &Entry) -> io::Result<()> {
        match entry {
            Entry::Message { .. } => match entry.spoken() {
                Some(m) => {
                    let images = describe::images(m.images);
                    self.message(m.role, m.text, m.phase, m.elided, images.as_deref())
                }
                None => Ok(()),
            },
            Entry::Marker(marker) => write_described(self.out, &describe::marker(marker)),
            Entry::Tool(call) if self.tools => write_described(self.out, &describe::tool(call)),
            Entry::Tool(_) => Ok(()),
        }
    }

    /// How many messages have been written.
    pub fn messages(&self) -> u32 {
        self.messages
    }

    fn message(
        &mut self,
        role: Role,
        text: &str,
        phase: Option<&str>,
        elided: u64,
        images: Option<&str>,
    ) -> io::Result<()> {
        self.messages += 1;
        let n = self.messages;
        let who = match role {
            Role::User => "User".to_owned(),
            Role::Assistant => format!("Assistant{}", phase_label(phase)),
        };
        writeln!(self.out, "<!-- message {n} {} -->", role.as_str())?;
        writeln!(self.out, "## {n} · {who}\n")?;
        if let Some(images) = images {
            writeln!(self.out, "*{}*\n", inline_text(images))?;
        }
        match body(text) {
            Body::Markdown(md) if md.is_empty() => {}
            Body::Markdown(md) => {
                self.out.write_all(md.as_bytes())?;
                self.out.write_all(b"\n\n")?;
            }
            Body::Literal(plain) => write_fenced(self.out, "text", &plain)?,
        }
        if elided > 0 {
            writeln!(self.out, "*\\[… {elided} more bytes not shown …\\]*\n")?;
        }
        Ok(())
    }
}

/// The phase after an assistant's heading, as the conversation pane says it.
fn phase_label(phase: Option<&str>) -> String {
    match phase {
        None => String::new(),
        Some(p) => format!(" · {}", inline_text(record::phase_label(p))),
    }
}

fn write_header(
    out: &mut dyn Write,
    row: &SessionRow,
    fork_of: Option<&str>,
    counts: Option<(u32, u32)>,
) -> io::Result<()> {
    let title = inline_text(row.title());
    if title.trim().is_empty() {
        writeln!(out, "# Session {}\n", inline_text(&row.id))?;
    } else {
        writeln!(out, "# {}\n", title.trim())?;
    }
    for (key, value) in session::metadata_lines(row) {
        let value = match key.as_str() {
            "id" | "cwd" | "branch" | "forked from" => code_span(&value),
            _ => inline_text(&value),
        };
        writeln!(out, "- **{key}**: {value}")?;
    }
    if let Some(parent) = fork_of {
        writeln!(out, "- **fork of**: {}", inline_text(parent))?;
    }
    if let Some((user, assistant)) = counts {
        writeln!(out, "- **messages**: {user} user, {assistant} assistant")?;
    }
    let resume = format!("codex resume {}", crate::shell::quote(&row.id));
    writeln!(out, "- **resume**: {}\n", code_span(&resume))
}

/// A tool call or a marker: a bold line saying what it did and how it ended, then its facts.
fn write_described(out: &mut dyn Write, d: &Described) -> io::Result<()> {
    let status = d
        .status
        .as_ref()
        .map(|s| format!(" {} {}", s.mark, inline_text(&s.text)))
        .unwrap_or_default();
    let mark = match d.kind {
        describe::Kind::Compaction => "⟲ ",
        describe::Kind::Interrupted => "",
        describe::Kind::Forked => "⑂ ",
        describe::Kind::Command => "▸",
        _ => "▸ ",
    };
    let head = match d.kind {
        // A command line reads as code.
        describe::Kind::Command => format!("**{mark}**{}", code_span(&d.head)),
        _ => format!("**{mark}{}**", inline_text(&d.head)),
    };
    writeln!(out, "{head}{}\n", status.trim_end())?;
    for block in &d.blocks {
        write_block(out, block, d.kind)?;
    }
    Ok(())
}

fn write_block(out: &mut dyn Write, block: &Block, kind: describe::Kind) -> io::Result<()> {
    let doc = |t: &str| sanitize::tool_document(t);
    match block {
        Block::Note(note) => writeln!(out, "- {}\n", inline_text(note)),
        Block::Reason(reason) => write_fenced(out, "text", &doc(reason)),
        Block::Files(files) => {
            for f in files {
                let to =
                    f.to.map(|to| format!(" → {}", code_span(to)))
                        .unwrap_or_default();
                writeln!(
                    out,
                    "- {} {}{to}",
                    code_span(&f.mark.to_string()),
                    code_span(f.path)
                )?;
            }
            writeln!(out)?;
            for f in files {
                if let Some(diff) = f.diff {
                    writeln!(out, "{}\n", code_span(f.to.unwrap_or(f.path)))?;
                    let info = if f.mark == 'M' || f.mark == 'R' {
                        "diff"
                    } else {
                        "text"
                    };
                    write_fenced(out, info, &doc(diff))?;
                }
            }
            Ok(())
        }
        Block::Steps(steps) => {
            for s in steps {
                let mut notes = Vec::new();
                if s.mark == "[>]" {
                    notes.push("in progress".to_owned());
                }
                notes.extend(s.change.clone());
                let notes = if notes.is_empty() {
                    String::new()
                } else {
                    format!(" *({})*", inline_text(&notes.join(", ")))
                };
                let done = if s.done { "x" } else { " " };
                writeln!(out, "- [{done}] {}{notes}", inline_text(s.text))?;
            }
            writeln!(out)
        }
        Block::Text { text, lang, elided } => {
            if *lang == Lang::Markdown && kind == describe::Kind::Compaction {
                match body(text) {
                    Body::Markdown(md) if md.is_empty() => {}
                    Body::Markdown(md) => writeln!(out, "{md}\n")?,
                    Body::Literal(plain) => write_fenced(out, "text", &plain)?,
                }
            } else {
                let info = match lang {
                    Lang::Shell => "sh",
                    Lang::Diff => "diff",
                    Lang::Arguments if text.trim_start().starts_with(['{', '[']) => "json",
                    _ => "text",
                };
                write_fenced(out, info, &doc(text))?;
            }
            if *elided > 0 {
                writeln!(out, "*\\[… {elided} more bytes not kept …\\]*\n")?;
            }
            Ok(())
        }
    }
}

/// `text` in a fenced code block that nothing inside can close (CommonMark: a backtick fence
/// is closed only by a run at least as long), then a blank line.
fn write_fenced(out: &mut dyn Write, info: &str, text: &str) -> io::Result<()> {
    let fence = "`".repeat(longest_run(text, '`').max(2) + 1);
    writeln!(out, "{fence}{info}")?;
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    writeln!(out, "{fence}\n")
}

/// The longest run of `c` in `text`.
fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == c { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// Untrusted text as one line of plain text in Markdown: controls removed, line breaks and
/// tabs made spaces, and the punctuation that could start inline Markdown (or end a heading)
/// backslash-escaped; an underscore inside a word (`RUN_SHELL`) is inert and left alone.
fn inline_text(text: &str) -> String {
    let safe = sanitize::for_document(text);
    let mut out = String::with_capacity(safe.len() + 8);
    let mut chars = safe.chars().peekable();
    let mut after_word = false;
    while let Some(c) = chars.next() {
        let before_word = chars.peek().is_some_and(|n| n.is_alphanumeric());
        match c {
            '\n' | '\t' => out.push(' '),
            '_' if after_word && before_word => out.push(c),
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '&' | '~' | '^' | '$' | '{' | '}' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
        after_word = c.is_alphanumeric();
    }
    out
}

/// Untrusted text as an inline code span on one line: delimited by more backticks than any run
/// inside, padded when it starts or ends with a backtick or a space (which the span would
/// otherwise eat). Empty text gives nothing.
fn code_span(text: &str) -> String {
    let safe = sanitize::for_document(text).replace(['\n', '\t'], " ");
    if safe.is_empty() {
        return safe;
    }
    let ticks = "`".repeat(longest_run(&safe, '`') + 1);
    let spaced = safe.starts_with(' ') && safe.ends_with(' ') && !safe.trim().is_empty();
    if safe.starts_with('`') || safe.ends_with('`') || spaced {
        format!("{ticks} {safe} {ticks}")
    } else {
        format!("{ticks}{safe}{ticks}")
    }
}

/// A message's text as it is written.
#[derive(Debug, PartialEq, Eq)]
enum Body<'a> {
    /// Its Markdown, made to end where the message ends; no trailing newline.
    Markdown(Cow<'a, str>),
    /// Markdown that would not end: its text, to be shown in a code block.
    Literal(Cow<'a, str>),
}

/// The most closing lines added to one message before it is written as plain text.
const MAX_CLOSERS: usize = 8;

/// A line that stands where what follows a message starts, to see whether it is reached.
const PROBE: &str = "<!-- probe -->";

fn body(text: &str) -> Body<'_> {
    let clean = sanitize::for_document(text);
    let md = trim_newlines(escape_forged_markers(clean.clone()));
    if md.is_empty() {
        return Body::Markdown(md);
    }
    // Every message is asked: a fenced code block or an HTML block is what CommonMark lets
    // outlive a blank line, but the parser has its own cases (a footnote holding a list).
    let mut doc = String::with_capacity(md.len() + PROBE.len() + 16);
    doc.push_str(&md);
    for _ in 0..=MAX_CLOSERS {
        let end = doc.len();
        doc.push_str("\n\n");
        doc.push_str(PROBE);
        doc.push('\n');
        let probed = probe(&doc, end + 2);
        doc.truncate(end);
        match probed {
            Probe::Reached if end == md.len() => return Body::Markdown(md),
            Probe::Reached => return Body::Markdown(Cow::Owned(doc)),
            Probe::Close(closer) => {
                doc.push('\n');
                doc.push_str(&closer);
            }
            Probe::Stuck => break,
        }
    }
    Body::Literal(trim_newlines(clean))
}

fn trim_newlines(text: Cow<'_, str>) -> Cow<'_, str> {
    match text {
        Cow::Borrowed(s) => Cow::Borrowed(s.trim_end_matches('\n')),
        Cow::Owned(mut s) => {
            s.truncate(s.trim_end_matches('\n').len());
            Cow::Owned(s)
        }
    }
}

/// A backslash before the `<` of every line that reads like a message marker (`<!--`, maybe
/// spaces, `message`, after at most three spaces), wherever it stands.
fn escape_forged_markers(text: Cow<'_, str>) -> Cow<'_, str> {
    if !text.contains("<!--") {
        return text;
    }
    let mut at = 0;
    let mut forged = Vec::new();
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if indent <= 3 && reads_as_marker(&line[indent..]) {
            forged.push(at + indent);
        }
        at += line.len();
    }
    if forged.is_empty() {
        return text;
    }
    let mut out = String::with_capacity(text.len() + forged.len());
    let mut from = 0;
    for at in forged {
        out.push_str(&text[from..at]);
        out.push('\\');
        from = at;
    }
    out.push_str(&text[from..]);
    Cow::Owned(out)
}

fn reads_as_marker(line: &str) -> bool {
    line.strip_prefix("<!--").is_some_and(|rest| {
        rest.trim_start()
            .get(..7)
            .is_some_and(|word| word.eq_ignore_ascii_case("message"))
    })
}

/// Whether the [`PROBE`] line at `at` of `doc` starts a top-level block, or what closes the
/// block it is swallowed by.
#[derive(Debug, PartialEq, Eq)]
enum Probe {
    Reached,
    Close(String),
    Stuck,
}

/// A block that can outlive a blank line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    Fence,
    Html,
    Other,
}

fn probe(doc: &str, at: usize) -> Probe {
    // The blocks open at the current event, with where each starts.
    let mut open: Vec<(Open, usize)> = Vec::new();
    for (event, range) in Parser::new_ext(doc, Options::all()).into_offset_iter() {
        let reaches = match &event {
            Event::End(_) => {
                open.pop();
                continue;
            }
            Event::Start(_) => range.start >= at,
            _ => range.end > at,
        };
        if !reaches {
            if let Event::Start(tag) = &event {
                let kind = match tag {
                    Tag::CodeBlock(CodeBlockKind::Fenced(_)) => Open::Fence,
                    Tag::HtmlBlock => Open::Html,
                    _ => Open::Other,
                };
                open.push((kind, range.start));
            }
            continue;
        }
        if open.is_empty() && range.start == at && matches!(event, Event::Start(Tag::HtmlBlock)) {
            return Probe::Reached;
        }
        let closer = open
            .iter()
            .rev()
            .find(|(kind, _)| *kind != Open::Other)
            .and_then(|&(kind, start)| closer(kind, &doc[start..]));
        return closer.map_or(Probe::Stuck, Probe::Close);
    }
    Probe::Stuck
}

/// The line that closes the block of `kind` starting at `from` (its opening line first).
fn closer(kind: Open, from: &str) -> Option<String> {
    let line = from
        .split('\n')
        .next()
        .unwrap_or("")
        .trim_start_matches(' ');
    match kind {
        Open::Fence => {
            let c = line.chars().next().filter(|c| matches!(c, '`' | '~'))?;
            let run = line.len() - line.trim_start_matches(c).len();
            Some(c.to_string().repeat(run))
        }
        Open::Html => html_closer(line),
        Open::Other => None,
    }
}

/// What ends an HTML block that a blank line does not end (CommonMark kinds 1 to 5), from its
/// opening line.
fn html_closer(line: &str) -> Option<String> {
    let closer = if line.starts_with("<!--") {
        "-->"
    } else if line.starts_with("<?") {
        "?>"
    } else if line.starts_with("<![CDATA[") {
        "]]>"
    } else if line.starts_with("<!") && line[2..].starts_with(|c: char| c.is_ascii_alphabetic()) {
        ">"
    } else {
        let rest = line.strip_prefix('<')?;
        let tag = ["script", "pre", "style", "textarea"]
            .into_iter()
            .find(|tag| {
                rest.get(..tag.len())
                    .is_some_and(|t| t.eq_ignore_ascii_case(tag))
                    && rest[tag.len()..]
                        .chars()
                        .next()
                        .is_none_or(|c| c == '>' || c.is_ascii_whitespace())
            })?;
        return Some(format!("</{tag}>"));
    };
    Some(closer.to_owned())
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
