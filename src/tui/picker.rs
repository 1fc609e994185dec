//! The interactive picker's entry point and event loop: draw if dirty -> drain ready input ->
//! keys -> `App::update` -> effects -> route requests to the workers -> drain their answers.
//! Never blocks on a worker. The answer is printed after the terminal is restored.

use std::io::{self, Write};
use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, Event as TermEvent, MouseEventKind};

use crate::cli::Cli;
use crate::cli::{EXIT_CANCELLED, EXIT_ERROR, EXIT_OK};
use crate::session::SessionRow;
use crate::store;
use crate::tui::app::{Action, App, Effect, Options, Outcome};
use crate::tui::terminal::Tui;
use crate::tui::{clipboard, keys, launch, ui};
use crate::workers::indexer::{self, CacheSetup, Event, IndexOptions};
use crate::workers::search::{self, Answer, Request};
use crate::workers::transcript::{self, Job, Loaded};

/// The repository root of `dir` (the nearest folder up with a `.git`), else `dir` itself.
pub fn scope_root(dir: &Path) -> String {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let root = dir
        .ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&dir);
    root.to_string_lossy().into_owned()
}

/// Run the picker; returns the exit code.
pub fn run(cli: &Cli) -> i32 {
    let store = match store::resolve(&cli.store) {
        Ok(store) => store,
        Err(msg) => return no_store(&msg),
    };
    let p = &cli.picker;
    let opts = Options {
        scope_root: std::env::current_dir().ok().map(|d| scope_root(&d)),
        all: p.all,
        hide_exec: p.no_exec,
        show_archived: cli.store.archived,
        print_command: p.print_command,
        exec: p.exec,
        query: p.query.clone().unwrap_or_default(),
        content: p.content,
    };
    let mut tui = match Tui::enter() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("codex-picker: cannot open the terminal (/dev/tty): {e}");
            return EXIT_ERROR;
        }
    };
    let index_rx = indexer::spawn_with(
        store.clone(),
        IndexOptions {
            archived: true,
            ..IndexOptions::default()
        },
        CacheSetup::from_args(&cli.store),
    );
    let mut app = App::new(opts, crate::timefmt::now_ms());
    let outcome = event_loop(&mut tui, &mut app, &index_rx, store);
    tui.restore();
    drop(tui);
    match outcome {
        Ok(Outcome::Print(text)) => {
            let mut out = io::stdout().lock();
            match writeln!(out, "{text}").and_then(|()| out.flush()) {
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                    eprintln!("codex-picker: {e}");
                    EXIT_ERROR
                }
                _ => EXIT_OK,
            }
        }
        Ok(Outcome::Cancelled) => EXIT_CANCELLED,
        Ok(Outcome::Exec { id, cwd }) => match launch::find_codex() {
            Some(codex) => launch::resume(&codex, &id, cwd.as_deref()),
            None => {
                eprintln!("codex-picker: `codex` is not on PATH; install the Codex CLI or pick without --exec");
                EXIT_ERROR
            }
        },
        Err(e) => {
            eprintln!("codex-picker: {e}");
            EXIT_ERROR
        }
    }
}

/// No store: say so in the picker until a key is pressed, and on stderr; exit 2.
fn no_store(msg: &str) -> i32 {
    let line = format!("codex-picker: {msg}");
    if let Ok(mut tui) = Tui::enter() {
        let theme = ui::Theme::from_env();
        let _ = tui
            .terminal
            .draw(|f| ui::draw_message(f, &line, "press any key to quit", &theme));
        loop {
            match event::read() {
                Ok(TermEvent::Key(_) | TermEvent::Mouse(_)) | Err(_) => break,
                Ok(TermEvent::Resize(..)) => {
                    let _ = tui
                        .terminal
                        .draw(|f| ui::draw_message(f, &line, "press any key to quit", &theme));
                }
                Ok(_) => {}
            }
        }
    }
    eprintln!("{line}");
    EXIT_ERROR
}

