//! A cheap look at one rollout line: which kind of row it is, without building it.
//!
//! Most bytes of a rollout are tool output, reasoning and instructions that the picker never
//! shows. This scanner walks the top-level object and its `payload` keys only, skipping string
//! values with `memchr`, so such lines are rejected at memory speed; only the rows that can carry
//! a message, the session metadata or a name are then parsed in full. It agrees with serde_json
//! on every valid line whatever the key order, white space, string escapes or repeated keys; it
//! is iterative (no recursion, so deep nesting cannot overflow the stack) and never panics.

use std::borrow::Cow;

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
    /// A well-formed-looking row of no interest.
    Other,
    /// Not a JSON object, or cut short.
    Malformed,
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
    /// The last string read holds no backslash (it needs no unescaping).
    plain: bool,
}

/// Strings whose end is looked for eight bytes at a time before `memchr` takes over: keys and
/// tags end within a few bytes, where a `memchr` call costs more than the search.
const SHORT: usize = 32;

/// The index of the first `"` or `\` in the eight bytes of `word` (little-endian), if any.
#[inline]
fn quote_or_backslash(word: u64) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let q = word ^ (ONES * u64::from(b'"'));
    let s = word ^ (ONES * u64::from(b'\\'));
    // A zero byte of `q` or `s` sets its high bit here; a borrow can only set bits above the
    // first true zero byte, so the lowest bit set is exact.
    let hits = ((q.wrapping_sub(ONES) & !q) | (s.wrapping_sub(ONES) & !s)) & HIGH;
    (hits != 0).then(|| hits.trailing_zeros() as usize / 8)
}

type Res<T> = Result<T, ()>;

impl<'a> Cursor<'a> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Res<u8> {
        self.ws();
        self.b.get(self.i).copied().ok_or(())
    }

    fn eat(&mut self, c: u8) -> Res<()> {
        if self.peek()? == c {
            self.i += 1;
            Ok(())
        } else {
            Err(())
        }
    }

    /// A string starting at the current `"`; returns its raw bytes (escapes left as written).
    /// Jumps from quote to quote (a quote preceded by an odd run of backslashes is escaped), so
    /// the many `\n` escapes of tool output cost nothing.
    fn string(&mut self) -> Res<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.i;
        let mut from = start;
        let short = (start + SHORT).min(self.b.len());
        while from + 8 <= short {
            let word = u64::from_le_bytes(self.b[from..from + 8].try_into().map_err(drop)?);
            match quote_or_backslash(word) {
                Some(k) if self.b[from + k] == b'"' => {
                    self.i = from + k + 1;
                    self.plain = true;
                    return Ok(&self.b[start..from + k]);
                }
                Some(k) => {
                    from += k;
                    break;
                }
                None => from += 8,
            }
        }
        self.plain = false;
        loop {
            let q = from + memchr::memchr(b'"', &self.b[from..]).ok_or(())?;
            let mut k = q;
            while k > start && self.b[k - 1] == b'\\' {
                k -= 1;
            }
            if (q - k).is_multiple_of(2) {
                self.i = q + 1;
                return Ok(&self.b[start..q]);
            }
            from = q + 1;
        }
    }

    fn skip_value(&mut self) -> Res<()> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'{' | b'[' => {
                self.i += 1;
                let mut depth = 1usize;
                while depth > 0 {
                    let c = *self.b.get(self.i).ok_or(())?;
                    match c {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => depth -= 1,
                        _ => {}
                    }
                    self.i += 1;
                }
                Ok(())
            }
            _ => {
                let start = self.i;
                while self.i < self.b.len()
                    && !matches!(
                        self.b[self.i],
                        b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'
                    )
                {
                    self.i += 1;
                }
                if self.i == start {
                    Err(())
                } else {
                    Ok(())
                }
            }
        }
    }

    /// A string value, or `None` (and the value skipped) when it is not a string.
    fn string_value(&mut self) -> Res<Option<&'a [u8]>> {
        if self.peek()? == b'"' {
            self.string().map(Some)
        } else {
            self.skip_value().map(|()| None)
        }
    }

    /// Walk an object's members, handing each key to `f`, which must consume the value.
    fn object(&mut self, mut f: impl FnMut(&mut Self, &[u8]) -> Res<()>) -> Res<()> {
        self.eat(b'{')?;
        if self.peek()? == b'}' {
            self.i += 1;
            return Ok(());
        }
        loop {
            let raw = self.string()?;
            let key = if self.plain {
                Cow::Borrowed(raw)
            } else {
                unescape(raw)
            };
            self.eat(b':')?;
            f(self, &key)?;
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Ok(());
                }
                _ => return Err(()),
            }
        }
    }
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

