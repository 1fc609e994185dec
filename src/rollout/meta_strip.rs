//! A `session_meta` row made small before it is parsed.
//!
//! The row carries the base instructions: kilobytes of escaped text the reader never keeps, which
//! serde_json would still copy string by string to check them. Here every long payload value the
//! reader ignores is checked once, strings sixteen bytes at a time, by the rules serde_json applies
//! (no raw control character, only JSON's escapes), and replaced by `null`. The smaller row then
//! parses to the same metadata and is refused exactly when the original is: the bytes before each
//! replaced value are unchanged, so the parser meets the value where it expects one, and the value
//! was valid in full. Only values made of strings, `true`, `false`, `null`, objects and arrays are
//! replaced; a number, deep nesting, a `\u` escape of a surrogate, bytes that are not UTF-8, or
//! any doubt about the row's shape leave the row as it is, for the full parse.
//!
//! The block masks stay hand-written because they were measured against `memchr` in their place
//! (`memchr2` from escape to escape, its SSE2 search inlined, then one pass over the body for
//! control bytes and UTF-8) and won on time: `examples/scan.rs` reading every metadata row,
//! median of ten alternated runs each the fastest of many, took 15% more time with `memchr` over
//! the real-Codex fixtures (115 -> 132 us) and 38% more over 306 generated rollouts (0.97 -> 1.34
//! ms), for about as many instructions (4% fewer, 2% more). Base instructions hold an escape
//! every few dozen bytes: each is a new search for `memchr`, where a mask takes every escape of
//! its sixteen bytes at once.

use super::json_scan::{skip_ws, string_end, value_end};

/// Values shorter than this are left in place: replacing them saves less than it costs.
const LONG: usize = 512;

/// `line` with its long ignored payload values replaced by `null`, or `None` when there is
/// nothing to replace (or the row is not of the expected shape): parse `line` itself then.
/// `reads(key)` says which payload fields the caller reads: their values are never replaced.
pub(super) fn strip(line: &[u8], reads: fn(&str) -> bool) -> Option<Vec<u8>> {
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
            payload(line, at, reads, &mut spans)?
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
fn payload(
    line: &[u8],
    i: usize,
    reads: fn(&str) -> bool,
    spans: &mut Vec<(usize, usize)>,
) -> Option<usize> {
    let mut i = skip_ws(line, i + 1);
    if line.get(i) == Some(&b'}') {
        return Some(i + 1);
    }
    loop {
        let (key, at) = member_key(line, i)?;
        // A key written with escapes may still name a field that is read: never replace its
        // value. Which fields are read is the caller's to say.
        let ignored =
            !key.contains(&b'\\') && std::str::from_utf8(key).is_ok_and(|key| !reads(key));
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
        b'{' => checked_container::<true>(line, i, depth),
        b'[' => checked_container::<false>(line, i, depth),
        _ => [b"true".as_slice(), b"false", b"null"]
            .into_iter()
            .find(|word| line[i..].starts_with(word))
            .map(|word| i + word.len()),
    }
}

/// One past the object (`OBJECT`) or array opening at `i`, checked as [`checked_value_at`]
/// checks: an object's member is a string and a colon before its value. One loop for both,
/// made twice by the compiler, so neither tests which it is as it goes.
#[inline(always)]
fn checked_container<const OBJECT: bool>(line: &[u8], i: usize, depth: usize) -> Option<usize> {
    let depth = depth.checked_sub(1)?;
    let close = if OBJECT { b'}' } else { b']' };
    let mut i = skip_ws(line, i + 1);
    if line.get(i) == Some(&close) {
        return Some(i + 1);
    }
    loop {
        if OBJECT {
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

/// One past the string opening at `i` when serde_json would read it into a `String`: every byte
/// below 0x20 refused, every escape one of JSON's, no `\u` escape in the surrogate range (a
/// valid pair is rare; it is left to serde_json), and the body valid UTF-8. Sixteen bytes at a
/// time: the escapes met in a block are checked from its mask, without starting over.
fn checked_string(line: &[u8], i: usize) -> Option<usize> {
    if line.get(i) != Some(&b'"') {
        return None;
    }
    let start = i + 1;
    // Bytes before `skip` are taken (the tail of an escape may reach into the next block).
    let mut skip = start;
    let mut block = start;
    let mut ascii = true;
    loop {
        let (mut mask, high) = masks(line, block)?;
        while mask != 0 {
            let k = mask.trailing_zeros();
            mask &= mask - 1;
            let at = block + k as usize;
            if at < skip {
                continue;
            }
            match line[at] {
                b'"' => {
                    let before = (1u32 << k) - 1;
                    if !(ascii && high & before == 0) {
                        std::str::from_utf8(&line[start..at]).ok()?;
                    }
                    return Some(at + 1);
                }
                b'\\' => skip = at + escape_len(line, at)?,
                // A raw control character.
                _ => return None,
            }
        }
        ascii &= high == 0;
        block += 16;
    }
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

/// For the (up to) sixteen bytes of `line` from `at`: bit `k` of the first mask set where byte
/// `k` is a quote, a backslash or below 0x20; of the second, where it is not ASCII. `None` past
/// the end of the line.
#[inline(always)]
fn masks(line: &[u8], at: usize) -> Option<(u32, u32)> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(block) = line.get(at..at + 16) {
        return Some(sse2_masks(block.try_into().ok()?));
    }
    let rest = line.get(at..).filter(|r| !r.is_empty())?;
    let (mut special, mut high) = (0u32, 0u32);
    for (k, &c) in rest.iter().take(16).enumerate() {
        if c == b'"' || c == b'\\' || c < 0x20 {
            special |= 1 << k;
        }
        if c >= 0x80 {
            high |= 1 << k;
        }
    }
    Some((special, high))
}

/// Bit `k` of the first mask set where byte `k` of `block` is a quote, a backslash or below
/// 0x20; of the second, where it is not ASCII.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn sse2_masks(block: &[u8; 16]) -> (u32, u32) {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    // SAFETY: the `cfg` above makes SSE2 a feature of the build, so its instructions may run;
    // the load reads the 16 bytes of `block`, with no alignment needed.
    let (mask, high) = unsafe {
        let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
        let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        // Below 0x20 exactly when the unsigned maximum with 0x1f is 0x1f.
        let low = _mm_set1_epi8(0x1f);
        let control = _mm_cmpeq_epi8(_mm_max_epu8(v, low), low);
        (
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)),
            _mm_movemask_epi8(v),
        )
    };
    (mask as u32, high as u32)
}

#[cfg(test)]
#[path = "meta_strip_tests.rs"]
mod tests;
