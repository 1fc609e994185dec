//! The picker's event loop, on any ratatui backend: draw if due -> sleep until something
//! happens -> take every ready terminal event -> `App::update` -> effects -> send the app's
//! requests -> take in the indexer's events and the workers' answers. Never blocks on a worker.
//!
//! It sleeps until a key (or a paste, a click, a resize), a worker's message (each rings the
//! loop's [`Wakeup`]), or the next thing it has set itself a time for: a frame of rows that
//! stream in, a conversation held while the top row settles, the minute the list's ages move
//! on. Nothing wakes it while nothing happens.
//!
//! What it draws on is a [`Terminal`], where its events come from an [`Input`], and what it
//! asks of the terminal besides frames (the clipboard, Ctrl+Z) a [`Host`]: the real ones are
//! set up in `picker`, and tests run the same loop on a `TestBackend` with keys from a channel.

use std::io;
use std::time::{Duration, Instant};

use ratatui::backend::Backend;
use ratatui::crossterm::event::{Event as TermEvent, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::Terminal;

use crate::tui::action::Action;
use crate::tui::app::{App, Dialog, Effect, Outcome};
use crate::tui::dispatch::{Drained, Workers};
use crate::tui::{keys, terminal, ui};
use crate::workers::wake::Wakeup;

/// Where the loop's terminal events come from.
pub trait Input {
    /// Sleep until a terminal event may be ready, `wakeup` rings (the ring is left for the
    /// loop to take) or `timeout` has passed; whether an event is ready.
    fn wait(&mut self, wakeup: &Wakeup, timeout: Duration) -> io::Result<bool>;
    /// Whether another event is ready now, without sleeping.
    fn ready(&mut self) -> io::Result<bool>;
    /// The next event; called once `wait` or `ready` has said one is ready.
    fn read(&mut self) -> io::Result<TermEvent>;
}

/// What the loop asks of the terminal besides frames.
pub trait Host<B: Backend> {
    /// Put `text` on the clipboard (best effort: the user is told it was copied either way).
    fn copy(&mut self, terminal: &mut Terminal<B>, text: &str);
    /// Ctrl+Z: give the terminal back, stop until resumed, and take it again.
    fn suspend(&mut self, terminal: &mut Terminal<B>) -> io::Result<()>;
    /// The picker is now drawn in `area` (it opened, the terminal was resized, the inline
    /// picker's rows moved).
    fn placed(&mut self, _area: Rect) {}
}

/// The longest the loop takes in input before it draws again (a burst of input longer than
/// this is taken over several frames).
const INPUT_BUDGET: Duration = Duration::from_millis(25);

/// The longest the screen goes undrawn: the list's ages move on by themselves.
const AGE_TICK: Duration = Duration::from_secs(60);

/// The shortest time between two frames drawn for rows streaming in.
const FRAME: Duration = Duration::from_millis(30);

/// Run the picker until it ends; the outcome is handed back for the caller to act on once
/// the terminal is restored.
pub fn run<B, I, H>(
    terminal: &mut Terminal<B>,
    input: &mut I,
    host: &mut H,
    workers: &mut Workers,
    app: &mut App,
    theme: &ui::Theme,
) -> io::Result<Outcome>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    I: Input,
    H: Host<B>,
{
    place(terminal, host, app);
    let mut pace = Pace::new();
    loop {
        if pace.draw_due() {
            app.set_now(crate::timefmt::now_ms());
            terminal
                .draw(|f| ui::draw(f, app, theme))
                .map_err(io::Error::other)?;
            pace.drawn();
        }
        let index_news = workers.index_news().then_some(app.rows().is_empty());
        let timeout = pace.wait(index_news, workers.held_until(app));
        let ready = input.wait(workers.wakeup(), timeout)?;
        workers.woken();
        if ready {
            // What is typed is read at the time it is typed (`date:` filters count from it).
            app.set_now(crate::timefmt::now_ms());
            if let Some(outcome) = take_input(terminal, input, host, workers, app, &mut pace)? {
                return Ok(outcome);
            }
        }
        workers.send(app);
        if workers.index_news() && pace.index_due(app.rows().is_empty()) {
            pace.drained(workers.drain_index(app));
        }
        let answered = workers.take_answers(app);
        let locks_changed = workers.refresh_locks(app, false);
        if answered || locks_changed {
            pace.changed();
        }
        workers.send(app);
    }
}

/// When the loop draws and how long it sleeps. What the user is waiting for (a key's effect,
/// an answer, the first rows, the end of the index) is drawn at once; rows streaming in at
/// most once a frame, and taken in once a frame (each time the list is sorted again).
struct Pace {
    /// Something changed since the last frame.
    dirty: bool,
    /// ... and the user is waiting for it: draw without waiting for the next frame.
    urgent: bool,
    drawn: Instant,
    drained_at: Instant,
    /// A batch of rows was just applied and more index events may be waiting.
    backlog: bool,
}

impl Pace {
    fn new() -> Pace {
        Pace {
            dirty: true,
            urgent: true,
            drawn: Instant::now(),
            drained_at: Instant::now(),
            backlog: false,
        }
    }

    /// Something waits to be drawn and its time has come, or a minute has passed since the
    /// last frame (the list's ages move on).
    fn draw_due(&self) -> bool {
        self.dirty && (self.urgent || self.drawn.elapsed() >= FRAME)
            || self.drawn.elapsed() >= AGE_TICK
    }

    fn drawn(&mut self) {
        (self.dirty, self.urgent, self.drawn) = (false, false, Instant::now());
    }

    /// How long to sleep: until the next frame when something waits to be drawn, until the
    /// index events that came (`index_news`: whether the list is still empty) are due,
    /// until `held` (a conversation to send), and at most until the ages move on.
    fn wait(&self, index_news: Option<bool>, held: Option<Instant>) -> Duration {
        let now = Instant::now();
        let mut until = self.drawn + AGE_TICK;
        if self.dirty {
            until = until.min(self.drawn + FRAME);
        }
        if let Some(no_rows) = index_news {
            let due = if self.backlog || no_rows {
                now
            } else {
                self.drained_at + FRAME
            };
            until = until.min(due);
        }
        if let Some(held) = held {
            until = until.min(held);
        }
        until.saturating_duration_since(now)
    }

    /// Something the user waits for changed: draw it at once.
    fn changed(&mut self) {
        (self.dirty, self.urgent) = (true, true);
    }

    /// Index events are taken in at every turn until the first rows are in, while a backlog is
    /// worked through, and otherwise once a frame.
    fn index_due(&self, no_rows: bool) -> bool {
        self.backlog || no_rows || self.drained_at.elapsed() >= FRAME
    }

    fn drained(&mut self, drained: Drained) {
        self.drained_at = Instant::now();
        self.backlog = drained.backlog;
        self.dirty |= drained.applied;
        self.urgent |= drained.urgent;
    }
}

/// Apply every terminal event ready now (typing never waits for a frame or a worker); the
/// outcome when one of them ends the picker.
fn take_input<B, I, H>(
    terminal: &mut Terminal<B>,
    input: &mut I,
    host: &mut H,
    workers: &mut Workers,
    app: &mut App,
    pace: &mut Pace,
) -> io::Result<Option<Outcome>>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    I: Input,
    H: Host<B>,
{
    let start = Instant::now();
    // Characters typed back to back (a paste the terminal did not bracket) are applied as one
    // edit: one search instead of one per character.
    let mut typed = String::new();
    loop {
        let action = match input.read()? {
            // The inline picker's rows are found again (the terminal may have moved them).
            TermEvent::Resize(..) => {
                terminal.autoresize().map_err(io::Error::other)?;
                place(terminal, host, app);
                pace.changed();
                None
            }
            event => to_action(event, app),
        };
        if let Some(Action::Insert(c)) = action {
            typed.push(c);
        } else if let Some(action) = action {
            pace.changed();
            if !typed.is_empty() {
                app.update(Action::Type(std::mem::take(&mut typed)));
            }
            if let Some(outcome) = apply(terminal, host, workers, app, action)? {
                return Ok(Some(outcome));
            }
        }
        if start.elapsed() >= INPUT_BUDGET || !input.ready()? {
            if !typed.is_empty() {
                pace.changed();
                app.update(Action::Type(typed));
            }
            return Ok(None);
        }
    }
}

/// One action, and its effect carried out.
fn apply<B, H>(
    terminal: &mut Terminal<B>,
    host: &mut H,
    workers: &mut Workers,
    app: &mut App,
    action: Action,
) -> io::Result<Option<Outcome>>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    H: Host<B>,
{
    if App::acts_on_session(&action) {
        // Whether another codex has the session open is checked again just before acting.
        workers.refresh_locks(app, true);
    }
    match app.update(action) {
        Effect::None => {}
        Effect::Quit(Outcome::Print(_) | Outcome::Exec(_)) if picked_file_gone(app) => {
            app.notify("that session is gone: its file was deleted; pick another");
        }
        Effect::Quit(Outcome::Exec(what)) => match workers.can_run(what.source) {
            Ok(()) => return Ok(Some(Outcome::Exec(what))),
            Err(why) => app.notify(format!("{why}; or press Enter to print the id")),
        },
        Effect::Quit(outcome) => return Ok(Some(outcome)),
        Effect::Copy { text, what } => {
            host.copy(terminal, &text);
            app.notify(format!(
                "copied the {what}: {}",
                crate::textwidth::truncate(&crate::sanitize::one_line(&text), 80)
            ));
        }
        Effect::Write { name, text } => match write_new(&name, &text) {
            Ok(path) => app.notify(format!("wrote {}", crate::sanitize::path_line(&path))),
            Err(e) => app.notify(format!("could not write {name}: {e}")),
        },
        // What another program wrote over the picker goes.
        Effect::Repaint => {
            terminal::redraw_whole(terminal).map_err(io::Error::other)?;
            place(terminal, host, app);
        }
        Effect::Suspend => {
            host.suspend(terminal)?;
            place(terminal, host, app);
        }
    }
    Ok(None)
}

/// Lay the picker out in the terminal's area for it (the whole screen, or the inline rows).
fn place<B: Backend, H: Host<B>>(terminal: &mut Terminal<B>, host: &mut H, app: &mut App) {
    let area = terminal::area(terminal);
    host.placed(area);
    app.update(Action::Resize(area));
}

/// The selected session's file is no longer there (deleted since the list was read, before
/// the watcher said so): it cannot be resumed.
fn picked_file_gone(app: &App) -> bool {
    app.selected_row()
        .is_some_and(|row| std::fs::symlink_metadata(&row.path).is_err())
}

/// Write `text` to a new file in the current folder: `name`, or `name` with `-2`, `-3`, ...
/// before its extension when that exists (a file is never overwritten).
fn write_new(name: &str, text: &str) -> io::Result<std::path::PathBuf> {
    use std::io::Write;
    let dir = std::env::current_dir()?;
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    for n in 1..1000 {
        let file = match n {
            1 => name.to_owned(),
            n => format!("{stem}-{n}.{ext}"),
        };
        let path = dir.join(file);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut f) => {
                f.write_all(text.as_bytes())?;
                return Ok(path);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many files of that name"))
}

fn to_action(ev: TermEvent, app: &App) -> Option<Action> {
    match ev {
        TermEvent::Key(key) => keys::action(
            key,
            keys::Context {
                query_empty: app.list().query().is_empty(),
                focus: app.screen().focus(),
                finding: app.pane().find().editing(),
                modal: app.usage().map(|_| keys::Modal::Usage).or_else(|| {
                    app.actions().dialog().map(|d| match d {
                        Dialog::Menu { .. } => keys::Modal::Menu,
                        Dialog::ConfirmDelete { .. } | Dialog::ConfirmOpen { .. } => {
                            keys::Modal::Confirm
                        }
                        Dialog::Rename { .. } => keys::Modal::Input,
                    })
                }),
            },
            app.keys(),
        ),
        TermEvent::Paste(text) => Some(Action::Paste(text)),
        TermEvent::Mouse(m) => match m.kind {
            MouseEventKind::Down(_) => Some(Action::Click(m.column, m.row)),
            MouseEventKind::ScrollDown => Some(Action::Wheel {
                col: m.column,
                row: m.row,
                down: true,
            }),
            MouseEventKind::ScrollUp => Some(Action::Wheel {
                col: m.column,
                row: m.row,
                down: false,
            }),
            _ => None,
        },
        _ => None,
    }
}
