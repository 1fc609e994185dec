//! The rows cache's body format: what is stored for each rollout file, in postcard (serde's
//! compact, documented binary format), and the layout fingerprint that dates a body.
//!
//! A section is the store home and a list of records; a record is one file's key (path, size,
//! mtime, flags) and its [`ScanState`], which is encoded on its own through `ScanState`'s serde
//! derive and kept as a byte string. So a body can be read without decoding any state, a
//! state is decoded only when its row is wanted, and an unchanged entry is written back by
//! copying its bytes. Postcard is not self-describing: a body read with another layout of
//! `ScanState` would be misread, so the layout is part of the format version
//! ([`layout`] traces `ScanState`'s `Deserialize`: every field's name and type, nested types
//! included), and a change to the struct dates every older cache by itself.
//!
//! Nothing here knows about files, checksums or invalidation (that is `cache`).

use serde::de::{self, DeserializeSeed, Visitor};
use serde::{Deserialize, Serialize};
use std::ops::Range;

use crate::rollout::summary::ScanState;

/// A borrowed byte string, encoded as postcard bytes (a length and the bytes, not a list of
/// numbers) and decoded without a copy.
#[derive(Debug, Clone, Copy)]
pub struct Bytes<'a>(pub &'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Bytes<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Borrowed;
        impl<'de> Visitor<'de> for Borrowed {
            type Value = &'de [u8];
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("borrowed bytes")
            }
            fn visit_borrowed_bytes<E>(self, v: &'de [u8]) -> Result<Self::Value, E> {
                Ok(v)
            }
        }
        d.deserialize_bytes(Borrowed).map(Bytes)
    }
}

/// Flag bits of a record.
const COMPRESSED: u8 = 1;
const ARCHIVED: u8 = 2;
/// The state shows a session (a `session_meta` or a message): rows can be chosen without
/// decoding states.
const SESSION: u8 = 4;

fn flag(on: bool, bit: u8) -> u8 {
    if on {
        bit
    } else {
        0
    }
}

#[derive(Serialize, Deserialize)]
struct Record<'a> {
    #[serde(borrow)]
    path: Bytes<'a>,
    size: u64,
    mtime_ms: i64,
    flags: u8,
    #[serde(borrow)]
    state: Bytes<'a>,
}

#[derive(Serialize, Deserialize)]
struct Section<'a> {
    #[serde(borrow)]
    home: Bytes<'a>,
    #[serde(borrow)]
    records: Vec<Record<'a>>,
}

/// One file's record, with its state as encoded bytes ([`encode_state`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordRef<'a> {
    pub path: &'a [u8],
    pub size: u64,
    pub mtime_ms: i64,
    pub compressed: bool,
    pub archived: bool,
    pub session: bool,
    pub state: &'a [u8],
}

/// A record read from a section: its state is the byte range `state` of the section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    pub path: &'a [u8],
    pub size: u64,
    pub mtime_ms: i64,
    pub compressed: bool,
    pub archived: bool,
    pub session: bool,
    pub state: Range<usize>,
}

/// A state's bytes.
pub fn encode_state(state: &ScanState) -> Vec<u8> {
    // Plain structs of strings, numbers and options: serialising into memory cannot fail.
    postcard::to_stdvec(state).unwrap_or_default()
}

/// A state from its bytes; `None` when they do not decode to exactly one state.
pub fn decode_state(bytes: &[u8]) -> Option<ScanState> {
    match postcard::take_from_bytes::<ScanState>(bytes) {
        Ok((state, [])) => Some(state),
        _ => None,
    }
}

/// Whether a state shows a session (see [`RecordRef::session`]).
pub fn is_session(state: &ScanState) -> bool {
    state.meta.is_some() || state.saw_message
}

/// Append a section (the home and `records`, in that order) to `out`.
pub fn encode_section(out: Vec<u8>, home: &[u8], records: &[RecordRef]) -> Option<Vec<u8>> {
    let section = Section {
        home: Bytes(home),
        records: records
            .iter()
            .map(|r| Record {
                path: Bytes(r.path),
                size: r.size,
                mtime_ms: r.mtime_ms,
                flags: flag(r.compressed, COMPRESSED)
                    | flag(r.archived, ARCHIVED)
                    | flag(r.session, SESSION),
                state: Bytes(r.state),
            })
            .collect(),
    };
    postcard::to_extend(&section, out).ok()
}

/// Read a section that fills `bytes` exactly: its home and records, or `None` when it does
/// not decode (the states are not looked at).
pub fn decode_section(bytes: &[u8]) -> Option<(&[u8], Vec<Decoded<'_>>)> {
    let (section, rest) = postcard::take_from_bytes::<Section>(bytes).ok()?;
    if !rest.is_empty() {
        return None;
    }
    let base = bytes.as_ptr() as usize;
    let records = section
        .records
        .into_iter()
        .map(|r| {
            // The state borrows from `bytes`: its place there, as a range.
            let start = r.state.0.as_ptr() as usize - base;
            Decoded {
                path: r.path.0,
                size: r.size,
                mtime_ms: r.mtime_ms,
                compressed: r.flags & COMPRESSED != 0,
                archived: r.flags & ARCHIVED != 0,
                session: r.flags & SESSION != 0,
                state: start..start + r.state.0.len(),
            }
        })
        .collect();
    Some((section.home.0, records))
}

