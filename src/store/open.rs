//! Opening a rollout for reading: plain JSONL or a zstd stream, decompressed as it is read.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

const BUF: usize = 256 << 10;
/// The text-side buffer: below the line reader's smallest read, so its reads pass through.
const PASS_THROUGH: usize = 8 << 10;

/// A buffered reader over the file's JSONL text, positioned at `offset` of that text.
/// `.zst` files are decompressed (and the first `offset` bytes skipped by decompressing them).
pub fn open_at(path: &Path, compressed: bool, offset: u64) -> io::Result<Box<dyn BufRead + Send>> {
    open_at_with(path, compressed, offset, BUF)
}

/// [`open_at`] with a compressed-input buffer of `buf` bytes: small for a preview (the first
/// prompt is usually in the first few KB, and a big first read would decompress bytes never
/// looked at), large for a full pass. The text side gets a small buffer only: the line reader
/// reads in large blocks of its own, which `BufReader` passes straight through, so the text is
/// copied once, into the line reader's buffer.
pub fn open_at_with(
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
    let decoder = zstd::stream::read::Decoder::with_buffer(BufReader::with_capacity(buf, file))?;
    let mut reader = BufReader::with_capacity(PASS_THROUGH, decoder);
    if offset > 0 {
        io::copy(&mut (&mut reader).take(offset), &mut io::sink())?;
    }
    Ok(Box::new(reader))
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
