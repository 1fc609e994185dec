//! `list --json` through the rows cache, which keeps each session's output line: a warm run
//! writes byte for byte what a cold `--no-cache` listing writes, a run of a still store leaves
//! the cache as it was, and any change to the store, its names or the walk is seen at once.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{bin, stderr};
use crate::generator::small_store;

struct Fixture {
    _dir: tempfile::TempDir,
    home: PathBuf,
    xdg: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("codex");
    small_store(&home, 24, 11);
    let xdg = dir.path().join("xdg");
    Fixture {
        _dir: dir,
        home,
        xdg,
    }
}

fn run(home: &Path, cache: Option<&Path>, extra: &[&str]) -> Output {
    let mut cmd = bin();
    cmd.args(["list", "--json", "--archived", "--codex-home"])
        .arg(home)
        .args(extra);
    match cache {
        Some(dir) => cmd.env("XDG_CACHE_HOME", dir),
        None => cmd.arg("--no-cache"),
    };
    let out = cmd.output().expect("run codex-picker");
    assert!(out.status.success(), "list failed: {}", stderr(&out));
    out
}

/// What a cold listing writes, to standard output and error.
fn cold(f: &Fixture) -> (Vec<u8>, String) {
    let out = run(&f.home, None, &[]);
    let said = stderr(&out);
    (out.stdout, said)
}

fn cached(f: &Fixture) -> (Vec<u8>, String) {
    let out = run(&f.home, Some(&f.xdg), &[]);
    let said = stderr(&out);
    (out.stdout, said)
}

/// The cache file of `kind` (`rows`) in the fixture's cache folder.
fn cache_file(f: &Fixture, kind: &str) -> Option<PathBuf> {
    let dir = f.xdg.join("codex-picker");
    let found = std::fs::read_dir(dir).ok()?.flatten().find(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        name.starts_with(&format!("{kind}-")) && name.ends_with(".cache")
    });
    found.map(|e| e.path())
}

/// Run twice, checking each: the second run (of a still store) writes its lines as the cache
/// kept them and leaves the cache file as it was.
fn listed_twice(f: &Fixture) {
    assert_eq!(cached(f), cold(f));
    let rows = cache_file(f, "rows").expect("the rows cache");
    let before = std::fs::read(&rows).unwrap();
    assert_eq!(cached(f), cold(f));
    assert_eq!(
        std::fs::read(&rows).unwrap(),
        before,
        "a still store saved again"
    );
}

#[test]
fn a_still_store_is_listed_from_the_kept_lines() {
    let f = fixture();
    assert_eq!(cached(&f), cold(&f));
    listed_twice(&f);
    // A damaged rows cache is not trusted: the listing is the same, and the cache rebuilt.
    let rows = cache_file(&f, "rows").unwrap();
    std::fs::write(&rows, b"damaged").unwrap();
    assert_eq!(cached(&f), cold(&f));
    assert_ne!(std::fs::read(&rows).unwrap(), b"damaged");
    listed_twice(&f);
    // `--limit` takes the first sessions of it.
    let limited = run(&f.home, Some(&f.xdg), &["--limit", "3"]);
    let want = run(&f.home, None, &["--limit", "3"]);
    assert_eq!(limited.stdout, want.stdout);
    assert_eq!(String::from_utf8_lossy(&limited.stdout).lines().count(), 3);
}

fn sessions(home: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(home.join("sessions"))
        .into_iter()
        .flatten()
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.to_string_lossy().ends_with(".jsonl"))
        .collect();
    found.sort();
    found
}

#[test]
fn every_change_to_the_store_is_listed_at_once() {
    let f = fixture();
    listed_twice(&f);
    let files = sessions(&f.home);
    // A session grows.
    let mut grown = std::fs::OpenOptions::new()
        .append(true)
        .open(&files[0])
        .unwrap();
    let reply = r#"{"timestamp":"2026-01-01T00:00:00Z","type":"event_msg","payload":{"type":"user_message","message":"one more question"}}"#;
    writeln!(grown, "{reply}").unwrap();
    drop(grown);
    assert_eq!(cached(&f), cold(&f), "a grown session");
    listed_twice(&f);
    // A session is deleted.
    std::fs::remove_file(&files[1]).unwrap();
    assert_eq!(cached(&f), cold(&f), "a deleted session");
    listed_twice(&f);
    // A session is named.
    let id = cold(&f).0;
    let first: serde_json::Value =
        serde_json::from_slice(id.split(|&b| b == b'\n').next().unwrap()).unwrap();
    let index = format!(
        "{{\"id\":{},\"thread_name\":\"named later\",\"updated_at\":\"2026-01-01T00:00:00Z\"}}\n",
        first["id"]
    );
    std::fs::write(f.home.join("session_index.jsonl"), index).unwrap();
    let (out, said) = cached(&f);
    assert!(String::from_utf8_lossy(&out).contains("named later"));
    assert_eq!((out, said), cold(&f), "a named session");
    listed_twice(&f);
}

#[test]
fn files_passed_over_are_reported_again_by_a_warm_listing() {
    let f = fixture();
    let day = sessions(&f.home)[0].parent().unwrap().to_path_buf();
    let empty = day.join("rollout-2026-01-01T00-00-00-00000000-0000-0000-0000-000000000000.jsonl");
    std::fs::write(&empty, b"").unwrap();
    let (_, said) = cold(&f);
    assert!(
        said.contains("codex-picker: ") && said.contains(&*empty.to_string_lossy()),
        "{said}"
    );
    listed_twice(&f);
    assert_eq!(cached(&f), cold(&f));
}
