//! Terminal safety: every string that came from a rollout passes through here before it is drawn
//! or printed to a terminal.
//!
//! Pure. C0 controls (other than newline and tab), DEL and C1 controls become visible control
//! pictures, so an escape sequence (CSI, OSC 52, OSC 8, ...) is shown as inert text and never acts;
//! bidirectional overrides and isolates become U+FFFD; tabs are expanded. JSON output goes through
//! [`SafeJson`], which escapes the characters serde_json leaves raw. A document (the Markdown
//! export) has those characters removed instead ([`for_document`]).

/// The replacement for a bidirectional control.
pub const BIDI_PLACEHOLDER: char = '\u{FFFD}';

/// Width of a tab stop when tabs are expanded.
pub const TAB_WIDTH: usize = 4;

/// Unicode bidirectional formatting characters (embeddings, overrides, isolates, marks).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A character that must never reach a terminal raw (newline and tab excluded).
pub fn is_dangerous(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || is_bidi_control(c)
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The visible stand-in for a dangerous character.
fn placeholder(c: char) -> char {
    match c {
        // C0 controls have control pictures at U+2400 + code.
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or(BIDI_PLACEHOLDER),
        '\u{7f}' => '\u{2421}',
        '\u{2028}' | '\u{2029}' => ' ',
        // C1 controls (U+0080..U+009F, e.g. the 8-bit CSI U+009B) and bidi controls.
        _ => BIDI_PLACEHOLDER,
    }
}

/// Neutralise text for a multi-line view: newlines kept, tabs expanded to the next stop,
/// dangerous characters replaced by visible placeholders. Carriage returns become `␍`.
pub fn for_terminal(text: &str) -> String {
    if !text.chars().any(|c| is_dangerous(c) || c == '\t') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut column = 0usize;
    for c in text.chars() {
        match c {
            '\n' => {
                out.push('\n');
                column = 0;
            }
            '\t' => {
                let pad = TAB_WIDTH - column % TAB_WIDTH;
                out.extend(std::iter::repeat_n(' ', pad));
                column += pad;
            }
            c if is_dangerous(c) => {
                out.push(placeholder(c));
                column += 1;
            }
            c => {
                out.push(c);
                column += 1;
            }
        }
    }
    out
}

/// Neutralise text for a document (the Markdown export), where a placeholder would only be
/// noise: every character [`is_dangerous`] flags is removed (C0 controls but newline and tab, so
/// `\r` too; DEL; C1 controls; bidirectional controls), and the line and paragraph separators
/// become spaces. Tabs are kept. Clean text (nearly all) is borrowed, not copied.
pub fn for_document(text: &str) -> std::borrow::Cow<'_, str> {
    if !may_hold_dangerous(text.as_bytes()) || !needs_neutralising(text) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut clean = 0;
    for (at, c) in text.char_indices() {
        if is_dangerous(c) {
            out.push_str(&text[clean..at]);
            if matches!(c, '\u{2028}' | '\u{2029}') {
                out.push(' ');
            }
            clean = at + c.len_utf8();
        }
    }
    out.push_str(&text[clean..]);
    std::borrow::Cow::Owned(out)
}

/// Tool text (what a command printed, its arguments) for a terminal: its escape sequences
/// (colours, cursor moves, titles, hyperlinks) removed, as programs print them and shown they
/// would only be noise; then neutralised by [`for_terminal`], so any other control character
/// is shown as a placeholder.
pub fn tool_text(text: &str) -> String {
    for_terminal(&without_sequences(text))
}

/// [`tool_text`] for a document: sequences removed, then [`for_document`].
pub fn tool_document(text: &str) -> String {
    for_document(&without_sequences(text)).into_owned()
}

