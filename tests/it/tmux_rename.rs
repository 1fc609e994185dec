//! Rename end to end: the real binary in tmux, a stand-in `codex` whose app-server records what
//! it is asked. F2 opens the box with the session's name, Enter has codex's app-server set the
//! typed one and the row and the header show it; codex's refusal is the status line; an
//! app-server that never answers leaves the picker usable and is stopped when it quits.

use std::path::Path;

use crate::stand_in::StandIn;
use crate::tmux::{demo_store, start, Tmux};
use crate::tmux_actions::{list_column, wait_until, with_stand_in};

/// The demo's named session ("checkout rounding fix").
const NAMED: &str = "019ac001-7e2d-7a41-9c3b-000000000001";

#[test]
fn f2_renames_through_codexs_app_server_and_the_row_follows() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let codex = StandIn::new(dir.path());
    start(
        &tmux,
        &with_stand_in(dir.path(), &home, &codex, "--query checkout"),
    );
    tmux.wait_for("▶   2d checkout rounding fix");

    tmux.keys(&["F2"]);
    let screen = tmux.wait_for("rename the session");
    assert!(
        screen.contains("name  checkout rounding fix"),
        "the box starts from the current name:\n{screen}"
    );
    tmux.keys(&["C-u", "rounding fix v2", "Enter"]);
    let screen = tmux.wait_for("renamed “checkout rounding fix” to “rounding fix v2”");
    assert!(
        list_column(&screen).contains("rounding fix v2"),
        "the row shows the new name:\n{screen}"
    );
    assert!(
        screen.contains("name        rounding fix v2"),
        "so does the header:\n{screen}"
    );

    // What codex's app-server was asked, on the store shown.
    let asked = codex.requests();
    assert_eq!(asked.len(), 3, "{asked:?}");
    assert_eq!(asked[0]["method"], "initialize");
    assert_eq!(asked[1]["method"], "initialized");
    assert_eq!(asked[2]["method"], "thread/name/set");
    assert_eq!(asked[2]["params"]["threadId"], NAMED);
    assert_eq!(asked[2]["params"]["name"], "rounding fix v2");
    let calls = codex.calls();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0].2, "app-server");
    assert_eq!(Path::new(&calls[0].1), home);

    // codex's refusal is shown, and the name stays.
    tmux.keys(&["F2"]);
    tmux.wait_for("name  rounding fix v2");
    tmux.keys(&["C-u", "Enter"]);
    let screen = tmux.wait_for("codex rename failed: thread name must not be empty");
    assert!(list_column(&screen).contains("rounding fix v2"), "{screen}");

    // Esc keeps the name without asking codex.
    tmux.keys(&["F2"]);
    tmux.wait_for("rename the session");
    tmux.keys(&["x", "Escape"]);
    tmux.wait_for("name unchanged");
    assert_eq!(codex.calls().len(), 2);
}

#[test]
fn an_app_server_that_hangs_leaves_the_picker_usable_and_is_stopped_when_it_quits() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let codex = StandIn::new(dir.path());
    codex.hang();
    let names = std::fs::read_to_string(home.join("session_index.jsonl")).unwrap();
    start(&tmux, &with_stand_in(dir.path(), &home, &codex, ""));
    tmux.wait_for("Draft the 2.4 release notes");

    tmux.keys(&["F2"]);
    tmux.wait_for("rename the session");
    tmux.keys(&["notes", "Enter"]);
    tmux.wait_for("codex is renaming “Draft the 2.4 release notes");
    wait_until("the app-server starts", || codex.hung_pids().is_some());

    // While codex does not answer, the picker still takes keys.
    tmux.keys(&["rounding"]);
    let mut screen = String::new();
    wait_until("the query filters the list", || {
        screen = tmux.capture();
        let list = list_column(&screen);
        list.contains("checkout rounding fix") && !list.contains("Draft the 2.4")
    });
    assert!(screen.contains("codex is renaming"), "{screen}");

    // Quitting stops the app-server and what it started.
    tmux.keys(&["C-c"]);
    let status = dir.path().join("status");
    wait_until("the picker exits", || status.exists());
    #[cfg(target_os = "linux")]
    {
        let pids = codex.hung_pids().unwrap();
        wait_until("the app-server is stopped", || {
            pids.iter().all(|&pid| !alive(pid))
        });
    }
    let after = std::fs::read_to_string(home.join("session_index.jsonl")).unwrap();
    assert_eq!(after, names, "nothing was renamed");
}

/// Whether process `pid` is there and not a zombie.
#[cfg(target_os = "linux")]
fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        !s.rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}
