//! A Claude Code row's top-level `type`, found without parsing the row: most of a transcript's
//! bytes are `attachment` and `api-request*` rows nothing reads, and their `type` may come after
//! a value of tens of kilobytes. The top-level object is walked key by key; strings are jumped
//! over with `memchr`, containers by counting brackets outside strings. Lenient: a line that
//! does not walk says nothing (`None`), it never panics.

use memchr::memchr2;

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

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b
        .get(i)
        .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
    {
        i += 1;
    }
    i
}

/// The closing quote of the string whose body starts at `start`.
fn string_end(b: &[u8], mut start: usize) -> Option<usize> {
    loop {
        let at = start + memchr2(b'"', b'\\', b.get(start..)?)?;
        if b[at] == b'"' {
            return Some(at);
        }
        start = at + 2;
    }
}

/// One past the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => string_end(b, i + 1).map(|e| e + 1),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match b.get(j)? {
                    b'"' => j = string_end(b, j + 1)?,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let rest = &b[i..];
            let len = rest
                .iter()
                .position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(rest.len());
            (len > 0).then_some(i + len)
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