/// `text` without its escape sequences (read by vte's parser, as a terminal reads them); every
/// other character, controls included, is kept.
fn without_sequences(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains([
        '\u{1b}', '\u{9b}', '\u{9d}', '\u{90}', '\u{98}', '\u{9e}', '\u{9f}',
    ]) {
        return std::borrow::Cow::Borrowed(text);
    }
    struct Kept(String);
    impl vte::Perform for Kept {
        fn print(&mut self, c: char) {
            self.0.push(c);
        }
        fn execute(&mut self, byte: u8) {
            self.0.push(char::from(byte));
        }
    }
    let mut kept = Kept(String::with_capacity(text.len()));
    let mut parser = vte::Parser::new();
    parser.advance(&mut kept, text.as_bytes());
    std::borrow::Cow::Owned(kept.0)
}

/// Neutralise text for a single display line: like [`for_terminal`], and newlines become spaces.
pub fn one_line(text: &str) -> String {
    let safe = for_terminal(text);
    if safe.contains('\n') {
        safe.replace('\n', " ")
    } else {
        safe
    }
}

/// A file path for one display line (paths are bytes from the store: they can hold anything).
pub fn path_line(path: &std::path::Path) -> String {
    one_line(&path.to_string_lossy())
}

/// The text holds a character that must never reach a terminal raw (newline and tab excluded).
pub fn needs_neutralising(text: &str) -> bool {
    text.chars().any(is_dangerous)
}

/// Whether UTF-8 `bytes` may hold a character [`is_dangerous`] flags: every such character is
/// a C0 control, DEL, or starts with byte 0xC2 (C1), 0xD8 (U+061C) or 0xE2 (U+2xxx). A quick
/// byte test that lets clean text skip the per-character check.
pub fn may_hold_dangerous(bytes: &[u8]) -> bool {
    let flagged = |b: &u8| matches!(*b, 0..=0x1F | 0x7F | 0xC2 | 0xD8 | 0xE2);
    // Eight bytes at a time: a block of printable ASCII (0x20..0x7E, most text) holds none,
    // and telling that takes a few operations on a word instead of five tests a byte.
    let mut blocks = bytes.chunks_exact(8);
    for block in &mut blocks {
        if word_not_printable_ascii(word_of(block)) && block.iter().any(flagged) {
            return true;
        }
    }
    blocks.remainder().iter().any(flagged)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Eight bytes as one word (`block` is eight bytes long).
pub(crate) fn word_of(block: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&block[..8]);
    u64::from_le_bytes(word)
}

/// Whether the eight bytes of `x` may hold one that is not printable ASCII: below 0x20, or at
/// or above 0x7F (exact as a test of existence).
pub(crate) fn word_not_printable_ascii(x: u64) -> bool {
    let low = x.wrapping_sub(0x20 * ONES) & !x & HIGH;
    let high = (x.wrapping_add(ONES) | x) & HIGH;
    low | high != 0
}

/// Whether the eight bytes of `x` hold the byte `v` (exact as a test of existence).
pub(crate) fn word_has_byte(x: u64, v: u8) -> bool {
    let y = x ^ (u64::from(v) * ONES);
    y.wrapping_sub(ONES) & !y & HIGH != 0
}

/// The JSON escape `\uXXXX` of one UTF-16 unit, in lower-case hex as serde_json writes it.
pub(crate) fn unicode_escape(unit: u16) -> [u8; 6] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digit = |shift: u16| HEX[usize::from((unit >> shift) & 0xF)];
    [b'\\', b'u', digit(12), digit(8), digit(4), digit(0)]
}

/// A serde_json formatter that also escapes what serde_json writes raw: DEL, C1 and bidi
/// controls become `\uXXXX`, so JSON printed to a terminal carries no live control character
/// and still reads back to the same text. Clean runs (nearly all text) are copied as they are.
#[derive(Debug, Clone, Copy, Default)]
pub struct SafeJson;

impl serde_json::ser::Formatter for SafeJson {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        if !may_hold_dangerous(fragment.as_bytes()) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut clean = 0;
        for (at, c) in fragment.char_indices() {
            if is_dangerous(c) {
                writer.write_all(&fragment.as_bytes()[clean..at])?;
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    writer.write_all(&unicode_escape(*unit))?;
                }
                clean = at + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[clean..])
    }
}

