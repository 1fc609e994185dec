//! The reading rules (spec/reading-rules.md) in their plain form: a line parsed by serde_json
//! into a `Value`, then read field by field.
//!
//! Pure: no IO, no clock, no panics on any `serde_json::Value`. It owns the three message shapes
//! codex has written (`event`, `item`, `response`) in [`message_from_line`], the metadata in
//! [`meta_from_line`], the text-flattening rule, the per-role choice of a transcript's source
//! ([`Sources`]) and the preview rules (IDE wrapper, white space). The reader's fast paths
//! (`meta_line`, `message_line`) are proven equal to these functions by the property tests; the
//! reader itself uses them for the rare rows and for lines a fast path refuses.

use serde_json::Value;

use super::record::HistoryBase;
use super::record::{Message, Meta, Role, Shape};
use super::text::content_text;

/// Where each role's messages come from (reading-rules section 5): the `event`/`item` shapes
/// for a role that has any message in them, else the `response` rows, minus injected context.
/// Codex writes each message in both; choosing per role keeps the replies of a file whose
/// prompts are events but whose replies are only `response` rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sources {
    pub user_events: bool,
    pub assistant_events: bool,
}

impl Sources {
    /// The role's messages come from the `event`/`item` shapes.
    pub fn events(&self, role: Role) -> bool {
        match role {
            Role::User => self.user_events,
            Role::Assistant => self.assistant_events,
        }
    }

    /// Take note of a message read; true when it is its role's first `event`/`item` one (the
    /// role's `response` messages read so far are then not part of the transcript).
    pub fn note(&mut self, msg: &Message) -> bool {
        if msg.shape == Shape::Response || self.events(msg.role) {
            return false;
        }
        match msg.role {
            Role::User => self.user_events = true,
            Role::Assistant => self.assistant_events = true,
        }
        true
    }

    /// The message is part of the transcript, given what is known of the file.
    pub fn keeps(&self, msg: &Message) -> bool {
        match msg.shape {
            Shape::Response => !self.events(msg.role) && !msg.is_injected(),
            Shape::Event | Shape::Item => true,
        }
    }
}

/// The IDE extension wraps what the user typed after this marker.
pub const IDE_REQUEST_MARKER: &str = "## My request for Codex:";

/// The images of message content: `local_image` blocks by their `path`, `image` and
/// `input_image` blocks by their `image_url` (an inline `data:` image as an empty string).
pub fn content_images(content: &Value) -> Vec<String> {
    let Value::Array(blocks) = content else {
        return Vec::new();
    };
    blocks
        .iter()
        .filter_map(|block| {
            let at = |key| block.get(key).and_then(Value::as_str);
            let image = match at("type")? {
                "local_image" => at("path")?,
                "image" | "input_image" => at("image_url")?,
                _ => return None,
            };
            Some(image_label(image))
        })
        .collect()
}

/// The images an `event` user message lists: `images` (addresses), then `local_images`
/// (paths), each an array of strings.
fn event_images(payload: &Value) -> Vec<String> {
    let strings = |key| {
        payload
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(image_label)
    };
    strings("images").chain(strings("local_images")).collect()
}

/// An image as a message keeps it: its path or address, or an empty string for an image sent
/// inline (a `data:` address holds the image itself).
pub fn image_label(image: &str) -> String {
    if image.starts_with("data:") {
        String::new()
    } else {
        image.to_owned()
    }
}

fn phase_of(value: Option<&Value>) -> Option<String> {
    value
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// The role a string value names: `[user, assistant]` are the two names it may take.
fn role_named(value: Option<&Value>, [user, assistant]: [&str; 2]) -> Option<Role> {
    match value.and_then(Value::as_str)? {
        s if s == user => Some(Role::User),
        s if s == assistant => Some(Role::Assistant),
        _ => None,
    }
}

/// The message a parsed rollout line carries, or `None` for every other line.
pub fn message_from_line(line: &Value) -> Option<Message> {
    let kind = line.get("type").and_then(Value::as_str)?;
    let payload = line.get("payload").filter(|p| p.is_object())?;
    let payload_type = payload.get("type").and_then(Value::as_str);
    let content = |v: &Value| {
        let content = v.get("content");
        (
            content.map(content_text).unwrap_or_default(),
            content.map(content_images).unwrap_or_default(),
        )
    };
    let (role, (text, images), shape, phase) = match kind {
        "event_msg" => match payload_type? {
            "user_message" | "agent_message" => {
                let role = if payload_type == Some("user_message") {
                    Role::User
                } else {
                    Role::Assistant
                };
                let text = payload.get("message").map(content_text).unwrap_or_default();
                let images = event_images(payload);
                (
                    role,
                    (text, images),
                    Shape::Event,
                    phase_of(payload.get("phase")),
                )
            }
            "item_completed" => {
                let item = payload.get("item").filter(|i| i.is_object())?;
                let role = role_named(item.get("type"), ["UserMessage", "AgentMessage"])?;
                (
                    role,
                    content(item),
                    Shape::Item,
                    phase_of(item.get("phase")),
                )
            }
            _ => return None,
        },
        "response_item" => {
            let role = role_named(payload.get("role"), ["user", "assistant"])?;
            (
                role,
                content(payload),
                Shape::Response,
                phase_of(payload.get("phase")),
            )
        }
        _ => return None,
    };
    let mut message = Message::new(role, text, shape, phase)?;
    message.images = images;
    Some(message)
}

/// What the user typed inside an IDE wrapper: the text after the marker, trimmed. Text without
/// the marker is returned unchanged.
pub fn strip_ide_wrapper(text: &str) -> &str {
    static MARKER: std::sync::OnceLock<memchr::memmem::Finder<'static>> =
        std::sync::OnceLock::new();
    let marker = MARKER.get_or_init(|| memchr::memmem::Finder::new(IDE_REQUEST_MARKER));
    match marker.find(text.as_bytes()) {
        Some(at) => text[at + IDE_REQUEST_MARKER.len()..].trim(),
        None => text,
    }
}

/// One display line of a first user message: IDE wrapper stripped, every run of white space
/// (newlines and tabs included) collapsed to one space, ends trimmed.
pub fn preview_line(text: &str) -> String {
    let text = strip_ide_wrapper(text);
    if is_one_plain_line(text.as_bytes()) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len().min(512));
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// ASCII text that collapsing white space leaves as it is: no white space but single spaces
/// between words. Most first messages are, and copying them skips the per-character walk.
fn is_one_plain_line(b: &[u8]) -> bool {
    if b.first() == Some(&b' ') || b.last() == Some(&b' ') {
        return false;
    }
    let mut after_space = false;
    b.iter().all(|&c| {
        let plain = c > b' ' && c < 0x80;
        let ok = plain || (c == b' ' && !after_space);
        after_space = c == b' ';
        ok
    })
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

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
