//! One rollout file -> one session row, streaming, resumable.
//!
//! Owns the preview rule of reading-rules section 4 and the counts of section 5, and gathers
//! what the session used and changed (its token total, models and files, by
//! [`super::usage`]'s rules), computed in one pass over the record stream ([`super::reader`])
//! without a fixed head window; the pass stops at the first real user message when only a
//! preview is wanted. The whole state of a pass is a [`ScanState`], which the cache keeps: a
//! file that grew is read on from `offset`, never from the start. A reader that reads a whole
//! file for something else (the content index's transcript) makes the same state on the way,
//! record by record ([`ScanState::note`], [`ScanState::end_pass`]), so the file is not read
//! twice.

use serde::{Deserialize, Serialize};
use std::io::{self, BufRead};

use super::event::Event;
use super::limits::Limits;
use super::over_time::{self, OverTime};
use super::reader::{End, ReadOptions, Records, Resume};
use super::record::{Message, Meta, Record, Role, Shape};
use super::rules::Sources;
use super::usage::{self, ChangedFile, TokenCount, Tokens};
use crate::sources::claude::carry::{Carry, Part};
use crate::sources::claude::chain::OffChain;
use crate::sources::Source;
use std::sync::Arc;

/// Everything one pass over a file has learnt, enough to continue it later.
///
/// The cache keeps it in postcard, which writes a struct's fields one after another with
/// nothing between them: its first fields are what a usage report reads, in the order of
/// [`UsageView`], so that they are decoded from a cached state without the rest.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanState {
    /// Codex's last running total of the session's tokens (`None`: no `token_count` gave one).
    #[serde(default)]
    pub tokens: Option<Tokens>,
    /// The models the session's turns ran on, in the order first used.
    #[serde(default)]
    pub models: Vec<String>,
    /// The session's tokens over time: each running total's growth, by quarter hour and model.
    #[serde(default)]
    pub over_time: OverTime,
    /// The rate-limit windows the records showed, each with its last reading.
    #[serde(default)]
    pub limits: Limits,
    pub meta: Option<Meta>,
    /// Bytes of the (decompressed) stream consumed: the end of the last line read.
    pub offset: u64,
    /// The pass reached the end of the file: counts are exact for `offset` bytes.
    pub complete: bool,
    /// Messages of the `event` and `item` shapes.
    pub event_user: u32,
    pub event_assistant: u32,
    /// `response` messages, injected context excluded (used only for a role with no events).
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
    /// The files the session's applied patches changed, in the order first changed.
    #[serde(default)]
    pub files: Vec<ChangedFile>,
    /// The model the latest turn ran on, as an index into `models`.
    #[serde(default)]
    pub model_now: Option<u8>,
    /// The session's automatic title (Claude Code's `ai-title`, else its `summary` rows).
    #[serde(default)]
    pub auto_title: Option<String>,
    /// What the next pass over a Claude Code transcript needs (`None` for a Codex rollout).
    #[serde(default)]
    pub claude: Option<Carry>,
}

/// The first fields of an encoded [`ScanState`], decoded alone (postcard reads a struct that
/// is a prefix of another's fields from the other's bytes, the rest left unread): what a usage
/// report reads of a session whose state is cached, without its prompts, files or carry.
#[derive(Debug, Deserialize)]
pub struct UsageView<'a> {
    pub tokens: Option<Tokens>,
    pub models: Vec<String>,
    pub over_time: OverTime,
    pub limits: Limits,
    #[serde(borrow)]
    pub meta: Option<MetaView<'a>>,
}

/// The first fields of a [`Meta`], borrowed from the encoded state (last in [`UsageView`]:
/// the rest of the metadata is left unread).
#[derive(Debug, Default, Deserialize)]
pub struct MetaView<'a> {
    #[serde(borrow)]
    pub id: Option<&'a str>,
    #[serde(borrow)]
    pub timestamp: Option<&'a str>,
    #[serde(borrow)]
    pub cwd: Option<&'a str>,
    #[serde(borrow)]
    pub git_branch: Option<&'a str>,
}

impl ScanState {
    /// Which roles the file carries in `event`/`item` messages: those roles' messages come
    /// from those shapes alone.
    pub fn sources(&self) -> Sources {
        Sources {
            user_events: self.event_user > 0,
            assistant_events: self.event_assistant > 0,
        }
    }

