//! The interactive picker's entry point and event loop: draw if dirty -> drain ready input ->
//! keys -> `App::update` -> effects -> route requests to the workers -> drain their answers.
//! Never blocks on a worker. The answer is printed after the terminal is restored.

use std::io::{self, Write};
use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::Duration;

use ratatui::crossterm::event::{self, Event as TermEvent, MouseEventKind};

use crate::app::{Action, App, Effect, Options, Outcome, Request};
use crate::cli::Cli;
use crate::commands::{self, EXIT_CANCELLED, EXIT_ERROR, EXIT_OK};
use crate::index::{self, CacheSetup, Event, IndexOptions};
use crate::search_worker::{self, Answer};
use crate::transcript_worker::{self, Job, Loaded};
use crate::tui::Tui;
use crate::{clipboard, keys, launch, ui};

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
    let store = match commands::resolve_store(&cli.store) {
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
    let index_rx = index::spawn_with(
        store.clone(),
        IndexOptions {
            archived: true,
            ..IndexOptions::default()
        },
        CacheSetup::from_args(&cli.store),
    );
    let mut app = App::new(opts, commands::now_ms());
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
    let (search_tx, search_rx) = search_worker::spawn();
    let (job_tx, loaded_rx) = transcript_worker::spawn(store);
    let size = tui.terminal.size()?;
    app.update(Action::Resize(size.width, size.height));
    let mut index_open = true;
    // A batch of rows was just applied and more index events may be waiting.
    let mut backlog = false;
    let mut dirty = true;
    loop {
        if dirty {
            app.now = commands::now_ms();
            tui.terminal.draw(|f| ui::draw(f, app, &theme))?;
            dirty = false;
        }
        let wait = if backlog {
            Duration::ZERO
        } else if index_open || app.searching() {
            Duration::from_millis(30)
        } else {
            Duration::from_millis(500)
        };
        if event::poll(wait)? {
            loop {
                if let Some(action) = to_action(event::read()?, app) {
                    dirty = true;
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
        route(app, &search_tx, &job_tx);
        // Background answers; bounded so a flood of rows cannot starve the keyboard.
        backlog = false;
        for _ in 0..64 {
            match index_rx.try_recv() {
                Ok(ev) => {
                    let rows = matches!(ev, Event::Rows(_));
                    app.apply_index(ev);
                    dirty = true;
                    // Draw each batch of rows before taking the next: the first screenful
                    // shows while the rest is still being added.
                    if rows {
                        backlog = true;
                        break;
                    }
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    index_open = false;
                    break;
                }
            }
        }
        for answer in search_rx.try_iter() {
            match answer {
                Answer::Ranked { gen, ranked } => app.apply_search(gen, ranked),
                Answer::Content { gen, hits } => app.apply_content(gen, hits),
            }
            dirty = true;
        }
        for Loaded { gen, id, result } in loaded_rx.try_iter() {
            app.apply_transcript(gen, id, result);
            dirty = true;
        }
        route(app, &search_tx, &job_tx);
    }
}

fn route(
    app: &mut App,
    search_tx: &std::sync::mpsc::Sender<Request>,
    job_tx: &std::sync::mpsc::Sender<Job>,
) {
    for req in app.take_outbox() {
        match req {
            Request::Transcript { gen, id, path } => {
                let _ = job_tx.send(Job { gen, id, path });
            }
            other => {
                let _ = search_tx.send(other);
            }
        }
    }
}

fn to_action(ev: TermEvent, app: &App) -> Option<Action> {
    match ev {
        TermEvent::Key(key) => keys::action(
            key,
            keys::Context {
                query_empty: app.query.is_empty(),
                focus: app.focus,
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
