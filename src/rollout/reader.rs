//! The one reader of rollout records: a stream of lines in, a stream of [`Record`]s out.
//!
//! Owns everything that is the same for every consumer (the row summary, the transcript, the
//! content index, `show`): splitting lines under the length cap, classifying each line once
//! ([`super::classify`]), parsing only the lines that can be records, through the one reading
//! of each kind (the fast paths [`super::meta_line`] and [`super::message_line`], the typed
//! reads of [`super::event`] and [`super::usage`], the plain serde reading
//! [`super::rules::parse_line`] for names and tool rows), a fork's ordinal bound, what counts as an
//! unreadable line, a cut-short last line that codex may still be writing, and a read error
//! part-way. It reads one file; a fork's parent history is chained by `store::fork`, which runs
//! this reader over the parent with its bound. A Claude Code transcript's lines (the read's
//! [`Source`]) are split, capped and counted the same way, then read by
//! `sources::claude::lines`, which may give several records for one line (they are queued) and
//! let go of what it holds at the end of the stream.

use std::collections::VecDeque;
use std::io::{self, BufRead};

use serde_json::Value;

use super::classify::{self, Kind};
use super::lines::{LineReader, Step, DEFAULT_MAX_LINE};
use super::record::{Record, Role};
use super::usage::TokenCount;
use super::{message_line, meta_line, over_time, rules, usage};
use crate::sources::claude::carry::Carry;
use crate::sources::claude::lines::{ClaudeLines, Want};
use crate::sources::Source;

/// What a consumer wants besides the metadata and the messages.
#[derive(Debug, Clone, Copy)]
pub struct ReadOptions {
    /// Tool calls, tool output and reasoning summaries, and codex's own records of how a
    /// tool ended (`FileChange`, `CommandExecution`, ... items).
    pub tools: bool,
    /// Turns starting, ending and interrupted, and compactions of the context.
    pub turns: bool,
    /// Longest tool text a tool record keeps (an output, a patch, a command; see
    /// [`super::tool`]); `None` keeps them whole.
    pub max_tool_output_bytes: Option<usize>,
    /// `thread_name_updated` names.
    pub thread_names: bool,
    /// What the session used and changed: its token counts, its turns' models, and codex's
    /// records of applied patches (also read with `tools`).
    pub usage: bool,
    /// Only records with an `ordinal` below this count (a fork's view of its parent): the
    /// stream ends at the first record at or past it.
    pub ordinal_below: Option<u64>,
    pub max_line: usize,
    /// The agent that wrote the file: how its lines become records.
    pub source: Source,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            tools: false,
            turns: false,
            max_tool_output_bytes: None,
            thread_names: false,
            usage: false,
            ordinal_below: None,
            max_line: DEFAULT_MAX_LINE,
            source: Source::Codex,
        }
    }
}

/// Where a read starts: the start of the file, or where an earlier pass over it stopped.
#[derive(Debug, Clone, Default)]
pub struct Resume {
    /// The stream starts at byte 0 of the file (a byte-order mark may open it).
    pub at_file_start: bool,
    /// The metadata was read before: later `session_meta` rows are not records anyway.
    pub have_meta: bool,
    /// The metadata or a message was read before: the file is known to be a session.
    pub seen_session: bool,
    /// What an earlier pass over a Claude Code transcript left for this one (its token
    /// total, a fork's part, ...).
    pub claude: Carry,
}

impl Resume {
    /// A read from the start of a file.
    pub fn start() -> Resume {
        Resume {
            at_file_start: true,
            ..Resume::default()
        }
    }
}

/// How the stream ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Still reading.
    Open,
    /// The end of the file (or a read error after the session was recognised, counted as one
    /// unreadable line).
    Eof,
    /// A record at or past the ordinal bound.
    Bound,
}

/// The records of one rollout stream, in file order.
pub struct Records<R> {
    lines: LineReader<R>,
    opts: ReadOptions,
    have_meta: bool,
    seen_session: bool,
    /// `response` message rows of these roles are not parsed (see [`Records::skip_responses`]).
    skip_user: bool,
    skip_assistant: bool,
    skipped: u32,
    /// Bytes consumed up to the end of the last line taken.
    taken: u64,
    end: End,
    pending_tail: bool,
    /// The last `token_count` line of the current quarter hour, read only when the next one
    /// falls in another quarter hour or when asked ([`Records::take_tokens`]): codex writes one
    /// after every model response, and usage over time needs only the running total at the
    /// end of each quarter hour.
    last_tokens: Vec<u8>,
    /// The quarter hour of `last_tokens` ([`over_time::slot_of`]).
    last_slot: u32,
    /// A Claude Code transcript's reading state: its lines become records there.
    claude: Option<Box<ClaudeLines>>,
    /// Records read but not yet handed out (one Claude Code line may give several).
    queue: VecDeque<Record>,
    /// The Claude Code reader let go of what it held at the end of the stream.
    finished: bool,
    /// Where the first line whose records the Claude Code reader holds began.
    held_from: Option<u64>,
    /// A later pass goes on from where this one stops ([`Records::resumable`]).
    resumable: bool,
}

