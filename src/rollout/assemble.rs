//! Entries built from records, once, for every view: each tool output joined to its call
//! (parallel calls too), codex's own records of a tool's result joined to the call they are
//! about (the files a patch changed, how a command ended, an MCP error), how each call ended
//! ([`Status`]), a command left running in the background joined to the polls that wait on it,
//! what a plan update changed, whether a compaction was asked for or automatic, and an
//! interrupted turn, marked where it happened and on the calls it cut short.
//!
//! Pure. The assembler hands an entry out once nothing later in the file can change it any
//! more; an entry that waits (a call for its output, a background command for its end, a
//! compaction for what its turn does) holds back the ones after it, so the order is the file's.
//! With a budget ([`Assembler::bounded`]) what is held back is bounded: past it the oldest
//! entry goes out as it is (an output that comes later then stands on its own), so a stream of
//! any size is written holding a bounded amount.

use std::collections::{HashMap, VecDeque};

use super::entry::{Entry, Marker, Trigger};
use super::event::{Event, FileChange};
use super::record::{PatchFile, PatchOp, PlanStep, Status, StepChange, ToolCall, ToolDetail};

/// What the assembler is given, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// A message, a tool row or a marker, as read.
    Entry(Entry),
    /// A turn or tool event.
    Event(Event),
}

impl Piece {
    pub fn entry(entry: Entry) -> Piece {
        Piece::Entry(entry)
    }

    pub fn event(event: Event) -> Piece {
        Piece::Event(event)
    }

    /// The entry, when the piece is one.
    pub fn as_entry(&self) -> Option<&Entry> {
        match self {
            Piece::Entry(entry) => Some(entry),
            Piece::Event(_) => None,
        }
    }
}

/// Builds entries from pieces; see the module doc.
#[derive(Debug, Default)]
pub(crate) struct Assembler {
    /// Outputs are joined to their calls (else every tool row stands on its own).
    join: bool,
    held: VecDeque<Held>,
    /// The number of entries handed out so far: `held[i]` is entry `out + i`.
    out: usize,
    /// Bytes of text held (a rough count), and the most to hold; `None`: no bound.
    held_bytes: usize,
    budget: Option<usize>,
    /// Held calls by `call_id`, by entry number.
    calls: HashMap<String, usize>,
    /// Commands left running in the background: their session id, the command line and the
    /// entry number of the command when it is still held.
    sessions: HashMap<String, (String, Option<usize>)>,
    /// The steps of the last plan update.
    plan: Option<Vec<PlanStep>>,
    turn: Turn,
    /// A compaction waiting to know what its turn does, by entry number.
    compaction: Option<usize>,
}

/// What the current turn has done so far.
#[derive(Debug, Default, Clone, Copy)]
struct Turn {
    /// A `task_started` was seen and its turn has not ended.
    open: bool,
    /// The turn has a prompt of the user.
    prompted: bool,
}

/// An entry and what it waits for.
#[derive(Debug)]
struct Held {
    entry: Entry,
    wait: Wait,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wait {
    /// Nothing: it can go out.
    Nothing,
    /// A call waiting for its output.
    Output,
    /// A command left running, waiting for codex's record of its end.
    End,
    /// A compaction waiting to know whether its turn had a prompt.
    Trigger,
}

impl Assembler {
    /// An assembler that holds back whatever waits, however much that is (for a transcript
    /// read whole into memory anyway); outputs are joined to their calls when `join`.
    pub(crate) fn new(join: bool) -> Assembler {
        Assembler {
            join,
            ..Assembler::default()
        }
    }

    /// [`Assembler::new`] holding back at most about `budget` bytes of text.
    pub(crate) fn bounded(join: bool, budget: usize) -> Assembler {
        Assembler {
            join,
            budget: Some(budget),
            ..Assembler::default()
        }
    }

