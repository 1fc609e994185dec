//! The line reader against a plain reference split, over reads of every size.

use super::*;
use proptest::prelude::*;

fn collect(input: &[u8], max: usize) -> Vec<(String, Step)> {
    let mut r = LineReader::with_first_read(input, max, true, 4);
    let mut out = Vec::new();
    loop {
        let step = r.next_line().unwrap();
        if step == Step::Eof {
            break;
        }
        out.push((String::from_utf8_lossy(r.line()).into_owned(), step));
    }
    assert_eq!(r.consumed(), input.len() as u64);
    out
}

#[test]
fn splits_strips_crlf_and_bom() {
    let got = collect(b"\xEF\xBB\xBFab\r\ncd\nef", 100);
    let texts: Vec<_> = got.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(texts, ["ab", "cd", "ef"]);
    assert_eq!(got[2].1, Step::Line { terminated: false });
}

#[test]
fn long_lines_are_dropped_not_held() {
    let got = collect(b"short\nthis line is too long\nok\n", 10);
    assert_eq!(got[1].1, Step::TooLong { len: 22 });
    assert_eq!(got[2].0, "ok");
}

/// What the reader must give: (line or over-long length, terminated, consumed after it).
#[derive(Debug, PartialEq, Eq)]
enum Want {
    Line(Vec<u8>, bool, u64),
    TooLong(usize, u64),
}

fn reference(input: &[u8], max: usize, at_start: bool) -> Vec<Want> {
    let mut out = Vec::new();
    let (mut pos, mut first) = (0, at_start);
    while pos < input.len() {
        let (body_end, next, terminated) = match memchr::memchr(b'\n', &input[pos..]) {
            Some(i) => (pos + i, pos + i + 1, true),
            None => (input.len(), input.len(), false),
        };
        let mut body = &input[pos..body_end];
        if body.len() > max {
            out.push(Want::TooLong(next - pos, next as u64));
        } else {
            if first && body.starts_with(b"\xEF\xBB\xBF") {
                body = &body[3..];
            }
            if body.last() == Some(&b'\r') {
                body = &body[..body.len() - 1];
            }
            out.push(Want::Line(body.to_vec(), terminated, next as u64));
        }
        first = false;
        pos = next;
    }
    out
}

/// A reader that hands out at most a few bytes at a time and is now and then interrupted.
struct Trickle<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    k: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.k += 1;
        let size = self.sizes[self.k % self.sizes.len()];
        if size == 0 {
            return Err(io::Error::from(io::ErrorKind::Interrupted));
        }
        let n = size.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn run(input: &[u8], max: usize, at_start: bool, first: usize, sizes: Vec<usize>) -> Vec<Want> {
    let trickle = Trickle {
        data: input,
        sizes,
        k: 0,
    };
    let mut r = LineReader::with_first_read(trickle, max, at_start, first);
    let mut out = Vec::new();
    loop {
        match r.next_line().unwrap() {
            Step::Eof => break,
            Step::TooLong { len } => out.push(Want::TooLong(len, r.consumed())),
            Step::Line { terminated } => {
                out.push(Want::Line(r.line().to_vec(), terminated, r.consumed()));
            }
            Step::PassedOver { .. } => unreachable!("no line is passed over unless asked"),
        }
    }
    out
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\xEF\xBB\xBF".to_vec()),
        Just(b"{\"type\":\"x\"}".to_vec()),
        proptest::collection::vec(any::<u8>(), 0..40),
        proptest::collection::vec(Just(b'a'), 0..300),
    ];
    proptest::collection::vec(piece, 0..30).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn matches_the_reference_split(
        input in bytes(),
        max in 0usize..200,
        at_start in any::<bool>(),
        first in 1usize..64,
        sizes in proptest::collection::vec(0usize..97, 1..8).prop_filter("reads", |s| s.iter().any(|&n| n > 0)),
    ) {
        prop_assert_eq!(run(&input, max, at_start, first, sizes), reference(&input, max, at_start));
    }
}

#[test]
fn a_buffer_left_by_a_long_line_is_reused_cleanly() {
    let mut input = vec![b'x'; 300_000];
    input.extend_from_slice(b"\nshort\n");
    assert_eq!(
        run(&input, 1 << 20, true, 16, vec![100_000]),
        reference(&input, 1 << 20, true)
    );
    assert_eq!(
        run(b"a\nb", 10, true, 16, vec![5]),
        reference(b"a\nb", 10, true)
    );
}

/// A line over [`PASS_OVER_AT`] bytes whose head the caller does not want is dropped as it
/// streams, in reads, not held whole; the lines around it read as before, and one whose head is
/// wanted (or a reader not told) holds it whole.
#[test]
fn a_long_unwanted_line_passes_without_being_held() {
    let long = PASS_OVER_AT * 3;
    let mut input = b"first\nSKIP".to_vec();
    input.resize(input.len() + long, b'x');
    input.extend_from_slice(b"\nlast\nSKIP tail");
    let mut r = LineReader::new(&input[..], DEFAULT_MAX_LINE, true);
    r.pass_over(|head| head.starts_with(b"SKIP"));
    assert_eq!(r.next_line().unwrap(), Step::Line { terminated: true });
    assert_eq!(r.line(), b"first");
    assert_eq!(
        r.next_line().unwrap(),
        Step::PassedOver {
            len: long + 5,
            terminated: true
        }
    );
    assert!(
        r.buf.len() < PASS_OVER_AT + 2 * CHUNK,
        "held {} bytes",
        r.buf.len()
    );
    assert_eq!(r.next_line().unwrap(), Step::Line { terminated: true });
    assert_eq!(r.line(), b"last");
    // Short lines are never looked at: this one is under the length the head is read at.
    assert_eq!(r.next_line().unwrap(), Step::Line { terminated: false });
    assert_eq!(r.line(), b"SKIP tail");
    assert_eq!(r.consumed(), input.len() as u64);

    let mut wanted = LineReader::new(&input[..], DEFAULT_MAX_LINE, true);
    wanted.pass_over(|head| head.starts_with(b"KEEP"));
    wanted.next_line().unwrap();
    assert_eq!(wanted.next_line().unwrap(), Step::Line { terminated: true });
    assert_eq!(wanted.line().len(), long + 4);
}

#[test]
fn a_long_unwanted_line_cut_short_by_the_end_says_so() {
    let mut input = b"SKIP".to_vec();
    input.resize(PASS_OVER_AT * 2, b'x');
    let mut r = LineReader::new(&input[..], DEFAULT_MAX_LINE, true);
    r.pass_over(|head| head.starts_with(b"SKIP"));
    assert_eq!(
        r.next_line().unwrap(),
        Step::PassedOver {
            len: input.len(),
            terminated: false
        }
    );
    assert_eq!(r.next_line().unwrap(), Step::Eof);
}
