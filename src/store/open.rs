//! Opening a rollout for reading: plain JSONL or a zstd stream, decompressed as it is read
//! (with a decompression context reused from file to file on each thread).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use zstd::stream::raw::{InBuffer, Operation, OutBuffer, WriteBuf};
use zstd::zstd_safe::{DCtx, ResetDirective};

const BUF: usize = 256 << 10;
/// The text-side buffer: below the line reader's smallest read, so its reads pass through.
const PASS_THROUGH: usize = 8 << 10;

/// A buffered reader over the file's JSONL text, positioned at `offset` of that text.
/// `.zst` files are decompressed (and the first `offset` bytes skipped by decompressing them).
pub(crate) fn open_at(
    path: &Path,
    compressed: bool,
    offset: u64,
) -> io::Result<Box<dyn BufRead + Send>> {
    open_at_with(path, compressed, offset, BUF)
}

/// [`open_at`] with a compressed-input buffer of `buf` bytes: small for a preview (the first
/// prompt is usually in the first few KB, and a big first read would decompress bytes never
/// looked at), large for a full pass. The text side gets a small buffer only: the line reader
/// reads in large blocks of its own, which `BufReader` passes straight through, so the text is
/// copied once, into the line reader's buffer.
pub(crate) fn open_at_with(
    path: &Path,
    compressed: bool,
    offset: u64,
    buf: usize,
) -> io::Result<Box<dyn BufRead + Send>> {
    let buf = buf.max(4096);
    let mut file = File::open(path)?;
    if !compressed {
        if offset > 0 {
            file.seek(SeekFrom::Start(offset))?;
        }
        return Ok(Box::new(BufReader::with_capacity(PASS_THROUGH, file)));
    }
    let mut magic = [0u8; 4];
    let n = read_full(&mut file, &mut magic)?;
    if n < 4 || magic != [0x28, 0xB5, 0x2F, 0xFD] {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not a zstd stream",
        ));
    }
    file.seek(SeekFrom::Start(0))?;
    let decoder =
        zstd::stream::zio::Reader::new(BufReader::with_capacity(buf, file), PooledDecoder::take()?);
    let mut reader = BufReader::with_capacity(PASS_THROUGH, decoder);
    if offset > 0 {
        io::copy(&mut (&mut reader).take(offset), &mut io::sink())?;
    }
    Ok(Box::new(reader))
}

thread_local! {
    /// Decompression contexts of finished readers, for the next `.zst` file on the thread:
    /// creating one allocates and clears over a hundred kilobytes, which a preview of a small
    /// file would otherwise pay every time.
    static CONTEXTS: std::cell::RefCell<Vec<DCtx<'static>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Contexts kept per thread (a thread reads one file at a time; the spare is for a transcript
/// read beside a listing).
const CONTEXTS_KEPT: usize = 2;

/// A zstd stream decoder whose context goes back to the thread's pool when it is dropped. It
/// decodes as the crate's own decoder does: frames one after another, an unfinished last frame
/// being an `incomplete frame` error.
struct PooledDecoder {
    ctx: Option<DCtx<'static>>,
}

impl PooledDecoder {
    fn take() -> io::Result<Self> {
        let pooled = CONTEXTS.with(|pool| pool.borrow_mut().pop());
        let ctx = match pooled {
            Some(ctx) => ctx,
            None => DCtx::try_create().ok_or_else(|| io::Error::other("out of memory"))?,
        };
        Ok(PooledDecoder { ctx: Some(ctx) })
    }

    fn ctx(&mut self) -> io::Result<&mut DCtx<'static>> {
        self.ctx
            .as_mut()
            .ok_or_else(|| io::Error::other("decoder used after release"))
    }
}

impl Drop for PooledDecoder {
    fn drop(&mut self) {
        let Some(mut ctx) = self.ctx.take() else {
            return;
        };
        // A reader may stop mid-frame; a context that cannot be reset is not kept.
        if ctx.reset(ResetDirective::SessionOnly).is_ok() {
            let _ = CONTEXTS.try_with(|pool| {
                let mut pool = pool.borrow_mut();
                if pool.len() < CONTEXTS_KEPT {
                    pool.push(ctx);
                }
            });
        }
    }
}

fn zstd_error(code: usize) -> io::Error {
    io::Error::other(zstd::zstd_safe::get_error_name(code).to_string())
}

impl Operation for PooledDecoder {
    fn run<C: WriteBuf + ?Sized>(
        &mut self,
        input: &mut InBuffer<'_>,
        output: &mut OutBuffer<'_, C>,
    ) -> io::Result<usize> {
        self.ctx()?
            .decompress_stream(output, input)
            .map_err(zstd_error)
    }

    fn reinit(&mut self) -> io::Result<()> {
        self.ctx()?
            .reset(ResetDirective::SessionOnly)
            .map(drop)
            .map_err(zstd_error)
    }

    fn finish<C: WriteBuf + ?Sized>(
        &mut self,
        _output: &mut OutBuffer<'_, C>,
        finished_frame: bool,
    ) -> io::Result<usize> {
        if finished_frame {
            Ok(0)
        } else {
            Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "incomplete frame",
            ))
        }
    }
}

fn read_full(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}
