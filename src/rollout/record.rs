//! The records of a rollout: what one line can say, once it is read.
//!
//! Pure data. [`Record`] is what the reader ([`super::reader`]) hands every consumer: the session
//! metadata, a user or assistant message, a tool call or output (or a reasoning summary), a
//! thread name, or what codex wrote of a turn or a tool ([`Record::Event`]). Every other line is
//! nothing to anyone and is not a record. What a session used (its token counts and models)
//! are records too, for the readers that ask for them. A tool row carries what it asked for
//! ([`ToolDetail`]), as read by [`super::tool`]; its output and how it ended ([`Status`]) are
//! joined to it when the entries are assembled ([`super::assemble`]). Texts are as the rollout
//! wrote them (cut to a cap), never sanitised here.

use serde::{Deserialize, Serialize};

/// One useful line of a rollout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// The file's first `session_meta` (later ones are not records); boxed, as it is ten
    /// times the size of the other records and comes once a file.
    Meta(Box<Meta>),
    Message(Message),
    /// A tool call, its output or a reasoning summary.
    Tool(ToolCall),
    /// What codex wrote about a turn or a tool besides the calls themselves (see
    /// [`super::event`]).
    Event(super::event::Event),
    /// `event_msg` / `thread_name_updated` with a non-empty name.
    ThreadName(String),
    /// A `token_count` event's running total of the session's tokens, its time and the rate
    /// limits then (see [`super::usage`]); Claude Code's running total after a message's usage.
    Tokens(super::usage::TokenCount),
    /// The model a turn ran on (`turn_context.model`).
    Model(String),
    /// An automatic title of the session (Claude Code's `ai-title` and `summary` rows; the
    /// last one stands): below a name, above the first prompt.
    Title(String),
    /// What follows is copied from the session `parent_id` (Claude Code's `--fork-session`
    /// copies its parent's rows into the new file), up to [`Record::OwnPart`].
    Fork {
        parent_id: String,
    },
    /// The fork's own part begins: what the session itself did starts here.
    OwnPart {
        parent_id: String,
    },
}

/// A tool call (with its output once assembled), a tool output no call claimed, or a
/// reasoning summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The payload's `type` (`function_call`, `reasoning`, ...).
    pub kind: String,
    /// The payload's `call_id`, when a non-empty string: it ties an output to its call.
    pub call_id: Option<String>,
    /// What the call asked for, as far as the rollout says.
    pub detail: ToolDetail,
    /// The call's output, once the entries are assembled (see [`super::assemble`]); `None`
    /// for an output row, reasoning, or a call whose output is not in the file. Boxed, as
    /// most rows hold none and it is the largest part of a call.
    pub output: Option<Box<ToolOutput>>,
    /// How it ended, as far as the rollout says.
    pub status: Status,
    /// How long it ran, in milliseconds, from its output or codex's own record of it.
    pub duration_ms: Option<u64>,
}

impl ToolCall {
    /// A row as read, before anything is known of how it ended.
    pub fn new(kind: String, call_id: Option<String>, detail: ToolDetail) -> ToolCall {
        ToolCall {
            kind,
            call_id,
            detail,
            output: None,
            status: Status::Unknown,
            duration_ms: None,
        }
    }
}

/// How a tool call ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Status {
    /// The file says nothing of it (no output, or a call with no result to report).
    #[default]
    Unknown,
    /// Done, and nothing says it failed.
    Ok,
    /// Failed, with codex's reason (`exit 1`, `apply_patch verification failed: ...`).
    Failed(String),
    /// Left running in the background (a command that returned a session id).
    Running,
    /// Cut short: the user interrupted the turn.
    Interrupted,
}

