//! Test input shared by the fast paths' tests: every line of every real codex rollout in
//! `tests/fixtures/codex-real`, and a row nested too deep for serde_json.

use std::path::{Path, PathBuf};

/// Every line (without its newline) of every `.jsonl` fixture, with the file it came from.
pub(super) fn real_fixture_lines() -> Vec<(PathBuf, Vec<u8>)> {
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/codex-real")];
    let mut out = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("fixtures") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.to_string_lossy().ends_with(".jsonl") {
                let bytes = std::fs::read(&path).expect("fixture");
                for line in bytes.split(|&b| b == b'\n') {
                    out.push((path.clone(), line.to_vec()));
                }
            }
        }
    }
    out
}

/// `head`, 200 nested arrays (past serde_json's recursion limit of 128), then `tail`.
pub(super) fn nested_too_deep(head: &str, tail: &str) -> String {
    format!("{head}{}{}{tail}", "[".repeat(200), "]".repeat(200))
}
