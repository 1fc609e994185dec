//! The store generator: a small generated store lists exactly as its `expected.jsonl` says, and
//! the same seed gives the same store.

use crate::common::{bin, stderr, stdout};
use crate::gen::{self, GenOptions};
use std::path::Path;

pub fn small_store(dir: &Path, sessions: usize, seed: u64) {
    let opts = GenOptions {
        sessions,
        seed,
        scale: 0.02,
        threads: 2,
        claude: 0,
    };
    gen::generate(dir, &opts).expect("generate");
}

/// `list --json --archived` of `home` as (id -> row).
pub fn list(home: &Path, cache: Option<&Path>) -> Vec<serde_json::Value> {
    let mut cmd = bin();
    cmd.args(["list", "--json", "--archived", "--codex-home"])
        .arg(home);
    match cache {
        Some(dir) => cmd.env("XDG_CACHE_HOME", dir),
        None => cmd.arg("--no-cache"),
    };
    let out = cmd.output().expect("run codex-picker");
    assert!(out.status.success(), "list failed: {}", stderr(&out));
    crate::common::json_lines(&stdout(&out))
}

#[test]
fn generated_store_lists_as_expected() {
    let dir = tempfile::tempdir().unwrap();
    small_store(dir.path(), 60, 3);
    let expected = gen::read_expected(dir.path()).unwrap();
    assert_eq!(expected.len(), 60);
    let rows = list(dir.path(), None);
    assert_eq!(rows.len(), expected.len());
    for e in &expected {
        let row = rows
            .iter()
            .find(|r| r["id"] == e.id.as_str())
            .unwrap_or_else(|| panic!("{} not listed", e.id));
        let path = dir.path().join(&e.path);
        assert_eq!(row["path"], path.to_str().unwrap());
        assert_eq!(
            row["first_user_message"].as_str(),
            e.first_user_message.as_deref()
        );
        assert_eq!(row["user_messages"], e.user_messages);
        assert_eq!(row["assistant_messages"], e.assistant_messages);
        assert_eq!(row["archived"], e.archived);
        let mut paths: Vec<&str> = row["files_changed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap())
            .collect();
        paths.sort_unstable();
        let want = e
            .files_changed
            .as_deref()
            .expect("the generator says what changed");
        assert_eq!(paths, want, "{}", e.id);
        assert_eq!(row["tokens"]["total"].as_u64(), e.tokens_total, "{}", e.id);
    }
    // Most sessions changed files, in every version's own record of a patch (a `FileChange`
    // item from 0.160 on, a `patch_apply_end` event before); every session counted tokens.
    let with_files = expected
        .iter()
        .filter(|e| e.files_changed.as_ref().is_some_and(|f| !f.is_empty()))
        .count();
    assert!(
        with_files * 2 > expected.len(),
        "{with_files} of {}",
        expected.len()
    );
    for version in ["0.120.0", "0.145.0", "0.160.0", "0.171.0"] {
        let changed = rows.iter().any(|r| {
            r["cli_version"] == version && !r["files_changed"].as_array().unwrap().is_empty()
        });
        assert!(changed, "no {version} session changed a file");
    }
    assert!(expected.iter().all(|e| e.tokens_total.is_some()));
    assert!(
        rows.iter().any(|r| r["name"].is_string()),
        "a named session"
    );
    // The mix the benchmark relies on is there.
    assert!(expected.iter().any(|e| e.archived));
    assert!(expected.iter().any(|e| e.path.ends_with(".zst")));
    assert!(rows.iter().any(|r| r["session_source"] == "exec"));
    assert!(rows.iter().any(|r| r["cli_version"] == "0.171.0"));
    assert!(rows.iter().any(|r| r["cli_version"] == "0.120.0"));
}

#[test]
fn same_seed_same_store() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    small_store(a.path(), 12, 9);
    small_store(b.path(), 12, 9);
    for e in gen::read_expected(a.path()).unwrap() {
        let x = std::fs::read(a.path().join(&e.path)).unwrap();
        let y = std::fs::read(b.path().join(&e.path)).unwrap();
        assert!(x == y, "{} differs between two runs", e.path);
    }
    let c = tempfile::tempdir().unwrap();
    small_store(c.path(), 12, 10);
    assert_ne!(
        std::fs::read(a.path().join("expected.jsonl")).unwrap(),
        std::fs::read(c.path().join("expected.jsonl")).unwrap()
    );
}
