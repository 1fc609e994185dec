//! Sessions recorded from the real codex 0.171 (`tests/fixtures/codex-rich`, see its README):
//! patches (applied and failed), plans, parallel and failing commands, a command left running
//! in the background, web search, an MCP tool, goals, images, compactions (asked for and
//! automatic), an interrupted turn and forks. Each is checked in the three views a person
//! reads it in, the pane (snapshots on TestBackend), `show --tools` and `show --markdown
//! --tools`, which must say the same things: the expectations were written from reading the
//! files.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use codex_picker::tui::action::Action;
use codex_picker::tui::app::App;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use super::common::{copy_tree, fixtures, run, stdout};
use super::screens::{all, app, screen, settle, store_at, text_of, type_text, Demo};

/// The recorded store, copied with its files' times set in the order the sessions were
/// recorded (so the list's order and ages are the same on every run).
fn rich_store() -> Demo {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    copy_tree(&fixtures().join("codex-rich"), &home);
    let day = home.join("sessions/2026/12/03");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&day)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let base = SystemTime::UNIX_EPOCH + Duration::from_secs(1_796_294_000);
    for (i, path) in names.iter().enumerate() {
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_modified(base + Duration::from_secs(60 * i as u64))
            .unwrap();
    }
    store_at(dir, home)
}

/// The picker on the recorded store with session `id` read in the pane, tool calls shown.
fn opened(id: &str, w: u16, h: u16) -> (Demo, App) {
    let mut store = rich_store();
    let mut app = app(&mut store, all(), w, h);
    type_text(&mut app, &mut store, id);
    app.update(Action::FocusConversation);
    app.update(Action::ToggleTools);
    settle(&mut app, &mut store);
    (store, app)
}

/// Scroll until `text` is near the top of the pane (or, at the end, anywhere on it).
fn scroll_to(app: &mut App, text: &str) {
    let on = |app: &App, n: usize| {
        let p = app.pane();
        p.lines()
            .iter()
            .skip(p.scroll())
            .take(n)
            .any(|l| l.text().contains(text))
    };
    loop {
        if on(app, 3) {
            return;
        }
        let before = app.pane().scroll();
        app.update(Action::Scroll(1));
        if app.pane().scroll() == before {
            assert!(on(app, 40), "{text:?} never came on screen");
            return;
        }
    }
}

/// The size the pane tests open the picker at: the pane is then 70 cells wide.
const W: u16 = 160;
const H: u16 = 40;

fn snapshot(app: &App) -> Terminal<TestBackend> {
    screen(app, W, H)
}

#[test]
fn a_failed_patch_is_marked_failed_with_codexs_reason() {
    let (_s, mut app) = opened("01a23b78-f48a", W, H);
    scroll_to(&mut app, "apply_patch");
    let text = text_of(&snapshot(&app));
    assert!(
        text.contains("▸ apply_patch: 1 file  ✗ not applied"),
        "{text}"
    );
    assert!(
        text.contains("! apply_patch verification failed: Failed to find expected lines"),
        "collapsed: the first line of codex's reason\n{text}"
    );
    assert!(text.contains("M main.py"));
    app.update(Action::Expand { all: false });
    let term = snapshot(&app);
    let text = text_of(&term);
    assert!(
        text.contains("│ print(\"this line does not exist\")"),
        "expanded: codex's whole reason\n{text}"
    );
    insta::assert_snapshot!("rich_patch_failed", term.backend());
}

#[test]
fn an_applied_patch_shows_each_files_diff_from_codexs_record() {
    let (_s, mut app) = opened("01a23b78-c7f8", W, H);
    app.update(Action::Expand { all: true });
    scroll_to(&mut app, "apply_patch: 3 files");
    let term = snapshot(&app);
    let text = text_of(&term);
    assert!(
        text.contains("▾ apply_patch: 3 files  ✓ exit 0 · 4 ms"),
        "{text}"
    );
    assert!(text.contains("M main.py") && text.contains("│ -print(\"hi\")"));
    assert!(
        text.contains("│ @@ -1 +1,7 @@") && !text.contains("*** Begin Patch"),
        "codex's stored diff (its hunk header), not the patch as the model wrote it\n{text}"
    );
    assert!(text.contains("A docs/USAGE.md") && text.contains("│ +# Usage"));
    insta::assert_snapshot!("rich_patch_expanded", term.backend());
    scroll_to(&mut app, "D old_notes.txt");
    let text = text_of(&snapshot(&app));
    assert!(
        text.contains("│ -stale notes"),
        "a deleted file's content\n{text}"
    );
    scroll_to(&mut app, "R src/util.py → src/helpers.py");
}

