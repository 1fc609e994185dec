//! JSON objects written straight into a byte buffer, for output made once per row
//! (`list --json`): the same text serde_json with [`crate::sanitize::SafeJson`] writes, made
//! without the serializer's per-byte escaping loop, which was most of a warm `list --json`.
//!
//! Strings are scanned eight bytes at a time; a block of plain printable ASCII is copied as it
//! is. What needs escaping is escaped as serde_json does (`\"`, `\\`, `\n`, ..., `\u00XX`),
//! and what serde_json leaves raw but a terminal would act on (DEL, C1 and bidi controls,
//! U+2028/U+2029) as `\uXXXX`, so printed JSON carries no live control character.

use crate::sanitize::{
    is_dangerous, unicode_escape, word_has_byte, word_not_printable_ascii, word_of,
};

/// Whether a word of eight bytes may hold a byte that is not plain printable ASCII other than
/// `"` and `\` (exact as a test of existence).
fn word_needs_care(x: u64) -> bool {
    word_not_printable_ascii(x) || word_has_byte(x, b'"') || word_has_byte(x, b'\\')
}

/// `s` as a JSON string, quotes included, appended to `out`.
pub(crate) fn push_str(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push(b'"');
    let (mut copied, mut i) = (0, 0);
    while i < b.len() {
        if let Some(word) = b.get(i..i + 8) {
            if !word_needs_care(word_of(word)) {
                i += 8;
                continue;
            }
        }
        let c = b[i];
        let short: &[u8] = match c {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0C => b"\\f",
            0..=0x1F | 0x7F => b"",
            // Every dangerous character outside ASCII starts with one of these lead bytes.
            0xC2 | 0xD8 | 0xE2 => match s[i..].chars().next() {
                Some(ch) if is_dangerous(ch) => b"",
                _ => {
                    i += 1;
                    continue;
                }
            },
            _ => {
                i += 1;
                continue;
            }
        };
        out.extend_from_slice(&b[copied..i]);
        if short.is_empty() {
            // A character escaped by its code: a C0 control, DEL, or a dangerous one.
            let ch = s[i..].chars().next().unwrap_or('\u{FFFD}');
            let mut units = [0u16; 2];
            for unit in ch.encode_utf16(&mut units) {
                out.extend_from_slice(&unicode_escape(*unit));
            }
            i += ch.len_utf8();
        } else {
            out.extend_from_slice(short);
            i += 1;
        }
        copied = i;
    }
    out.extend_from_slice(&b[copied..]);
    out.push(b'"');
}

/// A JSON array of `items`, each written by `write`, appended to `out`.
pub(crate) fn push_array<T>(
    out: &mut Vec<u8>,
    items: impl IntoIterator<Item = T>,
    mut write: impl FnMut(&mut Vec<u8>, T),
) {
    out.push(b'[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write(out, item);
    }
    out.push(b']');
}

/// One JSON object being written: `{`, then `"key":value` pairs separated by commas.
pub(crate) struct Object<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Object<'a> {
    pub(crate) fn new(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Object { out, first: true }
    }

    /// Keys are the program's own ASCII names: written as they are.
    fn key(&mut self, key: &str) -> &mut Vec<u8> {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
        self.out
    }

    pub(crate) fn str(&mut self, key: &str, value: &str) -> &mut Self {
        push_str(self.key(key), value);
        self
    }

    pub(crate) fn opt_str(&mut self, key: &str, value: Option<&str>) -> &mut Self {
        match value {
            Some(v) => self.str(key, v),
            None => self.null(key),
        }
    }

    pub(crate) fn bool(&mut self, key: &str, value: bool) -> &mut Self {
        let text: &[u8] = if value { b"true" } else { b"false" };
        self.key(key).extend_from_slice(text);
        self
    }

    pub(crate) fn u64(&mut self, key: &str, value: u64) -> &mut Self {
        let mut digits = itoa::Buffer::new();
        let text = digits.format(value).as_bytes();
        self.key(key).extend_from_slice(text);
        self
    }

    pub(crate) fn opt_u64(&mut self, key: &str, value: Option<u64>) -> &mut Self {
        match value {
            Some(v) => self.u64(key, v),
            None => self.null(key),
        }
    }

    /// A value `write` appends itself (a nested object or an array, written with this
    /// module's functions).
    pub(crate) fn with(&mut self, key: &str, write: impl FnOnce(&mut Vec<u8>)) -> &mut Self {
        write(self.key(key));
        self
    }

    pub(crate) fn null(&mut self, key: &str) -> &mut Self {
        self.key(key).extend_from_slice(b"null");
        self
    }

    pub(crate) fn end(self) {
        self.out.push(b'}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(s: &str) -> String {
        let mut out = Vec::new();
        push_str(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn strings_as_serde_json_with_the_safe_formatter_writes_them() {
        let cases = [
            "",
            "plain words, long enough to fill several blocks of eight",
            "quote \" backslash \\ slash / end",
            "\u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1b}[31m\u{1f} \u{7f}",
            "C1 \u{80}\u{85}\u{9b}\u{9f} nbsp \u{a0} é",
            "bidi \u{61c}\u{200e}\u{202e}\u{2066}\u{2069} seps \u{2028}\u{2029} dash — ok",
            "Привет 你好 🚀 \u{10ffff}",
        ];
        for s in cases {
            assert_eq!(written(s), crate::sanitize::json_string(s), "{s:?}");
        }
    }

    #[test]
    fn every_character_at_every_offset_of_a_block() {
        for c in (0..0x3000u32)
            .chain(0xFFF0..0x10100)
            .filter_map(char::from_u32)
        {
            for pad in 0..9 {
                let s = format!("{}{c}tail", "x".repeat(pad));
                assert_eq!(written(&s), crate::sanitize::json_string(&s), "{s:?}");
            }
        }
    }

    #[test]
    fn objects() {
        let mut out = Vec::new();
        let mut o = Object::new(&mut out);
        o.str("a", "x\"y")
            .opt_str("b", None)
            .bool("c", true)
            .u64("d", u64::MAX)
            .opt_u64("e", Some(0))
            .with("f", |out| {
                push_array(out, ["p", "q"], push_str);
            })
            .with("g", |out| {
                let mut inner = Object::new(out);
                inner.u64("h", 1);
                inner.end();
            });
        o.end();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"a":"x\"y","b":null,"c":true,"d":18446744073709551615,"e":0,"f":["p","q"],"g":{"h":1}}"#
        );
    }
}
