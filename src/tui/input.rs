//! The real terminal's events for the event loop: crossterm reads and parses them, and the
//! loop's sleep is one `poll(2)` on the terminal, on a window-size signal and on the workers'
//! wake-up socket together, so a key, a resize and a worker's answer each end it at once and
//! nothing is looked at while nothing happens.

use std::io::{self, IsTerminal, Read};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::time::Duration;

use ratatui::crossterm::event::{self, Event as TermEvent};
use signal_hook::consts::SIGWINCH;
use signal_hook::SigId;

use crate::tui::event_loop::Input;
use crate::workers::wake::Wakeup;

/// The shortest wait crossterm's reader looks at the terminal for: with a zero timeout it only
/// hands out the events it has parsed already.
const LOOK: Duration = Duration::from_millis(1);

/// The terminal's events, read by crossterm.
pub(crate) struct TerminalInput {
    /// What crossterm reads (standard input when it is a terminal, else `/dev/tty`), to sleep
    /// on.
    tty: OwnedFd,
    /// Readable after a SIGWINCH (crossterm has a socket of its own for its Resize event).
    winch: UnixStream,
    winch_id: SigId,
    /// An event was read since crossterm last said none was ready: it may hold more, parsed
    /// from the same read, that the terminal's descriptor no longer shows.
    maybe_more: bool,
}

impl TerminalInput {
    pub(crate) fn new() -> io::Result<TerminalInput> {
        let tty = if io::stdin().is_terminal() {
            io::stdin().as_fd().try_clone_to_owned()?
        } else {
            std::fs::File::open("/dev/tty")?.into()
        };
        let (winch, notify) = UnixStream::pair()?;
        winch.set_nonblocking(true)?;
        notify.set_nonblocking(true)?;
        let winch_id = signal_hook::low_level::pipe::register(SIGWINCH, notify)?;
        // crossterm sets its reader up on the first look: now, not on the first key. A zero
        // wait reads nothing.
        event::poll(Duration::ZERO)?;
        Ok(TerminalInput {
            tty,
            winch,
            winch_id,
            maybe_more: false,
        })
    }
}

impl Drop for TerminalInput {
    fn drop(&mut self) {
        signal_hook::low_level::unregister(self.winch_id);
    }
}

impl Input for TerminalInput {
    fn wait(&mut self, wakeup: &Wakeup, timeout: Duration) -> io::Result<bool> {
        if self.maybe_more && self.ready()? {
            return Ok(true);
        }
        let [tty, winch] = wakeup.wait_with([self.tty.as_fd(), self.winch.as_fd()], timeout)?;
        if winch {
            let mut buf = [0u8; 64];
            while matches!((&self.winch).read(&mut buf), Ok(n) if n > 0) {}
        }
        if tty || winch {
            return self.ready();
        }
        Ok(false)
    }

    fn ready(&mut self) -> io::Result<bool> {
        let ready = event::poll(LOOK)?;
        self.maybe_more = ready;
        Ok(ready)
    }

    fn read(&mut self) -> io::Result<TermEvent> {
        self.maybe_more = true;
        event::read()
    }
}