#[derive(Default, Clone)]
struct Payload<'a> {
    kind: Option<Cow<'a, [u8]>>,
    role: Option<Cow<'a, [u8]>>,
    item_kind: Option<Cow<'a, [u8]>>,
}

/// Read a `payload` value. Repeated keys behave as in serde_json: the last one wins.
fn payload<'a>(c: &mut Cursor<'a>) -> Res<Payload<'a>> {
    let mut p = Payload::default();
    if c.peek()? != b'{' {
        c.skip_value()?;
        return Ok(p);
    }
    c.object(|c, key| match key {
        b"type" => c.string_value().map(|v| p.kind = v.map(unescape)),
        b"role" => c.string_value().map(|v| p.role = v.map(unescape)),
        b"item" => {
            p.item_kind = None;
            if c.peek()? != b'{' {
                return c.skip_value();
            }
            c.object(|c, key| match key {
                b"type" => c.string_value().map(|v| p.item_kind = v.map(unescape)),
                _ => c.skip_value(),
            })
        }
        _ => c.skip_value(),
    })?;
    Ok(p)
}

fn classify(top: Option<&[u8]>, p: &Payload) -> Kind {
    match top {
        Some(b"session_meta") => Kind::Meta,
        Some(b"event_msg") => match p.kind.as_deref() {
            Some(b"user_message" | b"agent_message") => Kind::Message,
            Some(b"item_completed") => match p.item_kind.as_deref() {
                Some(b"UserMessage" | b"AgentMessage") => Kind::Message,
                _ => Kind::Other,
            },
            Some(b"thread_name_updated") => Kind::ThreadName,
            _ => Kind::Other,
        },
        Some(b"response_item") => match (p.role.as_deref(), p.kind.as_deref()) {
            (Some(b"user" | b"assistant"), _) => Kind::Message,
            (_, Some(kind)) if is_tool_kind(kind) => Kind::Tool,
            _ => Kind::Other,
        },
        _ => Kind::Other,
    }
}

/// `response_item` payload types shown as collapsed tool rows in a transcript.
pub fn is_tool_kind(kind: &[u8]) -> bool {
    kind == b"reasoning" || kind.ends_with(b"_call") || kind.ends_with(b"_call_output")
}

fn is_interesting(top: Option<&[u8]>) -> bool {
    matches!(top, Some(b"session_meta" | b"event_msg" | b"response_item"))
}

/// Classify one line. The whole top-level object is walked so that repeated keys resolve as in
/// serde_json (the last one wins) and a valid line is never misread. When the rest of a line is
/// cut short or malformed, the answer known at the usual decision point stands: an uninteresting
/// `type`, or a `type` and a `payload` both read.
pub fn kind(line: &[u8]) -> Kind {
    classify_line(line).0
}

/// [`kind`], and whether the row is a `response_item` (so a `Message` is of the `response`
/// shape rather than an `event`/`item` one).
pub fn classify_line(line: &[u8]) -> (Kind, bool) {
    let mut c = Cursor {
        b: line,
        i: 0,
        plain: false,
    };
    let mut top: Option<Cow<[u8]>> = None;
    let mut p = Payload::default();
    let mut seen_payload = false;
    // The answer at the decision point, for a line whose remainder does not walk.
    let mut settled: Option<Kind> = None;
    let walked = c.object(|c, key| match key {
        b"type" => {
            top = c.string_value()?.map(unescape);
            if settled.is_none() && (!is_interesting(top.as_deref()) || seen_payload) {
                settled = Some(classify(top.as_deref(), &p));
            }
            Ok(())
        }
        b"payload" => {
            p = payload(c)?;
            seen_payload = true;
            if settled.is_none() && top.is_some() {
                settled = Some(classify(top.as_deref(), &p));
            }
            Ok(())
        }
        _ => c.skip_value(),
    });
    let response = top.as_deref() == Some(b"response_item");
    match (walked, settled) {
        (Ok(()), _) => (classify(top.as_deref(), &p), response),
        (Err(()), Some(kind)) => (kind, response),
        (Err(()), None) => (Kind::Malformed, false),
    }
}

#[cfg(test)]
#[path = "skim_tests.rs"]
mod tests;
