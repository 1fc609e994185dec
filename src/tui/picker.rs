//! The interactive picker's set-up: the store, the real terminal (its events, its clipboard and
//! Ctrl+Z), the three workers, then the [`event_loop`](crate::tui::event_loop) until a pick or a
//! cancel. The answer is printed after the terminal is restored.

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

use ratatui::crossterm::event::{self, Event as TermEvent};
use ratatui::Terminal;

use crate::cli::Cli;
use crate::cli::{EXIT_CANCELLED, EXIT_ERROR, EXIT_OK};
use crate::codex::Codex;
use crate::config::{self, FileConfig, Scope, Settings};
use crate::height::Height;
use crate::sources::claude::command::Claude;
use crate::store::engine::Held;
use crate::store::CacheSetup;
use crate::store::Store;
use crate::tui::app::{App, Options, Outcome};
use crate::tui::dispatch::Workers;
use crate::tui::event_loop::{self, Host};
use crate::tui::input::TerminalInput;
use crate::tui::keys::Keymap;
use crate::tui::terminal::{self, Modes, Tui};
use crate::tui::{clipboard, launch, ui};
use crate::workers::indexer::{self, IndexOptions};
use crate::workers::wake::{self, Source, Wakeup};
use crate::workers::{conversation_reader, search, watch};

/// The repository root of `dir` (the nearest folder up with a `.git`), else `dir` itself.
pub fn scope_root(dir: &Path) -> String {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let root = dir
        .ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&dir);
    root.to_string_lossy().into_owned()
}

/// The picker's settings and keys: the config file (unless `--no-config`) merged with the
/// command line; a config file that cannot be read or parsed is the error, in one line.
fn settings(cli: &Cli) -> Result<(Settings, Keymap), String> {
    let (file, path) = match config::path() {
        Some(path) if !cli.picker.no_config => {
            let file = config::load(&path).map_err(|e| e.to_string())?;
            (file.unwrap_or_default(), path)
        }
        path => (FileConfig::default(), path.unwrap_or_default()),
    };
    let settings = config::merge(file, cli.config_flags());
    // A `[keys]` line the key table cannot take is the file's error, on its line.
    let keys = Keymap::new(&settings.keys).map_err(|e| {
        config::ConfigError::Invalid {
            path: crate::sanitize::path_line(&path),
            line: e.line,
            reason: crate::sanitize::one_line(&e.reason),
        }
        .to_string()
    })?;
    Ok((settings, keys))
}

/// Run the picker; returns the exit code.
pub fn run(cli: &Cli) -> i32 {
    crate::memory::return_freed_memory_promptly();
    // Before the terminal is taken: a broken config file is a line on stderr, no screen.
    let (settings, keys) = match settings(cli) {
        Ok(settings) => settings,
        Err(line) => {
            eprintln!("codex-picker: {line}");
            return EXIT_ERROR;
        }
    };
    if let Some(why) = unfit_terminal(std::env::var_os("TERM").as_deref()) {
        eprintln!("codex-picker: {why}");
        return EXIT_ERROR;
    }
    let store = match cli.store.resolve() {
        Ok(store) => store,
        Err(e) => {
            let theme = ui::Theme::from_env(settings.theme);
            return no_store(&e.to_string(), settings.height, &theme);
        }
    };
    let p = &cli.picker;
    let codex = Codex::locate(&store.home);
    let claude = Claude::locate(store.claude.as_deref());
    let opts = Options {
        scope_root: std::env::current_dir().ok().map(|d| scope_root(&d)),
        all: settings.scope == Scope::All,
        hide_exec: !settings.show_exec,
        show_archived: settings.show_archived,
        order: settings.sort.into(),
        print_command: p.print_command,
        shell: p.shell,
        exec: p.exec,
        query: p.query.clone().unwrap_or_default(),
        content: p.content,
        resume_args: settings.resume_args,
        codex_env: codex.env_prefix(p.shell),
        claude_args: settings.claude_resume_args,
        claude_env: claude.env_prefix(p.shell),
        prices: settings.prices,
        keys,
    };
    let (mut tui, mut input, wakeup) = match open_terminal(settings.height) {
        Ok(opened) => opened,
        Err(e) => {
            eprintln!("codex-picker: cannot open the terminal (/dev/tty): {e}");
            return EXIT_ERROR;
        }
    };
    let cache = cli.store.cache_setup();
    let mut workers = spawn_workers(store, cache, codex.clone(), wakeup);
    let mut app = App::new(opts, crate::timefmt::now_ms());
    let outcome = event_loop::run(
        &mut tui.terminal,
        &mut input,
        &mut tui.modes,
        &mut workers,
        &mut app,
        &ui::Theme::from_env(settings.theme),
    );
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
        Ok(Outcome::Exec(what)) => launch::run(&codex, &claude, &what),
        Err(e) => {
            eprintln!("codex-picker: {e}");
            EXIT_ERROR
        }
    }
}

