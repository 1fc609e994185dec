//! Line-by-line reading of a rollout stream with a length cap and a byte position.
//!
//! Owns: splitting on `\n`, stripping `\r` and a leading byte-order mark, refusing to hold a line
//! longer than the cap in memory (the rest of such a line is consumed and dropped), and counting
//! consumed bytes so a grown file can be read on from where the last read stopped.
//!
//! Lines are handed out as slices of the reader's own buffer, which the stream is read into
//! directly: only the head of a line that straddles two reads is moved. The first read is small
//! (a preview usually stops within the first few KB) and each further read twice the last, up
//! to [`CHUNK`]; the buffer grows past that only for a longer line, up to the cap.

use std::io::{self, Read};

/// The longest line kept in memory; longer lines are skipped (their bytes are still consumed).
pub(crate) const DEFAULT_MAX_LINE: usize = 32 << 20;

/// The first read, and the largest one a line of ordinary length leads to.
const FIRST_READ: usize = 16 << 10;
pub(crate) const CHUNK: usize = 256 << 10;

/// One step of the reader.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A line, without its `\n` / `\r\n`. `terminated` is false for a last line with no newline.
    Line {
        terminated: bool,
    },
    /// A line longer than the cap; `len` bytes were consumed and dropped.
    TooLong {
        len: usize,
    },
    /// A long line the reader was told to let pass ([`LineReader::pass_over`]): `len` bytes
    /// were consumed and dropped unread; `terminated` is false when the stream ended first.
    PassedOver {
        len: usize,
        terminated: bool,
    },
    Eof,
}

thread_local! {
    /// A finished reader's buffer, for the next reader on the thread: files are read one after
    /// another, and a fresh buffer would be zero-filled each time.
    static SPARE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The largest buffer kept for reuse.
const SPARE_MAX: usize = 1 << 20;

/// How long a line grows in the buffer before [`LineReader::pass_over`] looks at its head.
pub(crate) const PASS_OVER_AT: usize = 1 << 20;

pub(crate) struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    /// Unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    /// The current line is `buf[line.0..line.1]`.
    line: (usize, usize),
    /// How much the next read asks for (doubling up to [`CHUNK`]).
    read_size: usize,
    max_line: usize,
    /// Bytes consumed from the stream, counted from where the reader started.
    consumed: u64,
    /// Lines longer than [`PASS_OVER_AT`] whose head this says yes to are not held whole.
    pass_over: Option<fn(&[u8]) -> bool>,
    at_start: bool,
    eof: bool,
}

impl<R> Drop for LineReader<R> {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        if buf.len() <= SPARE_MAX {
            let _ = SPARE.try_with(|spare| {
                if let Ok(mut spare) = spare.try_borrow_mut() {
                    if spare.len() < buf.len() {
                        *spare = buf;
                    }
                }
            });
        }
    }
}

impl<R: Read> LineReader<R> {
    /// `at_file_start` enables the byte-order-mark check (only meaningful at offset 0).
    pub(crate) fn new(inner: R, max_line: usize, at_file_start: bool) -> Self {
        Self::with_first_read(inner, max_line, at_file_start, FIRST_READ)
    }

    /// [`LineReader::new`] whose first read asks for `first` bytes (tests use tiny reads).
    pub(crate) fn with_first_read(
        inner: R,
        max_line: usize,
        at_file_start: bool,
        first: usize,
    ) -> Self {
        LineReader {
            inner,
            buf: SPARE.with(|spare| std::mem::take(&mut *spare.borrow_mut())),
            start: 0,
            end: 0,
            line: (0, 0),
            read_size: first.max(1),
            max_line,
            consumed: 0,
            pass_over: None,
            at_start: at_file_start,
            eof: false,
        }
    }

    /// From now on, a line found longer than [`PASS_OVER_AT`] bytes whose head (what is read
    /// of it then) `unwanted` says yes to is consumed as it streams, never held whole
    /// ([`Step::PassedOver`]): a caller that would drop such a line keeps memory the size of
    /// a read, not of the line.
    pub(crate) fn pass_over(&mut self, unwanted: fn(&[u8]) -> bool) {
        self.pass_over = Some(unwanted);
    }

