//! The whole picker in-process: the real event loop on ratatui's TestBackend, with keys from a
//! channel and the real indexer, search and transcript workers on the demo store (no cache).
//! The loop runs on its own thread; a test reads the screen it draws, waiting (a few seconds
//! at most) for what it expects.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use codex_picker::store::CacheSetup;
use codex_picker::store::Store;
use codex_picker::tui::app::{App, Options, Outcome};
use codex_picker::tui::event_loop::{self, Host, Input};
use codex_picker::tui::picker;
use codex_picker::tui::ui::Theme;
use codex_picker::workers::wake::{self, Source, Wakeup};
use ratatui::backend::{Backend, ClearType, TestBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Position, Size};
use ratatui::Terminal;

/// The longest a test waits for the picker to show something or to end.
const PATIENCE: Duration = Duration::from_secs(10);

/// Long enough for the loop to see that the indexer has closed its channel (it looks once a
/// frame).
const INDEX_CLOSE_SEEN: Duration = Duration::from_millis(100);

const WIDTH: u16 = 120;
const HEIGHT: u16 = 30;

/// Where the conversation pane's text starts on a 120-column screen: after the list (11/20 of
/// the width) and the pane's rule.
const PANE_X: u16 = WIDTH * 11 / 20 + 2;

/// A TestBackend the test can read while the loop draws on it.
#[derive(Clone)]
struct SharedBackend(Arc<Mutex<TestBackend>>);

impl SharedBackend {
    fn lock(&self) -> std::sync::MutexGuard<'_, TestBackend> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Backend for SharedBackend {
    type Error = <TestBackend as Backend>::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.lock().draw(content)
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.lock().hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.lock().show_cursor()
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.lock().get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.lock().set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.lock().clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.lock().clear_region(clear_type)
    }

    fn size(&self) -> Result<Size, Self::Error> {
        self.lock().size()
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        self.lock().window_size()
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.lock().flush()
    }
}

/// Terminal events sent by the test (each send wakes the loop).
struct Keys {
    rx: Receiver<TermEvent>,
    ready: Option<TermEvent>,
    /// How many times the loop has gone to sleep.
    sleeps: Arc<AtomicUsize>,
}

impl Input for Keys {
    fn wait(&mut self, wakeup: &Wakeup, timeout: Duration) -> io::Result<bool> {
        self.sleeps.fetch_add(1, Ordering::SeqCst);
        if self.ready()? {
            return Ok(true);
        }
        wakeup.wait(timeout)?;
        self.ready()
    }

    fn ready(&mut self) -> io::Result<bool> {
        if self.ready.is_some() {
            return Ok(true);
        }
        match self.rx.try_recv() {
            Ok(ev) => {
                self.ready = Some(ev);
                Ok(true)
            }
            Err(TryRecvError::Empty) => Ok(false),
            // The test is over (or failed): end the loop.
            Err(TryRecvError::Disconnected) => Err(io::ErrorKind::UnexpectedEof.into()),
        }
    }

    fn read(&mut self) -> io::Result<TermEvent> {
        match self.ready.take() {
            Some(ev) => Ok(ev),
            None => self
                .rx
                .recv()
                .map_err(|_| io::ErrorKind::UnexpectedEof.into()),
        }
    }
}

/// Records what the picker asks of the terminal instead of touching the real clipboard.
#[derive(Clone, Default)]
struct Recorder {
    copied: Arc<Mutex<Vec<String>>>,
}

impl<B: Backend> Host<B> for Recorder {
    fn copy(&mut self, _: &mut Terminal<B>, text: &str) {
        self.copied.lock().unwrap().push(text.to_owned());
    }

    fn suspend(&mut self, _: &mut Terminal<B>) -> io::Result<()> {
        Ok(())
    }
}

/// The picker running on its own thread.
struct Running {
    _dir: tempfile::TempDir,
    screen: SharedBackend,
    keys: wake::Sender<TermEvent>,
    host: Recorder,
    outcome: Receiver<io::Result<Outcome>>,
    sleeps: Arc<AtomicUsize>,
}