impl<R: BufRead> Records<R> {
    pub fn new(reader: R, opts: ReadOptions, resume: Resume) -> Self {
        Records {
            lines: {
                let mut lines = LineReader::new(reader, opts.max_line, resume.at_file_start);
                if !opts.tools && opts.source == Source::Codex {
                    // Tool rows are dropped: a huge one (a command's whole output) is not held.
                    lines.pass_over(classify::head_is_tool_row);
                }
                lines
            },
            opts,
            have_meta: resume.have_meta,
            seen_session: resume.seen_session,
            skip_user: false,
            skip_assistant: false,
            skipped: 0,
            taken: 0,
            end: End::Open,
            pending_tail: false,
            last_tokens: Vec::new(),
            last_slot: 0,
            claude: (opts.source == Source::Claude).then(|| {
                let want = Want {
                    tools: opts.tools,
                    turns: opts.turns,
                    usage: opts.usage,
                    names: opts.thread_names,
                    cap: opts.max_tool_output_bytes,
                };
                Box::new(ClaudeLines::new(want, resume.claude, resume.have_meta))
            }),
            queue: VecDeque::new(),
            finished: false,
            held_from: None,
            resumable: false,
        }
    }

    /// A later pass goes on from where this one stops: the rows at the end of a Claude Code
    /// fork's copy that no assistant row has yet said are copied or its own are left for that
    /// pass (the stream stops before them) rather than guessed.
    pub fn resumable(&mut self) {
        self.resumable = true;
    }

    /// Leave out the rows of a Claude Code transcript's abandoned branches (a rewind's, by
    /// `uuid`, as `sources::claude::chain::off_chain` finds them). Nothing for a Codex rollout.
    pub fn leave_out(&mut self, off: crate::sources::claude::chain::OffChain) {
        if let Some(claude) = self.claude.as_deref_mut() {
            claude.leave_out(off);
        }
    }

    /// What the next pass over a Claude Code transcript needs from this one (after the
    /// records were taken); `None` for a Codex rollout.
    pub fn claude_carry(&self) -> Option<&Carry> {
        self.claude.as_deref().map(ClaudeLines::carry)
    }

    /// The records of the lines read so far that are not handed out yet, let go now: a pass
    /// that stops part-way takes them so that nothing of a line it read is lost (a later pass
    /// goes on after that line). Always empty for a Codex rollout.
    pub fn settle(&mut self) -> Vec<Record> {
        if let Some(claude) = self.claude.as_deref_mut() {
            claude.settle(&mut self.queue);
        }
        self.queue.drain(..).collect()
    }

    /// Do not parse `response` message rows of `role` from here on: the caller drops them (the
    /// role's messages come from the `event`/`item` shapes). Such a row that is cut short is
    /// then not counted as unreadable. Ignored under an ordinal bound, where every row is read
    /// so that the bound is met where it lies.
    pub fn skip_responses(&mut self, role: Role) {
        if self.opts.ordinal_below.is_some() {
            return;
        }
        match role {
            Role::User => self.skip_user = true,
            Role::Assistant => self.skip_assistant = true,
        }
    }

    /// Lines that could not be read: not JSON objects, cut short, over the length cap, or a
    /// read error part-way.
    pub fn skipped(&self) -> u32 {
        self.skipped
    }

    /// Bytes of the stream consumed up to the end of the last line taken: a later pass goes
    /// on from here.
    pub fn consumed(&self) -> u64 {
        self.taken
    }

    pub fn end(&self) -> End {
        self.end
    }

    /// The last line had no newline and was not a whole JSON object: it was counted as
    /// unreadable and left unread (codex may be writing it: `-1` may yet become `-1e5`).
    pub fn pending_tail(&self) -> bool {
        self.pending_tail
    }

    /// What the last `token_count` line taken and not yet handed out says, when it reads as
    /// one. Without an ordinal bound such a line is kept as it is, and read only when the next
    /// one is of another quarter hour or here; under a bound each is a [`Record::Tokens`] (its
    /// ordinal decides whether it is in view).
    pub fn take_tokens(&mut self) -> Option<TokenCount> {
        let count = usage::read_token_count(&self.last_tokens).map(|(_, c)| c);
        self.last_tokens.clear();
        count
    }

    /// The next record, or `None` at the end of the stream ([`Records::end`] says which). A
    /// read error is returned only while nothing showed the file to be a session; after that
    /// it ends the stream like the end of the file, counted as one unreadable line, so every
    /// consumer keeps what was read before it.
    pub fn next_record(&mut self) -> io::Result<Option<Record>> {
        self.next_record_with(usize::MAX, &mut || true)
    }