/// What a tool row asked for, as far as the rollout says.
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
        /// The session id codex gave it when it was left running in the background.
        session: Option<String>,
    },
    /// `write_stdin`: input sent to (or a wait on) a command left running in the background.
    Poll {
        /// The background command's session id.
        session: String,
        /// What was typed into it (empty: only waited for output).
        chars: String,
        /// The command polled, when the transcript holds it.
        command: Option<String>,
    },
    /// An `apply_patch` call (`custom_tool_call` with the patch as `input`, or `function_call`
    /// whose arguments hold `input`, or a shell call of `apply_patch PATCH`).
    Patch {
        /// The files the patch touches, in patch order, from its `*** Add File:`,
        /// `*** Update File:` (with `*** Move to:` right after it: a rename) and
        /// `*** Delete File:` lines, read from the whole patch even when `patch` is cut; once
        /// assembled, with codex's record of what it changed (its `FileChange` item).
        files: Vec<PatchFile>,
        /// The patch text, cut to the cap.
        patch: String,
        /// Bytes cut from the end of `patch` (0 when whole).
        elided: u64,
    },
    /// `update_plan`: the plan's steps and why it changed.
    Plan(Plan),
    /// A web search (`web_search_call`): what it searched for or opened.
    WebSearch(WebAction),
    /// `tool_search_call`: the model looking for a tool.
    ToolSearch {
        /// What it searched for.
        query: String,
    },
    /// A tool of an MCP server (a `function_call` whose `namespace` is `mcp__<server>`).
    Mcp {
        server: String,
        tool: String,
        /// The arguments, pretty-printed when JSON (cut to the cap).
        arguments: String,
    },
    /// A goal tool: `create_goal`, `update_goal`, `get_goal`.
    Goal {
        /// The tool's name.
        action: String,
        /// The goal's objective, when the call names it.
        objective: Option<String>,
        /// The goal's new status, when the call sets it.
        status: Option<String>,
    },
    /// `view_image`: an image file shown to the model.
    ViewImage {
        /// The image's path, as the call names it.
        path: String,
    },
    /// Reasoning: the summary text, whole (the `summary_text` items joined with blank lines),
    /// cut to the cap (a cut marked by a closing `…`).
    Reasoning {
        /// The summary text; empty when the row has none (encrypted reasoning only).
        text: String,
    },
    /// Any other call.
    Other {
        /// The tool's `name`, or the row's `type` when it has no name.
        name: String,
        /// The arguments (`arguments`, a custom tool's `input`, or a built-in call's
        /// `action`) as written, pretty-printed when they are JSON; cut to the cap (a cut
        /// marked by a closing `…`). Empty when the row has none.
        arguments: String,
    },
    /// A tool output row that no earlier call in the transcript claimed.
    Output(Box<ToolOutput>),
}

/// One file a patch touches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchFile {
    /// What the patch does to it.
    pub op: PatchOp,
    /// The file's path as the patch names it (relative or absolute).
    pub path: String,
    /// What codex recorded of the change: the unified diff of an updated file, the content of
    /// an added or deleted one (cut to the cap). `None` until codex's record is read.
    pub diff: Option<String>,
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

/// An `update_plan` call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Why the plan changed, when the call says.
    pub explanation: Option<String>,
    pub steps: Vec<PlanStep>,
}

/// One step of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanStep {
    pub text: String,
    pub state: StepState,
    /// How it differs from the plan's previous update (set when the entries are assembled).
    pub change: StepChange,
}

/// Where a plan step stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepState {
    Pending,
    InProgress,
    Completed,
    /// A state codex does not write today, as written.
    Other(String),
}

/// How a step differs from the plan's previous update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepChange {
    /// The first update, or the same as before.
    Same,
    /// Not in the previous update.
    New,
    /// It was in this state before.
    Was(StepState),
}

/// What a web search did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebAction {
    Search {
        query: String,
    },
    OpenPage {
        url: String,
    },
    FindInPage {
        url: String,
        pattern: String,
    },
    /// Another action, as written.
    Other(String),
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
    /// The session id of a command codex left running in the background.
    pub session: Option<String>,
    /// Images the output holds (`view_image` gives the model one).
    pub images: u32,
    /// The output row's own `name`, when it has one and no call claims it.
    pub name: Option<String>,
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
    /// The images sent with a prompt, by path or address as written (an image sent inline,
    /// as data, is an empty string).
    pub images: Vec<String>,
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
            images: Vec::new(),
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

/// The first `session_meta` of a file. Its first fields are read alone from a cached state
/// ([`super::summary::MetaView`]): a field added goes after them.
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

/// A paginated fork's pointer into its parent's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryBase {
    pub thread_id: String,
    pub end_ordinal_exclusive: Option<u64>,
}
