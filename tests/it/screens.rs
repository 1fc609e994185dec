//! Whole-screen snapshots of the picker on ratatui's TestBackend, at a fixed size and clock, on
//! the demo store (times shifted to a fixed date), in the no-colour theme. The rows are fed by
//! hand (for their fixed times); searches and conversations come from the real workers, through
//! the event loop's own dispatch.

use codex_picker::session::SessionRow;
use codex_picker::store::{engine, Store};
use codex_picker::timefmt;
use codex_picker::tui::action::Action;
use codex_picker::tui::app::{App, Options};
use codex_picker::tui::dispatch::Workers;
use codex_picker::tui::ui::{self, Theme};
use codex_picker::workers::indexer::Event;
use codex_picker::workers::wake::{Waker, Wakeup};
use codex_picker::workers::{conversation_reader, search};
use ratatui::backend::TestBackend;
use ratatui::style::Modifier;
use ratatui::Terminal;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// 2026-11-30 09:37 UTC: the newest demo session is 7 minutes old.
pub(crate) fn now() -> i64 {
    timefmt::parse_rfc3339("2026-11-30T09:37:00Z").unwrap()
}

pub(crate) struct Demo {
    _dir: tempfile::TempDir,
    store: Store,
    rows: Vec<SessionRow>,
    /// The search and transcript workers on the demo store.
    workers: Workers,
}

pub(crate) fn demo() -> Demo {
    let dir = tempfile::tempdir().unwrap();
    let home = codex_picker::demo::materialize(dir.path()).unwrap();
    store_at(dir, home)
}

/// The rows and workers of the store at `home` (`dir` is kept for as long as they are), with
/// file times shifted so the newest is 7 minutes before [`now`].
pub(crate) fn store_at(dir: tempfile::TempDir, home: std::path::PathBuf) -> Demo {
    let store = Store::codex(home);
    let opts = engine::Options::new(engine::Kind::First, true);
    let (mut rows, _, _) = engine::rows(&store, &opts);
    // File times follow the wall clock; shift them so the newest is 7 minutes before `now()`.
    let newest = rows.iter().map(|r| r.updated_ms).max().unwrap();
    let shift = now() - 7 * 60_000 - newest;
    for r in &mut rows {
        r.updated_ms += shift;
    }
    // The rows are applied by hand: the indexer's channel is closed from the start.
    let (_, index) = mpsc::channel();
    // The answers are looked for by `settle`, not slept for: nothing needs to ring.
    let workers = Workers::new(
        Wakeup::new().unwrap(),
        index,
        search::spawn(Waker::noop()),
        conversation_reader::spawn(store.clone(), Waker::noop()),
    );
    Demo {
        _dir: dir,
        store,
        rows,
        workers,
    }
}

pub(crate) fn app(demo: &mut Demo, opts: Options, w: u16, h: u16) -> App {
    let mut app = App::new(opts, now());
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, w, h)));
    app.apply_index(Event::Run(engine::Event::Found {
        total: demo.rows.len(),
    }));
    app.apply_index(Event::rows(demo.rows.clone()));
    app.apply_index(Event::finished(demo.rows.len(), 0, Duration::ZERO));
    settle(&mut app, demo);
    app
}

/// The content index of the demo store, as the indexer would build it.
fn content_index(demo: &Demo) -> std::sync::Arc<codex_picker::search::fulltext::ContentIndex> {
    let progress = Box::new(|_, _, _: &_| true);
    let (index, _) =
        codex_picker::search::fulltext::tap::index_store(&demo.store, None, 1, progress).unwrap();
    std::sync::Arc::new(index)
}

