//! A `session_meta` row made small before it is parsed.
//!
//! The row carries the base instructions: kilobytes of escaped text the reader never keeps, which
//! serde_json would still copy string by string to check them. Here every long payload value the
//! reader ignores is checked once (strings by `memchr`, from escape to escape) by the rules
//! serde_json applies (no raw control character, only JSON's escapes), and replaced by `null`.
//! The smaller row then parses to the same metadata and is refused exactly when the original is:
//! the bytes before each replaced value are unchanged, so the parser meets the value where it
//! expects one, and the value was valid in full. Only values made of strings, `true`, `false`,
//! `null`, objects and arrays are replaced; a number, deep nesting, a `\u` escape of a
//! surrogate, bytes that are not UTF-8, or any doubt about the row's shape leave the row as it
//! is, for the full parse.

use super::json_scan::{skip_ws, string_end, value_end};

/// Values shorter than this are left in place: replacing them saves less than it costs.
const LONG: usize = 512;

/// `line` with its long ignored payload values replaced by `null`, or `None` when there is
/// nothing to replace (or the row is not of the expected shape): parse `line` itself then.
pub fn strip(line: &[u8]) -> Option<Vec<u8>> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut i = skip_ws(line, 0);
    if line.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(line, i + 1);
    if line.get(i) == Some(&b'}') {
        return None;
    }
    loop {
        let (key, at) = member_key(line, i)?;
        i = if key == b"payload" && line.get(at) == Some(&b'{') {
            payload(line, at, &mut spans)?
        } else {
            value_end(line, at)?
        };
        i = skip_ws(line, i);
        match line.get(i)? {
            b',' => i = skip_ws(line, i + 1),
            b'}' => break,
            _ => return None,
        }
    }
    if spans.is_empty() {
        return None;
    }
    let removed: usize = spans.iter().map(|(a, b)| b - a).sum();
    let mut out = Vec::with_capacity(line.len() - removed + 4 * spans.len());
    let mut from = 0;
    for (a, b) in spans {
        out.extend_from_slice(&line[from..a]);
        out.extend_from_slice(b"null");
        from = b;
    }
    out.extend_from_slice(&line[from..]);
    Some(out)
}

/// The key of the object member at `i` (its raw bytes) and where its value starts.
fn member_key(line: &[u8], i: usize) -> Option<(&[u8], usize)> {
    if line.get(i) != Some(&b'"') {
        return None;
    }
    let end = string_end(line, i + 1)?;
    let colon = skip_ws(line, end + 1);
    if line.get(colon) != Some(&b':') {
        return None;
    }
    Some((&line[i + 1..end], skip_ws(line, colon + 1)))
}

/// Walk the payload object opening at `i`, noting the long values to replace; returns one past
/// its closing brace.
fn payload(line: &[u8], i: usize, spans: &mut Vec<(usize, usize)>) -> Option<usize> {
    let mut i = skip_ws(line, i + 1);
    if line.get(i) == Some(&b'}') {
        return Some(i + 1);
    }
    loop {
        let (key, at) = member_key(line, i)?;
        // A key written with escapes may still name a field that is read: never replace its
        // value. Which fields are read is `meta_line`'s to say.
        let ignored = !key.contains(&b'\\')
            && std::str::from_utf8(key)
                .is_ok_and(|key| !super::meta_line::reads_payload_field(key));
        let end = match ignored.then(|| checked_value(line, at)).flatten() {
            Some(end) => {
                if end - at >= LONG {
                    spans.push((at, end));
                }
                end
            }
            None => value_end(line, at)?,
        };
        i = skip_ws(line, end);
        match line.get(i)? {
            b',' => i = skip_ws(line, i + 1),
            b'}' => return Some(i + 1),
            _ => return None,
        }
    }
}

/// How deep [`checked_value`] follows objects and arrays (the value itself sits two levels
/// down in the row, far from serde_json's limit of 128).
const DEPTH: usize = 8;

