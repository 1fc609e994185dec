//! One Claude Code transcript line -> the records Codex rollouts give, so the row summary, the
//! transcript, the content index and `blame` read both alike.
//!
//! A line's top-level `type` is found first ([`super::row_type`]); only user, assistant, system
//! and title rows are parsed (rows taken only in part, tool results no reader wants and a
//! rewind's abandoned rows, in `lines_skipped.rs`). One row may give several records, and a record may wait for the
//! next row: an assistant message's text for more text of the same `message.id` (one message
//! however many rows carry it), a slash command for its output, a compaction for its summary.
//! User rows are held until the next assistant row says whether they are copied from a parent
//! (`requestSessionId`, written by `--fork-session`): before the first copied one goes
//! [`Record::Fork`], before the first of the fork's own [`Record::OwnPart`]. What the next pass
//! over a grown file needs is kept in a [`Carry`].

use std::collections::VecDeque;

use serde_json::Value;

use super::carry::{Carry, Part};
use super::chain::OffChain;
use super::prompt::{self, Said};
use super::row_type::{row_type, RowType};
use super::{tokens, tools};
use crate::rollout::event::Event;
use crate::rollout::record::{
    Message, Meta, Record, Role, Shape, Status, ToolCall, ToolDetail, ToolOutput,
};
use crate::rollout::rules;
use crate::rollout::text::Cap;
use crate::rollout::usage::TokenCount;
use crate::timefmt;

/// What the reader wants besides the metadata and the messages (see `rollout::reader`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Want {
    pub tools: bool,
    pub turns: bool,
    pub usage: bool,
    pub names: bool,
    /// Longest tool text kept (`None`: whole).
    pub cap: Option<usize>,
}

/// The line is not JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unreadable;

/// A record the next row may still complete.
#[derive(Debug)]
enum Pending {
    /// An assistant message's text, by its `message.id`.
    Text { id: Option<String>, msg: Message },
    /// A prompt with an image sent inline, waiting for the row that says where it is stored.
    Prompt(Message),
    /// A slash command, waiting for what it printed.
    Slash(ToolCall),
    /// A compaction, waiting for its summary.
    Compaction(Option<bool>),
}

/// The reading state of one transcript; see the module doc.
#[derive(Debug)]
pub(crate) struct ClaudeLines {
    want: Want,
    carry: Carry,
    meta_done: bool,
    held: Vec<Record>,
    pending: Option<Pending>,
    /// Subagents launched in the background: their call waits for the report a
    /// `<task-notification>` brings.
    background: Vec<String>,
    /// Rows of abandoned branches (a rewind's), by `uuid`: left out.
    off_chain: OffChain,
}

fn flag(row: &Value, key: &str) -> bool {
    row.get(key).and_then(Value::as_bool) == Some(true)
}

fn text<'a>(row: &'a Value, key: &str) -> Option<&'a str> {
    row.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

impl ClaudeLines {
    /// A reader going on from `carry` (a fresh one at the start of a file); `have_meta`: the
    /// metadata was read by an earlier pass.
    pub(crate) fn new(want: Want, carry: Carry, have_meta: bool) -> ClaudeLines {
        ClaudeLines {
            want,
            carry,
            meta_done: have_meta,
            held: Vec::new(),
            pending: None,
            background: Vec::new(),
            off_chain: OffChain::new(),
        }
    }

    /// Leave out the rows of `off` (the abandoned branches of a transcript that was rewound,
    /// found by `chain::off_chain`).
    pub(crate) fn leave_out(&mut self, off: OffChain) {
        self.off_chain = off;
    }

    /// What the next pass needs.
    pub(crate) fn carry(&self) -> &Carry {
        &self.carry
    }

    fn cap(&self) -> Cap {
        Cap(self.want.cap)
    }