    /// [`Records::next_record`], calling `announce` before a line longer than `big` bytes is
    /// read into a record (reading a giant line takes a while: a caller shows what it has
    /// first). When `announce` answers `false` the read stops with an
    /// [`io::ErrorKind::Interrupted`] error.
    pub fn next_record_with(
        &mut self,
        big: usize,
        announce: &mut dyn FnMut() -> bool,
    ) -> io::Result<Option<Record>> {
        if let Some(record) = self.queue.pop_front() {
            return Ok(Some(record));
        }
        if let Some(record) = self.next_line_record(big, announce)? {
            return Ok(Some(record));
        }
        // The end: what a Claude Code reader held back goes out.
        if let Some(claude) = self.claude.as_deref_mut().filter(|_| !self.finished) {
            self.finished = true;
            match self.held_from {
                Some(from) if self.resumable && claude.drop_held_copy() => self.taken = from,
                _ => claude.finish(&mut self.queue),
            }
        }
        Ok(self.queue.pop_front())
    }

    /// The next record of the lines, `None` at the end of the stream.
    fn next_line_record(
        &mut self,
        big: usize,
        announce: &mut dyn FnMut() -> bool,
    ) -> io::Result<Option<Record>> {
        while self.end == End::Open {
            let step = match self.lines.next_line() {
                Ok(step) => step,
                Err(_) if self.seen_session => {
                    self.skipped += 1;
                    self.end = End::Eof;
                    break;
                }
                Err(e) => return Err(e),
            };
            let taken = match step {
                Step::Eof => {
                    self.end = End::Eof;
                    Taken::Nothing
                }
                Step::TooLong { .. } => self.unreadable(),
                // A tool row these options drop, let pass unread: nothing, as if read.
                Step::PassedOver {
                    terminated: true, ..
                } => Taken::Nothing,
                // Cut short by the end of the stream: left for a later read, as a cut-short
                // line is (codex may be writing it).
                Step::PassedOver {
                    terminated: false, ..
                } => {
                    self.skipped += 1;
                    self.pending_tail = true;
                    self.end = End::Eof;
                    break;
                }
                Step::Line { terminated: false } if !whole_object(self.lines.line()) => {
                    if !is_blank(self.lines.line()) {
                        self.skipped += 1;
                        self.pending_tail = true;
                    }
                    self.end = End::Eof;
                    break;
                }
                Step::Line { .. } => {
                    if self.lines.line().len() > big && !announce() {
                        let why = "no longer wanted";
                        return Err(io::Error::new(io::ErrorKind::Interrupted, why));
                    }
                    self.take_line()
                }
            };
            match taken {
                Taken::Bound => {
                    self.end = End::Bound;
                    break;
                }
                Taken::Nothing => self.taken = self.lines.consumed(),
                Taken::Record(record) => {
                    self.taken = self.lines.consumed();
                    return Ok(Some(record));
                }
            }
        }
        Ok(None)
    }

