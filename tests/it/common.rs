//! Helpers shared by the integration tests.

#![allow(
    dead_code,
    reason = "each test file uses a different part of these helpers"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn real_fixtures() -> PathBuf {
    fixtures().join("codex-real")
}

/// A cache folder for this test process, so no test reads or writes the user's own cache.
pub fn test_cache_dir() -> &'static Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("cache tempdir"))
        .path()
}

/// An empty config folder for this test process, so no test reads the user's config file.
pub fn test_config_dir() -> &'static Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("config tempdir"))
        .path()
}

/// The codex-picker binary built for these tests, away from the user's store, cache and config.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_codex-picker"));
    cmd.env_remove("CODEX_HOME")
        .env(
            "CLAUDE_CONFIG_DIR",
            test_config_dir().join("no-claude-home"),
        )
        .env("NO_COLOR", "1")
        .env("XDG_CACHE_HOME", test_cache_dir())
        .env("XDG_CONFIG_HOME", test_config_dir());
    cmd
}

pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("run codex-picker")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 stdout")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `list --json` parsed.
pub fn list_json(home: &Path, extra: &[&str]) -> Vec<serde_json::Value> {
    let home = home.to_str().unwrap();
    let mut args = vec!["list", "--json", "--codex-home", home];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert!(out.status.success(), "list failed: {}", stderr(&out));
    json_lines(&stdout(&out))
}

/// One JSON value per line of `text` (a `--json` output), failing on any line that is not JSON.
pub fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

/// Copy a folder tree.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(from).unwrap();
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

/// A session file name for `uuid` in the dated layout.
pub fn rollout_rel(uuid: &str) -> String {
    format!("sessions/2026/11/30/rollout-2026-11-30T10-00-00-{uuid}.jsonl")
}

/// Write lines (each a JSON value, or a raw string) as a rollout under `home`.
pub fn write_lines(home: &Path, rel: &str, lines: &[String]) -> PathBuf {
    let path = home.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut text = String::new();
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}

pub fn meta_line(id: &str, cwd: &str) -> String {
    serde_json::json!({"timestamp":"2026-11-30T10:00:00.000Z","type":"session_meta","payload":{"id":id,"timestamp":"2026-11-30T10:00:00.000Z","cwd":cwd,"source":"cli","cli_version":"0.130.0","git":{"branch":"main"}}}).to_string()
}

pub fn user_event(text: &str) -> String {
    serde_json::json!({"type":"event_msg","payload":{"type":"user_message","message":text}})
        .to_string()
}

pub fn agent_event(text: &str, phase: &str) -> String {
    serde_json::json!({"type":"event_msg","payload":{"type":"agent_message","message":text,"phase":phase}}).to_string()
}

pub fn response_user(text: &str) -> String {
    serde_json::json!({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":text}]}}).to_string()
}

/// The row of `id` in a `list --json` result.
pub fn row<'a>(rows: &'a [serde_json::Value], id: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("session {id} not listed"))
}