    /// Take the next piece; the entries that are final go to `sink`, in order.
    pub(crate) fn push(&mut self, piece: Piece, sink: &mut dyn FnMut(Entry)) {
        match piece {
            Piece::Entry(entry) => {
                if entry.is_prompt() {
                    self.turn.prompted = true;
                    self.decide_compaction(Some(Trigger::Automatic));
                } else if !self.turn.open || self.turn.prompted {
                    self.decide_compaction(None);
                }
                match entry {
                    Entry::Tool(call) => self.tool(call),
                    entry => {
                        self.hold(entry, Wait::Nothing);
                    }
                }
            }
            Piece::Event(event) => self.event(event),
        }
        self.release(sink, false);
    }

    /// The end of the stream: every entry still held goes out as it is.
    pub(crate) fn finish(&mut self, sink: &mut dyn FnMut(Entry)) {
        // A turn still going when the file ends (codex may be writing it): nothing more is
        // known of a compaction in it.
        self.decide_compaction(None);
        self.release(sink, true);
    }

    fn hold(&mut self, entry: Entry, wait: Wait) -> usize {
        self.held_bytes += size_of_entry(&entry);
        self.held.push_back(Held { entry, wait });
        self.out + self.held.len() - 1
    }

    /// The held entry number `n`, when it is still held.
    fn get(&mut self, n: usize) -> Option<&mut Held> {
        let i = n.checked_sub(self.out)?;
        self.held.get_mut(i)
    }

    /// Hand out the entries at the front that wait for nothing (every one when `all`, and
    /// the oldest ones while more than the budget is held).
    fn release(&mut self, sink: &mut dyn FnMut(Entry), all: bool) {
        while let Some(front) = self.held.front() {
            let over = self.budget.is_some_and(|b| self.held_bytes > b);
            if front.wait != Wait::Nothing && !all && !over {
                break;
            }
            let Some(held) = self.held.pop_front() else {
                break;
            };
            let n = self.out;
            self.out += 1;
            self.held_bytes = self.held_bytes.saturating_sub(size_of_entry(&held.entry));
            if let Entry::Tool(call) = &held.entry {
                if let Some(id) = &call.call_id {
                    if self.calls.get(id) == Some(&n) {
                        self.calls.remove(id);
                    }
                }
            }
            for (_, at) in self.sessions.values_mut() {
                if *at == Some(n) {
                    *at = None;
                }
            }
            if self.compaction == Some(n) {
                self.compaction = None;
            }
            sink(held.entry);
        }
    }

    /// A tool row: a call (held for its output), or an output joined to its call.
    fn tool(&mut self, mut call: ToolCall) {
        if !self.join {
            self.hold(Entry::Tool(call), Wait::Nothing);
            return;
        }
        if matches!(call.detail, ToolDetail::Output(_)) {
            let owner = call
                .call_id
                .as_ref()
                .and_then(|id| self.calls.get(id).copied());
            let owner = owner.filter(|&n| self.get(n).is_some_and(|h| h.wait == Wait::Output));
            let (Some(n), ToolDetail::Output(out)) = (owner, &mut call.detail) else {
                // An output no held call claims stands on its own.
                call.status = Status::Ok;
                self.hold(Entry::Tool(call), Wait::Nothing);
                return;
            };
            let out = std::mem::take(out);
            self.held_bytes += out.text.len();
            if let Some(held) = self.get(n) {
                held.wait = Wait::Nothing;
                if let Entry::Tool(owner) = &mut held.entry {
                    owner.output = Some(out);
                    settle(owner);
                }
            }
            self.after_output(n);
            return;
        }
        match &mut call.detail {
            ToolDetail::Plan(plan) => {
                if let Some(before) = &self.plan {
                    for step in &mut plan.steps {
                        step.change = match before.iter().find(|b| b.text == step.text) {
                            None => StepChange::New,
                            Some(b) if b.state != step.state => StepChange::Was(b.state.clone()),
                            Some(_) => StepChange::Same,
                        };
                    }
                }
                self.plan = Some(plan.steps.clone());
            }
            ToolDetail::Poll {
                session, command, ..
            } => *command = self.sessions.get(session).map(|(c, _)| c.clone()),
            _ => {}
        }
        let waits = call.call_id.is_some()
            && call.status == Status::Unknown
            && !matches!(call.detail, ToolDetail::Reasoning { .. });
        let id = call.call_id.clone();
        let n = self.hold(
            Entry::Tool(call),
            if waits { Wait::Output } else { Wait::Nothing },
        );
        if let Some(id) = id.filter(|_| waits) {
            self.calls.insert(id, n);
        }
    }

