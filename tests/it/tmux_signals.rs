//! Signals from outside leave the terminal clean: the picker in tmux gets SIGTERM, SIGHUP,
//! SIGQUIT or SIGINT from `kill`, and afterwards the pane is back on the main screen with mouse
//! tracking off and the tty in cooked mode (`stty -a` says `icanon echo`), and the picker's
//! status is 128 + the signal.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::tmux::{demo_store, picker_cmd, picker_into, read_when_there, shell_quote, start, Tmux};

/// The pid of the picker started on the store at `home` (the one process of that name whose
/// command line names it).
fn picker_pid(home: &Path) -> u32 {
    let start = Instant::now();
    loop {
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let comm = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline);
            if comm.trim() == "codex-picker" && cmdline.contains(&*home.to_string_lossy()) {
                return pid;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no picker process"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn each_signal_restores_the_terminal_and_exits_with_its_status() {
    for (signal, status) in [("TERM", 143), ("HUP", 129), ("QUIT", 131), ("INT", 130)] {
        let Some(tmux) = Tmux::start() else { return };
        let dir = tempfile::tempdir().unwrap();
        let home = demo_store(dir.path());
        let cmd = format!(
            "{picker}; echo $? > {status}; stty -a > {stty}; sleep 30",
            picker = picker_cmd(dir.path(), &home),
            status = shell_quote(&dir.path().join("status")),
            stty = shell_quote(&dir.path().join("stty")),
        );
        start(&tmux, &cmd);
        tmux.wait_for("Draft the 2.4 release notes");
        let modes = |tmux: &Tmux| {
            let out = tmux.run(&[
                "display",
                "-p",
                "-t",
                "t",
                "#{alternate_on} #{mouse_any_flag}",
            ]);
            String::from_utf8_lossy(&out.stdout).trim().to_owned()
        };
        assert_eq!(modes(&tmux), "1 1", "the picker took the terminal");
        let pid = picker_pid(&home);
        let killed = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &pid.to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let got = read_when_there(&dir.path().join("status"));
        assert_eq!(got.trim(), status.to_string(), "SIG{signal}'s exit status");
        let stty = read_when_there(&dir.path().join("stty"));
        let words: Vec<&str> = stty.split_whitespace().collect();
        assert!(
            words.contains(&"icanon") && words.contains(&"echo"),
            "SIG{signal}: the tty is in cooked mode:\n{stty}"
        );
        assert_eq!(modes(&tmux), "0 0", "SIG{signal}: main screen, no mouse");
    }
}

#[test]
fn ctrl_l_repaints_over_what_another_program_wrote() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let cmd = format!("{}; sleep 30", picker_cmd(dir.path(), &home));
    start(&tmux, &cmd);
    tmux.wait_for("Draft the 2.4 release notes");
    let out = tmux.run(&["display", "-p", "-t", "t", "#{pane_tty}"]);
    let tty = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    std::fs::write(&tty, "\x1b[5;5HSCRIBBLED-OVER-THE-PICKER").unwrap();
    tmux.wait_for("SCRIBBLED-OVER-THE-PICKER");
    tmux.keys(&["C-l"]);
    let start = Instant::now();
    loop {
        let screen = tmux.capture();
        if !screen.contains("SCRIBBLED") && screen.contains("Draft the 2.4 release notes") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "Ctrl+L repaints the whole screen:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_long_paste_without_brackets_is_taken_whole_and_the_next_key_at_once() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let (cmd, out) = picker_into(dir.path(), &home, "", "");
    start(&tmux, &cmd);
    tmux.wait_for("Draft the 2.4 release notes");
    // 100,000 bytes and a newline; `paste-buffer` without -p sends them as typed, unbracketed,
    // the newline as Enter.
    let words = ["release ", "notes "];
    let mut text: String = (0..).map(|i| words[i % 2]).take(15_000).collect();
    text.truncate(100_000);
    text.push('\n');
    let buffer = dir.path().join("burst");
    std::fs::write(&buffer, &text).unwrap();
    assert!(tmux
        .run(&["load-buffer", &buffer.display().to_string()])
        .status
        .success());
    assert!(tmux.run(&["paste-buffer", "-t", "t"]).status.success());
    // The Enter at its end is acted on as soon as it arrives: a pick (the id printed), or a
    // word that no session is selected.
    let start = Instant::now();
    loop {
        let printed = std::fs::read_to_string(&out).unwrap_or_default();
        if !printed.is_empty() {
            assert_eq!(printed.trim().len(), 36, "an id: {printed:?}");
            break;
        }
        let screen = tmux.capture();
        if screen.contains("no session selected") {
            assert!(screen.contains("cut to its first 1000"), "{screen}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the Enter after 100,000 bytes was not taken:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
