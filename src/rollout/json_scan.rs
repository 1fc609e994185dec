//! The byte-level half of the line skimmer: where a JSON string, value or run of white space
//! ends, found without building anything and without validating more than the walk needs.
//!
//! A string ends at its first quote that no backslash escapes, a backslash escaping the byte
//! after it whatever that is (so a malformed string still has one well-defined end). The walk
//! looks for the first quote or backslash (a quote then ends a plain string, the common case),
//! and after a backslash goes from quote to quote, each quote checked against the run of
//! backslashes before it. Each search is `memchr`'s: on x86_64 the first 64 bytes by
//! its SSE2 search, inlined into the walk (SSE2 is part of the baseline; keys and tags end
//! within a few bytes, where a call would cost more than the search), the rest by a call that
//! takes AVX2 when the processor has it. Elsewhere `memchr`'s own functions, which are inlined
//! where the vector instructions are part of the baseline (NEON on aarch64).

/// JSON white space.
#[inline(always)]
fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first index at or after `i` that is not JSON white space (`b.len()` at most).
#[inline(always)]
pub(super) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    // Compact JSON has no white space: one test, then out.
    while let Some(&c) = b.get(i) {
        if c > b' ' || !is_ws(c) {
            break;
        }
        i += 1;
    }
    i
}

/// The closing quote of the string whose body starts at `start` (just after its opening quote).
/// `None` when the line ends first.
#[inline(always)]
pub(super) fn string_end(b: &[u8], start: usize) -> Option<usize> {
    string_end_plain(b, start).map(|(end, _)| end)
}

/// [`string_end`], and whether the body holds no backslash (`false` is then exact).
#[inline(always)]
pub(super) fn string_end_plain(b: &[u8], start: usize) -> Option<(usize, bool)> {
    let at = start + find2(b.get(start..)?)?;
    if b[at] == b'"' {
        return Some((at, true));
    }
    quote_end(b, start, at + 1).map(|end| (end, false))
}

/// Whether the quote at `q` is escaped: preceded by an odd run of backslashes (counted back to
/// `start`, the string's first byte). A run starts at a byte that nothing escapes, so its
/// backslashes pair off and only an odd one left over escapes the quote.
#[inline(always)]
fn escaped(b: &[u8], start: usize, q: usize) -> bool {
    let mut k = q;
    while k > start && b[k - 1] == b'\\' {
        k -= 1;
    }
    (q - k) % 2 == 1
}

/// The first quote at or after `from` that no backslash escapes, in the string whose body
/// starts at `start`: `memchr` jumps from quote to quote.
#[inline]
fn quote_end(b: &[u8], start: usize, mut from: usize) -> Option<usize> {
    loop {
        let q = from + find_quote(b.get(from..)?)?;
        if !escaped(b, start, q) {
            return Some(q);
        }
        from = q + 1;
    }
}

/// Bytes searched by the inlined search before a call to `memchr` takes over.
#[cfg(target_arch = "x86_64")]
const INLINE: usize = 64;

/// The first `"` or `\` in `hay`.
#[inline(always)]
fn find2(hay: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(two) = memchr::arch::x86_64::sse2::memchr::Two::new(b'"', b'\\') {
        if hay.len() <= INLINE {
            return two.find(hay);
        }
        if let Some(k) = two.find(&hay[..INLINE]) {
            return Some(k);
        }
        return memchr::memchr2(b'"', b'\\', &hay[INLINE..]).map(|k| k + INLINE);
    }
    memchr::memchr2(b'"', b'\\', hay)
}

/// The first `"` in `hay`, searched as [`find2`] searches.
#[inline(always)]
fn find_quote(hay: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(one) = memchr::arch::x86_64::sse2::memchr::One::new(b'"') {
        if hay.len() <= INLINE {
            return one.find(hay);
        }
        if let Some(k) = one.find(&hay[..INLINE]) {
            return Some(k);
        }
        return memchr::memchr(b'"', &hay[INLINE..]).map(|k| k + INLINE);
    }
    memchr::memchr(b'"', hay)
}

/// The index of the first `"` or `\` in the eight bytes of `word` (little-endian), if any.
/// Only the skimmer's tests call it.
#[cfg(test)]
pub(super) fn quote_or_backslash(word: u64) -> Option<usize> {
    memchr::memchr2(b'"', b'\\', &word.to_le_bytes())
}

