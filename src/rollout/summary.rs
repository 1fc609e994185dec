//! One rollout file -> one session row, streaming, resumable.
//!
//! Owns the preview rule of reading-rules section 4 and the counts of section 5, computed in one
//! pass without a fixed head window: lines are classified cheaply by `skim`, only candidate rows
//! are parsed, and the pass stops at the first real user message when only a preview is wanted.
//! The whole state of a pass is a [`ScanState`], which the cache keeps: a file that grew is read
//! on from `offset`, never from the start.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::io::{self, BufRead};

use super::classify::{self, Kind};
use super::lines::{LineReader, Step};
use crate::rollout::rules::{Message, Role, Shape};
use crate::session::HistoryBase;

/// The first `session_meta` of a file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    pub id: Option<String>,
    pub timestamp: Option<String>,
    pub cwd: Option<String>,
    pub git_branch: Option<String>,
    pub source: Option<String>,
    pub originator: Option<String>,
    pub cli_version: Option<String>,
    pub model_provider: Option<String>,
    pub forked_from_id: Option<String>,
    pub history_base: Option<HistoryBase>,
}

/// Everything one pass over a file has learnt, enough to continue it later.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanState {
    /// Bytes of the (decompressed) stream consumed: the end of the last line read.
    pub offset: u64,
    /// The pass reached the end of the file: counts are exact for `offset` bytes.
    pub complete: bool,
    pub meta: Option<Meta>,
    /// Messages of the `event` and `item` shapes.
    pub event_user: u32,
    pub event_assistant: u32,
    /// `response` messages, injected context excluded (used only when a file has no events).
    pub response_user: u32,
    pub response_assistant: u32,
    /// The first real prompt of each family.
    pub event_prompt: Option<String>,
    pub response_prompt: Option<String>,
    /// The last `thread_name_updated` name.
    pub thread_name: Option<String>,
    /// Lines that were not JSON objects, cut short or over the length cap.
    pub skipped_lines: u32,
    /// Any message line at all was seen (a file with neither this nor `meta` is not a session).
    pub saw_message: bool,
    /// `skipped_lines` counts an unterminated last line that was left unread; the next pass
    /// reads it again and must not count it twice.
    #[serde(default)]
    pub pending_tail: bool,
}

impl ScanState {
    /// The file carries `event`/`item` messages, so its transcript is built from those alone.
    pub fn has_events(&self) -> bool {
        self.event_user + self.event_assistant > 0
    }

    /// The first real user message by the transcript rule.
    pub fn first_prompt(&self) -> Option<&str> {
        if self.has_events() {
            self.event_prompt.as_deref()
        } else {
            self.response_prompt.as_deref()
        }
    }

    pub fn counts(&self) -> (u32, u32) {
        if self.has_events() {
            (self.event_user, self.event_assistant)
        } else {
            (self.response_user, self.response_assistant)
        }
    }
}

/// How far a pass reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// Stop at the first real user message of the `event`/`item` shapes (preview only).
    FirstPrompt,
    /// Read to the end (exact counts).
    End,
}

/// Limits of one pass.
#[derive(Debug, Clone, Copy)]
pub struct ScanOptions {
    pub until: Until,
    pub max_line: usize,
    /// Only records with an `ordinal` below this count (a fork's view of its parent).
    pub ordinal_below: Option<u64>,
}

impl ScanOptions {
    pub fn new(until: Until) -> Self {
        ScanOptions {
            until,
            max_line: super::lines::DEFAULT_MAX_LINE,
            ordinal_below: None,
        }
    }
}

/// A record at or past `limit` (a fork's end point in its parent) is not part of the view.
pub fn past_fork_point(limit: Option<u64>, ordinal: Option<u64>) -> bool {
    limit.is_some_and(|limit| ordinal.is_some_and(|o| o >= limit))
}

/// Parse one line into JSON, tolerating invalid UTF-8 inside strings (it is replaced).
pub fn parse_line(line: &[u8]) -> Option<Value> {
    match serde_json::from_slice::<Value>(line) {
        Ok(v) => Some(v),
        Err(_) if std::str::from_utf8(line).is_err() => {
            serde_json::from_str::<Value>(&String::from_utf8_lossy(line)).ok()
        }
        Err(_) => None,
    }
}

fn str_field(v: &Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// A display name for `session_meta.source`: strings as is, `{"subagent": ...}` as `subagent`.
fn source_label(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Object(map) => map.keys().next().cloned(),
        _ => None,
    }
}

/// The metadata of a parsed `session_meta` line (lenient: a field of the wrong type is absent).
pub fn meta_from_line(line: &Value) -> Meta {
    let p = line.get("payload").unwrap_or(&Value::Null);
    let history_base = p.get("history_base").and_then(|hb| {
        Some(HistoryBase {
            thread_id: str_field(hb, "thread_id")?,
            end_ordinal_exclusive: hb.get("end_ordinal_exclusive").and_then(Value::as_u64),
        })
    });
    Meta {
        id: str_field(p, "id"),
        timestamp: str_field(p, "timestamp"),
        cwd: str_field(p, "cwd"),
        git_branch: p.get("git").and_then(|g| str_field(g, "branch")),
        source: p.get("source").and_then(source_label),
        originator: str_field(p, "originator"),
        cli_version: str_field(p, "cli_version"),
        model_provider: str_field(p, "model_provider"),
        forked_from_id: str_field(p, "forked_from_id"),
        history_base,
    }
}

