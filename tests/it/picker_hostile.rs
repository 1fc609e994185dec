//! The picker itself on the hostile store, driven in tmux: every listable session is listed, the
//! status line counts the files passed over, nothing from a file reaches the terminal as a live
//! sequence (the screen holds only colour/attribute sequences, the clipboard is untouched), and
//! the store is left exactly as it was.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{bin, stdout};
use crate::hostile;
use crate::read_only::assert_store_untouched_by;
use crate::terminal_safety;
use crate::tmux::{shell_quote, start, Tmux};

/// Every escape sequence on a `capture-pane -e` screen is a plain SGR (`ESC [ digits ; m`).
fn only_sgr(screen: &str) -> Result<(), String> {
    let mut rest = screen;
    while let Some(at) = rest.find('\u{1b}') {
        let seq = &rest[at + 1..];
        let body: String = seq
            .chars()
            .skip(1)
            .take_while(|c| c.is_ascii_digit() || *c == ';')
            .collect();
        if !seq.starts_with('[') || !seq[1 + body.len()..].starts_with('m') {
            return Err(format!(
                "a non-SGR sequence: {:?}",
                &rest[at..(at + 24).min(rest.len())]
            ));
        }
        rest = &seq[1 + body.len() + 1..];
    }
    Ok(())
}

#[test]
fn the_picker_lists_every_hostile_session_counts_skips_and_draws_nothing_raw() {
    let Some(tmux) = Tmux::start() else { return };
    let (tmp, home, _cases) = hostile::hostile_store();
    terminal_safety::nasty_store(tmp.path());
    // The session full of escape sequences is the newest, so it is selected and shown.
    let nasty = home.join(format!(
        "sessions/2026/02/03/rollout-2026-02-03T04-05-06-{}.jsonl",
        terminal_safety::ID
    ));
    let future = std::time::SystemTime::now() + Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&nasty)
        .unwrap()
        .set_modified(future)
        .unwrap();

    let probe = bin()
        .args(["list", "--json", "--archived", "--no-cache", "--codex-home"])
        .arg(&home)
        .output()
        .unwrap();
    let rows: Vec<Value> = crate::common::json_lines(&stdout(&probe));
    let passed_over = String::from_utf8_lossy(&probe.stderr)
        .lines()
        .filter(|l| !l.contains("both are listed"))
        .count();
    assert!(
        rows.len() > 20 && passed_over > 5,
        "{} rows, {passed_over} skipped",
        rows.len()
    );

    assert_store_untouched_by(&home, |env| {
        let cmd = format!(
            "env NO_COLOR=1 XDG_CACHE_HOME={cache} XDG_CONFIG_HOME={user}/config HOME={user} {bin} --all --archived --codex-home {home}; sleep 5",
            cache = shell_quote(&env.cache),
            user = shell_quote(&env.user_home),
            bin = shell_quote(Path::new(env!("CARGO_BIN_EXE_codex-picker"))),
            home = shell_quote(&env.home),
        );
        start(&tmux, &format!("sleep 0.5; {cmd}"));
        assert!(tmux
            .run(&["set", "-g", "set-clipboard", "on"])
            .status
            .success());
        let screen = listed_and_counted(&tmux, rows.len(), passed_over);
        assert!(
            screen.contains("␛[31mred"),
            "escape sequences are shown as text:\n{screen}"
        );
        // Every page of the conversation, tool calls shown, is drawn with attributes only.
        tmux.keys(&["C-t", "Right"]);
        assert!(
            paged_to_tool_call(&tmux),
            "the hostile tool call was drawn:\n{}",
            tmux.capture()
        );
        tmux.keys(&["Escape", "Escape"]);
        let buffer = tmux.run(&["show-buffer"]);
        assert!(
            !String::from_utf8_lossy(&buffer.stdout).contains("rm -rf"),
            "an OSC 52 from a file reached the clipboard"
        );
    });
}

/// Wait until the status line lists all `rows` and counts `passed_over` unreadable files, the
/// indexing done; returns that screen.
fn listed_and_counted(tmux: &Tmux, rows: usize, passed_over: usize) -> String {
    tmux.wait_for(&format!("{rows} of {rows} sessions"));
    let counted = format!("{passed_over} unreadable files");
    tmux.wait_until(&format!("the status line to count {counted}"), |screen| {
        screen.contains(&counted) && !screen.contains("indexed ")
    })
}

/// Page down the conversation until a tool call is on screen (the transcript may still be
/// loading), checking that every page is drawn with attributes only; whether one was seen.
fn paged_to_tool_call(tmux: &Tmux) -> bool {
    let since = Instant::now();
    while since.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(300));
        let styled =
            String::from_utf8_lossy(&tmux.run(&["capture-pane", "-e", "-p", "-t", "t"]).stdout)
                .into_owned();
        if let Err(e) = only_sgr(&styled) {
            panic!("{e}\n{styled}");
        }
        if styled.contains("  ▸ ") {
            return true;
        }
        tmux.keys(&["PageDown"]);
    }
    false
}

#[test]
fn the_sgr_check_rejects_other_sequences() {
    assert!(only_sgr("a\u{1b}[1;7mb\u{1b}[0m").is_ok());
    assert!(only_sgr("\u{1b}]52;c;x\u{7}").is_err());
    assert!(only_sgr("\u{1b}[2J").is_err());
}
