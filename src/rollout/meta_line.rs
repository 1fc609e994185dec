//! A `session_meta` row read straight into [`Meta`], without building a `serde_json::Value`.
//!
//! The row opens every rollout and carries the base instructions (several KB), so a preview
//! spent much of its time building and dropping that tree. [`parse`] gives exactly what
//! `parse_line` followed by `meta_from_line` (and the `ordinal` read) gives, and refuses exactly
//! the lines `parse_line` refuses: every value, kept or not, goes through serde_json's
//! `deserialize_any` as it does for a `Value` (the same checks on strings, numbers and nesting
//! depth), a repeated key keeps its last value, a field of the wrong type is absent, and a line
//! with invalid UTF-8 is read again with it replaced.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::record::HistoryBase;
use super::record::Meta;
use super::visit::read_line;

/// A value of one of the shapes a reader looks at; anything else is consumed (and checked) and
/// dropped.
enum Val {
    Str(String),
    U64(u64),
    /// An object, with the fields wanted by the caller.
    Obj(Vec<(String, Val)>),
    /// The smallest key of an object (what `source` needs: a `Value` object's first key).
    Key(String),
    /// Anything else.
    Other,
}

/// Which object fields to keep, at each level.
#[derive(Clone, Copy)]
enum Want {
    /// Nothing: check and drop.
    Nothing,
    /// Strings and unsigned integers, no objects.
    Scalar,
    /// The top-level row.
    Row,
    /// The payload of `session_meta`.
    Payload,
    /// An object's scalar fields (`git`, `history_base`).
    Fields,
    /// `source`: a string, or an object's smallest key.
    Source,
}

struct Seed(Want);

impl<'de> de::DeserializeSeed<'de> for Seed {
    type Value = Val;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Val, D::Error> {
        d.deserialize_any(ValVisitor(self.0))
    }
}

/// A key, unescaped, as serde_json gives it to a `Value`.
struct Key(String);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        String::deserialize(d).map(Key)
    }
}

struct ValVisitor(Want);

impl ValVisitor {
    fn child(&self, key: &str) -> Want {
        match (self.0, key) {
            (Want::Row, "ordinal") => Want::Scalar,
            (Want::Row, "payload") => Want::Payload,
            (
                Want::Payload,
                "id" | "timestamp" | "cwd" | "originator" | "cli_version" | "model_provider"
                | "forked_from_id",
            ) => Want::Scalar,
            (Want::Payload, "git" | "history_base") => Want::Fields,
            (Want::Payload, "source") => Want::Source,
            (Want::Fields, "branch" | "thread_id" | "end_ordinal_exclusive") => Want::Scalar,
            _ => Want::Nothing,
        }
    }
}

/// Whether the metadata reads the payload field named `key` (the rest is checked and dropped).
pub(super) fn reads_payload_field(key: &str) -> bool {
    !matches!(ValVisitor(Want::Payload).child(key), Want::Nothing)
}

impl<'de> Visitor<'de> for ValVisitor {
    type Value = Val;

    super::visit::dropped_scalars!(Val, Val::Other);

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Val, E> {
        Ok(match self.0 {
            Want::Scalar => Val::U64(v),
            _ => Val::Other,
        })
    }
    fn visit_str<E>(self, v: &str) -> Result<Val, E> {
        Ok(match self.0 {
            Want::Scalar | Want::Source => Val::Str(v.to_owned()),
            _ => Val::Other,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val, A::Error> {
        while seq.next_element_seed(Seed(Want::Nothing))?.is_some() {}
        Ok(Val::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Val, A::Error> {
        let mut fields: Vec<(String, Val)> = Vec::new();
        let mut smallest: Option<String> = None;
        while let Some(Key(key)) = map.next_key::<Key>()? {
            let want = self.child(&key);
            let value = map.next_value_seed(Seed(want))?;
            match self.0 {
                Want::Source if smallest.as_ref().is_none_or(|s| key < *s) => {
                    smallest = Some(key);
                }
                Want::Row | Want::Payload | Want::Fields if !matches!(want, Want::Nothing) => {
                    // A repeated key keeps its last value.
                    fields.retain(|(k, _)| *k != key);
                    fields.push((key, value));
                }
                _ => {}
            }
        }
        Ok(match self.0 {
            Want::Source => smallest.map_or(Val::Other, Val::Key),
            Want::Row | Want::Payload | Want::Fields => Val::Obj(fields),
            Want::Nothing | Want::Scalar => Val::Other,
        })
    }
}

/// Take the value of `key` out of an object (`Other` when absent or not an object).
fn take(v: &mut Val, key: &str) -> Val {
    match v {
        Val::Obj(fields) => fields
            .iter_mut()
            .find(|(k, _)| k == key)
            .map_or(Val::Other, |(_, v)| std::mem::replace(v, Val::Other)),
        _ => Val::Other,
    }
}

/// `str_field`: a non-empty string.
fn take_str(v: &mut Val, key: &str) -> Option<String> {
    match take(v, key) {
        Val::Str(s) if !s.is_empty() => Some(s),
        _ => None,
    }
}

/// `Value::as_u64`.
fn take_u64(v: &mut Val, key: &str) -> Option<u64> {
    match take(v, key) {
        Val::U64(n) => Some(n),
        _ => None,
    }
}

fn meta_of(mut p: Val) -> Meta {
    let history_base = match take(&mut p, "history_base") {
        mut hb @ Val::Obj(_) => {
            let end_ordinal_exclusive = take_u64(&mut hb, "end_ordinal_exclusive");
            take_str(&mut hb, "thread_id").map(|thread_id| HistoryBase {
                thread_id,
                end_ordinal_exclusive,
            })
        }
        _ => None,
    };
    let source = match take(&mut p, "source") {
        Val::Str(s) if !s.is_empty() => Some(s),
        Val::Key(k) => Some(k),
        _ => None,
    };
    Meta {
        id: take_str(&mut p, "id"),
        timestamp: take_str(&mut p, "timestamp"),
        cwd: take_str(&mut p, "cwd"),
        git_branch: take_str(&mut take(&mut p, "git"), "branch"),
        source,
        originator: take_str(&mut p, "originator"),
        cli_version: take_str(&mut p, "cli_version"),
        model_provider: take_str(&mut p, "model_provider"),
        forked_from_id: take_str(&mut p, "forked_from_id"),
        history_base,
    }
}

/// The metadata and the top-level `ordinal` of a `session_meta` line, or `None` when
/// `parse_line` would refuse it. Long values it ignores are checked and dropped first (see
/// `meta_strip`).
pub fn parse(line: &[u8]) -> Option<(Meta, Option<u64>)> {
    let stripped = super::meta_strip::strip(line, reads_payload_field);
    let line = stripped.as_deref().unwrap_or(line);
    let row = match read_line(line, Seed(Want::Row)) {
        Some(row) => row,
        None if std::str::from_utf8(line).is_err() => {
            read_line(String::from_utf8_lossy(line).as_bytes(), Seed(Want::Row))?
        }
        None => return None,
    };
    let mut row = row;
    let ordinal = take_u64(&mut row, "ordinal");
    Some((meta_of(take(&mut row, "payload")), ordinal))
}

#[cfg(test)]
#[path = "meta_line_tests.rs"]
pub(super) mod tests;