    /// Read one line; its records (and any it let go) go to `out`.
    pub(crate) fn take(
        &mut self,
        line: &[u8],
        out: &mut VecDeque<Record>,
    ) -> Result<(), Unreadable> {
        let kind = match row_type(line) {
            Some(RowType::Other) => return Ok(()),
            Some(kind) => kind,
            // No string `type` found: a JSON object without one says nothing.
            None => {
                let object = rules::parse_line(line).is_some_and(|v| v.is_object());
                return if object { Ok(()) } else { Err(Unreadable) };
            }
        };
        if kind == RowType::User && !self.want.tools && self.only_unwanted_results(line) {
            return Ok(());
        }
        let row = rules::parse_line(line)
            .filter(Value::is_object)
            .ok_or(Unreadable)?;
        if flag(&row, "isSidechain") {
            // A subagent's rows belong to its own transcript.
            return Ok(());
        }
        let uuid = row.get("uuid").and_then(Value::as_str);
        if uuid.is_some_and(|u| self.off_chain.contains(u)) {
            self.off_row(kind, &row, out);
            return Ok(());
        }
        match kind {
            RowType::User => self.user(&row, out),
            RowType::Assistant => self.assistant(&row, out),
            RowType::System => self.system(&row, out),
            RowType::CustomTitle => self.title(&row, "customTitle", out),
            RowType::AiTitle => self.title(&row, "aiTitle", out),
            RowType::Summary => self.title(&row, "summary", out),
            RowType::Other => {}
        }
        Ok(())
    }

    /// The end of the stream: what waits goes out. User rows held after a fork's copy are
    /// taken for its own (the copy is written at once, ending with its parent's last answer:
    /// what follows is the prompt the fork was made with, its answer still to come).
    pub(crate) fn finish(&mut self, out: &mut VecDeque<Record>) {
        self.flush_pending(out);
        if !self.held.is_empty() && self.carry.copying() {
            self.own_part(out);
        }
        out.extend(self.held.drain(..));
    }

    /// Records of user rows are held (waiting for the next assistant row to say whose they
    /// are, or pending).
    pub(crate) fn holding(&self) -> bool {
        let user_side = matches!(
            self.pending,
            Some(Pending::Prompt(_) | Pending::Slash(_) | Pending::Compaction(_))
        );
        !self.held.is_empty() || user_side
    }

    /// The end of the stream in a fork's copy with user rows held: they are dropped unsaid,
    /// for a later pass to read again once the next assistant row tells whose they are;
    /// `false` (and nothing dropped) otherwise.
    pub(crate) fn drop_held_copy(&mut self) -> bool {
        if !self.holding() || !self.carry.copying() {
            return false;
        }
        self.held.clear();
        self.pending = None;
        true
    }

    /// The fork's own part begins.
    fn own_part(&mut self, out: &mut VecDeque<Record>) {
        if let Part::Copying { parent } = std::mem::replace(&mut self.carry.part, Part::Own) {
            out.push_back(Record::OwnPart { parent_id: parent });
        }
        // The fork's own tokens: the parent's were counted in the copy.
        self.carry.tokens = Default::default();
        self.carry.last_message = None;
        self.carry.last_usage = Default::default();
    }

    /// What the stream holds back, let go now (a pass that stops part-way: the records of
    /// the lines it read must not be lost).
    pub(crate) fn settle(&mut self, out: &mut VecDeque<Record>) {
        self.flush_pending(out);
    }

    fn meta(&mut self, row: &Value, out: &mut VecDeque<Record>) {
        if self.meta_done {
            return;
        }
        let (Some(id), Some(cwd)) = (text(row, "sessionId"), text(row, "cwd")) else {
            return;
        };
        self.meta_done = true;
        let meta = Meta {
            id: Some(id.to_owned()),
            timestamp: text(row, "timestamp").map(str::to_owned),
            cwd: Some(cwd.to_owned()),
            git_branch: text(row, "gitBranch").map(str::to_owned),
            source: text(row, "entrypoint").map(str::to_owned),
            originator: Some("claude-code".to_owned()),
            cli_version: text(row, "version").map(str::to_owned),
            ..Meta::default()
        };
        out.push_back(Record::Meta(Box::new(meta)));
    }

