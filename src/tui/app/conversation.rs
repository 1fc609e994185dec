//! The conversation pane's content as wrapped lines: metadata, then each message under a header
//! that says who spoke (and whether it is commentary or the final answer), tool calls as
//! one-line summaries when shown. Wrapping is done here with display widths (CJK and emoji are
//! two cells) so the scroll offset is an exact line index. Pure: text in, lines out; every
//! rollout string passes through `sanitize` first.

use unicode_width::UnicodeWidthChar;

use crate::rollout::record::{Role, ToolCall};
use crate::rollout::transcript::{Entry, Transcript};
use crate::sanitize;
use crate::session::SessionRow;

/// What a piece of text is; the theme turns it into a style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    MetaKey,
    MetaValue,
    Rule,
    UserHeader,
    AssistantHeader,
    CommentaryHeader,
    UserText,
    AssistantText,
    CommentaryText,
    Tool,
    Elided,
    Notice,
    /// A content-search match inside a message.
    Hit,
}

/// One screen line of the pane.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PaneLine {
    pub spans: Vec<(String, Part)>,
}

impl PaneLine {
    fn one(text: impl Into<String>, part: Part) -> PaneLine {
        PaneLine {
            spans: vec![(text.into(), part)],
        }
    }

    pub fn text(&self) -> String {
        self.spans.iter().map(|(s, _)| s.as_str()).collect()
    }
}

/// Wrap `text` (already safe, may hold newlines) to `width` cells: at spaces when a word fits,
/// else inside the word. Each returned line is at most `width` cells.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        let mut used = 0usize;
        for word in para.split_inclusive(' ') {
            let w: usize = word.chars().map(|c| c.width().unwrap_or(0)).sum();
            let trimmed_w = w - usize::from(word.ends_with(' '));
            if used > 0 && used + trimmed_w > width {
                out.push(line.trim_end().to_owned());
                line.clear();
                used = 0;
            }
            for c in word.chars() {
                let cw = c.width().unwrap_or(0);
                if used + cw > width {
                    if c == ' ' {
                        continue;
                    }
                    out.push(std::mem::take(&mut line));
                    used = 0;
                }
                line.push(c);
                used += cw;
            }
        }
        out.push(line.trim_end().to_owned());
    }
    out
}

fn push_wrapped(lines: &mut Vec<PaneLine>, text: &str, width: usize, part: Part) {
    for l in wrap(text, width) {
        lines.push(PaneLine::one(l, part));
    }
}

/// The metadata block of a session.
fn metadata(lines: &mut Vec<PaneLine>, row: &SessionRow, t: Option<&Transcript>, width: usize) {
    let mut facts = crate::session::metadata_lines(row);
    if let Some(t) = t {
        let (user, assistant) = t.counts();
        facts.push((
            "messages".into(),
            format!("{user} user · {assistant} assistant"),
        ));
    }
    for (key, value) in facts {
        let key_w = 12;
        let value = sanitize::one_line(&value);
        let wrapped = wrap(&value, width.saturating_sub(key_w).max(8));
        for (i, part) in wrapped.into_iter().enumerate() {
            let k = if i == 0 {
                format!("{key:<key_w$}")
            } else {
                " ".repeat(key_w)
            };
            lines.push(PaneLine {
                spans: vec![(k, Part::MetaKey), (part, Part::MetaValue)],
            });
        }
    }
}