#[test]
fn a_plan_is_its_steps_with_what_changed() {
    let (_s, mut app) = opened("01a23b78-d489", W, H);
    scroll_to(&mut app, "plan: 1 of 3 steps done");
    let term = snapshot(&app);
    let text = text_of(&term);
    assert!(
        text.contains("[x] Inspect main.py  (was in progress)"),
        "{text}"
    );
    assert!(text.contains("[>] Add tests/test_main.py  (was pending)"));
    assert!(!text.contains("\"status\""), "no raw JSON");
    insta::assert_snapshot!("rich_plan", term.backend());
    app.update(Action::Expand { all: true });
    let text = pane_text(&mut app);
    assert!(
        text.contains("Adding a test for greet() in three steps."),
        "expanded: the explanation\n{text}"
    );
    assert!(text.contains("[>] Add tests/test_main.py  (was pending)"));
    assert!(
        !text.contains("\"status\"") && !text.contains("\"step\""),
        "{text}"
    );
}

#[test]
fn a_background_command_ends_on_its_own_line_and_an_interrupted_turn_is_marked() {
    let (_s, mut app) = opened("01a23b7a-88ee", W, H);
    let text = text_of(&snapshot(&app));
    assert!(text.contains("[1 image: diagram.png]"), "{text}");
    scroll_to(&mut app, "$ sleep 8");
    let term = snapshot(&app);
    let text = text_of(&term);
    assert!(
        text.contains("▸ $ sleep 8; echo background-check-done  ✓ exit 0 · 7.9 s"),
        "{text}"
    );
    assert!(text.contains("waited on $ sleep 8; echo background-check-done  ⏹ interrupted"));
    assert!(text.contains("⏹ turn interrupted by the user · after 1.7 s"));
    insta::assert_snapshot!("rich_interrupted", term.backend());
}

#[test]
fn a_compaction_is_marked_and_its_summary_can_be_read() {
    let (_s, mut app) = opened("01a23b79-919e", W, H);
    scroll_to(&mut app, "context compacted");
    let text = text_of(&snapshot(&app));
    assert!(text.contains("⟲ context compacted (/compact)"), "{text}");
    assert!(
        text.contains("more lines (e expands)"),
        "the summary, peeked at"
    );
    app.update(Action::Expand { all: false });
    let term = snapshot(&app);
    let text = text_of(&term);
    assert!(
        text.contains("Next: continue with whatever the user asks"),
        "{text}"
    );
    insta::assert_snapshot!("rich_compaction", term.backend());
    // The header counts messages only: the summary is not one, nor is `/compact`.
    assert!(pane_text(&mut app).contains("messages    5 user · 10 assistant"));
}

#[test]
fn a_fork_shows_its_parents_history_dimmed_then_its_own_part() {
    let (_s, mut app) = opened("01a23b7a-4458", W, H);
    let header = text_of(&snapshot(&app));
    assert!(
        header.contains("fork of     Hi! Let's clean up this little repo."),
        "{header}"
    );
    assert!(
        header.contains("messages    1 user · 2 assistant"),
        "its own"
    );
    assert!(
        header.contains("⑂ In the fork: RICH_PATCH_FAIL"),
        "marked in the list, by its own first prompt\n{header}"
    );
    scroll_to(&mut app, "forked here");
    let term = snapshot(&app);
    insta::assert_snapshot!("rich_fork", term.backend());
    let rule = app
        .pane()
        .lines()
        .iter()
        .position(|l| l.text().contains("⑂ forked here from “Hi! Let's clean up"))
        .unwrap();
    let inherited = app.pane().inherited().expect("a fork");
    assert!(inherited.end <= rule && inherited.contains(&(rule - 3)));
    // `list --json` says what the pane says: its own first prompt and counts, and its parent.
    let rows = super::common::list_json(&fixtures().join("codex-rich"), &[]);
    let fork = super::common::row(&rows, "01a23b7a-4458-7421-afc0-ed8fafd3ea35");
    assert_eq!(
        fork["first_user_message"].as_str(),
        Some("In the fork: RICH_PATCH_FAIL try a patch that does not apply")
    );
    assert_eq!(
        (
            fork["user_messages"].as_u64(),
            fork["assistant_messages"].as_u64()
        ),
        (Some(1), Some(2))
    );
    assert_eq!(
        fork["forked_from_id"].as_str(),
        Some("01a23b79-919e-7ee3-aced-208225816fed")
    );
    assert!(
        fork["name"].is_null(),
        "the name codex copied from the parent is not the fork's own: {fork}"
    );
}