    fn title(&mut self, row: &Value, key: &str, out: &mut VecDeque<Record>) {
        if !self.want.names {
            return;
        }
        let Some(title) = text(row, key).filter(|t| !t.trim().is_empty()) else {
            return;
        };
        let record = match key {
            "customTitle" => Record::ThreadName(title.to_owned()),
            "aiTitle" => {
                self.carry.ai_titled = true;
                Record::Title(title.to_owned())
            }
            _ if self.carry.ai_titled => return,
            _ => Record::Title(title.to_owned()),
        };
        out.push_back(record);
    }

    /// A conversation record: after what is pending, held while the part is undecided.
    fn say(&mut self, record: Record, out: &mut VecDeque<Record>) {
        self.flush_pending(out);
        self.put(record, out);
    }

    fn put(&mut self, record: Record, out: &mut VecDeque<Record>) {
        match self.carry.part {
            Part::Own => out.push_back(record),
            Part::Undecided | Part::Copying { .. } => self.held.push(record),
        }
    }

    fn flush_pending(&mut self, out: &mut VecDeque<Record>) {
        let record = match self.pending.take() {
            None => return,
            // The text of an assistant row whose part is decided, and nothing was held after
            // it (saying anything lets it go first): it goes out before what is held.
            Some(Pending::Text { msg, .. }) => return out.push_back(Record::Message(msg)),
            Some(Pending::Slash(call)) => Record::Tool(call),
            Some(Pending::Prompt(msg)) => Record::Message(msg),
            Some(Pending::Compaction(manual)) => Record::Event(Event::Compacted {
                turn_id: None,
                summary: None,
                manual,
            }),
        };
        self.put(record, out);
    }

    fn user(&mut self, row: &Value, out: &mut VecDeque<Record>) {
        self.meta(row, out);
        let blocks = row
            .get("message")
            .and_then(|m| m.get("content"))
            .and_then(Value::as_array);
        let results: Vec<&Value> = blocks
            .into_iter()
            .flatten()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
            .collect();
        let outcome = (results.len() == 1)
            .then(|| row.get("toolUseResult"))
            .flatten();
        for block in results {
            self.result(block, outcome, out);
        }
        let said = prompt::user_row(row);
        self.said(said, out);
    }

    fn said(&mut self, said: Said, out: &mut VecDeque<Record>) {
        match said {
            Said::Prompt { text, images } => {
                if let Some(mut msg) = Message::new(Role::User, text, Shape::Event, None) {
                    msg.images = images;
                    self.flush_pending(out);
                    if msg.images.iter().any(String::is_empty) {
                        self.pending = Some(Pending::Prompt(msg));
                    } else {
                        self.put(Record::Message(msg), out);
                    }
                }
            }
            Said::ImageSource(path) => {
                if let Some(Pending::Prompt(msg)) = &mut self.pending {
                    if let Some(image) = msg.images.iter_mut().find(|i| i.is_empty()) {
                        *image = path;
                    }
                }
            }
            Said::Slash { name, args } if self.want.tools => {
                self.flush_pending(out);
                let detail = ToolDetail::Other {
                    name: self.cap().mark(name),
                    arguments: self.cap().mark(args),
                };
                let mut call = ToolCall::new("slash_command".to_owned(), None, detail);
                call.status = Status::Ok;
                self.pending = Some(Pending::Slash(call));
            }
            Said::CommandOutput(text) if self.want.tools => self.command_output(text, out),
            Said::TaskReport { text, call_id } if self.want.tools && !text.is_empty() => {
                let mut report = self.output(text, Some("subagent"));
                let at = call_id.and_then(|id| self.background.iter().position(|b| *b == id));
                if let Some(at) = at {
                    // The output of the call that launched it.
                    report.call_id = Some(self.background.remove(at));
                    report.status = Status::Unknown;
                }
                self.say(Record::Tool(report), out);
            }
            Said::CompactSummary(summary) if self.want.turns => {
                let manual = match self.pending.take() {
                    Some(Pending::Compaction(manual)) => manual,
                    other => {
                        self.pending = other;
                        None
                    }
                };
                let summary = Some(summary).filter(|s| !s.trim().is_empty());
                let event = Event::Compacted {
                    turn_id: None,
                    summary,
                    manual,
                };
                self.say(Record::Event(event), out);
            }
            Said::Interrupted if self.want.turns => {
                let event = Event::TurnAborted {
                    turn_id: None,
                    reason: Some("interrupted".to_owned()),
                    duration_ms: None,
                };
                self.say(Record::Event(event), out);
            }
            _ => {}
        }
    }

