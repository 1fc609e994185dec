//! A whole conversation, in file order, each message once (reading-rules section 5).
//!
//! Owns the de-duplication rule: when a file has any `event`/`item` message the transcript is
//! built from those shapes alone; only a file with none falls back to `response` rows minus
//! injected context. Tool calls, their outputs and reasoning are kept as one-line summaries for
//! a view that can show them. Giant messages are elided past a cap, or streamed out one at a
//! time, so memory stays bounded whatever a rollout holds.

use serde_json::Value;
use std::cell::Cell;
use std::io::{self, BufRead};

use super::classify::{self, Kind};
use super::lines::{LineReader, Step, DEFAULT_MAX_LINE};
use super::summary::{parse_line, past_fork_point, Meta};
use crate::rollout::rules::{self, Role, Shape};

/// One entry of a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Message {
        role: Role,
        text: String,
        shape: Shape,
        phase: Option<String>,
        /// Bytes cut from the end of a giant message (0 when whole).
        elided: u64,
    },
    /// A tool call, tool output or reasoning summary, on one line.
    Tool { kind: String, summary: String },
}

impl Entry {
    pub fn is_message(&self) -> bool {
        matches!(self, Entry::Message { .. })
    }
}

/// How much of a file to keep.
#[derive(Debug, Clone, Copy)]
pub struct TranscriptOptions {
    /// Longest message text kept whole; `None` keeps every message whole.
    pub max_message_bytes: Option<usize>,
    /// Keep tool and reasoning summaries.
    pub tools: bool,
    /// Only records with an `ordinal` below this (a fork's view of its parent).
    pub ordinal_below: Option<u64>,
}

impl Default for TranscriptOptions {
    fn default() -> Self {
        TranscriptOptions {
            max_message_bytes: None,
            tools: true,
            ordinal_below: None,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Transcript {
    pub meta: Option<Meta>,
    pub entries: Vec<Entry>,
    pub skipped_lines: u32,
}

impl Transcript {
    pub fn messages(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.is_message())
    }

    /// (user, assistant) message counts.
    pub fn counts(&self) -> (u32, u32) {
        let mut counts = (0, 0);
        for entry in &self.entries {
            if let Entry::Message { role, .. } = entry {
                match role {
                    Role::User => counts.0 += 1,
                    Role::Assistant => counts.1 += 1,
                }
            }
        }
        counts
    }
}

/// The largest prefix of `text` of at most `max` bytes that ends on a char boundary.
pub fn clip(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A one-line summary of a tool or reasoning row.
fn tool_summary(payload: &Value) -> (String, String) {
    let kind = payload
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("tool")
        .to_owned();
    let pick = |v: Option<&Value>| -> String {
        match v {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(items)) => rules::content_text(&Value::Array(items.clone())),
            Some(other @ Value::Object(_)) => other.to_string(),
            _ => String::new(),
        }
    };
    let body = match kind.as_str() {
        "reasoning" => pick(payload.get("summary")),
        "function_call" => {
            let name = payload.get("name").and_then(Value::as_str).unwrap_or("?");
            format!("{name} {}", pick(payload.get("arguments")))
        }
        "custom_tool_call" => {
            let name = payload.get("name").and_then(Value::as_str).unwrap_or("?");
            format!("{name} {}", pick(payload.get("input")))
        }
        "local_shell_call" | "web_search_call" => pick(payload.get("action")),
        _ => pick(payload.get("output")),
    };
    let flat = rules::preview_line(clip(&body, 4096));
    let size = body.len();
    let mut summary = clip(&flat, 200).to_owned();
    if flat.len() > summary.len() {
        summary.push('…');
    }
    if size > 4096 {
        summary.push_str(&format!(" ({size} bytes)"));
    }
    (kind, summary)
}

/// One useful line of a rollout, as the transcript sees it.
enum Found {
    Meta(Meta),
    Tool { kind: String, summary: String },
    Message(rules::Message),
}

/// Walk a rollout from its start, handing every useful line to `on` in file order; returns the
/// number of unreadable lines. Stops at the ordinal bound. Holds one line at a time. A read
/// error part-way (a cut `.zst` stream, a failing disk) ends the walk like the end of the file,
/// counted as one unreadable line, once the metadata or a message was read: the same rule as
/// the listing, so `show` gives what `list` counted.
///
/// With `events_seen` (set by the caller once the file is known to carry `event`/`item`
/// messages, and no ordinal bound), `response` message rows are not parsed at all: the caller
/// drops them anyway. A cut-short such row is then not counted as unreadable.
fn walk<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
    events_seen: Option<&Cell<bool>>,
    on: &mut dyn FnMut(Found) -> io::Result<()>,
) -> io::Result<u32> {
    let events_seen = events_seen.filter(|_| opts.ordinal_below.is_none());
    let mut skipped = 0u32;
    let mut have_meta = false;
    let mut have_message = false;
    let mut lines = LineReader::new(reader, DEFAULT_MAX_LINE, true);
    loop {
        let step = match lines.next_line() {
            Ok(step) => step,
            Err(_) if have_meta || have_message => {
                skipped += 1;
                break;
            }
            Err(e) => return Err(e),
        };
        match step {
            Step::Eof => break,
            Step::TooLong { .. } => {
                skipped += 1;
                continue;
            }
            Step::Line { .. } => {}
        }
        let line = lines.line();
        let (kind, response) = classify::classify_line(line);
        if kind == Kind::Message && response && events_seen.is_some_and(Cell::get) {
            continue;
        }
        match kind {
            Kind::Malformed => {
                if !line.iter().all(u8::is_ascii_whitespace) {
                    skipped += 1;
                }
                continue;
            }
            Kind::Other | Kind::ThreadName => continue,
            Kind::Meta if have_meta => continue,
            Kind::Tool if !opts.tools => continue,
            _ => {}
        }
        if kind == Kind::Meta {
            // Read directly: the row carries kilobytes of instructions a tree would copy.
            let Some((meta, ordinal)) = super::meta_line::parse(line) else {
                skipped += 1;
                continue;
            };
            if past_fork_point(opts.ordinal_below, ordinal) {
                break;
            }
            have_meta = true;
            on(Found::Meta(meta))?;
            continue;
        }
        if kind == Kind::Message {
            // Read directly: a `Value` tree would allocate for every key and string.
            let Some((msg, ordinal)) = super::message_line::parse(line) else {
                skipped += 1;
                continue;
            };
            if past_fork_point(opts.ordinal_below, ordinal) {
                break;
            }
            if let Some(msg) = msg {
                have_message = true;
                on(Found::Message(msg))?;
            }
            continue;
        }
        let Some(value) = parse_line(line) else {
            skipped += 1;
            continue;
        };
        if let Some(limit) = opts.ordinal_below {
            if value
                .get("ordinal")
                .and_then(Value::as_u64)
                .is_some_and(|o| o >= limit)
            {
                break;
            }
        }
        match kind {
            Kind::Tool => {
                if let Some(payload) = value.get("payload") {
                    let (kind, summary) = tool_summary(payload);
                    on(Found::Tool { kind, summary })?;
                }
            }
            Kind::Meta | Kind::Message | Kind::Other | Kind::ThreadName | Kind::Malformed => {}
        }
    }
    Ok(skipped)
}

/// A message as a transcript entry, cut to `max_message_bytes`.
fn message_entry(msg: rules::Message, opts: &TranscriptOptions) -> Entry {
    let (text, elided) = match opts.max_message_bytes {
        Some(max) if msg.text.len() > max => {
            let kept = clip(&msg.text, max).to_owned();
            let cut = (msg.text.len() - kept.len()) as u64;
            (kept, cut)
        }
        _ => (msg.text, 0),
    };
    Entry::Message {
        role: msg.role,
        text,
        shape: msg.shape,
        phase: msg.phase,
        elided,
    }
}

/// Read a whole transcript from a reader at the start of the file.
pub fn read_transcript<R: BufRead>(reader: R, opts: &TranscriptOptions) -> io::Result<Transcript> {
    read_transcript_with(reader, opts, false)
}

/// [`read_transcript`] for indexing: the same entries, but `response` message rows met after
/// the file's first `event`/`item` message are not parsed (they are dropped anyway), so
/// `skipped_lines` may count fewer lines.
pub fn read_transcript_entries<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
) -> io::Result<Transcript> {
    read_transcript_with(reader, opts, true)
}

