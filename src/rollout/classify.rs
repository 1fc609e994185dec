//! A cheap look at one rollout line: which kind of row it is, without building it.
//!
//! Most bytes of a rollout are tool output, reasoning and instructions that the picker never
//! shows. This scanner walks the top-level object and its `payload` keys only, skipping every
//! other value by its bytes (`json_scan` finds where each ends; long strings go by `memchr`), so
//! such lines are rejected at memory speed; only the rows that can carry a message, the session
//! metadata or a name are then parsed in full. It agrees with serde_json
//! on every valid line whatever the key order, white space, string escapes or repeated keys; it
//! is iterative (no recursion, so deep nesting cannot overflow the stack) and never panics.

use std::borrow::Cow;

use super::json_scan::{skip_ws, string_end_plain, value_end};
use super::record::Role;

/// What a line is, as far as the reader cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `type: session_meta`.
    Meta,
    /// A row that may carry a user or assistant message (parse it to know).
    Message,
    /// `event_msg` / `thread_name_updated`.
    ThreadName,
    /// A `response_item` tool call, tool output or reasoning row (transcript summaries).
    Tool,
    /// A turn's start, end or interruption, or a compaction of the context (a `compacted`
    /// row, a `ContextCompaction` item, a `context_compacted` event).
    Turn,
    /// Codex's own record of a tool's result: a `CommandExecution` or `McpToolCall` item.
    ToolEvent,
    /// Codex's record of an applied patch: a `FileChange` item, or an older `patch_apply_end`
    /// event (a tool event too, and what a session's changed files are read from).
    Patch,
    /// `event_msg` / `token_count`: codex's running total of the tokens used.
    Usage,
    /// A `turn_context` row: the settings of a turn (its model).
    TurnContext,
    /// A well-formed-looking row of no interest.
    Other,
    /// Not a JSON object, or cut short.
    Malformed,
}

/// The keys the walk looks at, at whichever level it meets them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Type,
    Payload,
    Role,
    Item,
    Other,
}

impl Key {
    #[inline]
    fn of(name: &[u8]) -> Key {
        match name {
            b"type" => Key::Type,
            b"payload" => Key::Payload,
            b"role" => Key::Role,
            b"item" => Key::Item,
            _ => Key::Other,
        }
    }
}

/// The line's `type`, once read (any value that is not one of these strings is `Other`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Top {
    Meta,
    Event,
    Response,
    Compacted,
    TurnContext,
    Other,
}

impl Top {
    fn of(tag: &[u8]) -> Top {
        match tag {
            b"session_meta" => Top::Meta,
            b"event_msg" => Top::Event,
            b"response_item" => Top::Response,
            b"compacted" => Top::Compacted,
            b"turn_context" => Top::TurnContext,
            _ => Top::Other,
        }
    }
}

/// The payload's `type`, sorted into what [`classify`] tells apart (the sets are disjoint).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Tag {
    Message,
    ItemCompleted,
    ThreadName,
    Tool,
    Turn,
    Patch,
    Usage,
    #[default]
    Other,
}

impl Tag {
    fn of(tag: &[u8]) -> Tag {
        match tag {
            b"user_message" | b"agent_message" => Tag::Message,
            b"item_completed" => Tag::ItemCompleted,
            b"thread_name_updated" => Tag::ThreadName,
            b"task_started" | b"task_complete" | b"turn_started" | b"turn_complete"
            | b"turn_aborted" | b"context_compacted" => Tag::Turn,
            b"patch_apply_end" => Tag::Patch,
            b"token_count" => Tag::Usage,
            _ if is_tool_kind(tag) => Tag::Tool,
            _ => Tag::Other,
        }
    }
}

fn message_role(role: &[u8]) -> Option<Role> {
    match role {
        b"user" => Some(Role::User),
        b"assistant" => Some(Role::Assistant),
        _ => None,
    }
}

/// What an `item_completed` event's item is, by its `type`.
#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum ItemTag {
    Message,
    Turn,
    ToolEvent,
    Patch,
    #[default]
    Other,
}

impl ItemTag {
    fn of(kind: &[u8]) -> ItemTag {
        match kind {
            b"UserMessage" | b"AgentMessage" => ItemTag::Message,
            b"ContextCompaction" => ItemTag::Turn,
            b"FileChange" => ItemTag::Patch,
            b"CommandExecution" | b"McpToolCall" => ItemTag::ToolEvent,
            _ => ItemTag::Other,
        }
    }
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

/// The walk's steps answer `None` where the line stops being one it can walk.
impl<'a> Cursor<'a> {
    /// The next byte that is not white space, left unconsumed.
    #[inline(always)]
    fn peek(&mut self) -> Option<u8> {
        self.i = skip_ws(self.b, self.i);
        self.b.get(self.i).copied()
    }

    #[inline(always)]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// A string's raw bytes (escapes left as written), and whether it surely holds no escape.
    #[inline(always)]
    fn string(&mut self) -> Option<(&'a [u8], bool)> {
        self.eat(b'"')?;
        let start = self.i;
        let (end, plain) = string_end_plain(self.b, start)?;
        self.i = end + 1;
        Some((&self.b[start..end], plain))
    }