    /// Bytes consumed so far: the position just after the last line returned.
    pub(crate) fn consumed(&self) -> u64 {
        self.consumed
    }

    /// The current line's bytes (valid after `Step::Line`).
    pub(crate) fn line(&self) -> &[u8] {
        &self.buf[self.line.0..self.line.1]
    }

    /// Read more after the unread bytes (moved to the front first). Returns the bytes read
    /// (0 at the end of the stream).
    fn fill(&mut self) -> io::Result<usize> {
        if self.eof {
            return Ok(0);
        }
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        let want = self.end + self.read_size;
        if self.buf.len() < want {
            self.buf.resize(want, 0);
        }
        self.read_size = (self.read_size * 2).min(CHUNK);
        loop {
            match self.inner.read(&mut self.buf[self.end..want]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(0);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Drop the unread bytes of a line over the cap and everything up to its newline.
    fn skip_long_line(&mut self) -> io::Result<Step> {
        let (len, _) = self.drop_line()?;
        Ok(Step::TooLong { len })
    }

    /// Drop the unread bytes of the current line and everything up to its newline: how many
    /// were dropped, and whether a newline ended them.
    fn drop_line(&mut self) -> io::Result<(usize, bool)> {
        let mut len = 0;
        let mut terminated = false;
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.start..self.end]) {
                len += i + 1;
                self.start += i + 1;
                self.consumed += (i + 1) as u64;
                terminated = true;
                break;
            }
            len += self.end - self.start;
            self.consumed += (self.end - self.start) as u64;
            self.start = self.end;
            if self.fill()? == 0 {
                break;
            }
        }
        // Do not keep a buffer the size of the cap for the lines that follow.
        let rest = self.buf[self.start..self.end].to_vec();
        self.buf = rest;
        self.end -= self.start;
        self.start = 0;
        self.at_start = false;
        Ok((len, terminated))
    }

    /// Whether the current line, read in part, is one to let pass ([`LineReader::pass_over`]).
    fn passes_over(&self) -> bool {
        self.pass_over
            .is_some_and(|unwanted| unwanted(&self.buf[self.start..self.end]))
    }

    pub(crate) fn next_line(&mut self) -> io::Result<Step> {
        self.line = (0, 0);
        // Bytes of the unread part already known to hold no newline.
        let mut scanned = 0;
        let mut looked = false;
        loop {
            let from = self.start + scanned;
            if let Some(i) = memchr::memchr(b'\n', &self.buf[from..self.end]) {
                let nl = from + i;
                if nl - self.start > self.max_line {
                    return self.skip_long_line();
                }
                let line = (self.start, nl);
                self.consumed += (nl + 1 - self.start) as u64;
                self.start = nl + 1;
                return Ok(self.finish(line, true));
            }
            scanned = self.end - self.start;
            if scanned > self.max_line {
                return self.skip_long_line();
            }
            if !looked && scanned > PASS_OVER_AT {
                // The head is looked at once: a line it does not let pass is read as before.
                looked = true;
                if self.passes_over() {
                    let (len, terminated) = self.drop_line()?;
                    return Ok(Step::PassedOver { len, terminated });
                }
            }
            if self.fill()? == 0 {
                if self.start == self.end {
                    return Ok(Step::Eof);
                }
                let line = (self.start, self.end);
                self.consumed += (self.end - self.start) as u64;
                self.start = self.end;
                return Ok(self.finish(line, false));
            }
        }
    }

    fn finish(&mut self, (mut s, mut e): (usize, usize), terminated: bool) -> Step {
        if self.at_start {
            self.at_start = false;
            if self.buf[s..e].starts_with(b"\xEF\xBB\xBF") {
                s += 3;
            }
        }
        if e > s && self.buf[e - 1] == b'\r' {
            e -= 1;
        }
        self.line = (s, e);
        Step::Line { terminated }
    }
}

#[cfg(test)]
#[path = "lines_tests.rs"]
mod tests;
