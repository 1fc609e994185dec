//! The store is read-only to us: after listing and showing every session of a store holding the
//! real fixtures and every hostile case, each file has the same bytes and modification time,
//! and no file, folder or link was created or removed under the store.
//!
//! [`assert_store_untouched_by`] takes any session of commands; a scripted picker session can be
//! added beside [`list_and_show_everything`] and checked the same way.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use serde_json::Value;

use crate::common::{self, bin, stderr, stdout};
use crate::hostile;

/// What is recorded of one path under the store.
#[derive(Debug, PartialEq, Eq)]
struct Entry {
    kind: &'static str,
    len: u64,
    modified: Option<SystemTime>,
    /// A hash of the bytes of a regular file (`None` when it cannot be read).
    content: Option<u64>,
    link_target: Option<PathBuf>,
}

fn snapshot(home: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut out = BTreeMap::new();
    for entry in walkdir::WalkDir::new(home).follow_links(false) {
        let entry = entry.expect("walk the store");
        let meta = std::fs::symlink_metadata(entry.path()).unwrap();
        let kind = if meta.file_type().is_symlink() {
            "link"
        } else if meta.is_dir() {
            "dir"
        } else if meta.is_file() {
            "file"
        } else {
            // Named pipes and the like: never opened (a pipe would block).
            "special"
        };
        let content = (kind == "file")
            .then(|| std::fs::read(entry.path()).ok())
            .flatten()
            .map(|bytes| {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                bytes.hash(&mut h);
                h.finish()
            });
        out.insert(
            entry.path().to_path_buf(),
            Entry {
                kind,
                len: meta.len(),
                modified: meta.modified().ok(),
                content,
                link_target: std::fs::read_link(entry.path()).ok(),
            },
        );
    }
    out
}

/// Where the commands of a session run: the store, and a cache and home of their own.
pub struct ReadOnlyEnv {
    pub home: PathBuf,
    pub cache: PathBuf,
    pub user_home: PathBuf,
}

impl ReadOnlyEnv {
    /// The binary, pointed at the store, with `XDG_CACHE_HOME` and `HOME` outside it.
    pub fn command(&self) -> Command {
        let mut cmd = bin();
        cmd.env("XDG_CACHE_HOME", &self.cache)
            .env("HOME", &self.user_home)
            .env("CODEX_HOME", &self.home);
        cmd
    }
}

/// Snapshot the store at `home`, run `session`, and assert that nothing under it changed.
pub fn assert_store_untouched_by(home: &Path, session: impl FnOnce(&ReadOnlyEnv)) {
    let side = tempfile::tempdir().unwrap();
    let env = ReadOnlyEnv {
        home: home.to_path_buf(),
        cache: side.path().join("cache"),
        user_home: side.path().join("user"),
    };
    std::fs::create_dir_all(&env.user_home).unwrap();
    let before = snapshot(home);
    session(&env);
    let after = snapshot(home);
    let created: Vec<_> = after.keys().filter(|p| !before.contains_key(*p)).collect();
    let removed: Vec<_> = before.keys().filter(|p| !after.contains_key(*p)).collect();
    assert!(created.is_empty(), "created under the store: {created:?}");
    assert!(removed.is_empty(), "removed from the store: {removed:?}");
    for (path, was) in &before {
        assert_eq!(&after[path], was, "{} changed", path.display());
    }
}

/// `list`, `list --json --archived`, and `show` (text and JSON) of every session listed.
pub fn list_and_show_everything(env: &ReadOnlyEnv) {
    let out = env.command().arg("list").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = env
        .command()
        .args(["list", "--json", "--archived"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<Value> = crate::common::json_lines(&stdout(&out));
    assert!(rows.len() > 40, "the whole store is listed");
    for row in &rows {
        let path = row["path"].as_str().unwrap();
        let id = row["id"].as_str().unwrap();
        let target = if path.contains(id) { id } else { path };
        for extra in [&[][..], &["--json"], &["--tools"]] {
            let out = env
                .command()
                .args(["show", target])
                .args(extra)
                .output()
                .unwrap();
            assert!(out.status.success(), "show {target}: {}", stderr(&out));
        }
    }
}

/// The hostile store plus every real fixture, one archived.
fn big_store() -> (tempfile::TempDir, PathBuf) {
    let (tmp, home, _) = hostile::hostile_store();
    for version in std::fs::read_dir(common::real_fixtures()).unwrap() {
        let version = version.unwrap().path();
        if version.join("sessions").is_dir() {
            common::copy_tree(&version.join("sessions"), &home.join("sessions"));
        }
    }
    std::fs::copy(
        common::real_fixtures().join("0.171.0/session_index.jsonl"),
        home.join("session_index.jsonl"),
    )
    .unwrap();
    let archived = home.join("archived_sessions");
    std::fs::create_dir_all(&archived).unwrap();
    let some = walkdir::WalkDir::new(common::real_fixtures().join("0.160.0"))
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().ends_with(".jsonl"))
        .unwrap();
    std::fs::copy(some.path(), archived.join(some.file_name())).unwrap();
    (tmp, home)
}

#[test]
fn listing_and_showing_writes_nothing_under_the_store() {
    let (_tmp, home) = big_store();
    assert_store_untouched_by(&home, list_and_show_everything);
}

#[test]
#[should_panic(expected = "created under the store")]
fn the_check_sees_a_created_file() {
    let (_tmp, home) = big_store();
    assert_store_untouched_by(&home, |env| {
        std::fs::write(env.home.join("sessions/.lock"), b"").unwrap();
    });
}

#[test]
#[should_panic(expected = "changed")]
fn the_check_sees_a_rewritten_file() {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_tree(&common::real_fixtures().join("0.171.0"), tmp.path());
    assert_store_untouched_by(tmp.path(), |env| {
        let index = env.home.join("session_index.jsonl");
        let text = std::fs::read_to_string(&index).unwrap();
        std::fs::write(&index, text.replace("\"id\"", "\"id\" ")).unwrap();
    });
}