/// The layout of [`ScanState`] as its `Deserialize` asks for it: struct names, field names and
/// value types, nested types spelled out (for an enum, its variant names and the first
/// variant's content). Two builds agree on it exactly when they read a state's bytes alike,
/// short of a changed meaning for the same types (which `ROWS_VERSION` is for).
pub fn layout() -> Result<String, String> {
    let mut out = String::new();
    ScanState::deserialize(Tracer {
        out: &mut out,
        depth: 0,
    })
    .map_err(|e| e.0)?;
    Ok(out)
}

#[derive(Debug)]
struct TraceError(String);

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TraceError {}

impl de::Error for TraceError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        TraceError(msg.to_string())
    }
}

/// A deserializer that answers every request with a placeholder and writes down what was
/// requested.
struct Tracer<'a> {
    out: &'a mut String,
    depth: usize,
}

/// Nesting deeper than this is taken for a recursive type, which cannot be traced.
const MAX_DEPTH: usize = 32;

impl Tracer<'_> {
    /// `name`, then `items` joined by `sep` between `open` and `close`.
    fn named(&mut self, name: &str, open: char, items: &[&str], sep: &str, close: &str) {
        self.out.push_str(name);
        self.out.push(open);
        self.out.push_str(&items.join(sep));
        self.out.push_str(close);
    }

    /// `open`, the traced value `visit` reads from a nested tracer, then `close`.
    fn wrapped<T>(
        &mut self,
        open: &str,
        close: &str,
        visit: impl FnOnce(Tracer<'_>) -> Result<T, TraceError>,
    ) -> Result<T, TraceError> {
        self.out.push_str(open);
        let value = visit(self.nested()?)?;
        self.out.push_str(close);
        Ok(value)
    }

    fn nested(&mut self) -> Result<Tracer<'_>, TraceError> {
        if self.depth >= MAX_DEPTH {
            return Err(TraceError("a recursive type".into()));
        }
        Ok(Tracer {
            out: self.out,
            depth: self.depth + 1,
        })
    }

    /// `len` traced elements, `close` after them.
    fn elements<'de, V: Visitor<'de>>(
        mut self,
        len: usize,
        close: &str,
        visitor: V,
    ) -> Result<V::Value, TraceError> {
        let value = visitor.visit_seq(Elements {
            tracer: self.nested()?,
            left: len,
        })?;
        self.out.push_str(close);
        Ok(value)
    }
}

struct Elements<'a> {
    tracer: Tracer<'a>,
    left: usize,
}

impl Elements<'_> {
    /// The next element or key, traced; `None` once `left` are done.
    fn next<'de, T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, TraceError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.tracer.out.push(' ');
        seed.deserialize(self.tracer.nested()?).map(Some)
    }
}

impl<'de> de::SeqAccess<'de> for Elements<'_> {
    type Error = TraceError;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, TraceError> {
        let element = self.next(seed)?;
        if element.is_some() {
            self.left -= 1;
        }
        Ok(element)
    }
}

impl<'de> de::MapAccess<'de> for Elements<'_> {
    type Error = TraceError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, TraceError> {
        self.next(seed)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, TraceError> {
        self.left = self.left.saturating_sub(1);
        self.tracer.out.push_str(" =>");
        seed.deserialize(self.tracer.nested()?)
    }
}

