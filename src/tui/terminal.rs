//! The terminal guard: raw mode, alternate screen, mouse capture and bracketed paste, drawn on
//! `/dev/tty` so stdout stays free for the answer. Restores the terminal on Drop, on suspend
//! (Ctrl+Z), on a signal from outside ([`signals`](super::signals)) and from a chained panic
//! hook that then prints a short crash report.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use ratatui::crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::crossterm::{cursor, execute};
use ratatui::Terminal;

/// Output is buffered: a frame is thousands of small escape sequences, and one `write` each made
/// a full redraw cost tens of milliseconds. ratatui flushes once per frame.
pub type Backend = CrosstermBackend<BufWriter<File>>;

pub struct Tui {
    pub terminal: Terminal<Backend>,
    pub modes: Modes,
}

/// The terminal modes the picker sets (raw mode, alternate screen, mouse capture, bracketed
/// paste) and whether they are set now. Apart from the terminal so the event loop can draw on
/// the one while the other gives the terminal back for Ctrl+Z.
pub struct Modes {
    active: bool,
}

fn open_tty() -> io::Result<File> {
    OpenOptions::new().read(true).write(true).open("/dev/tty")
}

fn enter_modes(out: &mut impl Write) -> io::Result<()> {
    terminal::enable_raw_mode()?;
    execute!(
        out,
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    )
}

/// Undo everything `enter_modes` did; safe to call twice and from a panic.
fn leave_modes(out: &mut impl Write) {
    let _ = execute!(
        out,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = terminal::disable_raw_mode();
}

/// Give the terminal back from anywhere (a signal): every mode off, on a handle of its own.
pub fn give_back() {
    match open_tty() {
        Ok(mut tty) => leave_modes(&mut tty),
        Err(_) => {
            let _ = terminal::disable_raw_mode();
        }
    }
}

impl Tui {
    /// Take over the terminal.
    pub fn enter() -> io::Result<Tui> {
        let mut tty = BufWriter::with_capacity(256 << 10, open_tty()?);
        install_panic_hook();
        super::signals::watch(give_back);
        super::signals::terminal_taken(true);
        enter_modes(&mut tty)?;
        let terminal = Terminal::new(CrosstermBackend::new(tty))?;
        Ok(Tui {
            terminal,
            modes: Modes { active: true },
        })
    }

    /// Give the terminal back.
    pub fn restore(&mut self) {
        self.modes.restore(&mut self.terminal);
    }
}

impl Modes {
    /// Give the terminal back, once.
    pub fn restore(&mut self, terminal: &mut Terminal<Backend>) {
        if self.active {
            leave_modes(terminal.backend_mut());
            self.active = false;
            super::signals::terminal_taken(false);
        }
    }

    /// Ctrl+Z: give the terminal back, stop, and take it again when resumed.
    pub fn suspend(&mut self, terminal: &mut Terminal<Backend>) -> io::Result<()> {
        self.restore(terminal);
        // SAFETY: raise only sends a signal to this process; SIGTSTP stops it until SIGCONT.
        unsafe {
            libc::raise(libc::SIGTSTP);
        }
        super::signals::terminal_taken(true);
        enter_modes(terminal.backend_mut())?;
        self.active = true;
        redraw_whole(terminal)
    }
}

/// Clear the screen now and draw the whole of the next frame (after Ctrl+Z, and for Ctrl+L).
/// Not `Terminal::clear`: it asks the terminal for the cursor position, a query written to
/// standard output, which holds the answer (often a file or `$(...)`), so the reply never comes
/// and the query would end up in the answer.
pub fn redraw_whole<B: ratatui::backend::Backend>(
    terminal: &mut Terminal<B>,
) -> Result<(), B::Error> {
    let area = ratatui::layout::Rect::from((ratatui::layout::Position::ORIGIN, terminal.size()?));
    terminal.resize(area)
}

/// Bytes straight to the terminal (an OSC 52 clipboard sequence).
pub fn write_raw(terminal: &mut Terminal<Backend>, bytes: &[u8]) -> io::Result<()> {
    let out = terminal.backend_mut();
    out.write_all(bytes)?;
    out.flush()
}

impl Drop for Tui {
    fn drop(&mut self) {
        self.restore();
    }
}

/// The crash report printed after the terminal is restored.
pub fn crash_report(message: &str) -> String {
    format!(
        "codex-picker crashed: {message}. Please report this at https://github.com/codex-picker/codex-picker/issues with the steps that led to it."
    )
}

fn install_panic_hook() {
    use std::sync::Once;
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            give_back();
            let payload = info.payload();
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            eprintln!("{}", crash_report(&crate::sanitize::one_line(&message)));
            previous(info);
        }));
    });
}