impl ScanState {
    fn add_message(&mut self, msg: Message) {
        self.saw_message = true;
        let real = msg.is_real_prompt();
        match (msg.shape, msg.role) {
            (Shape::Event | Shape::Item, Role::User) => {
                self.event_user += 1;
                if real && self.event_prompt.is_none() {
                    self.event_prompt = Some(msg.text);
                }
            }
            (Shape::Event | Shape::Item, Role::Assistant) => self.event_assistant += 1,
            (Shape::Response, Role::User) => {
                if !msg.is_injected() {
                    self.response_user += 1;
                    if real && self.response_prompt.is_none() {
                        self.response_prompt = Some(msg.text);
                    }
                }
            }
            (Shape::Response, Role::Assistant) => self.response_assistant += 1,
        }
    }

    /// Take one line. Returns false when the pass should stop here (ordinal bound reached).
    fn take_line(&mut self, line: &[u8], opts: &ScanOptions) -> bool {
        let (kind, response) = classify::classify_line(line);
        // Once the file has event/item messages its counts come from those alone, so the
        // `response` twins need not be parsed.
        if kind == Kind::Message && response && self.has_events() {
            return true;
        }
        if kind == Kind::Malformed {
            if !line.iter().all(u8::is_ascii_whitespace) {
                self.skipped_lines += 1;
            }
            return true;
        }
        if matches!(kind, Kind::Other | Kind::Tool) || (kind == Kind::Meta && self.meta.is_some()) {
            return true;
        }
        if kind == Kind::Meta {
            // Read directly: the row carries kilobytes of instructions a tree would copy.
            let Some((meta, ordinal)) = super::meta_line::parse(line) else {
                self.skipped_lines += 1;
                return true;
            };
            if past_fork_point(opts.ordinal_below, ordinal) {
                return false;
            }
            self.meta = Some(meta);
            return true;
        }
        if kind == Kind::Message {
            // Read directly: a `Value` tree would allocate for every key and string.
            let Some((msg, ordinal)) = super::message_line::parse(line) else {
                self.skipped_lines += 1;
                return true;
            };
            if past_fork_point(opts.ordinal_below, ordinal) {
                return false;
            }
            if let Some(msg) = msg {
                self.add_message(msg);
            }
            return true;
        }
        let Some(value) = parse_line(line) else {
            self.skipped_lines += 1;
            return true;
        };
        if let Some(limit) = opts.ordinal_below {
            if value
                .get("ordinal")
                .and_then(Value::as_u64)
                .is_some_and(|o| o >= limit)
            {
                return false;
            }
        }
        match kind {
            Kind::Meta => self.meta = Some(meta_from_line(&value)),
            Kind::ThreadName => {
                if let Some(name) = value
                    .get("payload")
                    .and_then(|p| str_field(p, "thread_name"))
                {
                    self.thread_name = Some(name);
                }
            }
            Kind::Message | Kind::Other | Kind::Tool | Kind::Malformed => {}
        }
        true
    }

    /// Continue the pass over `reader`, which must be positioned at `self.offset`.
    /// An unterminated last line that is not a whole JSON object is left unread (codex may be
    /// writing it: `-1` may yet become `-1e5`), counted as skipped, and `offset` stays before it
    /// so a later pass reads it whole.
    pub fn scan<R: BufRead>(&mut self, reader: R, opts: &ScanOptions) -> io::Result<()> {
        let mut lines = LineReader::new(reader, opts.max_line, self.offset == 0);
        let base = self.offset;
        self.complete = false;
        if std::mem::take(&mut self.pending_tail) {
            self.skipped_lines = self.skipped_lines.saturating_sub(1);
        }
        loop {
            let before = lines.consumed();
            match lines.next_line()? {
                Step::Eof => {
                    self.complete = true;
                    return Ok(());
                }
                Step::TooLong { .. } => self.skipped_lines += 1,
                Step::Line { terminated: false }
                    if !parse_line(lines.line()).is_some_and(|v| v.is_object()) =>
                {
                    if !lines.line().iter().all(u8::is_ascii_whitespace) {
                        self.skipped_lines += 1;
                        self.pending_tail = true;
                    }
                    self.offset = base + before;
                    self.complete = true;
                    return Ok(());
                }
                Step::Line { .. } => {
                    if !self.take_line(lines.line(), opts) {
                        self.offset = base + before;
                        return Ok(());
                    }
                }
            }
            self.offset = base + lines.consumed();
            if opts.until == Until::FirstPrompt && self.event_prompt.is_some() {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
#[path = "summary_tests.rs"]
mod tests;