    /// Call `n` has its output: a command left running in the background waits for its end,
    /// and a poll's output may say how the command it waits on ended.
    fn after_output(&mut self, n: usize) {
        let Some(Held {
            entry: Entry::Tool(call),
            wait,
        }) = self.get(n)
        else {
            return;
        };
        let mut started = None;
        let mut polled = None;
        match &call.detail {
            ToolDetail::Command {
                command,
                session: Some(session),
                ..
            } if call.status == Status::Running => {
                *wait = Wait::End;
                started = Some((session.clone(), command.clone()));
            }
            ToolDetail::Poll { session, .. } => {
                let ended = call.output.as_ref().and_then(|o| o.exit_code);
                polled = ended.map(|code| (session.clone(), code));
            }
            _ => {}
        }
        if let Some((session, command)) = started {
            self.sessions.insert(session, (command, Some(n)));
        }
        let Some((session, code)) = polled else {
            return;
        };
        let at = self.sessions.get(&session).and_then(|(_, at)| *at);
        if let Some(Held {
            entry: Entry::Tool(command),
            ..
        }) = at.and_then(|at| self.get(at))
        {
            command.status = exit_status(code);
        }
    }

    fn event(&mut self, event: Event) {
        match event {
            Event::TurnStarted { .. } => {
                self.end_turn(None);
                self.turn = Turn {
                    open: true,
                    prompted: false,
                };
            }
            Event::TurnEnded { .. } => self.end_turn(None),
            Event::TurnAborted {
                reason,
                duration_ms,
                ..
            } => {
                self.end_turn(Some(Status::Interrupted));
                let marker = Marker::Interrupted {
                    reason,
                    duration_ms,
                };
                self.hold(Entry::Marker(marker), Wait::Nothing);
            }
            Event::Compacted {
                summary, manual, ..
            } => self.compacted(summary, manual),
            Event::PatchApplied {
                call_id,
                changes,
                failure,
                duration_ms,
            } => self.on_call(&call_id, |call| {
                if let ToolDetail::Patch { files, .. } = &mut call.detail {
                    merge_changes(files, changes);
                }
                call.duration_ms = call.duration_ms.or(duration_ms);
                if let Some(why) = failure {
                    call.status = Status::Failed(why);
                } else if call.status == Status::Unknown {
                    call.status = Status::Ok;
                }
            }),
            Event::CommandEnded {
                call_id,
                exit_code,
                status,
                duration_ms,
                output,
            } => self.command_ended(&call_id, exit_code, status, duration_ms, output),
            Event::McpEnded {
                call_id,
                failure,
                duration_ms,
            } => self.on_call(&call_id, |call| {
                call.duration_ms = duration_ms.or(call.duration_ms);
                if let Some(why) = failure {
                    call.status = Status::Failed(why);
                }
            }),
            Event::ToolEnded {
                call_id,
                interrupted,
                failure,
            } => self.on_call(&call_id, |call| match failure {
                _ if interrupted => call.status = Status::Interrupted,
                Some(why) => call.status = Status::Failed(why),
                None => {}
            }),
        }
    }

