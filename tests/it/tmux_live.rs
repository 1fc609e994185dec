//! The picker stays true while the store changes under it: in tmux, with the picker open on a
//! demo store, a session file is created, the session being read grows, another is deleted and
//! the one being read is garbled; each change shows within two seconds, with the selection and
//! the reading position kept.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::tmux::{demo_store, picker_cmd, start, Tmux};

/// The pane's first lines on screen (right of the list): where the reader is.
fn pane_top(screen: &str) -> String {
    screen
        .lines()
        .skip(1)
        .take(6)
        .map(|line| {
            line.split_once('│')
                .or_else(|| line.split_once('┃'))
                .map_or("", |(_, r)| r.trim())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Poll the screen until `check` holds, at most two seconds (plus a margin for a busy
/// machine); the screen then.
fn within_two_seconds(tmux: &Tmux, what: &str, check: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let screen = tmux.capture();
        if check(&screen) {
            return screen;
        }
        let limit = if std::env::var_os("CI").is_some() {
            6
        } else {
            2
        };
        assert!(
            start.elapsed() < Duration::from_secs(limit),
            "{what} within two seconds; the screen:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn rollout(home: &Path, id: &str) -> std::path::PathBuf {
    walkdir::WalkDir::new(home)
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().contains(id))
        .unwrap()
        .into_path()
}

fn append(path: &Path, lines: &[String]) {
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    for line in lines {
        writeln!(f, "{line}").unwrap();
    }
}

#[test]
fn created_grown_deleted_and_garbled_sessions_show_while_the_picker_is_open() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let cmd = format!("{}; sleep 30", picker_cmd(dir.path(), &home));
    start(&tmux, &cmd);
    tmux.wait_for("Draft the 2.4 release notes");
    // Read the long webshop session, a few messages in.
    let reading = "019ac00b-7e2d-7a41-9c3b-00000000000b";
    tmux.keys(&["-l", "pagination orders"]);
    tmux.wait_for(reading);
    // The conversation is read before the jumps are pressed.
    tmux.wait_for("▍ ASSISTANT");
    tmux.keys(&["Right", "]", "]", "]"]);
    let screen = within_two_seconds(&tmux, "three messages in", |s| {
        !s.contains(reading) && {
            let top = pane_top(s);
            top.contains("ASSISTANT") || top.contains("USER")
        }
    });
    std::thread::sleep(Duration::from_millis(300));
    let top = pane_top(&tmux.capture());
    assert_eq!(top, pane_top(&screen), "the position holds still");
    let selected = |s: &str| {
        s.lines()
            .any(|l| l.starts_with("▶") && l.contains("Add pagination"))
    };

    // A new session that the query matches.
    let id = "019ac0ee-7e2d-7a41-9c3b-0000000000ee";
    let new = crate::common::write_lines(
        &home,
        &format!("sessions/2026/12/02/rollout-2026-12-02T10-00-00-{id}.jsonl"),
        &[
            crate::common::meta_line(id, "/home/demo/work/new"),
            crate::common::user_event("pagination orders again, started live"),
        ],
    );
    let screen = within_two_seconds(&tmux, "the new session", |s| s.contains("started live"));
    assert!(
        selected(&screen),
        "the selection stays on its session:\n{screen}"
    );
    assert_eq!(pane_top(&screen), top, "and the reading position too");

    // The session being read grows.
    append(
        &rollout(&home, reading),
        &[
            crate::common::user_event("one more question, asked live"),
            crate::common::agent_event(
                "A reply written while the picker was open.",
                "final_answer",
            ),
        ],
    );
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        pane_top(&tmux.capture()),
        top,
        "the reading position is kept as the conversation grows"
    );
    tmux.keys(&["G"]);
    within_two_seconds(&tmux, "the new reply at the end", |s| {
        s.contains("A reply written while the picker was open.")
    });

    // The new session is deleted.
    std::fs::remove_file(&new).unwrap();
    let screen = within_two_seconds(&tmux, "the deleted session gone", |s| {
        !s.contains("started live")
    });
    assert!(selected(&screen), "{screen}");

    // The session being read is garbled.
    append(
        &rollout(&home, reading),
        &[
            "{\"type\": \"event_msg\", \"payload\": {".to_owned(),
            "garbage".to_owned(),
        ],
    );
    tmux.keys(&["g"]);
    within_two_seconds(&tmux, "the damage shown", |s| {
        s.contains("damaged: 2 lines")
    });
}