#[test]
fn an_exec_fork_is_titled_and_counted_by_its_own_part() {
    let (_s, mut app) = opened("01a23b79-4992", W, H);
    let header = text_of(&snapshot(&app));
    assert!(
        header.contains("⑂ exec RICH_MULTI: in the fork"),
        "{header}"
    );
    assert!(
        header.contains("fork of     RICH_PLAN: add a unit test"),
        "{header}"
    );
    assert!(
        header.contains("messages    1 user · 4 assistant"),
        "{header}"
    );
    let text = pane_text(&mut app);
    let rule = text.find("⑂ forked here from “RICH_PLAN: add a unit test");
    let own = text.rfind("RICH_MULTI: in the fork, check the repository state again");
    assert!(rule.is_some() && rule < own, "{text}");
}

#[test]
fn web_search_mcp_and_goal_calls_say_what_they_did() {
    for (id, said) in [
        (
            "01a23b79-081e",
            &[
                "▸ web search: codex cli 0.171.0 release notes  ✓",
                "▸ opened https://example.com/codex/releases/0.171.0  ✓",
            ][..],
        ),
        (
            "01a23b79-1d38",
            &[
                "▸ tool search: weather forecast  ✓",
                "│ mcp__weather: get_forecast",
                "▸ weather · get_forecast (MCP)  ✓ 7 ms",
                "│ Forecast for Lisbon: sunny, 21°C, light wind.",
            ],
        ),
        (
            "01a23b79-2808",
            &[
                "▸ goal set: Keep main.py printing a greeting  ✓",
                "│ Keep main.py printing a greeting · active",
                "▸ goal marked complete  ✓",
                "│ Keep main.py printing a greeting · complete",
            ],
        ),
    ] {
        let (_s, mut app) = opened(id, W, H);
        if id == "01a23b79-1d38" {
            insta::assert_snapshot!("rich_mcp", snapshot(&app).backend());
        }
        let text = pane_text(&mut app);
        for s in said {
            assert!(text.contains(s), "{id}: {s:?}\n{text}");
        }
        assert!(!text.contains("{\""), "{id}: no raw JSON answer\n{text}");
    }
}

/// The style of the first cell of `text` on screen.
fn style_of(term: &Terminal<TestBackend>, text: &str) -> ratatui::style::Style {
    let buf = term.backend().buffer();
    let area = buf.area;
    let chars: Vec<String> = text.chars().map(String::from).collect();
    for y in 0..area.height {
        for x in 0..area.width.saturating_sub(chars.len() as u16) {
            let spelled = chars
                .iter()
                .enumerate()
                .all(|(i, c)| buf[(x + i as u16, y)].symbol() == c);
            if spelled {
                return buf[(x, y)].style();
            }
        }
    }
    panic!("{text:?} is not on screen");
}

#[test]
fn a_top_heading_does_not_look_like_a_second_level_one() {
    let (_s, app) = opened("01a23b78-fe51", W, H);
    let term = snapshot(&app);
    let h1 = style_of(&term, "Release checklist");
    let h2 = style_of(&term, "Summary");
    assert_ne!(h1, h2, "# and ## are drawn alike");
}

/// Every line of the pane (built as the reader comes to them: `G` builds them all).
fn pane_text(app: &mut App) -> String {
    app.update(Action::PaneEnd(true));
    let lines: Vec<String> = app
        .pane()
        .lines()
        .iter()
        .map(codex_picker::tui::render::PaneLine::text)
        .collect();
    lines.join("\n")
}

/// A view's text as a reader takes it in: Markdown's marks (`*`, `` ` ``, escapes) and runs of
/// white space do not change what it says.
fn said(text: &str) -> String {
    let unmarked: String = text
        .chars()
        .filter(|c| !matches!(c, '`' | '*' | '\\'))
        .collect();
    unmarked.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn show(home: &Path, id: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "show",
        id,
        "--tools",
        "--codex-home",
        home.to_str().unwrap(),
    ];
    args.extend(extra);
    let out = run(&args);
    assert!(out.status.success(), "show {id} {extra:?}");
    stdout(&out)
}