    /// Apply `f` to the held call `call_id`, if any.
    fn on_call(&mut self, call_id: &str, f: impl FnOnce(&mut ToolCall)) {
        let Some(n) = self.calls.get(call_id).copied() else {
            return;
        };
        if let Some(Held {
            entry: Entry::Tool(call),
            ..
        }) = self.get(n)
        {
            f(call);
        }
    }

    /// Codex's record of how a command ended: its exit code and time, and (for one left
    /// running in the background) its whole output; the command no longer waits.
    fn command_ended(
        &mut self,
        call_id: &str,
        exit_code: Option<i32>,
        status: Option<String>,
        duration_ms: Option<u64>,
        output: String,
    ) {
        let Some(n) = self.calls.get(call_id).copied() else {
            return;
        };
        let Some(held) = self.get(n) else { return };
        let Entry::Tool(call) = &mut held.entry else {
            return;
        };
        call.duration_ms = duration_ms.or(call.duration_ms);
        let background = held.wait == Wait::End;
        if background {
            held.wait = Wait::Nothing;
            let out = call.output.get_or_insert_with(Box::default);
            if out.text.trim().is_empty() && !output.is_empty() {
                out.text = output;
            }
            out.exit_code = exit_code.or(out.exit_code);
        }
        if held.wait == Wait::Output {
            // The output (soon after) says the same and more; the record's exit code is kept
            // for a call whose output does not say it.
            return;
        }
        if let Some(code) = exit_code {
            call.status = exit_status(code);
        } else if let Some(status) = status.filter(|s| s != "completed") {
            call.status = Status::Failed(status);
        } else if background {
            call.status = Status::Ok;
        }
    }

    /// A compaction: one marker however many rows tell of it (a `compacted` row, then its
    /// item), held until what follows says whether it was asked for: a prompt in its turn
    /// (automatic), or its turn ending without one (`/compact`).
    fn compacted(&mut self, summary: Option<String>, manual: Option<bool>) {
        if let Some(Held {
            entry: Entry::Marker(Marker::Compaction { summary: s, .. }),
            ..
        }) = self.held.back_mut()
        {
            if s.is_none() {
                *s = summary;
            }
            return;
        }
        // The file may say what started it: then nothing that follows need decide.
        let (trigger, wait) = match manual {
            Some(true) => (Trigger::Manual, Wait::Nothing),
            Some(false) => (Trigger::Automatic, Wait::Nothing),
            None if self.turn.prompted => (Trigger::Automatic, Wait::Trigger),
            None => (Trigger::Unknown, Wait::Trigger),
        };
        let marker = Entry::Marker(Marker::Compaction { trigger, summary });
        let n = self.hold(marker, wait);
        if wait == Wait::Trigger {
            self.compaction = Some(n);
        }
    }

    /// A compaction waiting for what follows goes out, with its trigger when `trigger` says.
    fn decide_compaction(&mut self, trigger: Option<Trigger>) {
        let Some(n) = self.compaction.take() else {
            return;
        };
        if let Some(held) = self.get(n) {
            held.wait = Wait::Nothing;
            if let (Entry::Marker(Marker::Compaction { trigger: t, .. }), Some(trigger)) =
                (&mut held.entry, trigger)
            {
                *t = trigger;
            }
        }
    }