/// Build the pane for `row` and its transcript (`None` while it loads).
pub fn build(
    row: &SessionRow,
    transcript: Option<&Result<Transcript, String>>,
    width: usize,
    tools: bool,
) -> Vec<PaneLine> {
    let width = width.max(10);
    let mut lines = Vec::new();
    let ok = transcript.and_then(|t| t.as_ref().ok());
    metadata(&mut lines, row, ok, width);
    lines.push(PaneLine::one("─".repeat(width), Part::Rule));
    let t = match transcript {
        None => {
            lines.push(PaneLine::one("loading the conversation…", Part::Notice));
            return lines;
        }
        Some(Err(reason)) => {
            let msg = format!("cannot read this session: {}", sanitize::one_line(reason));
            push_wrapped(&mut lines, &msg, width, Part::Notice);
            return lines;
        }
        Some(Ok(t)) => t,
    };
    notices(&mut lines, t, width, tools);
    for entry in &t.entries {
        match entry {
            Entry::Message {
                role,
                text,
                phase,
                elided,
                ..
            } => message(&mut lines, *role, phase.as_deref(), text, *elided, width),
            Entry::Tool(call) if tools => lines.push(tool_line(call, width)),
            Entry::Tool(_) => {}
        }
    }
    lines
}

/// The notices above the entries: how many tool calls are hidden, and that there is no message.
fn notices(lines: &mut Vec<PaneLine>, t: &Transcript, width: usize, tools: bool) {
    let hidden_tools = t
        .entries
        .iter()
        .filter(|e| matches!(e, Entry::Tool(_)))
        .count();
    if !tools && hidden_tools > 0 {
        let msg =
            format!("{hidden_tools} tool calls and reasoning steps hidden (Ctrl+T shows them)");
        push_wrapped(lines, &msg, width, Part::Notice);
    }
    if !t.entries.iter().any(Entry::is_message) {
        lines.push(PaneLine::one("(no message)", Part::Notice));
    }
}

/// One message: a blank line, the header, the wrapped text, and what was elided of it.
fn message(
    lines: &mut Vec<PaneLine>,
    role: Role,
    phase: Option<&str>,
    text: &str,
    elided: u64,
    width: usize,
) {
    let (header, hpart, tpart) = message_header(role, phase);
    lines.push(PaneLine::default());
    lines.push(PaneLine::one(textwrap_header(&header, width), hpart));
    let safe = sanitize::for_terminal(text);
    push_wrapped(lines, safe.trim_end_matches('\n'), width, tpart);
    if elided > 0 {
        let msg = format!("[… {elided} more bytes not shown …]");
        push_wrapped(lines, &msg, width, Part::Elided);
    }
}

/// A message's header (who spoke, and the assistant's phase) with the parts of the header and
/// of the text below it.
fn message_header(role: Role, phase: Option<&str>) -> (String, Part, Part) {
    match role {
        Role::User => ("▍ USER".to_owned(), Part::UserHeader, Part::UserText),
        Role::Assistant if phase == Some("commentary") => (
            "▍ ASSISTANT · commentary".to_owned(),
            Part::CommentaryHeader,
            Part::CommentaryText,
        ),
        Role::Assistant => {
            let label = match phase {
                Some("final_answer") => " · final answer".to_owned(),
                Some(p) => format!(" · {}", sanitize::one_line(p)),
                None => String::new(),
            };
            (
                format!("▍ ASSISTANT{label}"),
                Part::AssistantHeader,
                Part::AssistantText,
            )
        }
    }
}

/// A tool call's one-line summary, cut to `width`.
fn tool_line(call: &ToolCall, width: usize) -> PaneLine {
    let ToolCall { kind, summary, .. } = call;
    let text = format!(
        "  ▸ {}: {}",
        sanitize::one_line(kind),
        sanitize::one_line(summary)
    );
    PaneLine::one(crate::textwidth::truncate(&text, width), Part::Tool)
}

