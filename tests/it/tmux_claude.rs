//! The picker in tmux on a Codex store and a Claude Code store side by side, as a person uses
//! it: a Claude Code session is found with `source:claude` and a word of its name, shown with
//! the `cc` mark, and Enter (with `--print-command`) gives the command that resumes it:
//! `cd <its folder> && CLAUDE_CONFIG_DIR=<the store> claude --resume <id>`.

use std::path::Path;

use crate::tmux::{demo_store, picker_into, read_when_there, shell_quote, start, Tmux};

/// The Claude Code fixture store (recorded from the real Claude Code).
fn claude_home() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/claude/home")
}

#[test]
fn enter_on_a_claude_code_session_prints_claude_resume_in_its_folder() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let args = format!(
        " --claude-home {} --print-command",
        shell_quote(&claude_home())
    );
    let (cmd, out) = picker_into(dir.path(), &home, "", &args);
    start(&tmux, &cmd);
    // Both agents' sessions are listed.
    tmux.wait_for("Draft the 2.4 release notes");
    tmux.wait_for("lister session");
    tmux.keys(&["-l", "source:claude lister"]);
    // The renamed Claude Code session, marked cc, comes first.
    let first = |screen: &str| screen.lines().nth(1).unwrap_or_default().to_owned();
    let screen = tmux.wait_until("the renamed session first", |screen| {
        let first = first(screen);
        first.contains('▶') && first.contains("cc lister session")
    });
    assert!(
        !screen.contains("Draft the 2.4 release notes"),
        "source:claude keeps Codex's sessions out:\n{screen}"
    );
    tmux.keys(&["Enter"]);
    let printed = read_when_there(&out);
    let want = format!(
        "cd /home/u/work/my_proj.v2 && CLAUDE_CONFIG_DIR={} claude --resume \
         df14ae24-154d-48ef-a460-f34c23d45f9b",
        claude_home().display()
    );
    assert_eq!(printed.trim_end(), want);
}
