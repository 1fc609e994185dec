//! The conversation pane's content as screen lines: the header (the session's facts, what it
//! changed and used, the parent of a fork, its first and latest prompts, a warning when its
//! folder is gone or another codex has it open), then each message under a line that says who
//! spoke (with the images sent with a prompt), its Markdown rendered
//! ([`crate::tui::render::markdown`]), the markers of what happened to the conversation (a
//! compaction, an interrupted turn, where a fork's own part begins: the parent's history above
//! it is drawn dimmed), and tool calls and reasoning when shown ([`super::tool_view`]). Pure:
//! text in, lines out; where each entry starts is kept for jumps, copying and expanding, and
//! where each code block is, for the pane to highlight it when it comes on screen.

use std::collections::HashSet;

use crate::rollout::describe;
use crate::rollout::record::{phase_label, Role};
use crate::rollout::transcript::{Entry, Marker, Transcript};
use crate::sanitize;
use crate::search::title;
use crate::session::SessionRow;
use crate::sources::Source;
use crate::tui::render::markdown::{self, CodeBlock};
use crate::tui::render::wrap::wrap;
pub use crate::tui::render::{PaneLine, Part};
use crate::workers::conversation_reader::ReadError;

use super::tool_view;

/// Which tool calls are drawn whole: every one (`all`), with the calls in `flipped` the other
/// way round.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expanded {
    pub all: bool,
    pub flipped: HashSet<usize>,
}

impl Expanded {
    pub fn is(&self, entry: usize) -> bool {
        self.all != self.flipped.contains(&entry)
    }
}

/// What the pane shows besides the messages.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct View {
    pub tools: bool,
    pub reasoning: bool,
    pub expanded: Expanded,
    /// The session's folder no longer exists.
    pub folder_missing: bool,
    /// What tokens cost, from the config file (none: no cost is shown).
    pub prices: std::sync::Arc<crate::prices::Prices>,
    /// Another codex has the session open: which ("open in codex, pid 42").
    pub open_in: Option<String>,
    /// The keys the pane's notes name (they may be rebound).
    pub keys: KeyHints,
}

/// The names of the keys the pane's notes tell the reader about, as the key table has them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyHints {
    pub tools: String,
    pub reasoning: String,
    pub expand: String,
    /// Expand every tool call (and list every changed file in the header).
    pub expand_all: String,
    pub content: String,
    pub find: String,
    pub next_match: String,
    pub previous_match: String,
}

impl Default for KeyHints {
    /// The default keys.
    fn default() -> Self {
        KeyHints {
            tools: "Ctrl+T".into(),
            reasoning: "r in the conversation".into(),
            expand: "e".into(),
            expand_all: "E".into(),
            content: "Ctrl+F".into(),
            find: "/".into(),
            next_match: "n".into(),
            previous_match: "N".into(),
        }
    }
}

/// What kind of entry starts at a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    User,
    Assistant,
    Tool,
    Reasoning,
    /// A compaction, an interrupted turn, the start of a fork's own part.
    Marker,
}

/// An entry of the transcript on the pane: its index in the transcript and its first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryAt {
    pub entry: usize,
    pub line: usize,
    pub kind: EntryKind,
}

/// The pane's content.
#[derive(Debug, Clone, Default)]
pub struct Built {
    pub lines: Vec<PaneLine>,
    /// Code blocks, by their place in `lines`.
    pub code: Vec<CodeBlock>,
    /// The entries shown, in order.
    pub entries: Vec<EntryAt>,
    /// The lines of a fork's parent history (drawn dimmed), when the session is a fork.
    pub inherited: Option<std::ops::Range<usize>>,
    /// The next entry to build, while not every entry is built (see [`extend`]); the line
    /// the entries start at.
    pub next: Option<usize>,
    first: usize,
}

impl Built {
    /// The lines of all `entries` of the transcript, estimated from those built so far.
    pub fn estimated_lines(&self, entries: usize) -> usize {
        let Some(next) = self.next.filter(|&n| n > 0) else {
            return self.lines.len();
        };
        let per_entry = self.lines.len().saturating_sub(self.first) as f64 / next as f64;
        self.lines.len() + (per_entry * entries.saturating_sub(next) as f64) as usize
    }