    /// The first real user message by the transcript rule.
    pub fn first_prompt(&self) -> Option<&str> {
        if self.sources().user_events {
            self.event_prompt.as_deref()
        } else {
            self.response_prompt.as_deref()
        }
    }

    /// [`ScanState::first_prompt`], moved out of a state that is no longer needed.
    pub fn take_first_prompt(&mut self) -> Option<String> {
        if self.sources().user_events {
            self.event_prompt.take()
        } else {
            self.response_prompt.take()
        }
    }

    /// (user, assistant) message counts by the transcript rule.
    pub fn counts(&self) -> (u32, u32) {
        let sources = self.sources();
        let user = if sources.user_events {
            self.event_user
        } else {
            self.response_user
        };
        let assistant = if sources.assistant_events {
            self.event_assistant
        } else {
            self.response_assistant
        };
        (user, assistant)
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
#[derive(Debug, Clone)]
pub struct ScanOptions {
    pub until: Until,
    pub max_line: usize,
    /// Only records with an `ordinal` below this count (a fork's view of its parent).
    pub ordinal_below: Option<u64>,
    /// The agent that wrote the file.
    pub source: Source,
    /// Rows of a Claude Code transcript's abandoned branches, left out (see
    /// `sources::claude::chain`).
    pub off_chain: Option<Arc<OffChain>>,
}

impl ScanOptions {
    pub fn new(until: Until) -> Self {
        ScanOptions {
            until,
            max_line: super::lines::DEFAULT_MAX_LINE,
            ordinal_below: None,
            source: Source::Codex,
            off_chain: None,
        }
    }
}

impl ScanState {
    /// Count a message; returns its role when it is that role's first `event`/`item` message
    /// (the role's `response` rows need not be read from then on).
    fn add_message(&mut self, msg: &Message) -> Option<Role> {
        self.saw_message = true;
        let real = msg.is_real_prompt();
        let first_event =
            (msg.shape != Shape::Response && !self.sources().events(msg.role)).then_some(msg.role);
        match (msg.shape, msg.role) {
            (Shape::Event | Shape::Item, Role::User) => {
                self.event_user += 1;
                if real && self.event_prompt.is_none() {
                    self.event_prompt = Some(msg.text.clone());
                }
            }
            (Shape::Event | Shape::Item, Role::Assistant) => self.event_assistant += 1,
            (Shape::Response, Role::User) => {
                if !msg.is_injected() {
                    self.response_user += 1;
                    if real && self.response_prompt.is_none() {
                        self.response_prompt = Some(msg.text.clone());
                    }
                }
            }
            (Shape::Response, Role::Assistant) => self.response_assistant += 1,
        }
        first_event
    }

    /// Take one record of the pass; returns a role whose `response` rows need not be read any
    /// more. A reader that keeps the records for something else (the content index's
    /// transcript) hands them over by reference, so a pass's summary is made by this one rule
    /// whoever reads the file.
    pub fn note(&mut self, record: &Record) -> Option<Role> {
        match record {
            Record::Meta(meta) => self.meta = Some((**meta).clone()),
            Record::Message(msg) => return self.add_message(msg),
            Record::ThreadName(name) => self.thread_name = Some(name.clone()),
            Record::Event(Event::PatchApplied {
                changes,
                failure: None,
                ..
            }) => usage::merge(&mut self.files, changes),
            Record::Tokens(count) => self.count(count),
            Record::Model(model) => {
                let at = match self.models.iter().position(|m| m == model) {
                    Some(at) => at,
                    None => {
                        self.models.push(model.clone());
                        self.models.len() - 1
                    }
                };
                self.model_now = u8::try_from(at).ok();
            }
            Record::Title(title) => self.auto_title = Some(title.clone()),
            Record::Fork { parent_id } => {
                self.claude.get_or_insert_with(Carry::default).part = Part::Copying {
                    parent: parent_id.clone(),
                }
            }
            Record::OwnPart { parent_id } => self.own_part(parent_id),
            Record::Tool(_) | Record::Event(_) => {}
        }
        None
    }

    /// A record of the running total: its growth counts at its time, on the current model.
    fn count(&mut self, count: &TokenCount) {
        if let Some(total) = count.total {
            let growth = total.since(self.tokens.unwrap_or_default());
            let model = self.model_now.unwrap_or(over_time::NO_MODEL);
            self.over_time.add(count.at, model, growth);
            self.tokens = Some(total);
        }
        for reading in &count.limits {
            self.limits.note(*reading);
        }
    }

    /// A fork's own part begins: what was counted so far is its parent's.
    fn own_part(&mut self, parent_id: &str) {
        self.claude.get_or_insert_with(Carry::default).part = Part::Own;
        self.meta.get_or_insert_with(Meta::default).forked_from_id = Some(parent_id.to_owned());
        self.event_user = 0;
        self.event_assistant = 0;
        self.response_user = 0;
        self.response_assistant = 0;
        self.event_prompt = None;
        self.response_prompt = None;
        self.files.clear();
        self.tokens = None;
        self.models.clear();
        self.over_time.clear();
        self.model_now = None;
        self.limits.clear();
    }

    /// [`ScanState::note`] of a record the pass does not keep.
    fn take(&mut self, record: Record) -> Option<Role> {
        match record {
            Record::Meta(meta) => {
                self.meta = Some(*meta);
                None
            }
            record => self.note(&record),
        }
    }

    /// The reading a pass needs: the messages, names and usage records, no tool texts.
    pub fn read_options(opts: &ScanOptions) -> ReadOptions {
        ReadOptions {
            tools: false,
            turns: false,
            // Only the paths of a patch's files are kept, not its diffs.
            max_tool_output_bytes: Some(0),
            thread_names: true,
            usage: true,
            ordinal_below: opts.ordinal_below,
            max_line: opts.max_line,
            source: opts.source,
        }
    }

    /// The end of a pass that began at `base` and read `records` (of [`Self::read_options`],
    /// each handed to [`Self::note`]): where it stopped, whether that is the end of the file,
    /// the lines it could not read and the last token total.
    pub fn end_pass<R: BufRead>(&mut self, records: &mut Records<R>, base: u64) {
        self.complete = records.end() == End::Eof;
        if let Some(count) = records.take_tokens() {
            self.count(&count);
        }
        if let Some(carry) = records.claude_carry() {
            self.claude = Some(carry.clone());
        }
        self.offset = base + records.consumed();
        self.skipped_lines += records.skipped();
        self.pending_tail = records.pending_tail();
    }

    /// Continue the pass over `reader`, which must be positioned at `self.offset`.
    /// An unterminated last line that is not a whole JSON object is left unread (codex may be
    /// writing it), counted as skipped, and `offset` stays before it so a later pass reads it
    /// whole. A read error part-way ends the pass like the end of the file once the file is
    /// known to be a session (see [`Records::next_record`]).
    pub fn scan<R: BufRead>(&mut self, reader: R, opts: &ScanOptions) -> io::Result<()> {
        let resume = Resume {
            at_file_start: self.offset == 0,
            have_meta: self.meta.is_some(),
            seen_session: self.meta.is_some() || self.saw_message,
            claude: self.claude.clone().unwrap_or_default(),
        };
        let mut records = Records::new(reader, Self::read_options(opts), resume);
        if let Some(off) = &opts.off_chain {
            records.leave_out(OffChain::clone(off));
        }
        records.resumable();
        for role in [Role::User, Role::Assistant] {
            if self.sources().events(role) {
                records.skip_responses(role);
            }
        }
        let base = self.offset;
        if std::mem::take(&mut self.pending_tail) {
            self.skipped_lines = self.skipped_lines.saturating_sub(1);
        }
        let result = loop {
            match records.next_record() {
                Ok(Some(record)) => {
                    if let Some(role) = self.take(record) {
                        records.skip_responses(role);
                    }
                    if opts.until == Until::FirstPrompt
                        && self.event_prompt.is_some()
                        && !self.claude.as_ref().is_some_and(Carry::copying)
                    {
                        // What the lines read gave and is not taken yet is taken now.
                        for record in records.settle() {
                            self.take(record);
                        }
                        break Ok(());
                    }
                }
                Ok(None) => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        self.end_pass(&mut records, base);
        result
    }
}

#[cfg(test)]
#[path = "summary_tests.rs"]
mod tests;
