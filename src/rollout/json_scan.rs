//! The byte-level half of the line classifier: where a JSON string, value or run of white space
//! ends, found without building anything and without validating more than the walk needs.
//!
//! A string ends at its first quote that no backslash escapes, a backslash escaping the byte
//! after it whatever that is (so a malformed string still has one well-defined end). Keys and
//! tags end within a few bytes, so the first bytes of a string are searched inline, sixteen at
//! a time with SSE2 on x86_64 (part of its baseline) and eight at a time in a `u64` elsewhere;
//! past that, `memchr` jumps from quote to quote, so long strings cost little more than a read.
//!
//! The inline search stays hand-written because it was measured against `memchr` in its place
//! (`memchr2` to the first quote or backslash, then `memchr` from quote to quote; its SSE2
//! search inlined for the first 64 bytes, AVX2 past them) and won on time: `examples/scan.rs`
//! classifying every line, median of ten alternated runs each the fastest of many, took 24%
//! more time with `memchr` over the real-Codex fixtures (138 -> 171 us) and 7% more over 306
//! generated rollouts (10.1 -> 10.9 ms), for about as many instructions (4% fewer, 3% more).

/// JSON white space.
#[inline(always)]
fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first index at or after `i` that is not JSON white space (`b.len()` at most).
#[inline(always)]
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
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
pub(crate) fn string_end(b: &[u8], start: usize) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    let end = sse2::string_end::<false>(b, start);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let end = swar::string_end(b, start);
    end.map(|(end, _)| end)
}

/// [`string_end`], and whether the body surely holds no backslash (`false` also means "not
/// looked": past its first bytes a string is not searched for one).
#[inline(always)]
pub(super) fn string_end_plain(b: &[u8], start: usize) -> Option<(usize, bool)> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::string_end::<true>(b, start)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        swar::string_end(b, start)
    }
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

/// The rest of a string past its first bytes, from `from` (every quote before it is escaped):
/// `memchr` jumps from quote to quote.
#[cold]
#[inline(never)]
fn long_string_end(b: &[u8], start: usize, mut from: usize) -> Option<(usize, bool)> {
    loop {
        let q = from + memchr::memchr(b'"', b.get(from..)?)?;
        if !escaped(b, start, q) {
            return Some((q, false));
        }
        from = q + 1;
    }
}

#[cfg(any(all(target_arch = "x86_64", target_feature = "sse2"), test))]
mod sse2 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };

    /// Bytes of a string searched inline before `memchr` takes over.
    const INLINE: usize = 64;

    /// Bit `k` set where byte `k` of `block` is a quote; the same for a backslash.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    fn masks(block: &[u8; 16]) -> (u32, u32) {
        // SAFETY: the `cfg` above makes SSE2 a feature of the build, so its instructions may
        // run; the load reads the 16 bytes of `block`, with no alignment needed.
        let (q, s) = unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
            (
                _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8))),
                _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8))),
            )
        };
        (q as u32, s as u32)
    }

    /// The same masks computed a byte at a time, so the walk below is tested on every target.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    fn masks(block: &[u8; 16]) -> (u32, u32) {
        let bits = |c: u8| {
            (0..16)
                .filter(|&k| block[k] == c)
                .fold(0, |m, k| m | 1 << k)
        };
        (bits(b'"'), bits(b'\\'))
    }

    /// [`super::string_end_plain`] (or, without `PLAIN`, [`super::string_end`] with a
    /// `false`), sixteen bytes at a time, from quote to quote. A block is taken whole when it
    /// lies in the line; near the end of the line the last sixteen bytes are taken, shifted
    /// past the ones already looked at.
    #[inline(always)]
    pub(super) fn string_end<const PLAIN: bool>(b: &[u8], start: usize) -> Option<(usize, bool)> {
        let mut i = start;
        // 1 when the byte before `i` is a backslash of the string.
        let mut carry = 0;
        // Backslashes met so far (with `PLAIN`).
        let mut seen = 0;
        loop {
            let (q, s) = match b.get(i..i + 16) {
                Some(block) => masks(block.try_into().ok()?),
                None if i >= b.len() => return None,
                // A line this short was never taken a block at a time: `i` is `start`.
                None if b.len() < 16 => return super::swar::string_end(b, start),
                None => {
                    let from = b.len() - 16;
                    let (q, s) = masks(b[from..].try_into().ok()?);
                    (q >> (i - from), s >> (i - from))
                }
            };
            let first = q & q.wrapping_neg();
            if first != 0 {
                let end = i + first.trailing_zeros() as usize;
                if PLAIN {
                    seen |= s & (first - 1);
                }
                // Escaped only if a backslash is right before it: then count the run.
                if ((s << 1) | carry) & first == 0 || !super::escaped(b, start, end) {
                    return Some((end, PLAIN && seen == 0));
                }
                i = end + 1;
                carry = 0;
            } else {
                if PLAIN {
                    seen |= s;
                }
                carry = (s >> 15) & 1;
                i += 16;
            }
            if i - start >= INLINE {
                return super::long_string_end(b, start, i);
            }
        }
    }
}

