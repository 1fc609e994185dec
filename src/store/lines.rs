//! Line-by-line reading of a rollout stream with a length cap and a byte position.
//!
//! Owns: splitting on `\n`, stripping `\r` and a leading byte-order mark, refusing to hold a line
//! longer than the cap in memory (the rest of such a line is consumed and dropped), and counting
//! consumed bytes so a grown file can be read on from where the last read stopped.

use std::io::{self, BufRead};

/// The longest line kept in memory; longer lines are skipped (their bytes are still consumed).
pub const DEFAULT_MAX_LINE: usize = 32 << 20;

/// One step of the reader.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// A line, without its `\n` / `\r\n`. `terminated` is false for a last line with no newline.
    Line {
        terminated: bool,
    },
    /// A line longer than the cap; `len` bytes were consumed and dropped.
    TooLong {
        len: usize,
    },
    Eof,
}

pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    max_line: usize,
    /// Bytes consumed from the stream, counted from where the reader started.
    consumed: u64,
    at_start: bool,
}

impl<R: BufRead> LineReader<R> {
    /// `at_file_start` enables the byte-order-mark check (only meaningful at offset 0).
    pub fn new(inner: R, max_line: usize, at_file_start: bool) -> Self {
        LineReader {
            inner,
            buf: Vec::new(),
            max_line,
            consumed: 0,
            at_start: at_file_start,
        }
    }

    /// Bytes consumed so far: the position just after the last line returned.
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// The current line's bytes (valid after `Step::Line`).
    pub fn line(&self) -> &[u8] {
        &self.buf
    }

    pub fn next_line(&mut self) -> io::Result<Step> {
        self.buf.clear();
        let mut len = 0usize;
        let mut too_long = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if len == 0 {
                    return Ok(Step::Eof);
                }
                return Ok(self.finish(len, too_long, false));
            }
            let (take, found) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let body = if found { &chunk[..take - 1] } else { chunk };
            if !too_long {
                if len + body.len() > self.max_line {
                    too_long = true;
                    self.buf.clear();
                    self.buf.shrink_to(64 << 10);
                } else {
                    self.buf.extend_from_slice(body);
                }
            }
            len += take;
            self.inner.consume(take);
            self.consumed += take as u64;
            if found {
                return Ok(self.finish(len, too_long, true));
            }
        }
    }

    fn finish(&mut self, len: usize, too_long: bool, terminated: bool) -> Step {
        if too_long {
            self.at_start = false;
            return Step::TooLong { len };
        }
        if self.at_start {
            self.at_start = false;
            if self.buf.starts_with(b"\xEF\xBB\xBF") {
                self.buf.drain(..3);
            }
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Step::Line { terminated }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(input: &[u8], max: usize) -> Vec<(String, Step)> {
        let mut r = LineReader::new(io::BufReader::with_capacity(4, input), max, true);
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
}