/// Send every request to the workers and apply their answers, until none is awaited.
pub(crate) fn settle(app: &mut App, demo: &mut Demo) {
    let start = Instant::now();
    loop {
        demo.workers.send(app);
        let taken = demo.workers.take_answers(app);
        if !taken && !demo.workers.awaiting(app) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the workers did not answer"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

pub(crate) fn type_text(app: &mut App, demo: &mut Demo, text: &str) {
    for c in text.chars() {
        app.update(Action::Insert(c));
    }
    settle(app, demo);
}

pub(crate) fn screen(app: &App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| ui::draw(f, app, &Theme::new(false))).unwrap();
    term
}

pub(crate) fn all() -> Options {
    Options {
        all: true,
        ..Options::default()
    }
}

pub(crate) fn text_of(term: &Terminal<TestBackend>) -> String {
    term.backend().to_string()
}

#[test]
fn empty_store() {
    let mut app = App::new(all(), now());
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 120, 20)));
    app.apply_index(Event::Run(engine::Event::Found { total: 0 }));
    app.apply_index(Event::finished(0, 0, Duration::ZERO));
    let term = screen(&app, 120, 20);
    assert!(text_of(&term).contains("no sessions in this Codex home"));
    insta::assert_snapshot!("empty_store", term.backend());
}

#[test]
fn indexing_in_progress() {
    let mut demo = demo();
    let mut app = App::new(all(), now());
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 120, 24)));
    app.apply_index(Event::Run(engine::Event::Found { total: 5678 }));
    app.apply_index(Event::rows(demo.rows[..4].to_vec()));
    app.apply_index(Event::Run(engine::Event::Progress {
        done: 1234,
        total: 5678,
    }));
    settle(&mut app, &mut demo);
    let term = screen(&app, 120, 24);
    assert!(text_of(&term).contains("indexed 1,234 / 5,678"));
    insta::assert_snapshot!("indexing_in_progress", term.backend());
}

#[test]
fn results_with_a_highlighted_query() {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 120, 24);
    type_text(&mut app, &mut demo, "release");
    let term = screen(&app, 120, 24);
    let text = text_of(&term);
    assert!(text.contains("❯ release"));
    assert!(text.contains("release notes 2.4"));
    // The matched characters of the first row's title are drawn bold+underlined (no colour).
    let buf = term.backend().buffer();
    let row1: String = (0..60).map(|x| buf[(x, 1)].symbol().to_owned()).collect();
    let at = row1.find("release").expect("first row mentions release");
    let col = u16::try_from(row1[..at].chars().count()).unwrap();
    for x in col..col + 7 {
        assert!(
            buf[(x, 1)].modifier.contains(Modifier::UNDERLINED),
            "column {x} of {row1:?} is highlighted"
        );
    }
    insta::assert_snapshot!("results_with_query", term.backend());
}

#[test]
fn conversation_with_commentary_and_final_answer() {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 120, 40);
    type_text(&mut app, &mut demo, "checkout rounding");
    let term = screen(&app, 120, 40);
    let text = text_of(&term);
    assert!(text.contains("ASSISTANT · commentary"));
    assert!(text.contains("ASSISTANT · final answer"));
    assert!(text.contains("tool calls hidden (Ctrl+T shows them)"));
    assert!(text.contains("reasoning steps hidden"));
    insta::assert_snapshot!("conversation", term.backend());
}

#[test]
fn tool_calls_toggle() {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 120, 40);
    type_text(&mut app, &mut demo, "checkout rounding");
    app.update(Action::ToggleTools);
    let term = screen(&app, 120, 40);
    let text = text_of(&term);
    assert!(
        text.contains("▸ $ rg -n 'round' cart/"),
        "the command it ran"
    );
    assert!(
        text.contains("│ cart/total.py:41:"),
        "its first output lines"
    );
    insta::assert_snapshot!("conversation_with_tools", term.backend());
}

#[test]
fn help_overlay() {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 120, 32);
    app.update(Action::ToggleHelp);
    let term = screen(&app, 120, 32);
    let text = text_of(&term);
    assert!(text.contains("codex-picker keys"));
    assert!(text.contains("Ctrl+Y"));
    insta::assert_snapshot!("help", term.backend());
}

