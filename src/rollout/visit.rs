//! What the two fast paths ([`super::meta_line`], [`super::message_line`]) read alike: every
//! value goes through serde_json's `deserialize_any`, as it does for a `serde_json::Value`, and
//! the scalars neither keeps (booleans, floats, null, negative integers) read as their `Other`.

/// The `Visitor` methods of a fast path's value visitor that do not depend on what it keeps:
/// `expecting`, and the scalars it drops. A non-negative `i64` goes to the visitor's own
/// `visit_u64`, because a `Value` holds it as an unsigned number.
macro_rules! dropped_scalars {
    ($val:ty, $other:expr) => {
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<$val, E> {
            Ok($other)
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<$val, E> {
            match u64::try_from(v) {
                Ok(v) => self.visit_u64(v),
                Err(_) => Ok($other),
            }
        }
        fn visit_f64<E>(self, _: f64) -> Result<$val, E> {
            Ok($other)
        }
        fn visit_unit<E>(self) -> Result<$val, E> {
            Ok($other)
        }
        fn visit_none<E>(self) -> Result<$val, E> {
            Ok($other)
        }
        fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<$val, D::Error> {
            d.deserialize_any(self)
        }
    };
}

pub(super) use dropped_scalars;

/// `line` read as one JSON value by `seed`, or `None` when it is not UTF-8, not JSON, or has
/// more after the value.
pub(super) fn read_line<'de, S: serde::de::DeserializeSeed<'de>>(
    line: &'de [u8],
    seed: S,
) -> Option<S::Value> {
    // One check of the whole line instead of one per string: serde_json reading a `str`
    // skips its own. A line that is not UTF-8 is refused here; `from_slice` would refuse it
    // too (an invalid byte is a syntax error outside a string and an error inside one).
    let text = std::str::from_utf8(line).ok()?;
    let mut de = serde_json::Deserializer::from_str(text);
    let value = seed.deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(value)
}
