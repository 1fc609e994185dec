//! The inline picker (`--height N`) in tmux: it draws in N rows right below a line printed
//! before it, on the main screen (`#{alternate_on}` 0); on Esc, on SIGTERM and after the
//! terminal is resized, its rows are cleared, the line above is still there, the cursor is
//! back where the picker found it and the tty is in cooked mode (`stty -a` says `icanon echo`).
//! In five rows (`--height 5`) it is the query line and the list alone, the conversation a key
//! away.

use std::path::Path;
use std::time::{Duration, Instant};

use codex_picker::textwidth;

use crate::tmux::{demo_store, picker_cmd, read_when_there, shell_quote, start, start_sized, Tmux};

const MARKER: &str = "MARKER-LINE-BEFORE-THE-PICKER";
const ROWS: usize = 15;

/// `#{alternate_on} #{mouse_any_flag}` of the pane.
fn modes(tmux: &Tmux) -> String {
    let out = tmux.run(&[
        "display",
        "-p",
        "-t",
        "t",
        "#{alternate_on} #{mouse_any_flag}",
    ]);
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The picker started inline below the marker, in [`ROWS`] rows of a pane `height` rows high;
/// once it has exited, its status and `stty -a` are written beside it, then `AFTER` is printed
/// where the cursor is.
fn start_inline(tmux: &Tmux, dir: &Path, height: u16) {
    start_inline_in(tmux, dir, height, ROWS);
}

/// The picker started inline below the marker in `rows` rows (`--height rows`), as
/// [`start_inline`] does.
fn start_inline_in(tmux: &Tmux, dir: &Path, height: u16, rows: usize) {
    let home = demo_store(dir);
    let cmd = format!(
        "printf '{MARKER}\\n'; {picker} --height {rows} > {out}; echo $? > {status}; \
         stty -a > {stty}; printf AFTER; sleep 30",
        picker = picker_cmd(dir, &home),
        out = shell_quote(&dir.join("out")),
        status = shell_quote(&dir.join("status")),
        stty = shell_quote(&dir.join("stty")),
    );
    start_sized(tmux, &cmd, 120, height);
    tmux.wait_for("Draft the 2.4 release notes");
}

/// After the picker ends: its status was `status`, the tty is cooked, the main screen has no
/// mouse tracking, nothing of the picker is left, and the marker is on the first line with
/// `AFTER` printed on the line under it (the cursor went back to where the picker started).
fn assert_given_back(tmux: &Tmux, dir: &Path, status: i32) {
    let got = read_when_there(&dir.join("status"));
    assert_eq!(got.trim(), status.to_string());
    let stty = read_when_there(&dir.join("stty"));
    let words: Vec<&str> = stty.split_whitespace().collect();
    assert!(
        words.contains(&"icanon") && words.contains(&"echo"),
        "the tty is in cooked mode:\n{stty}"
    );
    let screen = tmux.wait_for("AFTER");
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(lines[0], MARKER, "the marker is still there:\n{screen}");
    assert_eq!(lines[1], "AFTER", "the cursor is back below it:\n{screen}");
    assert!(
        lines[2..].iter().all(|l| l.trim().is_empty()),
        "the picker's rows are cleared:\n{screen}"
    );
    assert_eq!(modes(tmux), "0 0", "main screen, no mouse tracking");
}

#[test]
fn it_draws_n_rows_below_the_line_before_it_and_esc_gives_them_back() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    start_inline(&tmux, dir.path(), 40);
    let screen = tmux.wait_for("Enter pick");
    assert_eq!(modes(&tmux), "0 1", "the main screen, mouse tracking on");
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(lines[0], MARKER, "{screen}");
    assert!(
        lines[1].starts_with("❯ type to search"),
        "the query on the line after the marker:\n{screen}"
    );
    assert!(
        lines[ROWS].starts_with("Enter pick"),
        "the keys on the picker's last row, {ROWS} rows down:\n{screen}"
    );
    assert!(
        lines[ROWS + 1..].iter().all(|l| l.trim().is_empty()),
        "nothing below the picker's rows:\n{screen}"
    );
    tmux.keys(&["Escape"]);
    assert_given_back(&tmux, dir.path(), 130);
    assert!(std::fs::read(dir.path().join("out")).unwrap().is_empty());
}

#[test]
fn a_pick_prints_the_id_and_clears_the_rows() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    start_inline(&tmux, dir.path(), 40);
    tmux.keys(&["-l", "checkout rounding"]);
    tmux.wait_for("name        checkout rounding fix");
    tmux.keys(&["Enter"]);
    assert_given_back(&tmux, dir.path(), 0);
    let out = std::fs::read_to_string(dir.path().join("out")).unwrap();
    assert_eq!(out, "019ac001-7e2d-7a41-9c3b-000000000001\n");
}

#[test]
fn sigterm_clears_the_rows_too() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    start_inline(&tmux, dir.path(), 40);
    let pane = tmux.run(&["display", "-p", "-t", "t", "#{pane_pid}"]);
    let shell = String::from_utf8_lossy(&pane.stdout).trim().to_owned();
    let children = std::process::Command::new("pgrep")
        .args(["-P", &shell, "-x", "codex-picker"])
        .output()
        .unwrap();
    let pid = String::from_utf8_lossy(&children.stdout).trim().to_owned();
    assert!(!pid.is_empty(), "the picker's pid");
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_given_back(&tmux, dir.path(), 143);
}