impl Running {
    /// Start the picker on a fresh copy of the demo store, every folder shown.
    fn start() -> Running {
        let dir = tempfile::tempdir().unwrap();
        let home = codex_picker::demo::materialize(dir.path()).unwrap();
        let screen = SharedBackend(Arc::new(Mutex::new(TestBackend::new(WIDTH, HEIGHT))));
        let host = Recorder::default();
        let wakeup = Wakeup::new().unwrap();
        let (keys, rx) = wake::channel(wakeup.waker(Source::Input));
        let (done, outcome) = mpsc::channel();
        let (backend, mut recorder) = (screen.clone(), host.clone());
        let sleeps = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&sleeps);
        thread::spawn(move || {
            let cache = CacheSetup {
                dir: None,
                content: true,
            };
            // No codex: these tests never run one.
            let codex = codex_picker::codex::Codex::new(None, &home, None);
            let mut workers = picker::spawn_workers(Store::codex(home), cache, codex, wakeup);
            let opts = Options {
                all: true,
                ..Options::default()
            };
            let mut app = App::new(opts, codex_picker::timefmt::now_ms());
            let mut input = Keys {
                rx,
                ready: None,
                sleeps: counted,
            };
            let result =
                Terminal::new(backend)
                    .map_err(io::Error::other)
                    .and_then(|mut terminal| {
                        event_loop::run(
                            &mut terminal,
                            &mut input,
                            &mut recorder,
                            &mut workers,
                            &mut app,
                            &Theme::new(false),
                        )
                    });
            let _ = done.send(result);
        });
        Running {
            _dir: dir,
            screen,
            keys,
            host,
            outcome,
            sleeps,
        }
    }

    /// The screen as text, one line per row.
    fn text(&self) -> String {
        let backend = self.screen.lock();
        let buf = backend.buffer();
        (0..buf.area.height)
            .map(|y| {
                let line: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
                format!("{}\n", line.trim_end())
            })
            .collect()
    }

    /// The conversation pane's text, one line per row.
    fn pane(&self) -> String {
        self.text()
            .lines()
            .map(|l| l.chars().skip(usize::from(PANE_X)).collect::<String>() + "\n")
            .collect()
    }

    /// Wait until `ready` holds for the screen; the screen then.
    fn wait_until(&self, what: &str, ready: impl Fn(&Running) -> bool) -> String {
        let start = Instant::now();
        loop {
            if ready(self) {
                return self.text();
            }
            assert!(
                start.elapsed() < PATIENCE,
                "timed out waiting for {what}; the screen:\n{}",
                self.text()
            );
            thread::sleep(Duration::from_millis(10));
        }
    }

    fn wait_for(&self, want: &str) -> String {
        self.wait_until(want, |r| r.text().contains(want))
    }

    /// Every demo session has been read (the archived one is hidden).
    fn wait_for_every_row(&self) -> String {
        self.wait_for("13 of 14 sessions")
    }

    /// The query line shows `query`, and the answer to it.
    fn answered(&self, query: &str) -> bool {
        let text = self.text();
        let query_line = text.lines().next().unwrap_or("");
        query_line.starts_with(&format!("❯ {query} ")) && !query_line.contains("searching…")
    }

    /// The selected line of the list.
    fn selected(&self) -> String {
        let text = self.text();
        let line = text.lines().find(|l| l.starts_with('▶')).unwrap_or("");
        line.chars().take(usize::from(PANE_X)).collect()
    }

    /// The list's part of the screen (the rows under the query line), one line per row.
    fn list(&self) -> String {
        self.text()
            .lines()
            .skip(1)
            .take(usize::from(HEIGHT) - 3)
            .map(|l| l.chars().take(usize::from(PANE_X)).collect::<String>() + "\n")
            .collect()
    }

    /// The id the conversation pane shows (its metadata's first line).
    fn shown_id(&self) -> Option<String> {
        let pane = self.pane();
        let line = pane.lines().find(|l| l.starts_with("id "))?;
        Some(line["id".len()..].trim().to_owned())
    }

    fn press(&self, code: KeyCode, modifiers: KeyModifiers) {
        let key = TermEvent::Key(KeyEvent::new(code, modifiers));
        self.keys.send(key).expect("the picker is running");
    }

    fn key(&self, code: KeyCode) {
        self.press(code, KeyModifiers::NONE);
    }

    fn type_text(&self, text: &str) {
        for c in text.chars() {
            self.key(KeyCode::Char(c));
        }
    }

    /// How the picker ended.
    fn outcome(&self) -> Outcome {
        match self.outcome.recv_timeout(PATIENCE) {
            Ok(result) => result.expect("the loop ends without an error"),
            Err(_) => panic!("the picker did not end; the screen:\n{}", self.text()),
        }
    }
}

#[test]
fn rows_stream_in_and_the_newest_session_is_shown() {
    let picker = Running::start();
    picker.wait_for_every_row();
    // The newest session is a fork, titled from its parent once every row is known.
    picker.wait_until("the newest session, selected", |r| {
        r.selected().contains("Draft the 2.4 release notes")
    });
    picker.wait_until("the newest session's conversation", |r| {
        r.pane().contains("▍ USER") && r.pane().contains("Draft the 2.4 release notes")
    });
    assert_eq!(
        picker.shown_id().as_deref(),
        Some("019ac009-7e2d-7a41-9c3b-000000000009")
    );
}

#[test]
fn typing_a_query_narrows_the_list() {
    let picker = Running::start();
    picker.wait_for_every_row();
    picker.type_text("terraform");
    let screen = picker.wait_until("the answer to the whole query", |r| {
        r.answered("terraform") && r.selected().contains("Write a Terraform module")
    });
    let list = picker.list();
    assert!(
        !list.contains("Draft the 2.4 release notes") && !list.contains("dark mode"),
        "sessions that do not match are gone:\n{screen}"
    );
    picker.wait_until("the match's conversation", |r| {
        r.pane().contains("Terraform module")
    });
}