    fn push_wrapped(&mut self, text: &str, width: usize, part: Part) {
        for l in wrap(text, width) {
            self.lines.push(PaneLine::one(l, part));
        }
    }
}

/// Key column of the header.
const KEY_W: usize = 12;

/// One fact of the header, its value wrapped under itself; at most `max_lines` lines.
fn fact(b: &mut Built, key: &str, value: &str, width: usize, part: Part, max_lines: usize) {
    let value = sanitize::one_line(value);
    let mut wrapped = wrap(&value, width.saturating_sub(KEY_W).max(8));
    if wrapped.len() > max_lines {
        wrapped.truncate(max_lines);
        if let Some(last) = wrapped.last_mut() {
            last.push('…');
        }
    }
    for (i, text) in wrapped.into_iter().enumerate() {
        let k = if i == 0 {
            format!("{key:<KEY_W$}")
        } else {
            " ".repeat(KEY_W)
        };
        b.lines.push(PaneLine {
            spans: vec![(k, Part::MetaKey), (text, part)],
        });
    }
}

/// The header: the session's facts, its first and latest prompts, and the folder warning.
fn header(b: &mut Built, row: &SessionRow, t: Option<&Transcript>, width: usize, view: &View) {
    for (key, value) in crate::session::metadata_lines(row) {
        let missing = key == "cwd" && view.folder_missing;
        let part = if missing {
            Part::Warning
        } else {
            Part::MetaValue
        };
        fact(b, &key, &value, width, part, usize::MAX);
    }
    if view.folder_missing {
        let warn = match row.source {
            Source::Codex => {
                "this folder no longer exists: `cd <folder> && codex resume` would fail"
            }
            Source::Claude => {
                "this folder no longer exists: `claude --resume` finds the session only there"
            }
        };
        fact(b, "", warn, width, Part::Warning, usize::MAX);
    }
    if let Some(open_in) = &view.open_in {
        fact(
            b,
            "",
            &format!("● {open_in}"),
            width,
            Part::Warning,
            usize::MAX,
        );
    }
    if let Some(usage) = &row.usage {
        let (all, fork) = (view.expanded.all, row.meta.history_base.is_some());
        let facts = super::usage_view::facts(
            usage,
            row.meta.cwd.as_deref(),
            (all, &view.keys.expand_all),
            fork,
            &view.prices,
        );
        for (key, value) in facts {
            fact(b, key, &value, width, Part::MetaValue, usize::MAX);
        }
    }
    let Some(t) = t else { return };
    if let Some(parent) = t.fork_of() {
        fact(b, "fork of", &parent, width, Part::MetaValue, 2);
    }
    let (user, assistant) = t.counts();
    let mut counts = format!("{user} user · {assistant} assistant");
    if t.partial {
        counts.push_str(" so far (reading the rest…)");
    }
    fact(b, "messages", &counts, width, Part::MetaValue, usize::MAX);
    if t.skipped_lines > 0 {
        let n = t.skipped_lines;
        let lines = if n == 1 { "line" } else { "lines" };
        let why = format!(
            "damaged: {n} {lines} could not be read (not JSON, cut short or too long) and are left out"
        );
        fact(b, "", &why, width, Part::Warning, usize::MAX);
    }
    let prompts: Vec<&str> = t
        .own_entries()
        .iter()
        .filter_map(|e| match e {
            Entry::Message {
                role: Role::User,
                text,
                ..
            } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    if let Some(first) = prompts.first() {
        fact(b, "first", first, width, Part::MetaValue, 2);
    }
    if let Some(last) = prompts.last().filter(|_| prompts.len() > 1) {
        fact(b, "latest", last, width, Part::MetaValue, 2);
    }
}

/// Build the pane for `row` and its transcript (`None` while it loads): the header, then the
/// entries until at least `until` lines are built (the rest is built by [`extend`] as the
/// reader comes to it, so the first screen of a session of any size costs what it shows).
pub fn build(
    row: &SessionRow,
    transcript: Option<&Result<Transcript, ReadError>>,
    width: usize,
    view: &View,
    until: usize,
) -> Built {
    let width = width.max(10);
    let mut b = Built::default();
    let ok = transcript.and_then(|t| t.as_ref().ok());
    header(&mut b, row, ok, width, view);
    b.lines.push(PaneLine::one("─".repeat(width), Part::Rule));
    let t = match transcript {
        None => {
            b.lines
                .push(PaneLine::one("loading the conversation…", Part::Notice));
            return b;
        }
        Some(Err(reason)) => {
            let msg = format!(
                "cannot read this session: {}",
                sanitize::one_line(&reason.to_string())
            );
            b.push_wrapped(&msg, width, Part::Notice);
            return b;
        }
        Some(Ok(t)) => t,
    };
    notices(&mut b, t, width, view);
    b.first = b.lines.len();
    b.next = Some(0);
    extend(&mut b, t, width, view, until);
    b
}

/// Build more of `t`'s entries into `b`, until at least `until` lines are built or every entry
/// is.
pub fn extend(b: &mut Built, t: &Transcript, width: usize, view: &View, until: usize) {
    let width = width.max(10);
    let Some(from) = b.next else { return };
    let forked = t
        .entries
        .iter()
        .rposition(|e| matches!(e, Entry::Marker(Marker::Forked { .. })));
    b.next = None;
    for (i, entry) in t.entries.iter().enumerate().skip(from) {
        if b.lines.len() >= until {
            b.next = Some(i);
            break;
        }
        let line = b.lines.len();
        if Some(i) == forked {
            b.inherited = Some(b.first..line);
        }
        let Some(kind) = entry_lines(b, i, entry, width, view) else {
            continue;
        };
        b.entries.push(EntryAt {
            entry: i,
            line,
            kind,
        });
    }
    if forked.is_some_and(|f| b.next.is_some_and(|next| next <= f)) {
        // The parent's history is not all built yet: what is built of it is dimmed.
        b.inherited = Some(b.first..b.lines.len());
    }
}

/// Push entry `i`'s lines; what kind of entry it is, or `None` when the view hides it.
fn entry_lines(
    b: &mut Built,
    i: usize,
    entry: &Entry,
    width: usize,
    view: &View,
) -> Option<EntryKind> {
    Some(match entry {
        Entry::Message { .. } => {
            let m = entry.spoken()?;
            let said = Said {
                role: m.role,
                phase: m.phase,
                images: describe::images(m.images),
                elided: m.elided,
            };
            message(b, &said, m.text, width);
            match m.role {
                Role::User => EntryKind::User,
                Role::Assistant => EntryKind::Assistant,
            }
        }
        Entry::Marker(marker) => {
            let open = view.expanded.is(i);
            b.lines.extend(tool_view::marker_lines(
                marker,
                width,
                open,
                &view.keys.expand,
            ));
            EntryKind::Marker
        }
        Entry::Tool(call) => {
            let reasoning = tool_view::is_reasoning(call);
            if (reasoning && !view.reasoning) || (!reasoning && !view.tools) {
                return None;
            }
            let open = view.expanded.is(i);
            b.lines
                .extend(tool_view::lines(call, width, open, &view.keys.expand));
            if reasoning {
                EntryKind::Reasoning
            } else {
                EntryKind::Tool
            }
        }
    })
}

/// The notices above the entries: what is hidden, and that there is no message.
fn notices(b: &mut Built, t: &Transcript, width: usize, view: &View) {
    let (mut tools, mut reasoning) = (0usize, 0usize);
    for e in &t.entries {
        if let Entry::Tool(call) = e {
            if tool_view::is_reasoning(call) {
                reasoning += 1;
            } else {
                tools += 1;
            }
        }
    }
    let mut hidden = Vec::new();
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    if !view.tools && tools > 0 {
        let calls = plural(tools, "tool call", "tool calls");
        hidden.push(format!("{calls} hidden ({} shows them)", view.keys.tools));
    }
    if !view.reasoning && reasoning > 0 {
        let steps = plural(reasoning, "reasoning step", "reasoning steps");
        hidden.push(format!(
            "{steps} hidden ({} shows them)",
            view.keys.reasoning
        ));
    }
    if !hidden.is_empty() {
        b.push_wrapped(&hidden.join(" · "), width, Part::Notice);
    }
    if !t.entries.iter().any(Entry::is_message) {
        b.lines.push(PaneLine::one("(no message)", Part::Notice));
    }
}

/// What is said of a message besides its text.
struct Said<'a> {
    role: Role,
    phase: Option<&'a str>,
    /// The images sent with a prompt, on one line.
    images: Option<String>,
    /// Bytes cut from its end.
    elided: u64,
}

/// One message: a blank line, the header, the images sent with it, its Markdown, and what
/// was elided of it.
fn message(b: &mut Built, said: &Said, text: &str, width: usize) {
    let (header, hpart, tpart) = message_header(said.role, said.phase);
    b.lines.push(PaneLine::default());
    b.lines.push(PaneLine::one(
        crate::textwidth::truncate(&header, width),
        hpart,
    ));
    if let Some(images) = &said.images {
        b.push_wrapped(
            &format!("[{}]", sanitize::one_line(images)),
            width,
            Part::Notice,
        );
    }
    let rendered = markdown::render(text.trim_end_matches('\n'), width, tpart);
    let offset = b.lines.len();
    b.lines.extend(rendered.lines);
    b.code.extend(rendered.code.into_iter().map(|c| CodeBlock {
        first: c.first + offset,
        ..c
    }));
    if said.elided > 0 {
        let msg = format!("[… {} more bytes not shown …]", said.elided);
        b.push_wrapped(&msg, width, Part::Elided);
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
            let label = phase
                .map(|p| format!(" · {}", sanitize::one_line(phase_label(p))))
                .unwrap_or_default();
            (
                format!("▍ ASSISTANT{label}"),
                Part::AssistantHeader,
                Part::AssistantText,
            )
        }
    }
}