#[cfg(test)]
pub(super) use swar::quote_or_backslash;

mod swar {
    /// Bytes of a string searched inline before `memchr` takes over.
    const INLINE: usize = 32;

    /// The index of the first `"` or `\` in the eight bytes of `word` (little-endian), if any.
    #[inline]
    pub(in crate::rollout) fn quote_or_backslash(word: u64) -> Option<usize> {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let q = word ^ (ONES * u64::from(b'"'));
        let s = word ^ (ONES * u64::from(b'\\'));
        // A zero byte of `q` or `s` sets its high bit here; a borrow can only set bits above the
        // first true zero byte, so the lowest bit set is exact.
        let hits = ((q.wrapping_sub(ONES) & !q) | (s.wrapping_sub(ONES) & !s)) & HIGH;
        (hits != 0).then(|| hits.trailing_zeros() as usize / 8)
    }

    /// [`super::string_end_plain`], eight bytes at a time.
    #[inline]
    pub(super) fn string_end(b: &[u8], start: usize) -> Option<(usize, bool)> {
        let short = (start + INLINE).min(b.len());
        let mut from = start;
        while from + 8 <= short {
            let word = u64::from_le_bytes(b[from..from + 8].try_into().ok()?);
            match quote_or_backslash(word) {
                Some(k) if b[from + k] == b'"' => return Some((from + k, true)),
                Some(k) => return super::long_string_end(b, start, from + k),
                None => from += 8,
            }
        }
        // Fewer than eight bytes before `short`: one at a time.
        while from < short {
            match b[from] {
                b'"' => return Some((from, true)),
                b'\\' => break,
                _ => from += 1,
            }
        }
        super::long_string_end(b, start, from)
    }
}

/// The end (one past) of the value at `i` (white space already skipped): a string, an object or
/// array (brackets counted, not matched), else a literal or number running to the next `,`,
/// `}`, `]` or white space. `None` when the line ends first or the value is empty.
#[inline(always)]
pub(crate) fn value_end(b: &[u8], i: usize) -> Option<usize> {
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
            ("sse2", sse2::string_end::<true>(b, start)),
            ("sse2 skip", sse2::string_end::<false>(b, start)),
            ("swar", swar::string_end(b, start)),
            ("chosen", string_end_plain(b, start)),
            ("chosen skip", string_end(b, start).map(|end| (end, false))),
        ] {
            let text = String::from_utf8_lossy(b);
            assert_eq!(got.map(|g| g.0), want, "{name} {start} {text:?}");
            // `plain` may only be claimed when true.
            assert!(
                !got.is_some_and(|g| g.1) || plain,
                "{name} {start} {text:?}"
            );
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