    #[inline(always)]
    fn skip_value(&mut self) -> Option<()> {
        self.peek()?;
        self.i = value_end(self.b, self.i)?;
        Some(())
    }

    /// A string value seen through `of` (escapes resolved first), or `none` (and the value
    /// skipped) when it is not a string.
    #[inline]
    fn tag<T>(&mut self, of: fn(&[u8]) -> T, none: T) -> Option<T> {
        if self.peek()? != b'"' {
            self.skip_value()?;
            return Some(none);
        }
        let (raw, plain) = self.string()?;
        Some(if plain { of(raw) } else { escaped(raw, of) })
    }

    /// An object's `{`, and whether a member follows (else the empty object is consumed).
    #[inline]
    fn open(&mut self) -> Option<bool> {
        self.eat(b'{')?;
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(false);
        }
        Some(true)
    }

    /// A member's key and its `:`.
    #[inline(always)]
    fn key(&mut self) -> Option<Key> {
        let key = match self.known_key() {
            Some(key) => key,
            None => {
                let (raw, plain) = self.string()?;
                if plain {
                    Key::of(raw)
                } else {
                    escaped(raw, Key::of)
                }
            }
        };
        self.eat(b':')?;
        Some(key)
    }

    /// `"type"`, `"role"`, `"item"` or `"payload"` written plainly at the cursor (no white space
    /// before it), known by comparing words: a quote after four or seven letters is the first
    /// quote of the string, so it closes it and the key is those letters.
    #[inline(always)]
    fn known_key(&mut self) -> Option<Key> {
        const fn le(bytes: &[u8]) -> u64 {
            let mut word = 0;
            let mut k = bytes.len();
            while k > 0 {
                k -= 1;
                word = word << 8 | bytes[k] as u64;
            }
            word
        }
        const TYPE: u64 = le(b"\"type\"");
        const ROLE: u64 = le(b"\"role\"");
        const ITEM: u64 = le(b"\"item\"");
        const PAYLOAD: u64 = le(b"\"payload");
        let head = self.b.get(self.i..self.i + 8)?;
        let word = u64::from_le_bytes(head.try_into().ok()?);
        let six = word & ((1 << 48) - 1);
        let (key, len) = if six == TYPE {
            (Key::Type, 6)
        } else if six == ROLE {
            (Key::Role, 6)
        } else if six == ITEM {
            (Key::Item, 6)
        } else if word == PAYLOAD && self.b.get(self.i + 8) == Some(&b'"') {
            (Key::Payload, 9)
        } else {
            return None;
        };
        self.i += len;
        Some(key)
    }

    /// After a member: whether another follows (`,`) or the object ends here (`}`).
    #[inline]
    fn more(&mut self) -> Option<bool> {
        let more = match self.peek()? {
            b',' => true,
            b'}' => false,
            _ => return None,
        };
        self.i += 1;
        Some(more)
    }
}

/// `of` applied to a string that may hold escapes, once they are resolved.
#[cold]
#[inline(never)]
fn escaped<T>(raw: &[u8], of: fn(&[u8]) -> T) -> T {
    of(&unescape(raw))
}

/// A JSON string's bytes with escapes resolved. Codex never escapes plain ASCII, so the decode
/// only runs for the rare string that holds a backslash; a string that does not decode is taken
/// as written (the line is then not valid JSON anyway).
fn unescape(raw: &[u8]) -> Cow<'_, [u8]> {
    if memchr::memchr(b'\\', raw).is_none() {
        return Cow::Borrowed(raw);
    }
    let quoted = format!("\"{}\"", String::from_utf8_lossy(raw));
    match serde_json::from_str::<String>(&quoted) {
        Ok(text) => Cow::Owned(text.into_bytes()),
        Err(_) => Cow::Borrowed(raw),
    }
}

#[derive(Default, Clone, Copy)]
struct Payload {
    kind: Tag,
    /// `role`, when `user` or `assistant`.
    message_role: Option<Role>,
    /// What `item.type` names.
    item: ItemTag,
}

/// Read a `payload` value into `p`. Repeated keys behave as in serde_json: the last one wins.
fn payload(c: &mut Cursor, p: &mut Payload) -> Option<()> {
    *p = Payload::default();
    if c.peek()? != b'{' {
        return c.skip_value();
    }
    let mut more = c.open()?;
    while more {
        match c.key()? {
            Key::Type => p.kind = c.tag(Tag::of, Tag::Other)?,
            Key::Role => p.message_role = c.tag(message_role, None)?,
            Key::Item => p.item = item(c)?,
            _ => c.skip_value()?,
        }
        more = c.more()?;
    }
    Some(())
}