/// Mark every case-insensitive occurrence of `terms` (lowercase) in the body text of `lines`
/// (messages and tool calls, not headers) as `mark`; returns the indices of the lines that hold
/// one, in order. Matching is done on the drawn (safe, wrapped) text, so a mark always lands on
/// the characters shown; a term broken across two wrapped lines is not marked.
pub fn mark_terms(lines: &mut [PaneLine], terms: &[String], mark: Part) -> Vec<usize> {
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
        if mark_line(line, &terms, mark) {
            found.push(n);
        }
    }
    found
}

/// Mark `terms` in one line; whether any was found.
pub fn mark_line(line: &mut PaneLine, terms: &[Vec<char>], mark: Part) -> bool {
    if !line.spans.iter().any(|(_, p)| p.is_body()) {
        return false;
    }
    let mut spans = Vec::with_capacity(line.spans.len());
    let mut hit = false;
    for (text, part) in line.spans.drain(..) {
        if !part.is_body() {
            spans.push((text, part));
            continue;
        }
        let chars: Vec<char> = text.chars().collect();
        let folded: Vec<char> = chars.iter().map(|&c| title::fold(c)).collect();
        let mut marked = vec![false; chars.len()];
        for term in terms {
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
                spans.push((std::mem::take(&mut run), if run_hit { mark } else { part }));
            }
            run_hit = m;
            run.push(c);
        }
        if !run.is_empty() {
            spans.push((run, if run_hit { mark } else { part }));
        }
    }
    line.spans = spans;
    hit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_are_marked_on_body_text_only() {
        let mut lines = vec![
            PaneLine::one("▍ USER", Part::UserHeader),
            PaneLine::one("Where is the Parquet reader?", Part::UserText),
            PaneLine::one("nothing here", Part::AssistantText),
            PaneLine::one("parquet", Part::MetaKey),
            PaneLine::one("PARQUET and parquet", Part::AssistantText),
        ];
        let found = mark_terms(&mut lines, &["parquet".to_owned()], Part::Hit);
        assert_eq!(found, vec![1, 4]);
        assert_eq!(
            lines[1].spans,
            vec![
                ("Where is the ".to_owned(), Part::UserText),
                ("Parquet".to_owned(), Part::Hit),
                (" reader?".to_owned(), Part::UserText),
            ]
        );
        assert_eq!(lines[1].text(), "Where is the Parquet reader?");
        assert_eq!(lines[3].spans, vec![("parquet".to_owned(), Part::MetaKey)]);
        let hits = lines[4].spans.iter().filter(|(_, p)| *p == Part::Hit);
        assert_eq!(hits.count(), 2);
    }
}
