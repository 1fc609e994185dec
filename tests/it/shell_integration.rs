//! The shell integration for real, in bash, zsh and fish driven in tmux: the snippet loaded as
//! the README says, Alt+R pressed, a session picked. The shell ends in the session's folder and
//! the stand-in codex records `codex resume <id>` run there on the store shown; with
//! `CODEX_PICKER_ACCEPT=0` the command waits on the line for Enter; `cxp` does the same from the
//! prompt; Esc leaves the line empty, the folder and the history as they were. The session's
//! folder name holds quotes, a backslash, `$(…)` and non-ASCII, and the store's name a byte that
//! is not UTF-8: each reaches codex exactly and nothing in them runs.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::stand_in::StandIn;
use crate::tmux::{shell_quote, start, Tmux};

const ID: &str = "019ac0aa-7e2d-7a41-9c3b-0000000000aa";
const TITLE: &str = "resume me from the shell";
/// The session's folder, below the test's folder.
const FOLDER: &str = r#"it's $(touch pwned) "é" \'x"#;
/// The store's folder, below the test's folder: `home-` and the byte 0xff.
const HOME_BYTES: &[u8] = b"home-\xff";

/// A shell to drive: how it starts (its prompt `shell$ `), how it loads the snippet, how a
/// variable is set in it.
struct Shell {
    name: &'static str,
    start: &'static str,
    load: &'static str,
    line_mode: &'static str,
}

const BASH: Shell = Shell {
    name: "bash",
    start: "bash --norc --noprofile -i",
    load: r#"eval "$(codex-picker init bash)""#,
    line_mode: "CODEX_PICKER_ACCEPT=0",
};

const ZSH: Shell = Shell {
    name: "zsh",
    start: "zsh -f -i",
    load: r#"eval "$(codex-picker init zsh)""#,
    line_mode: "CODEX_PICKER_ACCEPT=0",
};

const FISH: Shell = Shell {
    name: "fish",
    start: r#"fish --no-config -C 'set -g fish_greeting; function fish_prompt; printf "shell\$ "; end'"#,
    load: "codex-picker init fish | source",
    line_mode: "set -g CODEX_PICKER_ACCEPT 0",
};

/// Whether `name` can be run; a missing shell fails the test unless
/// `CODEX_PICKER_SKIP_SHELLS=1` (`.ci/run` installs zsh and fish).
pub fn have_shell(name: &str) -> bool {
    if std::process::Command::new(name)
        .arg("-c")
        .arg("exit 0")
        .output()
        .is_ok()
    {
        return true;
    }
    if std::env::var("CODEX_PICKER_SKIP_SHELLS").as_deref() == Ok("1") {
        eprintln!("{name} is not installed; skipped (CODEX_PICKER_SKIP_SHELLS=1)");
        return false;
    }
    panic!("{name} is not installed: install it, or set CODEX_PICKER_SKIP_SHELLS=1 to skip");
}

