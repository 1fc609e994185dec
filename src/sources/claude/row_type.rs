//! A Claude Code row's top-level `type`, found without parsing the row: most of a transcript's
//! bytes are `attachment` and `api-request*` rows nothing reads, and their `type` may come after
//! a value of tens of kilobytes. The top-level object is walked key by key with the scanner the
//! Codex reader's fast paths use (strings jumped over, containers by counting brackets outside
//! strings). Lenient: a line that
//! does not walk says nothing (`None`), it never panics.

use crate::rollout::json_scan::{skip_ws, string_end, value_end};

/// The kinds of row that are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowType {
    User,
    Assistant,
    System,
    CustomTitle,
    AiTitle,
    Summary,
    /// Any other `type` (`attachment`, `queue-operation`, ...): skipped unread.
    Other,
}

impl RowType {
    fn of(name: &[u8]) -> RowType {
        match name {
            b"user" => RowType::User,
            b"assistant" => RowType::Assistant,
            b"system" => RowType::System,
            b"custom-title" => RowType::CustomTitle,
            b"ai-title" => RowType::AiTitle,
            b"summary" => RowType::Summary,
            _ => RowType::Other,
        }
    }
}

/// The row's top-level `type` (the first one written), or `None` when the line is not an
/// object with a string `type` as far as a walk of its top level can tell.
pub(crate) fn row_type(line: &[u8]) -> Option<RowType> {
    let mut i = skip_ws(line, 0);
    if line.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        i = skip_ws(line, i);
        if line.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(line, i + 1)?;
        let key = &line[i + 1..key_end];
        i = skip_ws(line, key_end + 1);
        if line.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(line, i + 1);
        if key == b"type" {
            if line.get(i) != Some(&b'"') {
                return None;
            }
            let end = string_end(line, i + 1)?;
            return Some(RowType::of(&line[i + 1..end]));
        }
        i = skip_ws(line, value_end(line, i)?);
        match line.get(i) {
            Some(b',') => i += 1,
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_type_after_a_big_value_is_found() {
        let line =
            br#"{"parentUuid":"a","attachment":{"type":"x","s":"q\"}{"},"type":"attachment"}"#;
        assert_eq!(row_type(line), Some(RowType::Other));
        let line = br#"{"parentUuid":null,"isSidechain":false,"type":"user","message":{}}"#;
        assert_eq!(row_type(line), Some(RowType::User));
        assert_eq!(
            row_type(br#"{"type":"ai-title","aiTitle":"x"}"#),
            Some(RowType::AiTitle)
        );
    }

    #[test]
    fn broken_lines_say_nothing() {
        for line in [
            &b""[..],
            b"[]",
            b"{",
            b"{\"a\":",
            b"{\"a\":[1,",
            b"{\"type\":1}",
            b"{\"a\"}",
        ] {
            assert_eq!(row_type(line), None, "{}", String::from_utf8_lossy(line));
        }
    }
}
