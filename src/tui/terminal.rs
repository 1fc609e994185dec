//! The terminal guard: raw mode, the alternate screen (or the inline picker's rows below the
//! prompt), mouse capture and bracketed paste, drawn on `/dev/tty` so stdout stays free for the
//! answer. Restores the terminal on Drop, on suspend (Ctrl+Z), on a signal from outside
//! ([`signals`](super::signals)) and from a chained panic hook that then prints a short crash
//! report. The inline picker's rows are cleared and the cursor put back where the prompt left
//! it on every one of these paths.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::sync::Mutex;

use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use ratatui::crossterm::terminal::{
    self, Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::crossterm::{cursor, execute};
use ratatui::layout::{Position, Rect};
use ratatui::{Terminal, TerminalOptions, Viewport};

use crate::height::Height;

pub(crate) use super::tty_backend::TtyBackend as Backend;

pub(crate) struct Tui {
    pub terminal: Terminal<Backend>,
    pub modes: Modes,
}

/// The terminal modes the picker sets (raw mode, alternate screen or inline rows, mouse
/// capture, bracketed paste) and whether they are set now. Apart from the terminal so the
/// event loop can draw on the one while the other gives the terminal back for Ctrl+Z.
pub(crate) struct Modes {
    active: bool,
    height: Height,
    /// Drawn inline: where the prompt was.
    inline: Option<Prompt>,
}

/// Where the inline picker's prompt was: its rows start on the prompt's line when the cursor
/// was at its start, else on the next line.
#[derive(Debug, Clone, Copy)]
struct Prompt {
    column: u16,
    /// The rows start on the line after the prompt's.
    below: bool,
}

impl Prompt {
    /// What to clear and where to put the cursor back, for rows whose top line is `top`.
    fn spot(self, top: u16) -> Spot {
        Spot {
            top,
            cursor: Position::new(self.column, top.saturating_sub(u16::from(self.below))),
        }
    }
}

/// The inline picker's rows, from `top` down, and where the cursor goes back to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Spot {
    top: u16,
    cursor: Position,
}

/// Where the inline picker is now, for a signal or a panic to give the terminal back without
/// the terminal's handle; `None` on the alternate screen.
static INLINE: Mutex<Option<Spot>> = Mutex::new(None);

fn set_inline(spot: Option<Spot>) {
    *INLINE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = spot;
}

fn open_tty() -> io::Result<File> {
    OpenOptions::new().read(true).write(true).open("/dev/tty")
}

fn enter_modes(out: &mut impl Write, inline: bool) -> io::Result<()> {
    terminal::enable_raw_mode()?;
    if !inline {
        execute!(out, EnterAlternateScreen)?;
    }
    execute!(out, EnableMouseCapture, EnableBracketedPaste)
}

/// Undo everything `enter_modes` did; safe to call twice and from a panic. Inline, the rows
/// from `spot.top` down are cleared and the cursor put back (leaving an alternate screen that
/// was never entered would move it to where the terminal last saved it).
fn leave_modes(out: &mut impl Write, inline: Option<Spot>) {
    let _ = execute!(out, DisableBracketedPaste, DisableMouseCapture);
    let _ = match inline {
        Some(spot) => execute!(
            out,
            cursor::MoveTo(0, spot.top),
            Clear(ClearType::FromCursorDown),
            cursor::MoveTo(spot.cursor.x, spot.cursor.y),
            cursor::Show
        ),
        None => execute!(out, LeaveAlternateScreen, cursor::Show),
    };
    let _ = terminal::disable_raw_mode();
}

/// Give the terminal back from anywhere (a signal): every mode off, on a handle of its own.
pub(crate) fn give_back() {
    let inline = *INLINE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match open_tty() {
        Ok(mut tty) => leave_modes(&mut tty, inline),
        Err(_) => {
            let _ = terminal::disable_raw_mode();
        }
    }
}

