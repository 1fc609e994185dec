//! A session another process has open, end to end: the test holds the `flock` on the session's
//! `thread-writer-locks/<id>.lock` as a running codex does, and the binary (another process)
//! says so of that session alone: `list --json` gives the holder's pid in `open_elsewhere`
//! (null for the others, and once the lock is released), and the picker in tmux marks the
//! session, names the holder in its header and asks before resuming it: `n` leaves it, `y` goes
//! ahead.

use std::fs::File;
use std::path::Path;

use crate::stand_in::StandIn;
use crate::tmux::{demo_store, picker_cmd, shell_quote, start, Tmux};
use crate::tmux_actions::{list_column, wait_until};

const TOP: &str = "019ac009-7e2d-7a41-9c3b-000000000009";
const NEXT: &str = "019ac003-7e2d-7a41-9c3b-000000000003";

/// The lock file of session `id` in the store at `home`, made as codex makes it.
fn lock_file(home: &Path, id: &str) -> File {
    let dir = home.join("thread-writer-locks");
    std::fs::create_dir_all(&dir).unwrap();
    File::create(dir.join(format!("{id}.lock"))).unwrap()
}

/// Hold the lock of session `id` as codex does (an exclusive flock) until the file is dropped.
pub fn hold_lock(home: &Path, id: &str) -> File {
    use std::os::fd::AsRawFd;
    let file = lock_file(home, id);
    // SAFETY: flock on a descriptor this function owns and hands back open.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    assert_eq!(rc, 0, "flock: {}", std::io::Error::last_os_error());
    file
}

#[test]
fn a_session_open_in_another_codex_is_marked_and_resume_asks_first() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let codex = StandIn::new(dir.path());
    // A lock file nobody holds, as codex leaves one behind, and one this test holds.
    let _free = lock_file(&home, TOP);
    let _held = hold_lock(&home, NEXT);
    let pid = std::process::id();
    let out = dir.path().join("out.txt");
    let status = dir.path().join("status");
    start(
        &tmux,
        &format!(
            "cd {dir} && PATH={path} {picker} --print-command > {out}; echo $? > {status}; sleep 30",
            dir = shell_quote(dir.path()),
            path = shell_quote(Path::new(&codex.path_env())),
            picker = picker_cmd(dir.path(), &home),
            out = shell_quote(&out),
            status = shell_quote(&status),
        ),
    );
    // Every row is in (the selection on the top one) and the locks have been read.
    let mut screen = String::new();
    wait_until("the list and its mark", || {
        screen = tmux.capture();
        let top = list_column(&screen).lines().next().unwrap_or("").to_owned();
        top.contains('▶') && top.contains("Draft the 2.4") && screen.contains('●')
    });
    let list = list_column(&screen);
    let marked: Vec<&str> = list.lines().filter(|l| l.contains('●')).collect();
    assert_eq!(marked.len(), 1, "one session is marked:\n{screen}");
    assert!(marked[0].contains("Summarize the changes"), "{screen}");
    assert!(
        !screen.contains("open in codex"),
        "the top session's header says nothing of it:\n{screen}"
    );

    tmux.keys(&["Down"]);
    tmux.wait_for(&format!("● open in codex, pid {pid}"));

    let question = format!("open in another codex (pid {pid}): resume anyway? y/n");
    tmux.keys(&["C-o"]);
    tmux.wait_for(&question);
    tmux.keys(&["n"]);
    tmux.wait_for("not resumed");
    assert!(codex.calls().is_empty(), "codex was not run");

    tmux.keys(&["Enter"]);
    tmux.wait_for(&question);
    tmux.keys(&["y"]);
    wait_until("the picker exits", || status.exists());
    let printed = std::fs::read_to_string(&out).unwrap();
    assert!(
        printed.contains(&format!("codex resume {NEXT}")),
        "y goes ahead: {printed:?}"
    );
}

/// `list --json`'s `open_elsewhere` of each session, by id.
fn open_elsewhere(home: &Path, extra: &[&str]) -> Vec<(String, serde_json::Value)> {
    crate::common::list_json(home, extra)
        .into_iter()
        .map(|s| {
            let id = s["id"].as_str().unwrap().to_owned();
            (id, s["open_elsewhere"].clone())
        })
        .collect()
}

#[test]
fn list_json_gives_the_holders_pid_of_a_held_session_and_null_for_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let _free = lock_file(&home, TOP);
    let held = hold_lock(&home, NEXT);
    let pid = serde_json::Value::from(std::process::id());
    // A cold run, a warm one (lines the rows cache kept), one filtered by folder.
    for extra in [&[][..], &[], &["--cwd", "/home/demo/work/api-server"]] {
        let listed = open_elsewhere(&home, extra);
        assert!(listed.len() >= 2, "{listed:?}");
        for (id, open) in &listed {
            let want = if id == NEXT {
                &pid
            } else {
                &serde_json::Value::Null
            };
            assert_eq!(open, want, "{id} ({extra:?})");
        }
    }
    // So does a search inside conversations.
    let found = open_elsewhere(&home, &["--content", "last 5 commits"]);
    assert!(
        found.iter().any(|(id, open)| id == NEXT && *open == pid),
        "{found:?}"
    );
    // Released: nobody has it open any more, and the next listing says so.
    drop(held);
    let listed = open_elsewhere(&home, &[]);
    assert!(listed.iter().all(|(_, open)| open.is_null()), "{listed:?}");
}
