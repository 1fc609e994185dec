//! End to end, the conversation pane in the real binary in tmux, on the demo store: a rendered
//! heading, a highlighted code block (in colour), an expanded tool call showing its whole
//! command, a find that moves the pane to the match; a plan shown as its steps and a failed
//! patch marked failed with codex's reason.

use std::path::Path;

use super::tmux::{shell_quote, start, start_sized, Tmux};

fn styled(tmux: &Tmux) -> String {
    String::from_utf8_lossy(&tmux.run(&["capture-pane", "-e", "-p", "-t", "t"]).stdout).into_owned()
}

/// Page down until `want` shows (the conversation may still be loading).
fn page_to(tmux: &Tmux, want: &str) -> String {
    page_to_all(tmux, &[want])
}

/// Scroll the pane down a line at a time until every one of `wants` is on screen at once.
fn page_to_all(tmux: &Tmux, wants: &[&str]) -> String {
    for _ in 0..40 {
        let screen = tmux.capture();
        if wants.iter().all(|want| screen.contains(want)) {
            return screen;
        }
        tmux.keys(&["Down"]);
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("{wants:?} never came on screen:\n{}", tmux.capture());
}

#[test]
fn the_pane_renders_markdown_highlights_code_expands_a_call_and_finds() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = codex_picker::demo::materialize(&dir.path().join("store")).unwrap();
    let cmd = format!(
        "cd {d} && env -u NO_COLOR TERM=xterm-256color XDG_CACHE_HOME={d}/cache XDG_CONFIG_HOME={d}/config {bin} --all --codex-home {home}; sleep 5",
        d = shell_quote(dir.path()),
        bin = shell_quote(Path::new(env!("CARGO_BIN_EXE_codex-picker"))),
        home = shell_quote(&home),
    );
    start(&tmux, &cmd);
    tmux.wait_for("Draft the 2.4 release notes");
    tmux.keys(&["-l", "checkout rounding"]);
    tmux.wait_for("checkout rounding fix");
    tmux.keys(&["Right"]);
    // A heading without its hashes, a table, a highlighted Python block.
    let screen = page_to(&tmux, "def total(lines");
    assert!(
        screen.contains("What changed") && !screen.contains("## What"),
        "{screen}"
    );
    let line = styled(&tmux)
        .lines()
        .find(|l| l.contains("def") && l.contains("tax_rate"))
        .map(str::to_owned)
        .unwrap();
    // The last colour set before `def` is the keyword colour (magenta, 5).
    let before_def = &line[..line.find("def").unwrap()];
    let colour = before_def.rfind("\u{1b}[38;5;").map(|i| &before_def[i..]);
    assert!(
        colour.is_some_and(|c| c.starts_with("\u{1b}[38;5;5m"))
            || before_def.contains("\u{1b}[35m"),
        "`def` is drawn in the keyword colour: {line:?}"
    );
    // Tool calls: the long command is cut when collapsed, whole when expanded.
    tmux.keys(&["C-t", "g"]);
    page_to(&tmux, "$ pytest -q");
    // `e` takes the first call on screen: scroll the one before it away.
    let mut screen = tmux.capture();
    while screen.contains("$ rg -n") {
        tmux.keys(&["Down"]);
        std::thread::sleep(std::time::Duration::from_millis(100));
        screen = tmux.capture();
    }
    assert!(screen.contains("$ pytest -q"), "{screen}");
    assert!(
        !screen.contains("-p no:cacheprovider"),
        "collapsed, the command is cut:\n{screen}"
    );
    tmux.keys(&["e"]);
    let screen = tmux.wait_for("▾ $ pytest -q");
    assert!(
        screen.contains("--maxfail=1") && screen.contains("no:cacheprovider  ✓ exit 0 · 832 ms"),
        "expanded, the whole command and how it ended:\n{screen}"
    );
    // Find moves the pane to the match.
    tmux.keys(&["g", "/"]);
    tmux.keys(&["-l", "refund path"]);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("match 1 of 1");
    assert!(
        screen.contains("Does the same bug exist in the refund path?"),
        "{screen}"
    );
    // Export: a new Markdown file in the folder the picker runs in, and where it is said.
    tmux.keys(&["x"]);
    tmux.wait_for("wrote ");
    let file = dir.path().join("codex-session-019ac001.md");
    let text = std::fs::read_to_string(&file).expect("the exported file");
    assert!(text.contains("## 1 · User") && text.contains("The checkout total is off by one cent"));
    assert!(
        text.contains("```text") || text.contains("**tool**"),
        "tool calls shown, so exported"
    );
}

#[test]
fn a_plan_is_shown_as_steps_and_a_failed_patch_as_failed_with_codexs_reason() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = super::tmux::demo_store(dir.path());
    // Wide enough for a failed call's heading to say how it ended.
    let cmd = super::tmux::picker_cmd(dir.path(), &home);
    start_sized(&tmux, &cmd, 160, 40);
    tmux.wait_for("Draft the 2.4 release notes");
    tmux.keys(&["-l", "csv export"]);
    tmux.wait_for("Add a CSV export to the inventory report");
    tmux.keys(&["Right", "C-t"]);
    // The heading can come on screen a line before its steps: page until all of them are.
    let steps = [
        "plan: 1 of 3 steps done",
        "[x] Read inventory/report.py  (was in progress)",
        "[>] Add export_csv()  (was pending)",
        "[ ] Run the tests",
    ];
    let screen = page_to_all(&tmux, &steps);
    assert!(
        screen.contains("[x] Read inventory/report.py  (was in progress)")
            && screen.contains("[>] Add export_csv()  (was pending)")
            && screen.contains("[ ] Run the tests"),
        "the plan's steps:\n{screen}"
    );
    assert!(!screen.contains("\"status\""), "not raw JSON:\n{screen}");
    // Scrolled a line at a time until the reason (the line under the heading) is in view.
    let screen = page_to(&tmux, "! apply_patch verification failed");
    assert!(
        screen.contains("▸ apply_patch: 1 file  ✗ not applied")
            && screen.contains("! apply_patch verification failed: Failed to find expected"),
        "the failed patch is marked failed, with codex's reason:\n{screen}"
    );
    // Expanded (every call: `E`), it gives codex's whole reason.
    tmux.keys(&["E"]);
    page_to(&tmux, "▾ apply_patch: 1 file  ✗ not applied");
    let screen = page_to(&tmux, "│     rows = build_rows(items, sort=True)");
    assert!(
        screen.contains("│ apply_patch verification failed: Failed to find expected"),
        "expanded, codex's whole reason:\n{screen}"
    );
}