    /// Classify the current line and read it when it can be a record.
    fn take_line(&mut self) -> Taken {
        if self.claude.is_some() {
            return self.take_claude_line();
        }
        let line = self.lines.line();
        let (kind, response_role) = classify::classify_line(line);
        let skip_response = match response_role {
            Some(Role::User) => self.skip_user,
            Some(Role::Assistant) => self.skip_assistant,
            None => false,
        };
        match kind {
            Kind::Malformed => {
                if !is_blank(line) {
                    self.skipped += 1;
                }
                Taken::Nothing
            }
            Kind::Other => Taken::Nothing,
            Kind::Message if skip_response => Taken::Nothing,
            Kind::Meta if self.have_meta => Taken::Nothing,
            Kind::ThreadName if !self.opts.thread_names => Taken::Nothing,
            Kind::Tool | Kind::ToolEvent if !self.opts.tools => Taken::Nothing,
            Kind::Patch if !self.opts.tools && !self.opts.usage => Taken::Nothing,
            Kind::Usage | Kind::TurnContext if !self.opts.usage => Taken::Nothing,
            Kind::Turn if !self.opts.turns => Taken::Nothing,
            Kind::Meta => {
                // Read directly: the row carries kilobytes of instructions a tree would copy.
                let Some((meta, ordinal)) = meta_line::parse(line) else {
                    return self.unreadable();
                };
                self.bounded(ordinal, |r| {
                    r.have_meta = true;
                    r.seen_session = true;
                    Some(Record::Meta(Box::new(meta)))
                })
            }
            Kind::Message => {
                // Read directly: a `Value` tree would allocate for every key and string.
                let Some((msg, ordinal)) = message_line::parse(line) else {
                    return self.unreadable();
                };
                self.bounded(ordinal, |r| {
                    let msg = msg?;
                    r.seen_session = true;
                    Some(Record::Message(msg))
                })
            }
            Kind::Usage if self.opts.ordinal_below.is_none() => {
                // Kept, not read: a later one of the same quarter hour replaces it (see
                // `take_tokens`); one of another hands the kept one out first.
                let slot = over_time::slot_of(usage::line_time(line));
                let earlier = (slot != self.last_slot && !self.last_tokens.is_empty())
                    .then(|| usage::read_token_count(&self.last_tokens))
                    .flatten();
                self.last_tokens.clear();
                self.last_tokens.extend_from_slice(self.lines.line());
                self.last_slot = slot;
                earlier.map_or(Taken::Nothing, |(_, count)| {
                    Taken::Record(Record::Tokens(count))
                })
            }
            // A usage row whose fields are not what codex writes says nothing (such rows were
            // never counted as unreadable).
            Kind::Usage => match usage::read_token_count(line) {
                Some((ordinal, count)) => self.bounded(ordinal, |_| Some(Record::Tokens(count))),
                None => Taken::Nothing,
            },
            Kind::TurnContext => match usage::read_turn_model(line) {
                Some((ordinal, model)) => self.bounded(ordinal, |_| model.map(Record::Model)),
                None => Taken::Nothing,
            },
            Kind::Turn | Kind::ToolEvent | Kind::Patch => {
                let cap = self.opts.max_tool_output_bytes;
                let Ok((ordinal, event)) = super::event::read(line, cap) else {
                    return self.unreadable();
                };
                self.bounded(ordinal, |_| event.map(Record::Event))
            }
            Kind::ThreadName | Kind::Tool => {
                let Some(value) = rules::parse_line(line) else {
                    return self.unreadable();
                };
                let ordinal = value.get("ordinal").and_then(Value::as_u64);
                let cap = self.opts.max_tool_output_bytes;
                self.bounded(ordinal, |_| rare_record(kind, &value, cap))
            }
        }
    }

    /// Read the current line of a Claude Code transcript: its records (one line may give
    /// several, or let go of some held before) are queued.
    fn take_claude_line(&mut self) -> Taken {
        let Some(claude) = self.claude.as_deref_mut() else {
            return Taken::Nothing;
        };
        if is_blank(self.lines.line()) {
            return Taken::Nothing;
        }
        let held = claude.holding();
        if claude.take(self.lines.line(), &mut self.queue).is_err() {
            return self.unreadable();
        }
        match (held, claude.holding()) {
            (false, true) => self.held_from = Some(self.taken),
            (_, false) => self.held_from = None,
            (true, true) => {}
        }
        let session = |r: &Record| matches!(r, Record::Meta(_) | Record::Message(_));
        if self.queue.iter().any(session) {
            self.seen_session = true;
        }
        self.queue.pop_front().map_or(Taken::Nothing, Taken::Record)
    }

    fn unreadable(&mut self) -> Taken {
        self.skipped += 1;
        Taken::Nothing
    }

    /// The record `make` gives, unless the line's ordinal is past the bound.
    fn bounded(
        &mut self,
        ordinal: Option<u64>,
        make: impl FnOnce(&mut Self) -> Option<Record>,
    ) -> Taken {
        if past_fork_point(self.opts.ordinal_below, ordinal) {
            return Taken::Bound;
        }
        make(self).map_or(Taken::Nothing, Taken::Record)
    }
}

/// What one line gave.
enum Taken {
    Record(Record),
    Nothing,
    Bound,
}

/// The record of a thread-name or tool row, read the plain way (these rows are few); a tool
/// record keeps at most `max_tool_text` bytes of each long text.
fn rare_record(kind: Kind, value: &Value, max_tool_text: Option<usize>) -> Option<Record> {
    let payload = value.get("payload")?;
    match kind {
        Kind::ThreadName => payload
            .get("thread_name")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(|name| Record::ThreadName(name.to_owned())),
        Kind::Tool => Some(Record::Tool(super::tool::read(payload, max_tool_text))),
        Kind::Meta
        | Kind::Message
        | Kind::Turn
        | Kind::ToolEvent
        | Kind::Patch
        | Kind::Usage
        | Kind::TurnContext
        | Kind::Other
        | Kind::Malformed => None,
    }
}

/// A record at or past `limit` (a fork's end point in its parent) is not part of the view.
pub fn past_fork_point(limit: Option<u64>, ordinal: Option<u64>) -> bool {
    limit.is_some_and(|limit| ordinal.is_some_and(|o| o >= limit))
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

fn whole_object(line: &[u8]) -> bool {
    rules::parse_line(line).is_some_and(|v| v.is_object())
}

#[cfg(test)]
#[path = "reader_tests.rs"]
mod tests;