/// The test's folder: `bin/` (the picker and the stand-in codex), the store under a name that
/// is not UTF-8 holding one session whose folder is `FOLDER`, and that folder.
struct Setup {
    dir: tempfile::TempDir,
    codex: StandIn,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let codex = StandIn::new(dir.path());
        std::os::unix::fs::symlink(
            env!("CARGO_BIN_EXE_codex-picker"),
            codex.bin.join("codex-picker"),
        )
        .unwrap();
        std::fs::create_dir(dir.path().join(FOLDER)).unwrap();
        let rollout = Setup::home_of(dir.path()).join(format!(
            "sessions/2026/11/30/rollout-2026-11-30T10-00-00-{ID}.jsonl"
        ));
        std::fs::create_dir_all(rollout.parent().unwrap()).unwrap();
        let cwd = dir.path().join(FOLDER);
        let lines = [
            serde_json::json!({"timestamp":"2026-11-30T10:00:00.000Z","type":"session_meta","payload":{"id":ID,"timestamp":"2026-11-30T10:00:00.000Z","cwd":cwd.to_str().unwrap(),"source":"cli","cli_version":"0.171.0"}}),
            serde_json::json!({"type":"event_msg","payload":{"type":"user_message","message":TITLE}}),
            serde_json::json!({"type":"event_msg","payload":{"type":"agent_message","message":"Done.","phase":"final_answer"}}),
        ];
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&rollout, text).unwrap();
        Setup { dir, codex }
    }

    fn home_of(dir: &Path) -> PathBuf {
        dir.join(std::ffi::OsStr::from_bytes(HOME_BYTES))
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The tmux command starting `shell` in the test's folder, its environment the user's
    /// but for PATH, HOME, the store and the picker's folders (the store's byte spelled by
    /// printf: tmux takes its command as text).
    fn command(&self, shell: &Shell) -> String {
        format!(
            "cd {dir} && env HOME={dir} PATH={path} CODEX_HOME=\"$(printf '%s/home-\\377' {dir})\" \
             XDG_CONFIG_HOME={dir}/config XDG_CACHE_HOME={dir}/cache NO_COLOR=1 \
             CODEX_PICKER_OPTS='--all --sort created' PS1='shell$ ' HISTFILE=/dev/null {start}",
            dir = shell_quote(self.path()),
            path = shell_quote(Path::new(&self.codex.path_env())),
            start = shell.start,
        )
    }

    /// The calls codex recorded, raw: each `<folder>\t<CODEX_HOME>\t<args>`.
    fn calls(&self) -> Vec<Vec<u8>> {
        std::fs::read(&self.codex.calls)
            .unwrap_or_default()
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(<[u8]>::to_vec)
            .collect()
    }

    /// The one call codex must record for a resume of the session in its folder.
    fn resume_call(&self) -> Vec<u8> {
        let mut want = self.path().join(FOLDER).as_os_str().as_bytes().to_vec();
        want.push(b'\t');
        want.extend_from_slice(Setup::home_of(self.path()).as_os_str().as_bytes());
        want.extend_from_slice(format!("\tresume {ID}").as_bytes());
        want
    }

    /// Wait until codex has recorded `n` calls (at most 30 s).
    fn wait_for_calls(&self, n: usize, tmux: &Tmux) {
        let start = Instant::now();
        while self.calls().len() < n {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "codex was not run; the screen:\n{}",
                tmux.capture()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Nothing from the folder's name ran.
    fn nothing_ran(&self) {
        for dir in [self.path().to_path_buf(), self.path().join(FOLDER)] {
            assert!(!dir.join("pwned").exists(), "text of the folder's name ran");
        }
    }
}

/// The folder the shell is in now.
fn shell_folder(tmux: &Tmux) -> PathBuf {
    let out = tmux.run(&["display", "-p", "-t", "t", "#{pane_current_path}"]);
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim_end_matches('\n'))
}

/// The last line of the screen that is not blank.
fn last_line(screen: &str) -> String {
    let line = screen.lines().rev().find(|l| !l.trim().is_empty());
    line.unwrap_or("").trim_end().to_owned()
}

/// Wait until the prompt is back, empty, with the picker gone (at most 30 s).
fn wait_for_empty_prompt(tmux: &Tmux) -> String {
    tmux.wait_until("an empty prompt", |screen| {
        last_line(screen) == "shell$" && !screen.contains(TITLE)
    })
}

/// The screen with wrapped lines joined (a long command is one line).
fn joined_screen(tmux: &Tmux) -> String {
    let out = tmux.run(&["capture-pane", "-p", "-J", "-t", "t"]);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Wait until the screen, wrapped lines joined, shows `want` (at most 30 s).
fn wait_for_joined(tmux: &Tmux, want: &str) -> String {
    let start = Instant::now();
    loop {
        let screen = joined_screen(tmux);
        if screen.contains(want) {
            return screen;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out waiting for {want:?}; the screen:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Open the picker with Alt+R and wait for the session.
fn open_picker(tmux: &Tmux) {
    tmux.keys(&["M-r"]);
    tmux.wait_for(TITLE);
}

/// Type a line at the prompt and run it; wait for the empty prompt after it.
fn run_line(tmux: &Tmux, line: &str) {
    tmux.keys(&["-l", line]);
    tmux.keys(&["Enter"]);
}

fn the_key_binding_resumes_in_the_sessions_folder(shell: &Shell) {
    if !have_shell(shell.name) {
        return;
    }
    let Some(tmux) = Tmux::start() else { return };
    let setup = Setup::new();
    let folder = setup.path().join(FOLDER);
    start(&tmux, &setup.command(shell));
    tmux.wait_for("shell$");
    run_line(&tmux, shell.load);
    run_line(&tmux, "clear");
    wait_for_empty_prompt(&tmux);

    // Esc: the line stays empty, the folder and the history as they were.
    open_picker(&tmux);
    tmux.keys(&["Escape"]);
    wait_for_empty_prompt(&tmux);
    assert_eq!(shell_folder(&tmux), setup.path().canonicalize().unwrap());
    assert!(setup.calls().is_empty(), "codex ran on a cancel");
    tmux.keys(&["Up"]);
    let screen = tmux.wait_for("shell$ clear");
    assert_eq!(last_line(&screen), "shell$ clear", "{screen}");
    tmux.keys(&["C-u"]);
    wait_for_empty_prompt(&tmux);

    // Alt+R, a query, Enter: codex resumes the session in its folder, in this shell.
    open_picker(&tmux);
    tmux.keys(&["-l", "resume me"]);
    tmux.keys(&["Enter"]);
    setup.wait_for_calls(1, &tmux);
    assert_eq!(setup.calls()[0], setup.resume_call());
    tmux.wait_for("shell$");
    assert_eq!(shell_folder(&tmux), folder.canonicalize().unwrap());
    setup.nothing_ran();

    // The command on the line for Enter instead.
    run_line(&tmux, "cd ..");
    run_line(&tmux, shell.line_mode);
    run_line(&tmux, "clear");
    wait_for_empty_prompt(&tmux);
    open_picker(&tmux);
    tmux.keys(&["Enter"]);
    let screen = wait_for_joined(&tmux, &format!("codex resume {ID}"));
    assert!(
        last_line(&screen).starts_with("shell$ cd "),
        "the command waits on the line:\n{screen}"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(setup.calls().len(), 1, "nothing runs before Enter");
    tmux.keys(&["Enter"]);
    setup.wait_for_calls(2, &tmux);
    assert_eq!(setup.calls()[1], setup.resume_call());

    // cxp, from the prompt.
    run_line(&tmux, "cd ..");
    run_line(&tmux, "cxp");
    tmux.wait_for(TITLE);
    tmux.keys(&["Enter"]);
    setup.wait_for_calls(3, &tmux);
    assert_eq!(setup.calls()[2], setup.resume_call());
    tmux.wait_for("shell$");
    let start = Instant::now();
    while shell_folder(&tmux) != folder.canonicalize().unwrap() {
        assert!(start.elapsed() < Duration::from_secs(30), "cxp did not cd");
        std::thread::sleep(Duration::from_millis(50));
    }
    setup.nothing_ran();
}

#[test]
fn bash_alt_r_resumes_in_the_sessions_folder() {
    the_key_binding_resumes_in_the_sessions_folder(&BASH);
}

#[test]
fn zsh_alt_r_resumes_in_the_sessions_folder() {
    the_key_binding_resumes_in_the_sessions_folder(&ZSH);
}

#[test]
fn fish_alt_r_resumes_in_the_sessions_folder() {
    the_key_binding_resumes_in_the_sessions_folder(&FISH);
}