#[test]
fn moving_the_selection_shows_that_sessions_conversation_and_enter_picks_it() {
    let picker = Running::start();
    picker.wait_for_every_row();
    picker.wait_until("a conversation", |r| r.shown_id().is_some());
    let top = picker.shown_id().unwrap();
    picker.key(KeyCode::Down);
    picker.key(KeyCode::Down);
    let screen = picker.wait_until("the third session's conversation", |r| {
        r.selected().contains("Add a dark mode toggle")
            && r.shown_id().is_some_and(|id| id != top)
            && r.pane().contains("▍ USER")
    });
    assert!(
        picker.pane().contains("dark mode"),
        "the pane shows the selected session:\n{screen}"
    );
    let id = picker.shown_id().unwrap();
    picker.key(KeyCode::Enter);
    assert_eq!(picker.outcome(), Outcome::Print(id));
}

#[test]
fn esc_clears_the_query_then_ends_cancelled() {
    let picker = Running::start();
    picker.wait_for_every_row();
    picker.type_text("zzzz-no-such-session");
    picker.wait_for("no session matches the query");
    picker.key(KeyCode::Esc);
    picker.wait_for_every_row();
    picker.key(KeyCode::Esc);
    assert_eq!(picker.outcome(), Outcome::Cancelled);
}

#[test]
fn ctrl_y_hands_the_selected_id_to_the_terminal() {
    let picker = Running::start();
    picker.wait_for_every_row();
    picker.wait_until("a conversation", |r| r.shown_id().is_some());
    let id = picker.shown_id().unwrap();
    picker.press(KeyCode::Char('y'), KeyModifiers::CONTROL);
    picker.wait_for("copied the session id");
    assert_eq!(*picker.host.copied.lock().unwrap(), vec![id]);
    picker.press(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(picker.outcome(), Outcome::Cancelled);
}

#[test]
fn content_search_uses_the_index_the_indexer_builds() {
    let picker = Running::start();
    picker.wait_for_every_row();
    picker.press(KeyCode::Char('f'), KeyModifiers::CONTROL);
    picker.type_text("refund");
    // Asked before or after the index is ready, the answer comes once it is.
    let screen = picker.wait_until("the matches", |r| {
        r.answered("refund") && !r.selected().is_empty()
    });
    assert!(screen.contains("in conversations"), "{screen}");
    assert!(
        picker.selected().to_lowercase().contains("refund"),
        "the best match is listed with its snippet:\n{screen}"
    );
    picker.wait_until("the pane opened at the hit", |r| {
        r.pane().to_lowercase().contains("refund")
    });
}

#[test]
fn once_everything_is_indexed_a_conversation_is_drawn_as_soon_as_it_is_read() {
    let picker = Running::start();
    picker.wait_for_every_row();
    // The indexer is done (its channel closed) once the content index is built.
    picker.wait_until("the content index", |r| {
        !r.text().contains("conversations indexed") && r.shown_id().is_some()
    });
    thread::sleep(INDEX_CLOSE_SEEN);
    let mut took = Vec::new();
    for _ in 0..5 {
        let before = picker.shown_id().unwrap();
        let start = Instant::now();
        picker.key(KeyCode::Down);
        picker.wait_until("the next session's conversation", |r| {
            r.shown_id().is_some_and(|id| id != before) && r.pane().contains("▍ USER")
        });
        took.push(start.elapsed());
    }
    // Each answer wakes the loop as it is sent (it used to wait up to half a second for a key
    // once the indexer was done). The median shrugs off one slow turn on a busy machine.
    took.sort();
    assert!(
        took[took.len() / 2] < Duration::from_millis(250),
        "each move waited for its conversation: {took:?}"
    );
}

#[test]
fn an_idle_picker_sleeps_until_something_happens() {
    let picker = Running::start();
    picker.wait_for_every_row();
    picker.wait_until("the content index", |r| {
        !r.text().contains("conversations indexed") && r.shown_id().is_some()
    });
    // The watcher's first tick reads the store again once; let that run end.
    thread::sleep(Duration::from_secs(1));
    let before = picker.sleeps.load(Ordering::SeqCst);
    thread::sleep(Duration::from_secs(2));
    let turns = picker.sleeps.load(Ordering::SeqCst) - before;
    // Nothing happens: no key, no answer, no change to the store, the minute not up. A loop
    // that looked every 10 ms (or every 500 ms) would have gone round 200 (or 4) times.
    assert!(
        turns <= 1,
        "the loop went round {turns} times in 2 s of quiet"
    );
    // ... and a key still wakes it at once.
    picker.type_text("terraform");
    picker.wait_until("the answer", |r| r.answered("terraform"));
}
