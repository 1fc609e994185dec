//! End to end: the real binary driven in tmux on a private server (`-L`, `-f /dev/null`).
//! Fails with a clear message when tmux is missing, unless `CODEX_PICKER_SKIP_TMUX=1`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const ID: &str = "019ac001-7e2d-7a41-9c3b-000000000001";

/// A private tmux server, killed on drop even when the test fails.
pub struct Tmux {
    socket: String,
}

impl Tmux {
    pub fn start() -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            if std::env::var("CODEX_PICKER_SKIP_TMUX").as_deref() == Ok("1") {
                eprintln!("tmux is not installed; skipped (CODEX_PICKER_SKIP_TMUX=1)");
                return None;
            }
            panic!("tmux is not installed: install it, or set CODEX_PICKER_SKIP_TMUX=1 to skip the end-to-end tests");
        }
        let socket = format!(
            "codex-picker-test-{}-{}",
            std::process::id(),
            Instant::now().elapsed().as_nanos() ^ rand_ish()
        );
        Some(Tmux { socket })
    }

    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("run tmux")
    }

    pub fn capture(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "t"]).stdout).into_owned()
    }

    /// Poll the pane until `want` shows (at most 30 s: CI machines run the suite in parallel).
    pub fn wait_for(&self, want: &str) -> String {
        self.wait_until(&format!("{want:?}"), |screen| screen.contains(want))
    }

    /// Poll the pane until `done` holds of the screen (at most 30 s); `what` names what is
    /// waited for when it times out. A frame reaches the pane in more than one write, so the
    /// screen returned is one that also held still for a moment (or the last that held `done`
    /// within a second), not one caught halfway through a redraw.
    pub fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture();
            if done(&screen) {
                return self.settled(screen, &done);
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "timed out waiting for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// `screen`, or a later capture once two in a row are equal and still hold `done`.
    fn settled(&self, mut screen: String, done: &impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(1) {
            std::thread::sleep(Duration::from_millis(40));
            let next = self.capture();
            if !done(&next) {
                break;
            }
            if next == screen {
                return next;
            }
            screen = next;
        }
        screen
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

fn rand_ish() -> u128 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    t.as_nanos()
}

pub fn shell_quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', r"'\''"))
}

/// The demo store, laid out in `dir/store`: its Codex home.
pub fn demo_store(dir: &Path) -> PathBuf {
    codex_picker::demo::materialize(&dir.join("store")).unwrap()
}

/// The picker on the store at `home`, every folder shown, without colour, its cache in
/// `dir/cache`, no config file and no Claude Code store (the user's are never read): the start
/// of a tmux command.
pub fn picker_cmd(dir: &Path, home: &Path) -> String {
    format!(
        "env NO_COLOR=1 XDG_CACHE_HOME={cache} XDG_CONFIG_HOME={cache} CLAUDE_CONFIG_DIR={cache}/no-claude {bin} --all --codex-home {home}",
        cache = shell_quote(&dir.join("cache")),
        bin = shell_quote(Path::new(env!("CARGO_BIN_EXE_codex-picker"))),
        home = shell_quote(home),
    )
}

/// A tmux command that runs the picker (`picker_cmd`, then `args`) on the store at `home`,
/// after `env` (variables for it, or nothing), its standard output into `dir/out`, and keeps
/// the pane open; and that file.
pub fn picker_into(dir: &Path, home: &Path, env: &str, args: &str) -> (String, PathBuf) {
    let out = dir.join("out");
    let cmd = format!(
        "{env}{picker}{args} > {out}; sleep 30",
        picker = picker_cmd(dir, home),
        out = shell_quote(&out),
    );
    (cmd, out)
}

/// A demo store in a temp dir and the command line that starts the picker on it.
fn setup(dir: &Path) -> (PathBuf, String) {
    let home = demo_store(dir);
    let out = dir.join("out.txt");
    let cmd = format!(
        "cd {dir} && {picker} > {out}",
        dir = shell_quote(dir),
        picker = picker_cmd(dir, &home),
        out = shell_quote(&out),
    );
    (out, cmd)
}

/// What the picker printed to `out` once it has printed anything (at most 30 s).
fn output_of(out: &Path) -> String {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(out).unwrap_or_default();
        if !text.is_empty() {
            return text;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no output");
        std::thread::sleep(Duration::from_millis(100));
    }
}

pub fn start(tmux: &Tmux, cmd: &str) {
    start_sized(tmux, cmd, 120, 40);
}