/// The modes set and a terminal to draw on: the whole screen, or inline rows below the
/// cursor (on its line when it is at the line's start, else on the next), cleared.
fn open(height: Height) -> io::Result<(Terminal<Backend>, Option<Prompt>)> {
    let mut backend = Backend::new(open_tty()?)?;
    let Some(rows) = height.rows(terminal::size()?.1) else {
        enter_modes(&mut backend, false)?;
        return Ok((Terminal::new(backend)?, None));
    };
    enter_modes(&mut backend, true)?;
    let at = ratatui::backend::Backend::get_cursor_position(&mut backend)?;
    let prompt = Prompt {
        column: at.x,
        below: at.x > 0,
    };
    if prompt.below {
        backend.write_all(b"\r\n")?;
    }
    let viewport = Viewport::Inline(rows);
    let mut terminal = Terminal::with_options(backend, TerminalOptions { viewport })?;
    let top = area(&mut terminal).y;
    execute!(
        terminal.backend_mut(),
        cursor::MoveTo(0, top),
        Clear(ClearType::FromCursorDown)
    )?;
    set_inline(Some(prompt.spot(top)));
    Ok((terminal, Some(prompt)))
}

/// Where the picker is drawn: the whole screen, or its rows.
pub(crate) fn area<B: ratatui::backend::Backend>(terminal: &mut Terminal<B>) -> Rect {
    terminal.get_frame().area()
}

impl Tui {
    /// Take over the terminal: the whole screen, or `height` rows below the prompt.
    pub(crate) fn enter(height: Height) -> io::Result<Tui> {
        install_panic_hook();
        super::signals::watch(give_back);
        super::signals::terminal_taken(true);
        let (terminal, inline) = open(height)?;
        Ok(Tui {
            terminal,
            modes: Modes {
                active: true,
                height,
                inline,
            },
        })
    }

    /// Give the terminal back.
    pub(crate) fn restore(&mut self) {
        self.modes.restore(&mut self.terminal);
    }
}

impl Modes {
    /// Give the terminal back, once.
    pub(crate) fn restore(&mut self, terminal: &mut Terminal<Backend>) {
        if self.active {
            let top = area(terminal).y;
            leave_modes(terminal.backend_mut(), self.inline.map(|p| p.spot(top)));
            set_inline(None);
            self.active = false;
            super::signals::terminal_taken(false);
        }
    }

    /// The inline picker's rows are now at `area` (after a resize, Ctrl+L or Ctrl+Z): what a
    /// signal clears follows.
    pub(crate) fn placed(&mut self, area: Rect) {
        if let Some(prompt) = self.inline.filter(|_| self.active) {
            set_inline(Some(prompt.spot(area.y)));
        }
    }

    /// Ctrl+Z: give the terminal back, stop, and take it again when resumed (inline: below
    /// wherever the cursor is then).
    pub(crate) fn suspend(&mut self, terminal: &mut Terminal<Backend>) -> io::Result<()> {
        self.restore(terminal);
        // SAFETY: raise only sends a signal to this process; SIGTSTP stops it until SIGCONT.
        unsafe {
            libc::raise(libc::SIGTSTP);
        }
        super::signals::terminal_taken(true);
        let (reopened, inline) = open(self.height)?;
        *terminal = reopened;
        self.inline = inline;
        self.active = true;
        Ok(())
    }
}

/// Clear the screen (inline: the picker's rows, found again from the cursor) now and draw the
/// whole of the next frame (Ctrl+L).
pub(crate) fn redraw_whole<B: ratatui::backend::Backend>(
    terminal: &mut Terminal<B>,
) -> Result<(), B::Error> {
    let area = ratatui::layout::Rect::from((ratatui::layout::Position::ORIGIN, terminal.size()?));
    terminal.resize(area)
}

/// Bytes straight to the terminal (an OSC 52 clipboard sequence).
pub(crate) fn write_raw(terminal: &mut Terminal<Backend>, bytes: &[u8]) -> io::Result<()> {
    let out = terminal.backend_mut();
    out.write_all(bytes)?;
    Write::flush(out)
}

impl Drop for Tui {
    fn drop(&mut self) {
        self.restore();
    }
}

/// The crash report printed after the terminal is restored.
pub(crate) fn crash_report(message: &str) -> String {
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