/// The terminal taken over, its events, and what the workers ring to wake the loop.
fn open_terminal(height: Height) -> std::io::Result<(Tui, TerminalInput, Wakeup)> {
    let tui = Tui::enter(height)?;
    Ok((tui, TerminalInput::new()?, Wakeup::new()?))
}

/// Why the terminal cannot show the picker (`TERM=dumb`: no cursor movement, no screen of its
/// own), if it cannot.
pub fn unfit_terminal(term: Option<&std::ffi::OsStr>) -> Option<String> {
    (term? == "dumb").then(|| {
        "this terminal (TERM=dumb) cannot show the picker: use `codex-picker list` to find a session and `codex resume <id>` to resume it".to_owned()
    })
}

/// No store: say so in the picker until a key is pressed, and on stderr; exit 2.
fn no_store(msg: &str, height: Height, theme: &ui::Theme) -> i32 {
    let line = format!("codex-picker: {msg}");
    if let Ok(mut tui) = Tui::enter(height) {
        let _ = tui
            .terminal
            .draw(|f| ui::draw_message(f, &line, "press any key to quit", theme));
        loop {
            match event::read() {
                Ok(TermEvent::Key(_) | TermEvent::Mouse(_)) | Err(_) => break,
                Ok(TermEvent::Resize(..)) => {
                    let _ = tui.terminal.autoresize();
                    let _ = tui
                        .terminal
                        .draw(|f| ui::draw_message(f, &line, "press any key to quit", theme));
                }
                Ok(_) => {}
            }
        }
    }
    eprintln!("{line}");
    EXIT_ERROR
}

/// Start the indexer (archived sessions included, the picker filters them), the search worker,
/// the transcript worker and the store-change worker (running `codex`) on `store`, with the
/// store watched: it is read again when it changes. Each rings `wakeup` when it has something
/// for the picker.
pub fn spawn_workers(store: Store, cache: CacheSetup, codex: Codex, wakeup: Wakeup) -> Workers {
    let index_run = {
        let store = store.clone();
        let waker = wakeup.waker(Source::Index);
        move |held: Option<Held>| {
            let opts = IndexOptions {
                held: held.map(Arc::new),
                ..IndexOptions::default()
            };
            let events = indexer::spawn(store.clone(), opts, cache.clone());
            wake::forward(events, waker.clone())
        }
    };
    let (watched, watch_waker) = (store.clone(), wakeup.waker(Source::Watch));
    let locked = store.clone();
    let search = search::spawn(wakeup.waker(Source::Answer));
    let transcripts = conversation_reader::spawn(store.clone(), wakeup.waker(Source::Answer));
    Workers::new(wakeup, index_run(None), search, transcripts)
        .with_codex(codex, store)
        .with_live(
            move || watch::spawn(&watched, watch_waker),
            move |held| index_run(Some(held)),
        )
        .with_locks(locked)
}

/// The real terminal's clipboard and Ctrl+Z.
impl Host<terminal::Backend> for Modes {
    fn copy(&mut self, terminal: &mut Terminal<terminal::Backend>, text: &str) {
        // OSC 52 reaches the clipboard of the terminal the user sees, over ssh too; the native
        // tool covers terminals that ignore it. Neither can say whether it worked.
        let _ = terminal::write_raw(terminal, clipboard::osc52(text).as_bytes());
        clipboard::copy_native(text);
    }

    fn suspend(&mut self, terminal: &mut Terminal<terminal::Backend>) -> io::Result<()> {
        Modes::suspend(self, terminal)
    }

    fn placed(&mut self, area: ratatui::layout::Rect) {
        Modes::placed(self, area);
    }
}
