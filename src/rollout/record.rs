//! The records of a rollout: what one line can say, once it is read.
//!
//! Pure data. [`Record`] is what the reader ([`super::reader`]) hands every consumer: the session
//! metadata, a user or assistant message, a tool call or output (or a reasoning summary), a
//! thread name. Every other line is nothing to anyone and is not a record.

use serde::{Deserialize, Serialize};

use crate::session::HistoryBase;

/// One useful line of a rollout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// The file's first `session_meta` (later ones are not records); boxed, as it is ten
    /// times the size of the other records and comes once a file.
    Meta(Box<Meta>),
    Message(Message),
    /// A tool call, its output or a reasoning summary, as one line.
    Tool(ToolCall),
    /// `event_msg` / `thread_name_updated` with a non-empty name.
    ThreadName(String),
}

/// A tool or reasoning row, summarised on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The payload's `type` (`function_call`, `reasoning`, ...).
    pub kind: String,
    pub summary: String,
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