/// Mark every case-insensitive occurrence of `terms` (lowercase) in the message text of `lines`
/// as [`Part::Hit`]; returns the indices of the lines that hold one, in order. Matching is done
/// on the drawn (safe, wrapped) text, so a mark always lands on the characters shown; a term
/// broken across two wrapped lines is not marked.
pub fn mark_hits(lines: &mut [PaneLine], terms: &[String]) -> Vec<usize> {
    let terms: Vec<Vec<char>> = terms
        .iter()
        .filter(|t| !t.is_empty())
        .map(|t| t.chars().collect())
        .collect();
    let mut found = Vec::new();
    if terms.is_empty() {
        return found;
    }
    for (n, line) in lines.iter_mut().enumerate() {
        let is_text = |p: Part| {
            matches!(
                p,
                Part::UserText | Part::AssistantText | Part::CommentaryText
            )
        };
        if !line.spans.iter().any(|(_, p)| is_text(*p)) {
            continue;
        }
        let mut spans = Vec::with_capacity(line.spans.len());
        let mut hit = false;
        for (text, part) in line.spans.drain(..) {
            if !is_text(part) {
                spans.push((text, part));
                continue;
            }
            let chars: Vec<char> = text.chars().collect();
            let folded: Vec<char> = chars.iter().map(|&c| fold(c)).collect();
            let mut marked = vec![false; chars.len()];
            for term in &terms {
                let mut i = 0;
                while i + term.len() <= folded.len() {
                    if folded[i..i + term.len()] == term[..] {
                        marked[i..i + term.len()].iter_mut().for_each(|m| *m = true);
                        i += term.len();
                    } else {
                        i += 1;
                    }
                }
            }
            hit |= marked.iter().any(|&m| m);
            let mut run = String::new();
            let mut run_hit = false;
            for (c, m) in chars.into_iter().zip(marked) {
                if m != run_hit && !run.is_empty() {
                    spans.push((
                        std::mem::take(&mut run),
                        if run_hit { Part::Hit } else { part },
                    ));
                }
                run_hit = m;
                run.push(c);
            }
            if !run.is_empty() {
                spans.push((run, if run_hit { Part::Hit } else { part }));
            }
        }
        line.spans = spans;
        if hit {
            found.push(n);
        }
    }
    found
}

/// Lower case of one character when that is one character (so positions are kept).
fn fold(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

fn textwrap_header(header: &str, width: usize) -> String {
    crate::textwidth::truncate(header, width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::textwidth::width;

    #[test]
    fn hits_are_marked_on_message_text_only() {
        let mut lines = vec![
            PaneLine::one("▍ USER", Part::UserHeader),
            PaneLine::one("Where is the Parquet reader?", Part::UserText),
            PaneLine::one("nothing here", Part::AssistantText),
            PaneLine::one("parquet", Part::Tool),
            PaneLine::one("PARQUET and parquet", Part::AssistantText),
        ];
        let found = mark_hits(&mut lines, &["parquet".to_owned()]);
        assert_eq!(found, vec![1, 4]);
        assert_eq!(
            lines[1].spans,
            vec![
                ("Where is the ".to_owned(), Part::UserText),
                ("Parquet".to_owned(), Part::Hit),
                (" reader?".to_owned(), Part::UserText),
            ]
        );
        assert_eq!(
            lines[1].text(),
            "Where is the Parquet reader?",
            "text unchanged"
        );
        assert_eq!(lines[3].spans, vec![("parquet".to_owned(), Part::Tool)]);
        assert_eq!(
            lines[4]
                .spans
                .iter()
                .filter(|(_, p)| *p == Part::Hit)
                .count(),
            2
        );
    }

    #[test]
    fn wraps_at_spaces_and_inside_long_words() {
        assert_eq!(wrap("aaa bbb ccc", 7), vec!["aaa bbb", "ccc"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("a\n\nb", 4), vec!["a", "", "b"]);
    }

    #[test]
    fn wide_characters_never_overflow() {
        let text = "日本語のテキストと絵文字🚀🚀🚀が混ざった長い行です";
        for w in 2..12 {
            for line in wrap(text, w) {
                assert!(width(&line) <= w, "{line:?} at {w}");
            }
        }
        let joined: String = wrap(text, 5).concat();
        assert_eq!(joined, text, "nothing lost");
    }
}
