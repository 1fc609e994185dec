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
    /// `content_images` of `content`; the `images` and `local_images` arrays.
    content_images: Vec<String>,
    images: Vec<String>,
    local_images: Vec<String>,
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
    /// Message content: its text and its images.
    Content(String, Vec<String>),
    /// A content block: its `text`, and its image when it is an image block.
    Block(Option<String>, Option<String>),
    /// An array of image paths or addresses.
    Images(Vec<String>),
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
    /// An array of image paths or addresses (`images`, `local_images`).
    Images,
    /// An image's path or address, kept as [`rules::image_label`] keeps it.
    Image,
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
            Want::Str => Val::Str(v.to_owned()),
            Want::Text => Val::Content(v.to_owned(), Vec::new()),
            Want::Image => Val::Str(rules::image_label(v)),
            _ => Val::Other,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val, A::Error> {
        match self.0 {
            Want::Text => {}
            Want::Images => {
                let mut images = Vec::new();
                while let Some(image) = seq.next_element_seed(Seed(Want::Image))? {
                    if let Val::Str(image) = image {
                        images.push(image);
                    }
                }
                return Ok(Val::Images(images));
            }
            _ => {
                while seq.next_element_seed(Seed(Want::Nothing))?.is_some() {}
                return Ok(Val::Other);
            }
        }
        // `content_text`: the non-empty `text` strings of the blocks, joined with `\n`; and
        // `content_images`.
        let mut out = String::new();
        let mut images = Vec::new();
        while let Some(block) = seq.next_element_seed(Seed(Want::Block))? {
            let Val::Block(text, image) = block else {
                continue;
            };
            if let Some(text) = text.filter(|t| !t.is_empty()) {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&text);
            }
            images.extend(image);
        }
        Ok(Val::Content(out, images))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Val, A::Error> {
        match self.0 {
            Want::Row => row(map),
            Want::Fields => payload_fields(map),
            Want::Block => block(map),
            Want::Nothing
            | Want::U64
            | Want::Tag
            | Want::Str
            | Want::Text
            | Want::Images
            | Want::Image => {
                skip_map(map)?;
                // `content_text` of an object is empty.
                Ok(if self.0 == Want::Text {
                    Val::Content(String::new(), Vec::new())
                } else {
                    Val::Other
                })
            }
        }
    }
}

/// A row: its `type`, `payload` and `ordinal`.
fn row<'de, A: MapAccess<'de>>(mut map: A) -> Result<Val, A::Error> {
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

/// A payload (or an item inside one): the fields a message is read from.
fn payload_fields<'de, A: MapAccess<'de>>(mut map: A) -> Result<Val, A::Error> {
    let mut f = Fields::default();
    while let Some(Key(key)) = map.next_key::<Key>()? {
        match &*key {
            "type" => f.kind = tag(map.next_value_seed(Seed(Want::Tag))?),
            "role" => f.role = tag(map.next_value_seed(Seed(Want::Tag))?),
            "message" => f.message = text(map.next_value_seed(Seed(Want::Text))?).0,
            "content" => {
                (f.content, f.content_images) = text(map.next_value_seed(Seed(Want::Text))?);
            }
            "images" => f.images = images(map.next_value_seed(Seed(Want::Images))?),
            "local_images" => {
                f.local_images = images(map.next_value_seed(Seed(Want::Images))?);
            }
            "phase" => f.phase = phase(map.next_value_seed(Seed(Want::Str))?),
            "item" => f.item = fields(map.next_value_seed(Seed(Want::Fields))?),
            _ => drop(map.next_value_seed(Seed(Want::Nothing))?),
        }
    }
    Ok(Val::Fields(Box::new(f)))
}

/// A content block: its last `text`, `type`, `path` and `image_url`, when strings; its text and
/// the image it names.
fn block<'de, A: MapAccess<'de>>(mut map: A) -> Result<Val, A::Error> {
    let (mut text, mut kind, mut path, mut url) = (None, None, None, None);
    while let Some(Key(key)) = map.next_key::<Key>()? {
        let slot = match &*key {
            "text" => &mut text,
            "type" => &mut kind,
            "path" => &mut path,
            "image_url" => &mut url,
            _ => {
                map.next_value_seed(Seed(Want::Nothing))?;
                continue;
            }
        };
        let want = if key == "text" || key == "type" {
            Want::Str
        } else {
            Want::Image
        };
        *slot = match map.next_value_seed(Seed(want))? {
            Val::Str(s) => Some(s),
            _ => None,
        };
    }
    let image = match kind.as_deref() {
        Some("local_image") => path,
        Some("image" | "input_image") => url,
        _ => None,
    };
    Ok(Val::Block(text, image))
}

/// Pass over every entry of a map.
fn skip_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_key::<Key>()?.is_some() {
        map.next_value_seed(Seed(Want::Nothing))?;
    }
    Ok(())
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

/// `content_text` and `content_images` of a value read with [`Want::Text`].
fn text(v: Val) -> (String, Vec<String>) {
    match v {
        Val::Content(text, images) => (text, images),
        _ => (String::new(), Vec::new()),
    }
}

/// The strings of an array read with [`Want::Images`].
fn images(v: Val) -> Vec<String> {
    match v {
        Val::Images(images) => images,
        _ => Vec::new(),
    }
}

fn parse_row(line: &[u8]) -> Option<Row> {
    match super::visit::read_line(line, Seed(Want::Row))? {
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
    let payload = *payload;
    let (role, text, images, shape, phase) = match row.kind? {
        Tag::EventMsg => match payload.kind? {
            kind @ (Tag::UserMessage | Tag::AgentMessage) => {
                let role = if kind == Tag::UserMessage {
                    Role::User
                } else {
                    Role::Assistant
                };
                let mut images = payload.images;
                images.extend(payload.local_images);
                (role, payload.message, images, Shape::Event, payload.phase)
            }
            Tag::ItemCompleted => {
                let item = payload.item?;
                let role = role_tagged(item.kind, [Tag::UserItem, Tag::AgentItem])?;
                (
                    role,
                    item.content,
                    item.content_images,
                    Shape::Item,
                    item.phase,
                )
            }
            _ => return None,
        },
        Tag::ResponseItem => {
            let role = role_tagged(payload.role, [Tag::User, Tag::Assistant])?;
            let images = payload.content_images;
            (
                role,
                payload.content,
                images,
                Shape::Response,
                payload.phase,
            )
        }
        _ => return None,
    };
    let mut message = Message::new(role, text, shape, phase)?;
    message.images = images;
    Some(message)
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
