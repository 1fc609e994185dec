//! The session actions end to end: the real binary in tmux, a stand-in `codex` first on PATH.
//! Alt+A archives the selected session and it leaves the list; Alt+D then `n` deletes nothing;
//! Alt+D then `y` deletes it and its row goes; Ctrl+X shows every action; `--exec -- ARGS`
//! and Alt+F run codex in the session's folder with the user's arguments, on the store shown,
//! and the picker exits with codex's status.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::stand_in::StandIn;
use crate::tmux::{demo_store, picker_cmd, shell_quote, start, Tmux};

const TOP: &str = "019ac009-7e2d-7a41-9c3b-000000000009";
const NEXT: &str = "019ac003-7e2d-7a41-9c3b-000000000003";

/// The command that starts the picker on `home` with the stand-in first on PATH, its exit
/// status written to `dir/status`.
pub fn with_stand_in(dir: &Path, home: &Path, codex: &StandIn, extra: &str) -> String {
    format!(
        "cd {dir} && PATH={path} {picker} {extra}; echo $? > {status}; sleep 30",
        dir = shell_quote(dir),
        path = shell_quote(Path::new(&codex.path_env())),
        picker = picker_cmd(dir, home),
        status = shell_quote(&dir.join("status")),
    )
}

/// The list's column of the screen: below the search line, above the status line and the
/// footer, left of the conversation pane.
pub fn list_column(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    lines[1..lines.len().saturating_sub(2)]
        .iter()
        .map(|l| l.split('│').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Wait until `check` holds of the stand-in (at most 30 s).
pub fn wait_until(what: &str, mut check: impl FnMut() -> bool) {
    let start = Instant::now();
    while !check() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out: {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn archive_and_delete_go_through_codex_and_the_list_follows() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let codex = StandIn::new(dir.path());
    start(&tmux, &with_stand_in(dir.path(), &home, &codex, ""));
    tmux.wait_for("Draft the 2.4 release notes");

    tmux.keys(&["M-a"]);
    let screen = tmux.wait_for("archived “Draft the 2.4 release notes");
    assert_eq!(codex.args(), [format!("archive {TOP}")]);
    assert!(
        !list_column(&screen).contains("Draft the 2.4"),
        "the archived session left the list:\n{screen}"
    );
    assert!(
        screen.contains("▶") && list_column(&screen).contains("Summarize the changes"),
        "the selection is on the neighbour:\n{screen}"
    );

    tmux.keys(&["M-d"]);
    let screen = tmux.wait_for("delete this session?");
    assert!(screen.contains("Summarize the changes"), "{screen}");
    assert!(
        screen.contains(NEXT),
        "the question names the session:\n{screen}"
    );
    tmux.keys(&["n"]);
    tmux.wait_for("not deleted");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        codex.args().len(),
        1,
        "n deletes nothing: {:?}",
        codex.args()
    );

    tmux.keys(&["M-d"]);
    tmux.wait_for("delete this session?");
    tmux.keys(&["y"]);
    let screen = tmux.wait_for("deleted “Summarize the changes");
    assert_eq!(codex.args()[1], format!("delete --force {NEXT}"));
    assert!(
        !list_column(&screen).contains("Summarize the changes"),
        "the deleted session's row is gone:\n{screen}"
    );
    // codex ran on the store shown, whatever the environment says.
    for (_, codex_home, _) in codex.calls() {
        assert_eq!(Path::new(&codex_home), home);
    }

    tmux.keys(&["C-x"]);
    let screen = tmux.wait_for("┌ actions");
    for entry in codex_picker::tui::app::MENU {
        let label = entry.item.label(false);
        assert!(screen.contains(label), "{label:?} in the menu:\n{screen}");
        let keys = codex_picker::tui::keys::Keymap::default();
        let key =
            codex_picker::tui::keys::key_name(&keys, &entry.item.action()).unwrap_or_default();
        assert!(screen.contains(&key), "{key:?} in the menu:\n{screen}");
    }
    tmux.keys(&["Escape"]);
    let start = Instant::now();
    while tmux.capture().contains("┌ actions") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "Esc closes the menu"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let archived = std::fs::read_dir(home.join("archived_sessions")).unwrap();
    let names: Vec<String> = archived
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().any(|n| n.contains(TOP)), "{names:?}");
}

/// A store of one session whose folder exists: where the picker runs codex.
fn store_with_a_real_folder(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf, String) {
    let home = dir.join("home");
    let work = dir.join("work folder");
    std::fs::create_dir_all(&work).unwrap();
    let id = "019ac0aa-7e2d-7a41-9c3b-0000000000aa".to_owned();
    let cwd = work.display().to_string();
    crate::common::write_lines(
        &home,
        &crate::common::rollout_rel(&id),
        &[
            crate::common::meta_line(&id, &cwd),
            crate::common::user_event("resume me with my own flags"),
            crate::common::agent_event("ok", "final_answer"),
        ],
    );
    (home, work, id)
}

/// What became of a hand-over to codex: the picker's exit status, codex's calls, and where the
/// session's folder and store are.
struct HandOver {
    status: String,
    calls: Vec<(String, String, String)>,
    work: std::path::PathBuf,
    home: std::path::PathBuf,
    id: String,
}

/// The picker on a one-session store with `extra` on its command line, `key` pressed once the
/// session is listed, until the picker exits.
fn hand_over(extra: &str, key: &str) -> Option<HandOver> {
    let tmux = Tmux::start()?;
    let dir = tempfile::tempdir().unwrap();
    let (home, work, id) = store_with_a_real_folder(dir.path());
    let codex = StandIn::new(dir.path());
    start(&tmux, &with_stand_in(dir.path(), &home, &codex, extra));
    tmux.wait_for("resume me with my own flags");
    tmux.keys(&[key]);
    let status = dir.path().join("status");
    wait_until("the picker exits", || status.exists());
    std::thread::sleep(Duration::from_millis(100));
    let status = std::fs::read_to_string(status).unwrap().trim().to_owned();
    Some(HandOver {
        status,
        calls: codex.calls(),
        work,
        home,
        id,
    })
}

#[test]
fn exec_resumes_with_the_users_arguments_in_the_sessions_folder() {
    let Some(done) = hand_over("--exec -- --model x", "Enter") else {
        return;
    };
    assert_eq!(done.status, "7", "codex's exit status is passed through");
    assert_eq!(done.calls.len(), 1, "{:?}", done.calls);
    let (pwd, codex_home, args) = &done.calls[0];
    assert_eq!(args, &format!("resume {} --model x", done.id));
    assert_eq!(Path::new(pwd), done.work, "run in the session's folder");
    assert_eq!(Path::new(codex_home), done.home, "on the store shown");
}

#[test]
fn alt_f_forks_in_the_sessions_folder() {
    let Some(done) = hand_over("-- -s read-only", "M-f") else {
        return;
    };
    assert_eq!(done.status, "7");
    assert_eq!(done.calls.len(), 1, "{:?}", done.calls);
    assert_eq!(done.calls[0].2, format!("fork {} -s read-only", done.id));
    assert_eq!(Path::new(&done.calls[0].0), done.work);
}