/// Run `cmd` in a new session `width` columns by `height` rows.
pub fn start_sized(tmux: &Tmux, cmd: &str, width: u16, height: u16) {
    let (width, height) = (width.to_string(), height.to_string());
    let out = tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "t",
        "-x",
        &width,
        "-y",
        &height,
        cmd,
    ]);
    assert!(
        out.status.success(),
        "tmux: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The text of the file at `path` once a whole line is written to it (at most 30 s).
pub fn read_when_there(path: &Path) -> String {
    let start = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            if text.ends_with('\n') {
                return text;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{} never written",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn pick_a_session_by_typing_and_enter_prints_its_id() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (out, cmd) = setup(dir.path());
    start(&tmux, &format!("{cmd}; sleep 5"));
    tmux.wait_for("Draft the 2.4 release notes");
    tmux.keys(&["-l", "checkout rounding"]);
    let screen = tmux.wait_for("Find the rounding bug in cart/total.py");
    assert!(screen.contains("▶"), "a selected row:\n{screen}");
    // The conversation is drawn under the header (what the session changed and used makes the
    // header taller: its first replies are in view, its final answer further down).
    assert!(screen.contains("ASSISTANT · commentary"), "{screen}");
    tmux.keys(&["Enter"]);
    assert_eq!(
        output_of(&out),
        format!("{ID}\n"),
        "stdout carries only the id"
    );
}

#[test]
fn ctrl_y_copies_the_id_through_osc52() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (_out, cmd) = setup(dir.path());
    // The server starts with the session; set-clipboard is then set on it before any copy.
    start(&tmux, &format!("sleep 0.5; {cmd}; sleep 5"));
    assert!(tmux
        .run(&["set", "-g", "set-clipboard", "on"])
        .status
        .success());
    tmux.wait_for("Draft the 2.4 release notes");
    tmux.keys(&["-l", "checkout rounding"]);
    tmux.wait_for("Find the rounding bug");
    tmux.keys(&["C-y"]);
    tmux.wait_for("copied the session id");
    let start = Instant::now();
    loop {
        let buf = String::from_utf8_lossy(&tmux.run(&["show-buffer"]).stdout).into_owned();
        if buf == ID {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "tmux buffer holds {buf:?}, not the id"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A session whose 31st prompt alone says "odometer" and whose 41st assistant reply alone says
/// `phrase`, added to a demo store in `dir`.
fn add_deep_session(home: &Path, phrase: &str) -> &'static str {
    let id = "019ac0ff-7e2d-7a41-9c3b-0000000000ff";
    let mut lines = vec![serde_json::json!({"timestamp":"2026-11-30T10:00:00.000Z","type":"session_meta","payload":{"id":id,"timestamp":"2026-11-30T10:00:00.000Z","cwd":"/home/demo/work/garage","source":"cli","cli_version":"0.130.0"}}).to_string()];
    for i in 0..60 {
        let prompt = if i == 30 {
            format!("step {i}: check the odometer reading too")
        } else {
            format!("step {i}: keep going with the garage project")
        };
        lines.push(serde_json::json!({"type":"event_msg","payload":{"type":"user_message","message":prompt}}).to_string());
        let reply = if i == 40 {
            format!("Found it: {phrase}, so the timing circuit is fine.")
        } else {
            format!("Step {i} done; nothing unusual.")
        };
        lines.push(serde_json::json!({"type":"event_msg","payload":{"type":"agent_message","message":reply,"phase":"final_answer"}}).to_string());
    }
    let path = home.join(format!(
        "sessions/2026/11/30/rollout-2026-11-30T10-00-00-{id}.jsonl"
    ));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    id
}

/// The picker started in tmux on a demo store in `dir` with a session whose 40th reply alone
/// says "flux capacitor needs 1.21 gigawatts", once its list is drawn: where it prints, and
/// that session's id.
fn start_with_deep_session(tmux: &Tmux, dir: &Path) -> (PathBuf, &'static str) {
    let (out, cmd) = setup(dir);
    let home = dir
        .join("store")
        .join(format!("demo-{}", env!("CARGO_PKG_VERSION")));
    let id = add_deep_session(&home, "flux capacitor needs 1.21 gigawatts");
    start(tmux, &format!("{cmd}; sleep 5"));
    tmux.wait_for("Draft the 2.4 release notes");
    (out, id)
}

#[test]
fn content_search_finds_a_phrase_deep_in_an_assistant_reply_and_highlights_it() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (out, id) = start_with_deep_session(&tmux, dir.path());
    tmux.keys(&["C-f"]);
    tmux.keys(&["-l", "Capacitor needs"]);
    tmux.wait_for("Found it: flux capacitor");
    let start = Instant::now();
    let screen = loop {
        let screen = tmux.capture();
        if !screen.contains("searching…") && !screen.contains("Draft the 2.4") {
            break screen;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "only the matching session should be listed:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(screen.contains("in conversations"), "{screen}");
    assert!(screen.contains("Found it: flux capacitor"), "{screen}");
    // The hit is drawn highlighted (reverse video without colour), not as plain text.
    let styled =
        String::from_utf8_lossy(&tmux.run(&["capture-pane", "-e", "-p", "-t", "t"]).stdout)
            .into_owned();
    let line = styled
        .lines()
        .find(|l| l.contains("Found it"))
        .unwrap_or_else(|| panic!("no hit line:\n{styled}"));
    let before = &line[..line.find("capacitor").expect("the hit, unbroken")];
    let last_sgr = before.rfind("\x1b[").map(|i| &before[i..]).unwrap_or("");
    assert!(
        last_sgr.contains('7'),
        "the hit is in reverse video: {line:?}"
    );
    tmux.keys(&["Enter"]);
    assert_eq!(output_of(&out), format!("{id}\n"));
}

#[test]
fn words_only_deep_in_a_conversation_find_it_from_the_default_search() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (out, id) = start_with_deep_session(&tmux, dir.path());
    // No Ctrl+F: the words are typed into the one search box.
    tmux.keys(&["-l", "capacitor needs"]);
    // The pane opens at the hit, and the top row shows the session's title and the snippet.
    let screen = tmux.wait_for("Found it: flux capacitor");
    let top = screen.lines().find(|l| l.contains('▶')).unwrap_or_default();
    assert!(
        top.contains("step 0: keep") && top.contains(" · ") && top.contains("capacitor needs"),
        "{screen}"
    );
    tmux.keys(&["Enter"]);
    assert_eq!(
        output_of(&out),
        format!("{id}\n"),
        "the session is on the first row"
    );
}

#[test]
fn a_prompt_word_and_a_reply_word_put_the_session_on_the_top_row_with_its_snippet() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (out, id) = start_with_deep_session(&tmux, dir.path());
    // A word of a later prompt and a word of a reply, in two messages, that no title holds;
    // typed into the one box in the default mode.
    tmux.keys(&["-l", "gigawatts odometer"]);
    let start = Instant::now();
    let top = loop {
        let screen = tmux.capture();
        let top = screen.lines().find(|l| l.contains('▶')).unwrap_or_default();
        if top.contains("gigawatts") || top.contains("odometer") {
            break top.to_owned();
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the session should be on the top row with its snippet:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        top.contains("step 0: keep") && top.contains(" · "),
        "the top row shows the session's title, then the snippet: {top}"
    );
    tmux.keys(&["Enter"]);
    assert_eq!(
        output_of(&out),
        format!("{id}\n"),
        "the session is on the top row"
    );
}

#[test]
fn ctrl_z_suspends_to_the_shell_and_fg_brings_the_picker_back() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (out, cmd) = setup(dir.path());
    // An interactive shell with job control, as a user has; the picker is a job of it.
    start(
        &tmux,
        "env PS1='shell$ ' HISTFILE=/dev/null bash --norc --noprofile -i",
    );
    tmux.wait_for("shell$");
    tmux.keys(&["-l", &cmd]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("Draft the 2.4 release notes");
    tmux.keys(&["C-z"]);
    let screen = tmux.wait_for("Stopped");
    assert!(
        !screen.contains("Draft the 2.4 release notes") && !screen.contains("type to search"),
        "the shell's screen is back, the picker's is gone:\n{screen}"
    );
    tmux.keys(&["-l", "fg"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("Draft the 2.4 release notes");
    tmux.keys(&["-l", "checkout rounding"]);
    tmux.wait_for("Find the rounding bug in cart/total.py");
    tmux.keys(&["Enter"]);
    assert_eq!(
        output_of(&out),
        format!("{ID}\n"),
        "the resumed picker still picks"
    );
    assert!(
        tmux.wait_for("shell$").contains("shell$"),
        "the shell prompt is back"
    );
}