/// The end (one past) of the value at `i` (white space already skipped): a string, an object or
/// array (brackets counted, not matched), else a literal or number running to the next `,`,
/// `}`, `]` or white space. `None` when the line ends first or the value is empty.
#[inline(always)]
pub(super) fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => string_end(b, i + 1).map(|end| end + 1),
        b'{' | b'[' => container_end(b, i + 1),
        _ => {
            let n = b[i..]
                .iter()
                .position(|&c| matches!(c, b',' | b'}' | b']') || is_ws(c))
                .unwrap_or(b.len() - i);
            (n > 0).then_some(i + n)
        }
    }
}

/// One past the bracket closing a container whose contents start at `i`: iterative, so deep
/// nesting costs a counter, not the stack.
fn container_end(b: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 1usize;
    loop {
        match *b.get(i)? {
            b'"' => i = string_end(b, i + 1)?,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The end of a string read the slow, obvious way.
    fn reference(b: &[u8], start: usize) -> Option<usize> {
        let mut i = start;
        while i < b.len() {
            match b[i] {
                b'"' => return Some(i),
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
        None
    }

    fn check(b: &[u8], start: usize) {
        let want = reference(b, start);
        let plain = want.is_some_and(|e| !b[start..e].contains(&b'\\'));
        for (name, got) in [
            ("plain", string_end_plain(b, start)),
            ("skip", string_end(b, start).map(|end| (end, false))),
        ] {
            let text = String::from_utf8_lossy(b);
            assert_eq!(got.map(|g| g.0), want, "{name} {start} {text:?}");
            // `plain` may only be claimed when true; `string_end_plain` says it exactly.
            assert!(
                !got.is_some_and(|g| g.1) || plain,
                "{name} {start} {text:?}"
            );
            if name == "plain" {
                assert_eq!(got.map(|g| g.1), want.map(|_| plain), "{start} {text:?}");
            }
        }
    }

    #[test]
    fn string_ends_at_every_offset_around_the_blocks() {
        for pre in 0..3 {
            for n in 0..140 {
                for tail in [0, 1, 2, 7, 15, 16, 17, 40] {
                    let mut line = vec![b'x'; pre];
                    line.extend(std::iter::repeat_n(b'a', n));
                    line.push(b'"');
                    line.extend(std::iter::repeat_n(b'}', tail));
                    check(&line, pre);
                    // Cut short: no end at all.
                    check(&line[..pre + n], pre);
                }
            }
        }
    }

    #[test]
    fn escapes_straddling_block_edges() {
        let escapes: [&[u8]; 6] = [br#"\""#, br"\\", br#"\\\""#, br"\n", br"\u0022", br"\\\\"];
        for n in 0..100 {
            for esc in escapes {
                for m in 0..20 {
                    for tail in [0, 3, 16, 33] {
                        let mut line = vec![b'a'; n];
                        line.extend_from_slice(esc);
                        line.extend(std::iter::repeat_n(b'b', m));
                        line.push(b'"');
                        line.extend(std::iter::repeat_n(b',', tail));
                        check(&line, 0);
                        check(&line, n.min(3));
                        // A trailing lone backslash, and a line ending right after an escape.
                        check(&line[..n + 1], 0);
                        check(&line[..n + esc.len()], 0);
                    }
                }
            }
        }
    }

    #[test]
    fn string_ends_in_noise() {
        // Every short mix of quotes, backslashes and letters, at every start.
        let alphabet = [b'"', b'\\', b'a'];
        for len in 0..=9u32 {
            for code in 0..3usize.pow(len) {
                let line: Vec<u8> = (0..len)
                    .map(|k| alphabet[code / 3usize.pow(k) % 3])
                    .collect();
                for start in 0..=line.len() {
                    check(&line, start);
                }
                for pad in [12, 30, 70] {
                    let mut padded = vec![b'a'; pad];
                    padded.append(&mut line.clone());
                    check(&padded, 0);
                    check(&padded, pad);
                }
            }
        }
    }

    #[test]
    fn values_end_where_serde_would_stop() {
        let cases: &[(&str, Option<usize>)] = &[
            (r#""ab",1"#, Some(4)),
            (r#"{"a":[1,{"b":"]}"}]},2"#, Some(20)),
            ("[[[]]]]", Some(6)),
            ("123}", Some(3)),
            ("true ", Some(4)),
            ("null", Some(4)),
            (",", None),
            ("}", None),
            ("", None),
            ("[1,2", None),
            (r#"{"a":"}"#, None),
        ];
        for (text, want) in cases {
            assert_eq!(value_end(text.as_bytes(), 0), *want, "{text}");
        }
        assert_eq!(skip_ws(b" \t\r\n x", 0), 5);
        assert_eq!(skip_ws(b"\x0b", 0), 0);
        assert_eq!(skip_ws(b"  ", 0), 2);
    }
}