fn read_transcript_with<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
    lean: bool,
) -> io::Result<Transcript> {
    let mut meta = None;
    let mut entries = Vec::new();
    let mut has_events = false;
    let events_seen = Cell::new(false);
    let skipped_lines = walk(reader, opts, lean.then_some(&events_seen), &mut |found| {
        match found {
            Found::Meta(m) => meta = Some(m),
            Found::Tool { kind, summary } => entries.push(Entry::Tool { kind, summary }),
            Found::Message(msg) => {
                if msg.shape == Shape::Response {
                    if has_events || msg.is_injected() {
                        return Ok(());
                    }
                } else if !has_events {
                    has_events = true;
                    events_seen.set(true);
                    entries.retain(|e| {
                        !matches!(
                            e,
                            Entry::Message {
                                shape: Shape::Response,
                                ..
                            }
                        )
                    });
                }
                entries.push(message_entry(msg, opts));
            }
        }
        Ok(())
    })?;
    Ok(Transcript {
        meta,
        entries,
        skipped_lines,
    })
}

/// Hand a transcript's entries to `sink` as they are read, never holding more than one line:
/// for a rollout of any size. `has_events` (the file carries `event`/`item` messages) must be
/// known beforehand, from a first pass ([`super::summary::ScanState::has_events`]); the entries
/// are then exactly those of [`read_transcript`]. The returned transcript has no entries.
pub fn stream_transcript<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
    has_events: bool,
    sink: &mut dyn FnMut(&Entry) -> io::Result<()>,
) -> io::Result<Transcript> {
    let mut meta = None;
    let skipped_lines = walk(reader, opts, None, &mut |found| match found {
        Found::Meta(m) => {
            meta = Some(m);
            Ok(())
        }
        Found::Tool { kind, summary } => sink(&Entry::Tool { kind, summary }),
        Found::Message(msg) => {
            let keep = match msg.shape {
                Shape::Response => !has_events && !msg.is_injected(),
                Shape::Event | Shape::Item => true,
            };
            if keep {
                sink(&message_entry(msg, opts))
            } else {
                Ok(())
            }
        }
    })?;
    Ok(Transcript {
        meta,
        entries: Vec::new(),
        skipped_lines,
    })
}