/// Each recorded session of the rich store (by id prefix) and what every view of it must say.
const SAID: &[(&str, &[&str])] = &[
    (
        "01a23b78-c7f8",
        &[
            "apply_patch: 3 files ✓ exit 0 · 4 ms",
            "M main.py",
            "A docs/USAGE.md",
            "D old_notes.txt",
            "R src/util.py → src/helpers.py",
            "$ python3 main.py && git status --short ✓ exit 0 · 142 ms",
        ],
    ),
    (
        "01a23b78-f48a",
        &[
            "apply_patch: 1 file ✗ not applied",
            "apply_patch verification failed: Failed to find expected lines in \
             /home/dev/work/proj/main.py:",
            "M main.py",
            "print(\"this line does not exist\")",
        ],
    ),
    (
        "01a23b78-d489",
        &[
            "plan: 0 of 3 steps done",
            "Adding a test for greet() in three steps.",
            "[x] Inspect main.py (was in progress)",
            "Add tests/test_main.py",
            "was pending",
            "plan: 3 of 3 steps done",
        ],
    ),
    (
        "01a23b78-e12d",
        &[
            "$ git status --short --branch ✓ exit 0",
            "## master",
            "$ cat config/settings.toml ✗ exit 1",
            "cat: config/settings.toml: No such file or directory",
            "$ sleep 2; echo background-check-done ✓ exit 0 · 1.9 s",
            "ran in the background (session 15407)",
            "waited on $ sleep 2; echo background-check-done ✓ exit 0 · 1.5 s",
        ],
    ),
    (
        "01a23b79-1d38",
        &[
            "tool search: weather forecast",
            "mcp__weather: get_forecast",
            "weather · get_forecast (MCP) ✓ 7 ms",
            "Forecast for Lisbon: sunny, 21°C, light wind.",
        ],
    ),
    (
        "01a23b79-081e",
        &[
            "web search: codex cli 0.171.0 release notes ✓",
            "opened https://example.com/codex/releases/0.171.0 ✓",
        ],
    ),
    (
        "01a23b79-12b5",
        &[
            "viewed image /home/dev/work/proj/diagram.png ✓",
            "an image shown to the model",
        ],
    ),
    (
        "01a23b79-3360",
        &["2 images: /home/dev/work/proj/diagram.png, /home/dev/work/proj/photo.png"],
    ),
    (
        "01a23b79-919e",
        &["context compacted (/compact)", "Summary of the conversation so far"],
    ),
    (
        "01a23b79-61d7",
        &["context compacted automatically (the context was full)"],
    ),
    (
        "01a23b7a-88ee",
        &[
            "1 image: diagram.png",
            "waited on $ sleep 8; echo background-check-done ⏹ interrupted",
            "turn interrupted by the user",
            "after 1.7 s",
        ],
    ),
    (
        "01a23b7a-4458",
        &[
            "Hi! Let's clean up this little repo. RICH_PATCH: start by refactoring main.py",
            "forked here from “Hi! Let's clean up this little repo. RICH_PATCH: start by refactoring main.py”",
            "apply_patch: 1 file ✗ not applied",
        ],
    ),
];

#[test]
fn the_pane_show_and_markdown_say_the_same_things() {
    let home = fixtures().join("codex-rich");
    for (id, facts) in SAID {
        let (_store, mut app) = opened(id, 400, 60);
        app.update(Action::Expand { all: true });
        let views = [
            ("pane", said(&pane_text(&mut app))),
            ("show --tools", said(&show(&home, id, &["--full"]))),
            (
                "show --markdown --tools",
                said(&show(&home, id, &["--markdown"])),
            ),
        ];
        for fact in *facts {
            for (view, text) in &views {
                assert!(
                    text.contains(&said(fact)),
                    "{id}: {view} does not say {fact:?}:\n{text}"
                );
            }
        }
        for (view, text) in &views {
            for raw in [
                "Chunk ID:",
                "Wall time:",
                "Original token count:",
                "\"plan\": [",
            ] {
                assert!(!text.contains(raw), "{id}: {view} shows {raw:?}:\n{text}");
            }
        }
    }
}

#[test]
fn markdown_puts_each_output_under_its_call_and_the_tui_is_labelled_tui() {
    let home = fixtures().join("codex-rich");
    let md = show(&home, "01a23b78-e12d", &["--markdown"]);
    let at = |text: &str| {
        md.find(text)
            .unwrap_or_else(|| panic!("{text:?} not in\n{md}"))
    };
    // Two calls made in parallel, then their two outputs: each output is under its call.
    assert!(at("`$ git status --short --branch`") < at("## master"));
    assert!(at("## master") < at("`$ wc -l main.py`"));
    assert!(at("`$ wc -l main.py`") < at("1 main.py\n"));
    let text = show(&home, "01a23b79-919e", &[]);
    assert!(
        text.contains("origin: codex 0.171.0 · tui · mock"),
        "codex 0.171's TUI writes source vscode; its originator says tui\n{text}"
    );
    let rows = super::common::list_json(&home, &[]);
    let tui = super::common::row(&rows, "01a23b79-919e-7ee3-aced-208225816fed");
    assert_eq!(
        (tui["session_source"].as_str(), tui["client"].as_str()),
        (Some("vscode"), Some("tui"))
    );
}
