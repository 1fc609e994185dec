//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn real_fixtures() -> PathBuf {
    fixtures().join("codex-real")
}

/// The codex-picker binary built for these tests.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_codex-picker"));
    cmd.env_remove("CODEX_HOME").env("NO_COLOR", "1");
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
    stdout(&out)
        .lines()
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
