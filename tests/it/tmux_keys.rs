//! Keys given in the config file's `[keys]`, in the real picker in tmux: a rebound key does its
//! action and the key it replaced no longer does; the footer and the help (F1's new key) name
//! the keys in effect, and so do the conversation pane's notes.

use std::time::{Duration, Instant};

use crate::tmux::{demo_store, picker_into, start, Tmux};

const ID: &str = "019ac001-7e2d-7a41-9c3b-000000000001";

#[test]
fn a_rebound_key_works_and_the_footer_and_help_show_it() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    // picker_cmd points XDG_CONFIG_HOME at the cache folder.
    let config = dir.path().join("cache/codex-picker/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        "[keys]\npick = [\"enter\", \"f5\"]\nhelp = \"f6\"\ncopy-id = \"alt-c\"\ntoggle-tools = \"f7\"\n",
    )
    .unwrap();
    let (cmd, out) = picker_into(dir.path(), &home, "", "");
    start(&tmux, &cmd);
    let screen = tmux.wait_for("Draft the 2.4 release notes");
    assert!(screen.contains("F6 help"), "the footer names F6:\n{screen}");
    // F1 no longer opens the help; F6 does, and names the keys in effect.
    tmux.keys(&["F1"]);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!tmux.capture().contains("codex-picker keys"));
    tmux.keys(&["F6"]);
    // The help's title can be drawn a frame before its rows: wait for the whole of it.
    let rows = ["Enter, F5", "Alt+C / Alt+Y", "F6 "];
    tmux.wait_until("the help with the keys in effect", |help| {
        help.contains("codex-picker keys") && rows.iter().all(|row| help.contains(row))
    });
    tmux.keys(&["Escape"]);
    let start_at = Instant::now();
    while tmux.capture().contains("codex-picker keys") {
        assert!(start_at.elapsed() < Duration::from_secs(10), "help closes");
        std::thread::sleep(Duration::from_millis(50));
    }
    tmux.keys(&["-l", "checkout rounding"]);
    tmux.wait_for("name        checkout rounding fix");
    // The pane's notes name the keys in effect too (once the conversation is read: the header
    // is drawn from the row before it).
    tmux.wait_for("tool calls hidden (F7 shows them)");
    // Ctrl+Y is no longer copy-id's key; Alt+C is.
    tmux.keys(&["C-y"]);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!tmux.capture().contains("copied the session id"));
    tmux.keys(&["M-c"]);
    tmux.wait_for("copied the session id");
    tmux.keys(&["F5"]);
    let start_at = Instant::now();
    loop {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        if !text.is_empty() {
            assert_eq!(text, format!("{ID}\n"), "F5 picks");
            break;
        }
        assert!(start_at.elapsed() < Duration::from_secs(30), "F5 picks");
        std::thread::sleep(Duration::from_millis(100));
    }
}
