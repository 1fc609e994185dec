//! Paths are bytes on Unix: a store under a `CODEX_HOME` that is not UTF-8, with a day folder
//! that is not UTF-8 either, is listed (the JSON gives the path back exactly in `path_bytes`),
//! shown by its raw path and by its id, and picked in the picker.

use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use crate::common::{agent_event, bin, json_lines, meta_line, stderr, stdout, user_event};
use crate::tmux::{shell_quote, start, Tmux};

const ID: &str = "019ac0bb-7e2d-7a41-9c3b-0000000000bb";

/// `<dir>/home-\xff` holding `sessions/2026/11/\xe9t\xe9/rollout-...jsonl`: the home and the
/// rollout's path.
fn byte_store(dir: &Path) -> (PathBuf, PathBuf) {
    let mut home = dir.as_os_str().as_bytes().to_vec();
    home.extend_from_slice(b"/home-\xff");
    let home = PathBuf::from(OsString::from_vec(home));
    let mut day = home.join("sessions/2026/11").into_os_string().into_vec();
    day.extend_from_slice(b"/\xe9t\xe9");
    let day = PathBuf::from(OsString::from_vec(day));
    std::fs::create_dir_all(&day).unwrap();
    let file = day.join(format!("rollout-2026-11-30T10-00-00-{ID}.jsonl"));
    let lines = [
        meta_line(ID, "/home/demo/work/bytes"),
        user_event("a session filed under folders that are not UTF-8"),
        agent_event("Listed, shown and picked all the same.", "final_answer"),
    ];
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    (home, file)
}

fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn a_store_under_non_utf8_paths_lists_and_shows() {
    let dir = tempfile::tempdir().unwrap();
    let (home, file) = byte_store(dir.path());
    let out = bin()
        .env("CODEX_HOME", &home)
        .args(["list", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = json_lines(&stdout(&out));
    assert_eq!(
        rows.len(),
        1,
        "the store named by a non-UTF-8 CODEX_HOME is the one listed"
    );
    let bytes = unhex(rows[0]["path_bytes"].as_str().expect("path_bytes"));
    assert_eq!(
        bytes,
        file.as_os_str().as_bytes(),
        "the exact path, byte for byte"
    );
    assert!(rows[0]["path"].as_str().unwrap().contains('\u{fffd}'));

    for target in [file.as_os_str(), std::ffi::OsStr::new(ID)] {
        let out = bin()
            .env("CODEX_HOME", &home)
            .arg("show")
            .arg(target)
            .output()
            .unwrap();
        assert!(out.status.success(), "show {target:?}: {}", stderr(&out));
        assert!(stdout(&out).contains("Listed, shown and picked all the same."));
    }
}

#[test]
fn a_store_under_non_utf8_paths_is_picked() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (home, _) = byte_store(dir.path());
    // The shell spells the home's bytes: tmux takes its command as text.
    let out = dir.path().join("out");
    let cmd = format!(
        "CODEX_HOME=\"$(printf '%s/home-\\377' {dir})\" NO_COLOR=1 XDG_CACHE_HOME={dir}/cache XDG_CONFIG_HOME={dir}/cache {bin} --all > {out}; sleep 30",
        dir = shell_quote(dir.path()),
        bin = shell_quote(Path::new(env!("CARGO_BIN_EXE_codex-picker"))),
        out = shell_quote(&out),
    );
    assert!(home.exists());
    start(&tmux, &cmd);
    tmux.wait_for("a session filed under folders that are not UTF-8");
    tmux.keys(&["Enter"]);
    let start = std::time::Instant::now();
    loop {
        let printed = std::fs::read_to_string(&out).unwrap_or_default();
        if !printed.is_empty() {
            assert_eq!(printed, format!("{ID}\n"));
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "nothing picked"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