#[test]
fn a_resize_leaves_one_picker_on_screen_and_esc_still_clears_it() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    start_inline(&tmux, dir.path(), 40);
    let count = |screen: &str, what: &str| screen.matches(what).count();
    for (w, h) in [("140", "40"), ("90", "30"), ("90", "14"), ("120", "40")] {
        assert!(tmux
            .run(&["resize-window", "-t", "t", "-x", w, "-y", h])
            .status
            .success());
        let width: usize = w.parse().unwrap();
        let start = Instant::now();
        loop {
            let screen = tmux.capture();
            // Drawn again for the new width: the query line's mode is at its right edge (one
            // column short of it).
            let redrawn = screen.lines().any(|l| {
                l.starts_with("❯ ")
                    && (l.ends_with("titles") || l.ends_with("conversations"))
                    && (width - 1..=width).contains(&textwidth::width(l))
            });
            if redrawn && count(&screen, "Enter pick") == 1 {
                assert_eq!(
                    count(&screen, "type to search"),
                    1,
                    "{w}x{h}: one query line:\n{screen}"
                );
                assert_eq!(count(&screen, "▶"), 1, "{w}x{h}: one selection:\n{screen}");
                assert_eq!(modes(&tmux), "0 1");
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "{w}x{h}: one picker drawn whole:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    tmux.keys(&["Escape"]);
    let got = read_when_there(&dir.path().join("status"));
    assert_eq!(got.trim(), "130");
    let screen = tmux.wait_for("AFTER");
    assert!(
        !screen.contains("Enter pick") && !screen.contains("type to search"),
        "nothing of the picker is left:\n{screen}"
    );
}

#[test]
fn near_the_bottom_the_lines_above_scroll_up_to_make_room() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let cmd = format!(
        "seq 1 35; {picker} --height {ROWS} > /dev/null; printf AFTER; sleep 30",
        picker = picker_cmd(dir.path(), &home),
    );
    start(&tmux, &cmd);
    let screen = tmux.wait_for("Enter pick");
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(lines.len(), 40, "{screen}");
    assert_eq!(
        lines[40 - ROWS - 1],
        "35",
        "the last line printed:\n{screen}"
    );
    assert!(lines[40 - ROWS].starts_with("❯ type to search"), "{screen}");
    assert!(lines[39].starts_with("Enter pick"), "{screen}");
    tmux.keys(&["Escape"]);
    let screen = tmux.wait_for("AFTER");
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(lines[40 - ROWS - 1], "35", "{screen}");
    assert_eq!(lines[40 - ROWS], "AFTER", "{screen}");
}

/// The screen once the picker in five rows shows a session on each of its four list rows.
fn five_rows_drawn(tmux: &Tmux) -> String {
    tmux.wait_until("four sessions below the query line", |screen| {
        let lines: Vec<&str> = screen.lines().collect();
        lines.len() > 5 && lines[2..=5].iter().all(|l| l.contains("work/"))
    })
}

#[test]
fn five_rows_are_the_query_line_and_four_sessions_and_a_pick_clears_them() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    start_inline_in(&tmux, dir.path(), 40, 5);
    let screen = five_rows_drawn(&tmux);
    assert_eq!(modes(&tmux), "0 1", "the main screen, mouse tracking on");
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(lines[0], MARKER, "{screen}");
    assert!(
        lines[1].starts_with("❯ type to search"),
        "the query on the line after the marker:\n{screen}"
    );
    assert!(
        lines[2].starts_with("▶ ") && lines[2].contains("Draft the 2.4 release notes"),
        "the selected session first:\n{screen}"
    );
    assert!(
        lines[6..].iter().all(|l| l.trim().is_empty()),
        "nothing below the picker's five rows (no status, no keys' line):\n{screen}"
    );
    tmux.keys(&["Enter"]);
    assert_given_back(&tmux, dir.path(), 0);
    let out = std::fs::read_to_string(dir.path().join("out")).unwrap();
    assert_eq!(out, "019ac009-7e2d-7a41-9c3b-000000000009\n");
}

#[test]
fn in_five_rows_the_conversation_is_a_key_away() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    start_inline_in(&tmux, dir.path(), 40, 5);
    five_rows_drawn(&tmux);
    tmux.keys(&["Right"]);
    let screen = tmux.wait_for(" id          019ac009-");
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines[1].starts_with("❯ "), "{screen}");
    assert!(
        lines[2].starts_with(" id          019ac009-") && !screen.contains('▶'),
        "the conversation over the list, full width:\n{screen}"
    );
    assert!(lines[6..].iter().all(|l| l.trim().is_empty()), "{screen}");
    tmux.keys(&["Left"]);
    let screen = five_rows_drawn(&tmux);
    assert!(screen.lines().nth(2).unwrap().starts_with("▶ "), "{screen}");
    // The list comes back as it was: the second session selected under the first.
    tmux.keys(&["Down", "Right"]);
    tmux.wait_for(" id          019ac003-");
    tmux.keys(&["Left"]);
    let screen = tmux.wait_until("the list back", |s| s.contains('▶'));
    let lines: Vec<&str> = screen.lines().collect();
    assert!(
        lines[2].contains("Draft the 2.4 release notes") && lines[3].starts_with("▶ "),
        "{screen}"
    );
    tmux.keys(&["Escape"]);
    assert_given_back(&tmux, dir.path(), 130);
}