/// `value` as JSON through [`SafeJson`], written to `out`.
pub fn write_json<W: std::io::Write + ?Sized, T: serde::Serialize + ?Sized>(
    out: &mut W,
    value: &T,
) -> std::io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, SafeJson);
    value.serialize(&mut ser).map_err(std::io::Error::other)
}

/// `value` as a JSON string through [`SafeJson`].
pub fn json_string<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    if write_json(&mut out, value).is_err() {
        return String::new();
    }
    // serde_json writes UTF-8 and the escapes are ASCII.
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "a\u{1b}[31mred\u{1b}]52;c;aGVsbG8=\u{7}\u{1b}]8;;http://x\u{1b}\\link\u{9b}2J\u{7f}\r\u{202e}evil\u{2066}x\u{0}";

    #[test]
    fn no_control_survives_terminal_view() {
        let safe = for_terminal(HOSTILE);
        assert!(!safe.chars().any(is_dangerous), "{safe:?}");
        assert!(safe.contains("␛[31mred"), "escape shown, not run: {safe:?}");
        assert!(safe.contains('\u{FFFD}'));
    }

    #[test]
    fn newline_kept_tab_expanded() {
        assert_eq!(for_terminal("a\tb\nxy\tz"), "a   b\nxy  z");
        assert_eq!(one_line("a\nb\u{1b}"), "a b␛");
    }

    #[test]
    fn paths_and_checks() {
        let path = std::path::Path::new("/s/rollout-\u{1b}]52;c;x\u{7}.jsonl");
        assert_eq!(path_line(path), "/s/rollout-␛]52;c;x␇.jsonl");
        assert!(needs_neutralising(HOSTILE));
        assert!(!needs_neutralising("tab\tand\nnewline"));
    }

    #[test]
    fn documents_lose_every_control_and_keep_the_rest() {
        let doc = for_document(HOSTILE);
        assert!(!doc.chars().any(is_dangerous), "{doc:?}");
        assert_eq!(
            doc, "a[31mred]52;c;aGVsbG8=]8;;http://x\\link2Jevilx",
            "controls go, the text around them stays"
        );
        assert_eq!(
            for_document("crlf\r\nline\ttab\u{2028}sep"),
            "crlf\nline\ttab sep"
        );
        let clean = "Привет 你好 🚀 — ok\n\tindented";
        assert!(matches!(
            for_document(clean),
            std::borrow::Cow::Borrowed(b) if b == clean
        ));
    }

    #[test]
    fn plain_text_untouched() {
        let text = "Привет 你好 🚀 — ok";
        assert_eq!(for_terminal(text), text);
    }

    #[test]
    fn json_escapes_what_serde_leaves_raw() {
        let escaped = json_string(HOSTILE);
        assert!(!escaped.chars().any(is_dangerous), "{escaped}");
        let back: String = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back, HOSTILE, "escaping loses nothing");
    }

    #[test]
    fn word_test_agrees_with_the_byte_test() {
        let byte_test = |b: &[u8]| {
            b.iter()
                .any(|&c| c < 0x20 || c == 0x7F || c == 0xC2 || c == 0xD8 || c == 0xE2)
        };
        // Every byte value at every position of blocks of several lengths, among neighbours
        // that sit on the word test's edges (0x1F/0x20, 0x7E/0x7F/0x80, 0xFF carries).
        for len in [1, 7, 8, 9, 16, 23] {
            for at in 0..len {
                for fill in [b'a', b' ', 0x7E, 0x80, 0xFF, 0xC3] {
                    for v in 0..=255u8 {
                        let mut b = vec![fill; len];
                        b[at] = v;
                        assert_eq!(may_hold_dangerous(&b), byte_test(&b), "{b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn byte_test_flags_every_dangerous_character() {
        let mut buf = [0u8; 4];
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            if is_dangerous(c) {
                assert!(
                    may_hold_dangerous(c.encode_utf8(&mut buf).as_bytes()),
                    "{c:?}"
                );
            }
        }
    }
}