    /// An output standing on its own.
    fn output(&self, text: String, name: Option<&str>) -> ToolCall {
        let (text, elided) = self.cap().cut(text);
        let out = ToolOutput {
            text,
            elided,
            name: name.map(str::to_owned),
            ..ToolOutput::default()
        };
        let mut call = ToolCall::new("output".to_owned(), None, ToolDetail::Output(Box::new(out)));
        call.status = Status::Ok;
        call
    }

    /// What a local command printed: the output of the slash command before it.
    fn command_output(&mut self, text: String, out: &mut VecDeque<Record>) {
        if let Some(Pending::Slash(mut call)) = self.pending.take() {
            let (text, elided) = self.cap().cut(text);
            call.output = Some(Box::new(ToolOutput {
                text,
                elided,
                ..ToolOutput::default()
            }));
            self.put(Record::Tool(call), out);
            return;
        }
        if !text.trim().is_empty() {
            let printed = self.output(text, Some("local command"));
            self.say(Record::Tool(printed), out);
        }
    }

    fn result(&mut self, block: &Value, outcome: Option<&Value>, out: &mut VecDeque<Record>) {
        let id = block
            .get("tool_use_id")
            .and_then(Value::as_str)
            .unwrap_or("");
        let at = self.carry.open.iter().position(|c| c.id == id);
        let open = at.map(|i| self.carry.open.remove(i));
        if !self.want.tools && !open.as_ref().is_some_and(|o| tools::is_edit(&o.name)) {
            return;
        }
        let result = tools::result(block, open.as_ref(), outcome, self.cap());
        match result.event {
            Some(event @ Event::PatchApplied { .. }) => self.say(Record::Event(event), out),
            Some(event) if self.want.tools => self.say(Record::Event(event), out),
            _ => {}
        }
        let launched = outcome
            .and_then(|o| o.get("isAsync"))
            .and_then(Value::as_bool);
        if launched == Some(true) && open.is_some_and(|o| o.name == "Agent" || o.name == "Task") {
            // Its report comes later, as the call's output.
            self.background.push(id.to_owned());
        } else if self.want.tools {
            self.say(Record::Tool(result.output), out);
        }
    }

    fn system(&mut self, row: &Value, out: &mut VecDeque<Record>) {
        self.meta(row, out);
        match row.get("subtype").and_then(Value::as_str) {
            Some("compact_boundary") if self.want.turns => {
                let manual = row
                    .get("compactMetadata")
                    .and_then(|m| m.get("trigger"))
                    .and_then(Value::as_str)
                    .and_then(|t| match t {
                        "manual" => Some(true),
                        "auto" => Some(false),
                        _ => None,
                    });
                self.flush_pending(out);
                self.pending = Some(Pending::Compaction(manual));
            }
            Some("local_command") => {
                let said = prompt::local_command(row);
                self.said(said, out);
            }
            _ => {}
        }
    }

