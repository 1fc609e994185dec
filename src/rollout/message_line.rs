//! A message row read straight into a [`Message`], without building a `serde_json::Value`.
//!
//! Message rows are the only rows the counting pass and the transcript parse in full, and a
//! `Value` tree costs an allocation per key, string and container. [`parse`] gives exactly what
//! `parse_line` followed by `rules::message_from_line` (and the `ordinal` read) gives, and
//! refuses exactly the lines `parse_line` refuses: every value, kept or not, goes through
//! serde_json's `deserialize_any` as it does for a `Value` (the same checks on strings, numbers
//! and nesting depth), a repeated key keeps its last value, and a field of the wrong type reads
//! as `message_from_line` reads it. Keys and the short tag strings are compared where they lie,
//! never copied; only the text of a message (and its phase) is. A line the direct read refuses
//! is handed to the `Value` route, so an unusual line (invalid UTF-8, say) is read as before.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

use super::record::{Message, Role, Shape};
use super::rules;
use super::rules::parse_line;

/// The string values the classifier compares against.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tag {
    EventMsg,
    ResponseItem,
    UserMessage,
    AgentMessage,
    ItemCompleted,
    User,
    Assistant,
    UserItem,
    AgentItem,
    /// Any other string.
    Other,
}

impl Tag {
    fn of(s: &str) -> Tag {
        match s {
            "event_msg" => Tag::EventMsg,
            "response_item" => Tag::ResponseItem,
            "user_message" => Tag::UserMessage,
            "agent_message" => Tag::AgentMessage,
            "item_completed" => Tag::ItemCompleted,
            "user" => Tag::User,
            "assistant" => Tag::Assistant,
            "UserMessage" => Tag::UserItem,
            "AgentMessage" => Tag::AgentItem,
            _ => Tag::Other,
        }
    }
}

/// The fields of a `payload` or of its `item` that the classifier reads.
#[derive(Default)]
struct Fields {
    /// `type`: `None` when absent or not a string.
    kind: Option<Tag>,
    role: Option<Tag>,
    /// `content_text` of `message` and of `content` (empty when absent).
    message: String,
    content: String,
    /// `phase`, when a non-empty string.
    phase: Option<String>,
    /// `item`, when an object.
    item: Option<Box<Fields>>,
}

/// What a value was read as.
enum Val {
    Other,
    U64(u64),
    Tag(Tag),
    Str(String),
    Fields(Box<Fields>),
    Row(Row),
}

/// The top-level fields.
#[derive(Default)]
struct Row {
    kind: Option<Tag>,
    payload: Option<Box<Fields>>,
    ordinal: Option<u64>,
}

/// How to read a value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    /// Check and drop.
    Nothing,
    Row,
    /// An unsigned integer (`ordinal`).
    U64,
    /// A string compared against the tags.
    Tag,
    /// A string kept whole (`phase`, a block's `text`).
    Str,
    /// Message content: a string, or the `text` of each block of an array.
    Text,
    /// One block of a content array.
    Block,
    /// `payload` or `item`.
    Fields,
}

struct Seed(Want);

impl<'de> de::DeserializeSeed<'de> for Seed {
    type Value = Val;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Val, D::Error> {
        d.deserialize_any(ValVisitor(self.0))
    }
}

/// A key, compared where it lies when it holds no escape.
struct Key<'a>(std::borrow::Cow<'a, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key<'de>, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(v.into()))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(v.to_owned().into()))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

struct ValVisitor(Want);

impl<'de> Visitor<'de> for ValVisitor {
    type Value = Val;

