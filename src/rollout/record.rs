//! The records of a rollout: what one line can say, once it is read.
//!
//! Pure data. [`Record`] is what the reader ([`super::reader`]) hands every consumer: the session
//! metadata, a user or assistant message, a tool call or output (or a reasoning summary), a
//! thread name. Every other line is nothing to anyone and is not a record. A tool row carries
//! its one-line summary and what it did ([`ToolDetail`]), as read by [`super::tool`]; its texts
//! are as the rollout wrote them (cut to a cap), never sanitised here.

use serde::{Deserialize, Serialize};

use crate::session::HistoryBase;

/// One useful line of a rollout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// The file's first `session_meta` (later ones are not records); boxed, as it is ten
    /// times the size of the other records and comes once a file.
    Meta(Box<Meta>),
    Message(Message),
    /// A tool call, its output or a reasoning summary.
    Tool(ToolCall),
    /// `event_msg` / `thread_name_updated` with a non-empty name.
    ThreadName(String),
}

/// A tool or reasoning row: its one-line summary, and what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The payload's `type` (`function_call`, `reasoning`, ...).
    pub kind: String,
    /// The row on one line (white space collapsed, at most 200 bytes and a `…` when cut, a
    /// body past 4 KB followed by its size): what `show` prints.
    pub summary: String,
    /// The payload's `call_id`, when a non-empty string: it ties an output to its call.
    pub call_id: Option<String>,
    /// What the row did, as far as the rollout says.
    pub detail: ToolDetail,
    /// The call's output, once a transcript read paired them (see
    /// [`super::transcript::pair_outputs`]); `None` for an output row, reasoning, a call whose
    /// output is not (yet) in the file, or a read that leaves outputs as rows of their own.
    pub output: Option<ToolOutput>,
}

/// What a tool row did, as far as the rollout says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolDetail {
    /// A shell command: `function_call` `exec_command` (`cmd`), `shell` / `container.exec` /
    /// `shell_command` (`command`: an array of words, or a string), or `local_shell_call`
    /// (`action.command`). An array of words is shown as a shell would read it: the script
    /// itself for `bash -lc SCRIPT` / `sh -c SCRIPT`, else the words, quoted where needed.
    Command {
        /// The command line (cut to the cap, a cut marked by a closing `…`).
        command: String,
        /// The directory it ran in, when the call names one.
        workdir: Option<String>,
    },
    /// An `apply_patch` call (`custom_tool_call` with the patch as `input`, or `function_call`
    /// whose arguments hold `input`, or a shell call of `apply_patch PATCH`).
    Patch {
        /// The files the patch touches, in patch order, from its `*** Add File:`,
        /// `*** Update File:` (with `*** Move to:` right after it: a rename) and
        /// `*** Delete File:` lines; read from the whole patch, even when `patch` is cut.
        files: Vec<PatchFile>,
        /// The patch text, cut to the cap.
        patch: String,
        /// Bytes cut from the end of `patch` (0 when whole).
        elided: u64,
    },
    /// Reasoning: the summary text, whole (the `summary_text` items joined with blank lines),
    /// cut to the cap (a cut marked by a closing `…`).
    Reasoning {
        /// The summary text; empty when the row has none (encrypted reasoning only).
        text: String,
    },
    /// Any other call.
    Other {
        /// The tool's `name`, or the row's `type` when it has no name (`web_search_call`).
        name: String,
        /// The arguments (`arguments`, a custom tool's `input`, or a built-in call's
        /// `action`) as written, pretty-printed when they are JSON; cut to the cap (a cut
        /// marked by a closing `…`). Empty when the row has none.
        arguments: String,
    },
    /// A tool output row that no earlier call in the transcript claimed.
    Output(ToolOutput),
}

/// One file a patch touches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchFile {
    /// What the patch does to it.
    pub op: PatchOp,
    /// The file's path as the patch names it (relative or absolute).
    pub path: String,
}

/// What a patch does to a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchOp {
    /// A new file.
    Add,
    /// Changed in place.
    Update,
    /// Removed.
    Delete,
    /// Changed and renamed.
    Move {
        /// The new path.
        to: String,
    },
}

/// What a tool printed, and how it ended, as far as its output row says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolOutput {
    /// The process's exit code, when the output reports one.
    pub exit_code: Option<i32>,
    /// How long it ran, in milliseconds, when the output reports it.
    pub duration_ms: Option<u64>,
    /// The output text (what the command printed, without codex's header lines), cut to the
    /// transcript's cap.
    pub text: String,
    /// Bytes cut from the end of `text` (0 when whole).
    pub elided: u64,
}

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// Which line shape carried a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// `event_msg` / `user_message` or `agent_message`.
    Event,
    /// `event_msg` / `item_completed` with a `UserMessage` or `AgentMessage` item.
    Item,
    /// `response_item` with role `user` or `assistant` (what the model saw).
    Response,
}

impl Shape {
    pub fn as_str(self) -> &'static str {
        match self {
            Shape::Event => "event",
            Shape::Item => "item",
            Shape::Response => "response",
        }
    }
}

/// One rollout line's user or assistant message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub role: Role,
    /// Untrimmed, never empty.
    pub text: String,
    pub shape: Shape,
    /// Codex's own phase (`commentary`, `final_answer`, ...), kept only when a non-empty string.
    pub phase: Option<String>,
    /// A `response` user row: it may be injected context (see [`is_injected_context`]).
    pub injection_prone: bool,
}

/// An assistant phase as a reader says it: `final_answer` is "final answer", any other phase
/// as written (`commentary`, `partial_answer`, ...). Not neutralised: the caller escapes it for
/// where it goes.
pub fn phase_label(phase: &str) -> &str {
    match phase {
        "final_answer" => "final answer",
        other => other,
    }
}

impl Message {
    /// The message of one line, by the rules every reader shares: empty text carries no message,
    /// and only a `response` user row may be injected context.
    pub fn new(role: Role, text: String, shape: Shape, phase: Option<String>) -> Option<Message> {
        if text.is_empty() {
            return None;
        }
        Some(Message {
            role,
            text,
            shape,
            phase,
            injection_prone: shape == Shape::Response && role == Role::User,
        })
    }

    /// Injected context: a `response` user row whose text starts with `#` or `<`.
    pub fn is_injected(&self) -> bool {
        self.injection_prone && is_injected_context(&self.text)
    }

    /// A user message that can title a session: typed by the user and not only white space.
    pub fn is_real_prompt(&self) -> bool {
        self.role == Role::User && !self.is_injected() && !self.text.trim().is_empty()
    }
}

/// Codex injects context as `response` user rows starting (after leading white space) with a
/// Markdown heading or an XML-style tag. The rule is the prefix, not a list of tag names.
pub fn is_injected_context(text: &str) -> bool {
    let start = text.trim_start();
    start.starts_with('#') || start.starts_with('<')
}

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