/// What a payload's `item` value is.
fn item(c: &mut Cursor) -> Option<ItemTag> {
    if c.peek()? != b'{' {
        c.skip_value()?;
        return Some(ItemTag::Other);
    }
    let mut kind = ItemTag::Other;
    let mut more = c.open()?;
    while more {
        match c.key()? {
            Key::Type => kind = c.tag(ItemTag::of, ItemTag::Other)?,
            _ => c.skip_value()?,
        }
        more = c.more()?;
    }
    Some(kind)
}

fn classify(top: Option<Top>, p: &Payload) -> Kind {
    match top {
        Some(Top::Meta) => Kind::Meta,
        Some(Top::Event) => match (p.kind, p.item) {
            (Tag::Message, _) | (Tag::ItemCompleted, ItemTag::Message) => Kind::Message,
            (Tag::ItemCompleted, ItemTag::Turn) | (Tag::Turn, _) => Kind::Turn,
            (Tag::ItemCompleted, ItemTag::ToolEvent) => Kind::ToolEvent,
            (Tag::ItemCompleted, ItemTag::Patch) | (Tag::Patch, _) => Kind::Patch,
            (Tag::Usage, _) => Kind::Usage,
            (Tag::ThreadName, _) => Kind::ThreadName,
            _ => Kind::Other,
        },
        Some(Top::Compacted) => Kind::Turn,
        Some(Top::TurnContext) => Kind::TurnContext,
        Some(Top::Response) if p.message_role.is_some() => Kind::Message,
        Some(Top::Response) if p.kind == Tag::Tool => Kind::Tool,
        _ => Kind::Other,
    }
}

/// `response_item` payload types shown as tool rows in a transcript: reasoning, every
/// `*_call` and every output (`function_call_output`, `tool_search_output`, ...).
pub fn is_tool_kind(kind: &[u8]) -> bool {
    kind == b"reasoning" || kind.ends_with(b"_call") || kind.ends_with(b"_output")
}

/// Whether `head`, the start of a line whose rest is not read yet, is a `response_item` tool
/// row ([`Kind::Tool`]: a call, its output, reasoning): the line's `type` is `response_item` and
/// its payload opens with a tool `type`, both in the head, as codex writes them. A reader
/// that drops tool rows can then let a huge one stream past instead of holding it whole. Any
/// other head, or one cut before it tells, is not.
pub fn head_is_tool_row(head: &[u8]) -> bool {
    let mut c = Cursor { b: head, i: 0 };
    tool_head(&mut c) == Some(true)
}

fn tool_head(c: &mut Cursor) -> Option<bool> {
    let mut top = None;
    let mut more = c.open()?;
    while more {
        match c.key()? {
            Key::Type => top = Some(c.tag(Top::of, Top::Other)?),
            Key::Payload => {
                if top != Some(Top::Response) || !c.open()? || c.key()? != Key::Type {
                    return Some(false);
                }
                return Some(c.tag(Tag::of, Tag::Other)? == Tag::Tool);
            }
            _ => c.skip_value()?,
        }
        more = c.more()?;
    }
    Some(false)
}

/// What the walk of the top-level object has read so far.
#[derive(Default)]
struct Walk {
    /// The last `type` read (`Other` for a value that is not a string).
    top: Option<Top>,
    p: Payload,
    seen_payload: bool,
    /// The answer at the decision point, for a line whose remainder does not walk.
    settled: Option<Kind>,
}

impl Walk {
    fn top_level(&mut self, c: &mut Cursor) -> Option<()> {
        let mut more = c.open()?;
        while more {
            match c.key()? {
                Key::Type => {
                    let top = c.tag(Top::of, Top::Other)?;
                    self.top = Some(top);
                    if self.settled.is_none() && (top == Top::Other || self.seen_payload) {
                        self.settled = Some(classify(self.top, &self.p));
                    }
                }
                Key::Payload => {
                    payload(c, &mut self.p)?;
                    self.seen_payload = true;
                    if self.settled.is_none() && self.top.is_some() {
                        self.settled = Some(classify(self.top, &self.p));
                    }
                }
                _ => c.skip_value()?,
            }
            more = c.more()?;
        }
        Some(())
    }
}

/// Classify one line. The whole top-level object is walked so that repeated keys resolve as in
/// serde_json (the last one wins) and a valid line is never misread. When the rest of a line is
/// cut short or malformed, the answer known at the usual decision point stands: an uninteresting
/// `type`, or a `type` and a `payload` both read.
pub fn kind(line: &[u8]) -> Kind {
    classify_line(line).0
}

/// [`kind`], and for a `response_item` message row its role (so a `Message` with a role is of
/// the `response` shape, one without of an `event`/`item` one).
pub fn classify_line(line: &[u8]) -> (Kind, Option<Role>) {
    let mut c = Cursor { b: line, i: 0 };
    let mut w = Walk::default();
    let walked = w.top_level(&mut c);
    let kind = match (walked, w.settled) {
        (Some(()), _) => classify(w.top, &w.p),
        (None, Some(kind)) => kind,
        (None, None) => Kind::Malformed,
    };
    let role = match (kind, w.top) {
        (Kind::Message, Some(Top::Response)) => w.p.message_role,
        _ => None,
    };
    (kind, role)
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