    /// Whether the user rows held so far are copied from a parent, as this assistant row
    /// says (`requestSessionId`, another session's id); they go out after the mark it calls for.
    fn decide(&mut self, row: &Value, out: &mut VecDeque<Record>) {
        let own_id = text(row, "sessionId");
        let copied_from = text(row, "requestSessionId").filter(|p| Some(*p) != own_id);
        self.flush_pending(out);
        match (&self.carry.part, copied_from) {
            (Part::Undecided, Some(parent)) => {
                let parent_id = parent.to_owned();
                out.push_back(Record::Fork {
                    parent_id: parent_id.clone(),
                });
                self.carry.part = Part::Copying { parent: parent_id };
            }
            (Part::Undecided, None) => self.carry.part = Part::Own,
            (Part::Copying { .. }, None) => self.own_part(out),
            (Part::Copying { .. } | Part::Own, _) => {}
        }
        out.extend(self.held.drain(..));
    }

    fn assistant(&mut self, row: &Value, out: &mut VecDeque<Record>) {
        self.meta(row, out);
        let Some(message) = row.get("message") else {
            return;
        };
        let id = text(message, "id");
        let same = matches!(&self.pending, Some(Pending::Text { id: Some(p), .. }) if Some(p.as_str()) == id);
        if !same {
            self.decide(row, out);
        }
        for block in message
            .get("content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.block(id, block, out);
        }
        if let Some(Value::String(text)) = message.get("content") {
            self.text(id, text, out);
        }
        self.usage(row, message, out);
    }

    /// The model and tokens of an assistant message (of `row`, which dates them), when usage
    /// is read.
    pub(super) fn usage(&mut self, row: &Value, message: &Value, out: &mut VecDeque<Record>) {
        if !self.want.usage {
            return;
        }
        let model = text(message, "model").filter(|m| *m != "<synthetic>");
        if let Some(model) = model {
            out.push_back(Record::Model(model.to_owned()));
        }
        if let Some(usage) = message.get("usage").filter(|u| u.is_object()) {
            if tokens::count(
                &mut self.carry,
                text(message, "id"),
                tokens::of_usage(usage),
            ) {
                out.push_back(Record::Tokens(TokenCount {
                    total: Some(self.carry.tokens),
                    at: text(row, "timestamp").and_then(timefmt::parse_rfc3339),
                    limits: Vec::new(),
                }));
            }
        }
    }

    fn block(&mut self, id: Option<&str>, block: &Value, out: &mut VecDeque<Record>) {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                let t = block.get("text").and_then(Value::as_str).unwrap_or("");
                self.text(id, t, out);
            }
            Some("thinking" | "redacted_thinking") if self.want.tools => {
                let call = tools::reasoning(block, self.cap());
                self.say(Record::Tool(call), out);
            }
            Some("tool_use" | "server_tool_use") => {
                if self.carry.open.len() >= MAX_OPEN {
                    self.carry.open.remove(0);
                }
                self.carry.open.push(tools::open_call(block));
                if self.want.tools {
                    let call = tools::call(block, self.cap());
                    self.say(Record::Tool(call), out);
                }
            }
            _ => {}
        }
    }

    /// An assistant text: joined to the pending text of the same message.
    fn text(&mut self, id: Option<&str>, text: &str, out: &mut VecDeque<Record>) {
        if text.is_empty() {
            return;
        }
        if let Some(Pending::Text { id: Some(p), msg }) = &mut self.pending {
            if Some(p.as_str()) == id {
                msg.text.push('\n');
                msg.text.push_str(text);
                return;
            }
        }
        self.flush_pending(out);
        if let Some(msg) = Message::new(Role::Assistant, text.to_owned(), Shape::Event, None) {
            let id = id.map(str::to_owned);
            self.pending = Some(Pending::Text { id, msg });
        }
    }
}

/// Calls waiting for their result that are remembered (a result past them is read without its
/// call's name).
const MAX_OPEN: usize = 256;

#[path = "lines_skipped.rs"]
mod skipped;

#[cfg(test)]
#[path = "lines_tests.rs"]
pub(crate) mod tests;