#[test]
fn help_in_the_conversation_lists_its_keys_first_and_says_what_does_not_fit() {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 120, 24);
    app.update(Action::FocusConversation);
    settle(&mut app, &mut demo);
    app.update(Action::ToggleHelp);
    let term = screen(&app, 120, 24);
    let text = text_of(&term);
    let at = |what: &str| text.find(what).unwrap_or_else(|| panic!("{what}:\n{text}"));
    assert!(at("in the conversation:") < at("] / [ / } / {"));
    assert!(at("] / [ / } / {") < at("everywhere:"));
    assert!(at("everywhere:") < at("Ctrl+O"));
    assert!(
        text.contains("more: a taller terminal shows them"),
        "what is cut is said:\n{text}"
    );
    assert!(text.contains("Esc or any key closes this help"));
    insta::assert_snapshot!("help_conversation", term.backend());
}

#[test]
fn narrow_terminal_hides_the_conversation() {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 80, 20);
    let term = screen(&app, 80, 20);
    assert!(!text_of(&term).contains("▍ USER"));
    insta::assert_snapshot!("narrow", term.backend());
    app.update(Action::FocusConversation);
    settle(&mut app, &mut demo);
    let term = screen(&app, 80, 20);
    assert!(text_of(&term).contains("▍ USER"), "→ opens it full width");
    insta::assert_snapshot!("narrow_conversation", term.backend());
}

#[test]
fn no_store_message() {
    let mut term = Terminal::new(TestBackend::new(100, 12)).unwrap();
    let msg = "codex-picker: no Codex sessions at /home/u/.codex (use --codex-home DIR or $CODEX_HOME to point at a Codex home, or --demo to try the built-in demo store)";
    term.draw(|f| ui::draw_message(f, msg, "press any key to quit", &Theme::new(false)))
        .unwrap();
    let text = text_of(&term);
    assert!(text.contains("--codex-home") && text.contains("--demo"));
    insta::assert_snapshot!("no_store", term.backend());
}

#[test]
fn folder_scope_counts_what_it_hides() {
    let mut demo = demo();
    let opts = Options {
        scope_root: Some("/home/demo/work/webshop".into()),
        ..Options::default()
    };
    let mut app = app(&mut demo, opts, 120, 20);
    let term = screen(&app, 120, 20);
    let text = text_of(&term);
    assert!(text.contains("(this folder)"), "{text}");
    assert!(text.contains("other folders (Tab)"), "{text}");
    app.update(Action::ToggleScope);
    settle(&mut app, &mut demo);
    assert!(text_of(&screen(&app, 120, 20)).contains("(all folders)"));
}

#[test]
fn content_search_lists_snippets_and_opens_the_conversation_at_the_hit() {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 120, 30);
    app.apply_index(Event::ContentReady(content_index(&demo)));
    settle(&mut app, &mut demo);
    app.update(Action::ToggleContent);
    type_text(&mut app, &mut demo, "refund");
    let term = screen(&app, 120, 30);
    insta::assert_debug_snapshot!("content_search", term.backend());
    let text = format!("{:?}", term.backend());
    assert!(text.contains("in conversations"), "{text}");
    assert!(text.contains("refund"), "{text}");
    let shown = text_of(&term);
    let row = shown.lines().nth(1).unwrap_or_default();
    assert!(
        row.contains("checkout rounding") && row.contains(" · ") && row.contains("refund path"),
        "a content row shows the session's title, then the snippet: {row}"
    );
    let hit_cells = term
        .backend()
        .buffer()
        .content
        .iter()
        .filter(|c| {
            c.modifier.contains(Modifier::REVERSED) && c.modifier.contains(Modifier::UNDERLINED)
        })
        .count();
    assert!(
        hit_cells >= "refund".len(),
        "the hit is highlighted in the pane"
    );
}