/// One past the value at `i` when serde_json would read it without complaint and it is made of
/// strings, `true`, `false`, `null`, and objects and arrays of those, at most [`DEPTH`] deep;
/// `None` for anything else (numbers included: their range is left to serde_json).
fn checked_value(line: &[u8], i: usize) -> Option<usize> {
    checked_value_at(line, i, DEPTH)
}

fn checked_value_at(line: &[u8], i: usize, depth: usize) -> Option<usize> {
    match *line.get(i)? {
        b'"' => checked_string(line, i),
        open @ (b'{' | b'[') => {
            let depth = depth.checked_sub(1)?;
            let object = open == b'{';
            let close = if object { b'}' } else { b']' };
            let mut i = skip_ws(line, i + 1);
            if line.get(i) == Some(&close) {
                return Some(i + 1);
            }
            loop {
                if object {
                    let colon = skip_ws(line, checked_string(line, i)?);
                    if line.get(colon) != Some(&b':') {
                        return None;
                    }
                    i = skip_ws(line, colon + 1);
                }
                i = skip_ws(line, checked_value_at(line, i, depth)?);
                match *line.get(i)? {
                    b',' => i = skip_ws(line, i + 1),
                    c if c == close => return Some(i + 1),
                    _ => return None,
                }
            }
        }
        _ => [b"true".as_slice(), b"false", b"null"]
            .into_iter()
            .find(|word| line[i..].starts_with(word))
            .map(|word| i + word.len()),
    }
}

/// One past the string opening at `i` when serde_json would read it into a `String`: every byte
/// below 0x20 refused, every escape one of JSON's, no `\u` escape in the surrogate range (a
/// valid pair is rare; it is left to serde_json), and the body valid UTF-8. The search goes from
/// backslash to backslash, each escape checked and stepped over, to the closing quote; the body
/// is then checked whole for control bytes and UTF-8 (the bytes of an escape are neither).
fn checked_string(line: &[u8], i: usize) -> Option<usize> {
    if line.get(i) != Some(&b'"') {
        return None;
    }
    let start = i + 1;
    let mut from = start;
    let end = loop {
        let at = from + quote_or_backslash(line.get(from..)?)?;
        if line[at] == b'"' {
            break at;
        }
        from = at + escape_len(line, at)?;
    };
    let body = &line[start..end];
    (!has_control(body) && std::str::from_utf8(body).is_ok()).then_some(end + 1)
}

/// Whether `bytes` holds a byte below 0x20. Every byte is looked at, with no early exit, so the
/// loop is one of vector instructions.
#[inline]
fn has_control(bytes: &[u8]) -> bool {
    bytes.iter().fold(false, |seen, &c| seen | (c < 0x20))
}

/// The length of the escape at `at` (a backslash), if it is one serde_json reads into a
/// `String` without a surrogate.
#[inline]
fn escape_len(line: &[u8], at: usize) -> Option<usize> {
    match *line.get(at + 1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(2),
        b'u' => {
            let hex = line.get(at + 2..at + 6)?;
            let surrogate = matches!(hex[0], b'd' | b'D')
                && matches!(hex[1], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F');
            (!surrogate && hex.iter().all(u8::is_ascii_hexdigit)).then_some(6)
        }
        _ => None,
    }
}

/// The first `"` or `\` in `hay`. On x86_64 `memchr`'s SSE2 search (SSE2 is part of the
/// baseline), inlined here: the instructions hold an escape every few dozen bytes, and a call
/// for each, even to the AVX2 search, costs more than the bytes it saves.
#[inline(always)]
fn quote_or_backslash(hay: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(two) = memchr::arch::x86_64::sse2::memchr::Two::new(b'"', b'\\') {
        return two.find(hay);
    }
    memchr::memchr2(b'"', b'\\', hay)
}

#[cfg(test)]
#[path = "meta_strip_tests.rs"]
mod tests;