impl<'de> de::EnumAccess<'de> for Tracer<'_> {
    type Error = TraceError;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self), TraceError> {
        let v = seed.deserialize(de::value::U32Deserializer::<TraceError>::new(0))?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for Tracer<'_> {
    type Error = TraceError;
    fn unit_variant(self) -> Result<(), TraceError> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, TraceError> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, TraceError> {
        self.elements(len, ")", v)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, TraceError> {
        self.elements(fields.len(), "}", v)
    }
}

macro_rules! primitive {
    ($($method:ident $visit:ident $zero:expr),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TraceError> {
            self.out.push_str(&stringify!($method)["deserialize_".len()..]);
            visitor.$visit($zero)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Tracer<'_> {
    type Error = TraceError;

    primitive! {
        deserialize_bool visit_bool false,
        deserialize_i8 visit_i8 0, deserialize_i16 visit_i16 0,
        deserialize_i32 visit_i32 0, deserialize_i64 visit_i64 0,
        deserialize_u8 visit_u8 0, deserialize_u16 visit_u16 0,
        deserialize_u32 visit_u32 0, deserialize_u64 visit_u64 0,
        deserialize_f32 visit_f32 0.0, deserialize_f64 visit_f64 0.0,
        deserialize_char visit_char ' ',
        deserialize_str visit_str "", deserialize_string visit_str "",
        deserialize_bytes visit_bytes &[], deserialize_byte_buf visit_bytes &[],
        deserialize_identifier visit_u32 0,
    }

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, TraceError> {
        Err(TraceError(
            "a self-describing value (untagged, flatten or any), which postcard cannot hold".into(),
        ))
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TraceError> {
        self.deserialize_any(v)
    }
    fn deserialize_option<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value, TraceError> {
        self.wrapped("option(", ")", |t| v.visit_some(t))
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TraceError> {
        self.out.push_str("unit");
        v.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, TraceError> {
        self.out.push_str(name);
        v.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        mut self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, TraceError> {
        self.out.push_str(name);
        self.wrapped("(", ")", |t| v.visit_newtype_struct(t))
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, TraceError> {
        self.out.push_str("seq[");
        self.elements(1, "]", v)
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, TraceError> {
        self.out.push('(');
        self.elements(len, ")", v)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        v: V,
    ) -> Result<V::Value, TraceError> {
        self.out.push_str(name);
        self.out.push('(');
        self.elements(len, ")", v)
    }
    fn deserialize_map<V: Visitor<'de>>(mut self, v: V) -> Result<V::Value, TraceError> {
        self.wrapped("map{", "}", |tracer| {
            v.visit_map(Elements { tracer, left: 1 })
        })
    }
    fn deserialize_struct<V: Visitor<'de>>(
        mut self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, TraceError> {
        self.named(name, '{', fields, ",", ":");
        self.elements(fields.len(), "}", v)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        mut self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, TraceError> {
        self.named(name, '<', variants, "|", ">");
        self.wrapped("(", ")", |t| v.visit_enum(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::record::Meta;
    use crate::session::HistoryBase;

    #[allow(clippy::needless_update, reason = "fields added later are filled too")]
    fn full_state() -> ScanState {
        let s = |v: &str| Some(v.to_owned());
        ScanState {
            offset: 123_456,
            complete: true,
            meta: Some(Meta {
                id: s("0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee"),
                timestamp: s("2026-01-01T00:00:00.000Z"),
                cwd: s("/home/u/work"),
                git_branch: s("main"),
                source: s("cli"),
                originator: s("codex_cli_rs"),
                cli_version: s("0.130.0"),
                model_provider: s("openai"),
                forked_from_id: s("0199aaaa-bbbb-7ccc-8ddd-000000000000"),
                history_base: Some(HistoryBase {
                    thread_id: "0199aaaa-bbbb-7ccc-8ddd-000000000000".into(),
                    end_ordinal_exclusive: Some(7),
                }),
            }),
            event_user: 3,
            event_assistant: 4,
            response_user: 5,
            response_assistant: 6,
            event_prompt: s("fix the parser"),
            response_prompt: s("fix the parser, please"),
            thread_name: s("parser fix"),
            skipped_lines: 2,
            saw_message: true,
            pending_tail: true,
            ..ScanState::default()
        }
    }

    /// Every value survives encoding, empty ones too: a field left out when empty
    /// (`skip_serializing_if`) would shift every field after it in a postcard body.
    #[test]
    fn states_round_trip_full_and_empty() {
        for state in [full_state(), ScanState::default()] {
            let bytes = encode_state(&state);
            assert_eq!(decode_state(&bytes), Some(state));
        }
        let mut longer = encode_state(&full_state());
        longer.push(0);
        assert_eq!(decode_state(&longer), None, "trailing bytes");
    }

    #[test]
    fn sections_round_trip_and_give_each_state_its_bytes() {
        let states = [
            encode_state(&full_state()),
            encode_state(&ScanState::default()),
        ];
        let records = [
            RecordRef {
                path: b"/s/rollout-a.jsonl",
                size: 10,
                mtime_ms: -5,
                compressed: false,
                archived: true,
                session: true,
                state: &states[0],
            },
            RecordRef {
                path: b"/s/rollout-b.jsonl.zst",
                size: u64::MAX,
                mtime_ms: i64::MAX,
                compressed: true,
                archived: false,
                session: false,
                state: &states[1],
            },
        ];
        let body = encode_section(b"xx".to_vec(), b"/home", &records).unwrap();
        let (home, got) = decode_section(&body[2..]).unwrap();
        assert_eq!(home, b"/home");
        assert_eq!(got.len(), 2);
        for (r, d) in records.iter().zip(&got) {
            assert_eq!(
                (
                    d.path,
                    d.size,
                    d.mtime_ms,
                    d.compressed,
                    d.archived,
                    d.session
                ),
                (
                    r.path,
                    r.size,
                    r.mtime_ms,
                    r.compressed,
                    r.archived,
                    r.session
                )
            );
            assert_eq!(&body[2..][d.state.clone()], r.state);
        }
        assert!(
            decode_section(&body[2..body.len() - 1]).is_none(),
            "cut short"
        );
    }

    #[test]
    fn layout_names_every_field_and_type() {
        let layout = layout().unwrap();
        for part in [
            "ScanState{offset,complete,meta,",
            "Meta{id,timestamp,",
            "HistoryBase{thread_id,end_ordinal_exclusive: string option(u64)}",
            " u64 bool option(",
        ] {
            assert!(layout.contains(part), "{part} not in {layout}");
        }
    }
}