    super::visit::dropped_scalars!(Val, Val::Other);

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Val, E> {
        Ok(match self.0 {
            Want::U64 => Val::U64(v),
            _ => Val::Other,
        })
    }
    fn visit_str<E>(self, v: &str) -> Result<Val, E> {
        Ok(match self.0 {
            Want::Tag => Val::Tag(Tag::of(v)),
            Want::Str | Want::Text => Val::Str(v.to_owned()),
            _ => Val::Other,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val, A::Error> {
        if self.0 != Want::Text {
            while seq.next_element_seed(Seed(Want::Nothing))?.is_some() {}
            return Ok(Val::Other);
        }
        // `content_text`: the non-empty `text` strings of the blocks, joined with `\n`.
        let mut out = String::new();
        while let Some(block) = seq.next_element_seed(Seed(Want::Block))? {
            if let Val::Str(text) = block {
                if !text.is_empty() {
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    out.push_str(&text);
                }
            }
        }
        Ok(Val::Str(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Val, A::Error> {
        match self.0 {
            Want::Row => {
                let mut row = Row::default();
                while let Some(Key(key)) = map.next_key::<Key>()? {
                    match &*key {
                        "type" => row.kind = tag(map.next_value_seed(Seed(Want::Tag))?),
                        "payload" => row.payload = fields(map.next_value_seed(Seed(Want::Fields))?),
                        "ordinal" => row.ordinal = number(map.next_value_seed(Seed(Want::U64))?),
                        _ => drop(map.next_value_seed(Seed(Want::Nothing))?),
                    }
                }
                Ok(Val::Row(row))
            }
            Want::Fields => {
                let mut f = Fields::default();
                while let Some(Key(key)) = map.next_key::<Key>()? {
                    match &*key {
                        "type" => f.kind = tag(map.next_value_seed(Seed(Want::Tag))?),
                        "role" => f.role = tag(map.next_value_seed(Seed(Want::Tag))?),
                        "message" => f.message = text(map.next_value_seed(Seed(Want::Text))?),
                        "content" => f.content = text(map.next_value_seed(Seed(Want::Text))?),
                        "phase" => f.phase = phase(map.next_value_seed(Seed(Want::Str))?),
                        "item" => f.item = fields(map.next_value_seed(Seed(Want::Fields))?),
                        _ => drop(map.next_value_seed(Seed(Want::Nothing))?),
                    }
                }
                Ok(Val::Fields(Box::new(f)))
            }
            Want::Block => {
                // The block's last `text`, when a string.
                let mut out = None;
                while let Some(Key(key)) = map.next_key::<Key>()? {
                    if key == "text" {
                        out = match map.next_value_seed(Seed(Want::Str))? {
                            Val::Str(s) => Some(s),
                            _ => None,
                        };
                    } else {
                        map.next_value_seed(Seed(Want::Nothing))?;
                    }
                }
                Ok(out.map_or(Val::Other, Val::Str))
            }
            Want::Nothing | Want::U64 | Want::Tag | Want::Str | Want::Text => {
                while map.next_key::<Key>()?.is_some() {
                    map.next_value_seed(Seed(Want::Nothing))?;
                }
                // `content_text` of an object is empty.
                Ok(if self.0 == Want::Text {
                    Val::Str(String::new())
                } else {
                    Val::Other
                })
            }
        }
    }
}

/// An `ordinal`, when an unsigned integer.
fn number(v: Val) -> Option<u64> {
    match v {
        Val::U64(n) => Some(n),
        _ => None,
    }
}

/// A `phase`, when a non-empty string.
fn phase(v: Val) -> Option<String> {
    match v {
        Val::Str(s) if !s.is_empty() => Some(s),
        _ => None,
    }
}

fn tag(v: Val) -> Option<Tag> {
    match v {
        Val::Tag(t) => Some(t),
        _ => None,
    }
}

fn fields(v: Val) -> Option<Box<Fields>> {
    match v {
        Val::Fields(f) => Some(f),
        _ => None,
    }
}

/// `content_text` of a value read with [`Want::Text`].
fn text(v: Val) -> String {
    match v {
        Val::Str(s) => s,
        _ => String::new(),
    }
}

fn parse_row(line: &[u8]) -> Option<Row> {
    // One check of the whole line instead of one per string: serde_json reading a `str`
    // skips its own. A line that is not UTF-8 is refused here; `from_slice` would refuse it
    // too (an invalid byte is a syntax error outside a string and an error inside one).
    let text = std::str::from_utf8(line).ok()?;
    let mut de = serde_json::Deserializer::from_str(text);
    let row = de::DeserializeSeed::deserialize(Seed(Want::Row), &mut de).ok()?;
    de.end().ok()?;
    match row {
        Val::Row(row) => Some(row),
        _ => Some(Row::default()),
    }
}

/// The role a tag names: `[user, assistant]` are the two tags it may be.
fn role_tagged(tag: Option<Tag>, [user, assistant]: [Tag; 2]) -> Option<Role> {
    match tag? {
        t if t == user => Some(Role::User),
        t if t == assistant => Some(Role::Assistant),
        _ => None,
    }
}

/// `rules::message_from_line` over the fields read.
fn message_of(row: Row) -> Option<Message> {
    let payload = row.payload?;
    let (role, text, shape, phase) = match row.kind? {
        Tag::EventMsg => match payload.kind? {
            kind @ (Tag::UserMessage | Tag::AgentMessage) => {
                let role = if kind == Tag::UserMessage {
                    Role::User
                } else {
                    Role::Assistant
                };
                (role, payload.message, Shape::Event, payload.phase)
            }
            Tag::ItemCompleted => {
                let item = payload.item?;
                let role = role_tagged(item.kind, [Tag::UserItem, Tag::AgentItem])?;
                (role, item.content, Shape::Item, item.phase)
            }
            _ => return None,
        },
        Tag::ResponseItem => {
            let role = role_tagged(payload.role, [Tag::User, Tag::Assistant])?;
            (role, payload.content, Shape::Response, payload.phase)
        }
        _ => return None,
    };
    Message::new(role, text, shape, phase)
}

/// The message and the top-level `ordinal` of a line, or `None` when `parse_line` would refuse
/// it: what `parse_line` and `rules::message_from_line` give.
pub fn parse(line: &[u8]) -> Option<(Option<Message>, Option<u64>)> {
    match parse_row(line) {
        Some(row) => {
            let ordinal = row.ordinal;
            Some((message_of(row), ordinal))
        }
        None => {
            let v = parse_line(line)?;
            let ordinal = v.get("ordinal").and_then(serde_json::Value::as_u64);
            Some((rules::message_from_line(&v), ordinal))
        }
    }
}

#[cfg(test)]
#[path = "message_line_tests.rs"]
mod tests;
