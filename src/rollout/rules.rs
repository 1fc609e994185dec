//! The classifier: one parsed rollout line -> at most one user or assistant message.
//!
//! This module is pure: no IO, no clock, no panics on any `serde_json::Value`. It owns the three
//! message shapes codex has written (`event`, `item`, `response`), the text-flattening rule, the
//! injected-context prefix rule and the preview rules (IDE wrapper, white space). The summary
//! (preview) and the transcript both call it, so the two can never disagree.

use serde_json::Value;

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

/// The IDE extension wraps what the user typed after this marker.
pub const IDE_REQUEST_MARKER: &str = "## My request for Codex:";

/// Flatten message content: a string as is; an array gives the string `text` of each block,
/// skipping empty ones, joined with `\n`; anything else gives nothing. Not trimmed.
pub fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => {
            let mut out = String::new();
            for text in blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .filter(|t| !t.is_empty())
            {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(text);
            }
            out
        }
        _ => String::new(),
    }
}

/// Codex injects context as `response` user rows starting (after leading white space) with a
/// Markdown heading or an XML-style tag. The rule is the prefix, not a list of tag names.
pub fn is_injected_context(text: &str) -> bool {
    let start = text.trim_start();
    start.starts_with('#') || start.starts_with('<')
}

fn phase_of(value: Option<&Value>) -> Option<String> {
    value
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// The message a parsed rollout line carries, or `None` for every other line.
pub fn message_from_line(line: &Value) -> Option<Message> {
    let kind = line.get("type").and_then(Value::as_str)?;
    let payload = line.get("payload").filter(|p| p.is_object())?;
    let payload_type = payload.get("type").and_then(Value::as_str);
    let (role, text, shape, phase) = match kind {
        "event_msg" => match payload_type? {
            "user_message" | "agent_message" => {
                let role = if payload_type == Some("user_message") {
                    Role::User
                } else {
                    Role::Assistant
                };
                let text = payload.get("message").map(content_text).unwrap_or_default();
                (role, text, Shape::Event, phase_of(payload.get("phase")))
            }
            "item_completed" => {
                let item = payload.get("item").filter(|i| i.is_object())?;
                let role = match item.get("type").and_then(Value::as_str)? {
                    "UserMessage" => Role::User,
                    "AgentMessage" => Role::Assistant,
                    _ => return None,
                };
                let text = item.get("content").map(content_text).unwrap_or_default();
                (role, text, Shape::Item, phase_of(item.get("phase")))
            }
            _ => return None,
        },
        "response_item" => {
            let role = match payload.get("role").and_then(Value::as_str)? {
                "user" => Role::User,
                "assistant" => Role::Assistant,
                _ => return None,
            };
            let text = payload.get("content").map(content_text).unwrap_or_default();
            (role, text, Shape::Response, phase_of(payload.get("phase")))
        }
        _ => return None,
    };
    Message::new(role, text, shape, phase)
}

/// What the user typed inside an IDE wrapper: the text after the marker, trimmed. Text without
/// the marker is returned unchanged.
pub fn strip_ide_wrapper(text: &str) -> &str {
    match text.find(IDE_REQUEST_MARKER) {
        Some(at) => text[at + IDE_REQUEST_MARKER.len()..].trim(),
        None => text,
    }
}

/// One display line of a first user message: IDE wrapper stripped, every run of white space
/// (newlines and tabs included) collapsed to one space, ends trimmed.
pub fn preview_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(512));
    for word in strip_ide_wrapper(text).split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
