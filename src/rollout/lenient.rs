//! Field types for rows read the typed way but leniently: a field of the wrong type reads as
//! absent (as `serde_json::Value::as_str` and its kin would say) instead of failing the whole
//! row, so a row that is valid JSON never becomes unreadable for an odd field.
//!
//! Each type takes any JSON value; one of another type is skipped by its bytes (arrays and
//! objects are drained without being built). A string is borrowed from the line when it has no
//! escape, so a tag that is only compared costs no allocation.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// A string field (`None`: absent or not a string).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Text<'a>(pub Option<Cow<'a, str>>);

impl<'a> Text<'a> {
    /// The text, when it is not empty.
    pub(super) fn get(&self) -> Option<&str> {
        self.0.as_deref().filter(|s| !s.is_empty())
    }

    /// The text, owned, when it is not empty.
    pub(super) fn owned(self) -> Option<String> {
        self.0.filter(|s| !s.is_empty()).map(Cow::into_owned)
    }
}

/// A non-negative whole number (`None`: absent, negative, fractional or not a number).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Num(pub Option<u64>);

/// A whole number that fits an `i64`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Int(pub Option<i64>);

/// `true` or `false`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Flag(pub Option<bool>);

/// An object read as `T` (`None`: absent or not an object).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Obj<T>(pub Option<T>);

impl<T> Default for Obj<T> {
    fn default() -> Self {
        Obj(None)
    }
}

/// The visits every lenient type answers with "absent": values of the other kinds, skipped.
macro_rules! absent_otherwise {
    ($($skip:ident),*) => {
        $(absent_otherwise!(@one $skip);)*
    };
    (@one bool) => { fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> { Ok(Default::default()) } };
    (@one i64) => { fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> { Ok(Default::default()) } };
    (@one u64) => { fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> { Ok(Default::default()) } };
    (@one f64) => { fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> { Ok(Default::default()) } };
    (@one str) => { fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> { Ok(Default::default()) } };
    (@one unit) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> { Ok(Default::default()) }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> { Ok(Default::default()) }
    };
    (@one seq) => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
    };
    (@one map) => {
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(Default::default())
        }
    };
}

pub(super) use absent_otherwise;

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Text<'de>, E> {
        Ok(Text(Some(Cow::Borrowed(s))))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Text<'de>, E> {
        Ok(Text(Some(Cow::Owned(s.to_owned()))))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Text<'de>, E> {
        Ok(Text(Some(Cow::Owned(s))))
    }

    absent_otherwise!(bool, i64, u64, f64, unit, seq, map);
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TextVisitor)
    }
}

struct NumVisitor;

impl<'de> Visitor<'de> for NumVisitor {
    type Value = Num;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Num, E> {
        Ok(Num(Some(n)))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Num, E> {
        Ok(Num(u64::try_from(n).ok()))
    }

    absent_otherwise!(bool, f64, str, unit, seq, map);
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumVisitor)
    }
}

struct IntVisitor;

impl<'de> Visitor<'de> for IntVisitor {
    type Value = Int;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Int, E> {
        Ok(Int(i64::try_from(n).ok()))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Int, E> {
        Ok(Int(Some(n)))
    }

    absent_otherwise!(bool, f64, str, unit, seq, map);
}

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IntVisitor)
    }
}

struct FlagVisitor;

impl<'de> Visitor<'de> for FlagVisitor {
    type Value = Flag;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Flag, E> {
        Ok(Flag(Some(b)))
    }

    absent_otherwise!(i64, u64, f64, str, unit, seq, map);
}

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(FlagVisitor)
    }
}

struct ObjVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjVisitor<T> {
    type Value = Obj<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Obj<T>, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map)).map(|t| Obj(Some(t)))
    }

    absent_otherwise!(bool, i64, u64, f64, str, unit, seq);
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ObjVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Default, Debug)]
    #[serde(default)]
    struct Row<'a> {
        #[serde(borrow)]
        s: Text<'a>,
        n: Num,
        i: Int,
        b: Flag,
        o: Obj<Inner>,
    }

    #[derive(Deserialize, Default, Debug, PartialEq)]
    #[serde(default)]
    struct Inner {
        n: Num,
    }

    #[test]
    fn fields_of_the_wrong_type_read_as_absent_and_the_row_still_reads() {
        for line in [
            r#"{"s":5,"n":"x","i":[1,{"a":2}],"b":null,"o":"str"}"#,
            r#"{"s":{"t":[1,2]},"n":-1,"i":1.5,"b":"true","o":[{"n":1}]}"#,
            r#"{"n":1.0,"i":18446744073709551615}"#,
        ] {
            let row: Row = serde_json::from_str(line).unwrap();
            assert_eq!(
                (row.s.0, row.n.0, row.i.0, row.b.0, row.o.0),
                (None, None, None, None, None),
                "{line}"
            );
        }
    }

    #[test]
    fn fields_of_the_right_type_are_read_and_plain_strings_are_borrowed() {
        let line = r#"{"s":"plain","n":7,"i":-3,"b":true,"o":{"n":2,"other":[1]}}"#;
        let row: Row = serde_json::from_str(line).unwrap();
        assert!(matches!(row.s.0, Some(Cow::Borrowed("plain"))));
        assert_eq!((row.n.0, row.i.0, row.b.0), (Some(7), Some(-3), Some(true)));
        assert_eq!(row.o.0, Some(Inner { n: Num(Some(2)) }));
        let escaped: Row = serde_json::from_str(r#"{"s":"a\nb"}"#).unwrap();
        assert_eq!(escaped.s.get(), Some("a\nb"));
        let empty: Row = serde_json::from_str(r#"{"s":""}"#).unwrap();
        assert_eq!(empty.s.get(), None);
    }
}