    /// The turn ends: a compaction in a turn without a prompt was asked for; calls still
    /// waiting for an output get none (`cut`: they were interrupted).
    fn end_turn(&mut self, cut: Option<Status>) {
        let asked = self.turn.open && !self.turn.prompted;
        self.decide_compaction(asked.then_some(Trigger::Manual));
        self.turn = Turn::default();
        for held in &mut self.held {
            if held.wait != Wait::Output {
                continue;
            }
            held.wait = Wait::Nothing;
            if let (Entry::Tool(call), Some(status)) = (&mut held.entry, &cut) {
                call.status = status.clone();
            }
        }
    }
}

/// How a call ended, from its output once it is joined to it.
fn settle(call: &mut ToolCall) {
    let Some(out) = &mut call.output else { return };
    call.duration_ms = call.duration_ms.or(out.duration_ms);
    if call.status != Status::Unknown {
        // Codex's own record said already (a patch that did not apply, an MCP error).
        return;
    }
    let text = out.text.trim();
    let aborted = text.starts_with("aborted by user");
    call.status = match &mut call.detail {
        _ if aborted => Status::Interrupted,
        ToolDetail::Command { session, .. } if out.session.is_some() => {
            *session = out.session.clone();
            Status::Running
        }
        ToolDetail::Command { .. } => out.exit_code.map_or(Status::Ok, exit_status),
        ToolDetail::Goal { .. } => {
            if let Some(said) = super::tool_output::goal_said(&out.text) {
                out.text = said;
            }
            Status::Ok
        }
        ToolDetail::Patch { .. } => match out.exit_code {
            Some(0) => Status::Ok,
            None if text.starts_with("Success") => Status::Ok,
            _ if text.is_empty() => Status::Failed("the patch did not apply".to_owned()),
            _ => Status::Failed(text.to_owned()),
        },
        _ => Status::Ok,
    };
}

/// `exit 0` is success; any other code is a failure that says its code.
fn exit_status(code: i32) -> Status {
    if code == 0 {
        Status::Ok
    } else {
        Status::Failed(format!("exit {code}"))
    }
}

/// Codex's record of a patch's files, joined to the files the patch names: codex writes each
/// path absolute, the patch as it was given (relative to the turn's folder, usually). A file
/// codex changed that the patch does not name is added.
fn merge_changes(files: &mut Vec<PatchFile>, changes: Vec<FileChange>) {
    for change in changes {
        let at = files.iter().position(|f| same_file(&change.path, &f.path));
        // The folder the patch's relative paths are in, to say a new path the same way.
        let base = at.map_or("", |i| {
            &change.path[..change.path.len() - files[i].path.len()]
        });
        let op = match (change.kind.as_str(), &change.move_path) {
            ("add", _) => PatchOp::Add,
            ("delete", _) => PatchOp::Delete,
            (_, Some(to)) => PatchOp::Move {
                to: to.strip_prefix(base).unwrap_or(to).to_owned(),
            },
            _ => PatchOp::Update,
        };
        match at {
            Some(i) => {
                files[i].op = op;
                files[i].diff = change.diff;
            }
            None => files.push(PatchFile {
                op,
                path: change.path,
                diff: change.diff,
            }),
        }
    }
}

/// Whether codex's absolute `recorded` path is the patch's `named` one (the same, or it in a
/// folder).
fn same_file(recorded: &str, named: &str) -> bool {
    recorded == named
        || recorded
            .strip_suffix(named)
            .is_some_and(|dir| dir.ends_with('/') && !named.starts_with('/'))
}

/// A rough count of the text an entry holds, for the budget.
fn size_of_entry(entry: &Entry) -> usize {
    match entry {
        Entry::Message { text, .. } => text.len(),
        Entry::Tool(call) => size_of_call(call),
        Entry::Marker(Marker::Compaction { summary, .. }) => {
            summary.as_ref().map_or(0, String::len)
        }
        Entry::Marker(_) => 64,
    }
}

fn size_of_call(call: &ToolCall) -> usize {
    let output = call.output.as_ref().map_or(0, |o| o.text.len());
    let detail = match &call.detail {
        ToolDetail::Patch { patch, files, .. } => {
            patch.len()
                + files
                    .iter()
                    .map(|f| f.diff.as_ref().map_or(0, String::len))
                    .sum::<usize>()
        }
        ToolDetail::Other { arguments, .. } | ToolDetail::Mcp { arguments, .. } => arguments.len(),
        ToolDetail::Output(o) => o.text.len(),
        ToolDetail::Reasoning { text } => text.len(),
        _ => 0,
    };
    output + detail + 64
}

#[cfg(test)]
#[path = "assemble_tests.rs"]
pub(crate) mod tests;
