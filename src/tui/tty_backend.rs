//! ratatui's crossterm backend on `/dev/tty`, but for one thing: where the cursor is. crossterm
//! asks the terminal (`ESC [ 6 n`) on standard output, which holds the picker's answer (often a
//! file or `$(...)`): the question would end up in the answer and the reply never come. Here
//! it is asked on the terminal. The inline picker asks when it opens, on a resize and after
//! Ctrl+Z and Ctrl+L (ratatui anchors its rows to the cursor).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::fd::AsFd;

use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};

/// The picker's backend: crossterm's, writing to the terminal through a buffer (a frame is
/// thousands of small writes; ratatui flushes once per frame).
pub(crate) struct TtyBackend {
    inner: CrosstermBackend<BufWriter<File>>,
    /// The same terminal, to ask on.
    tty: File,
}

impl TtyBackend {
    pub(crate) fn new(tty: File) -> io::Result<TtyBackend> {
        Ok(TtyBackend {
            tty: tty.try_clone()?,
            inner: CrosstermBackend::new(BufWriter::with_capacity(256 << 10, tty)),
        })
    }
}

/// The cursor's position, asked on `tty`: standard output points at the terminal while
/// crossterm asks (its reader takes the reply and keeps the keys typed meanwhile), then at
/// what it was.
fn cursor_position(tty: &File) -> io::Result<Position> {
    io::stdout().flush()?;
    let stdout = io::stdout().as_fd().try_clone_to_owned()?;
    rustix::stdio::dup2_stdout(tty)?;
    let asked = ratatui::crossterm::cursor::position();
    rustix::stdio::dup2_stdout(&stdout)?;
    let (x, y) = asked?;
    Ok(Position { x, y })
}

impl Backend for TtyBackend {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.inner.draw(content)
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        // What is written so far first: the answer is about where it left the cursor.
        Backend::flush(&mut self.inner)?;
        cursor_position(&self.tty)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        self.inner.size()
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)
    }
}

/// Bytes straight to the terminal (the modes, an OSC 52 clipboard sequence).
impl Write for TtyBackend {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Write::flush(&mut self.inner)
    }
}