fn event_loop(
    tui: &mut Tui,
    app: &mut App,
    index_rx: &Receiver<Event>,
    store: crate::store::Store,
) -> io::Result<Outcome> {
    let theme = ui::Theme::from_env();
    let (search_tx, search_rx) = search::spawn();
    let (job_tx, loaded_rx) = transcript::spawn(store);
    let size = tui.terminal.size()?;
    app.update(Action::Resize(size.width, size.height));
    let mut index_open = true;
    // A batch of rows was just applied and more index events may be waiting.
    let mut backlog = false;
    let mut dirty = true;
    // What the user is waiting for (a key's effect, an answer, the first rows, the end of the
    // index) is drawn at once; rows streaming in at most once a frame.
    let mut urgent = true;
    let mut drawn = Instant::now();
    let mut drained_at = Instant::now();
    let mut held: Option<(Job, Instant)> = None;
    loop {
        if dirty && (urgent || drawn.elapsed() >= FRAME) {
            app.set_now(crate::timefmt::now_ms());
            tui.terminal.draw(|f| ui::draw(f, app, &theme))?;
            (dirty, urgent, drawn) = (false, false, Instant::now());
        }
        let mut wait = if backlog {
            Duration::ZERO
        } else if index_open || app.searching() || held.is_some() {
            // The workers cannot wake the terminal poll: look for their answers this often.
            TICK
        } else {
            Duration::from_millis(500)
        };
        if dirty {
            wait = wait.min(FRAME.saturating_sub(drawn.elapsed()));
        }
        if event::poll(wait)? {
            loop {
                if let Some(action) = to_action(event::read()?, app) {
                    (dirty, urgent) = (true, true);
                    match app.update(action) {
                        Effect::None => {}
                        Effect::Quit(Outcome::Exec { id, cwd }) => {
                            if launch::find_codex().is_some() {
                                return Ok(Outcome::Exec { id, cwd });
                            }
                            app.notify("`codex` is not on PATH: install the Codex CLI, or press Enter to print the id");
                        }
                        Effect::Quit(outcome) => return Ok(outcome),
                        Effect::Copy { text, what } => {
                            let _ = tui.write_raw(clipboard::osc52(&text).as_bytes());
                            clipboard::copy_native(&text);
                            app.notify(format!(
                                "copied the {what}: {}",
                                crate::sanitize::one_line(&text)
                            ));
                        }
                        Effect::Suspend => {
                            tui.suspend()?;
                            let size = tui.terminal.size()?;
                            app.update(Action::Resize(size.width, size.height));
                        }
                    }
                }
                if !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
        route(app, &search_tx, &job_tx, &mut held);
        // Rows are taken in once a frame (each time the list is sorted again); at every turn
        // until the first ones are in, and while a backlog is being worked through.
        let due = backlog || app.rows().is_empty() || drained_at.elapsed() >= FRAME;
        if index_open && due {
            let drained = drain_index(app, index_rx);
            drained_at = Instant::now();
            backlog = drained.backlog;
            dirty |= drained.applied;
            urgent |= drained.urgent;
            index_open &= drained.open;
        }
        for answer in search_rx.try_iter() {
            match answer {
                Answer::Ranked { gen, ranked } => app.apply_search(gen, ranked),
                Answer::Content { gen, hits } => app.apply_content(gen, hits),
            }
            (dirty, urgent) = (true, true);
        }
        for Loaded { id, result, .. } in loaded_rx.try_iter() {
            app.apply_transcript(id, result);
            (dirty, urgent) = (true, true);
        }
        route(app, &search_tx, &job_tx, &mut held);
    }
}

/// The longest the event loop spends taking in indexer events before it looks at the keyboard
/// and the screen again.
const DRAIN_BUDGET: Duration = Duration::from_millis(8);

/// How often the loop looks for the workers' answers while they are busy.
const TICK: Duration = Duration::from_millis(10);

/// The shortest time between two frames drawn for rows streaming in.
const FRAME: Duration = Duration::from_millis(30);

/// What [`drain_index`] did.
struct Drained {
    /// Something was applied: draw.
    applied: bool,
    /// The first rows or the end of the rows phase: draw without waiting for the next frame.
    urgent: bool,
    /// More may be waiting: come back without sleeping.
    backlog: bool,
    /// The indexer is still sending.
    open: bool,
}

/// Apply what the indexer has sent. Batches of new rows that come back to back are applied as
/// one, so a large store costs one sort of the list and one frame per turn of the loop instead
/// of one per batch (a frame per batch fell behind the indexer, and the last rows showed long
/// after they were read). The very first batch is applied alone, so the first screenful is
/// drawn at once.
fn drain_index(app: &mut App, rx: &Receiver<Event>) -> Drained {
    let start = Instant::now();
    let mut rows: Vec<SessionRow> = Vec::new();
    let mut out = Drained {
        applied: false,
        urgent: false,
        backlog: false,
        open: true,
    };
    loop {
        if start.elapsed() >= DRAIN_BUDGET {
            out.backlog = true;
            break;
        }
        match rx.try_recv() {
            Ok(Event::Rows(batch)) => {
                let first = app.rows().is_empty() && rows.is_empty();
                rows.extend(batch);
                if first {
                    out.backlog = true;
                    out.urgent = true;
                    break;
                }
            }
            // Progress only moves a counter: it need not wait for the rows before it.
            Ok(ev @ Event::Progress { .. }) => {
                app.apply_index(ev);
                out.applied = true;
            }
            Ok(ev) => {
                if !rows.is_empty() {
                    app.apply_index(Event::Rows(std::mem::take(&mut rows)));
                }
                out.urgent |= matches!(ev, Event::Finished { .. });
                app.apply_index(ev);
                out.applied = true;
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => break,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                out.open = false;
                break;
            }
        }
    }
    if !rows.is_empty() {
        app.apply_index(Event::Rows(rows));
        out.applied = true;
    }
    out
}

/// How long the top row must stay the same, while the first index streams in, before its
/// conversation is read.
const TOP_SETTLE: Duration = Duration::from_millis(120);

/// Send the app's requests to the workers. While the first index streams in and the selection
/// follows the top row, a conversation is `held` until the top has settled (or the user
/// moves, or the index is complete): reading every session that passes through the top would
/// take cores from the indexer for conversations nobody sees.
fn route(
    app: &mut App,
    search_tx: &std::sync::mpsc::Sender<Request>,
    job_tx: &std::sync::mpsc::Sender<Job>,
    held: &mut Option<(Job, Instant)>,
) {
    let outbox = app.take_outbox();
    for req in outbox.search {
        let _ = search_tx.send(req);
    }
    if let Some(job) = outbox.transcripts.into_iter().last() {
        *held = Some((job, Instant::now()));
    }
    let settled = held
        .as_ref()
        .is_some_and(|(_, since)| !app.follows_top() || since.elapsed() >= TOP_SETTLE);
    if settled {
        if let Some((job, _)) = held.take() {
            let _ = job_tx.send(job);
        }
    }
}

fn to_action(ev: TermEvent, app: &App) -> Option<Action> {
    match ev {
        TermEvent::Key(key) => keys::action(
            key,
            keys::Context {
                query_empty: app.list().query().is_empty(),
                focus: app.screen().focus(),
            },
        ),
        TermEvent::Paste(text) => Some(Action::Paste(text)),
        TermEvent::Resize(w, h) => Some(Action::Resize(w, h)),
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

#[cfg(test)]
#[path = "picker_tests.rs"]
mod tests;
