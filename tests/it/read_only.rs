//! The store is read-only to us: after listing and showing every session of a store holding the
//! real fixtures and every hostile case, each file has the same bytes and modification time,
//! and no file, folder or link was created or removed under the store.
//!
//! [`assert_store_untouched_by`] takes any session of commands; [`assert_store_changed_only_by`]
//! checks a session whose only changes are the ones a stand-in codex says it made: a picker
//! session that archives and deletes through it changes nothing else.

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
    assert_store_changed_only_by(home, |env| {
        session(env);
        Vec::new()
    });
}

/// Snapshot the store at `home`, run `session`, which returns the changes codex made
/// (`mv FROM TO`, `rm PATH`, `mkdir DIR`, as the stand-in writes them), and assert that the
/// store is what those changes alone make of it: moved files keep their bytes and times, and
/// nothing else was created, removed or changed (a folder whose entries codex changed is only
/// checked to still be a folder).
pub fn assert_store_changed_only_by(
    home: &Path,
    session: impl FnOnce(&ReadOnlyEnv) -> Vec<String>,
) {
    let side = tempfile::tempdir().unwrap();
    let env = ReadOnlyEnv {
        home: home.to_path_buf(),
        cache: side.path().join("cache"),
        user_home: side.path().join("user"),
    };
    std::fs::create_dir_all(&env.user_home).unwrap();
    let mut want = snapshot(home);
    let changes = session(&env);
    let touched = apply_changes(&mut want, &changes);
    let after = snapshot(home);
    let created: Vec<_> = after.keys().filter(|p| !want.contains_key(*p)).collect();
    let removed: Vec<_> = want.keys().filter(|p| !after.contains_key(*p)).collect();
    assert!(created.is_empty(), "created under the store: {created:?}");
    assert!(removed.is_empty(), "removed from the store: {removed:?}");
    for (path, was) in &want {
        if touched.contains(path) {
            assert_eq!(
                after[path].kind,
                "dir",
                "{} is still a folder",
                path.display()
            );
        } else {
            assert_eq!(&after[path], was, "{} changed", path.display());
        }
    }
}

/// `changes` applied to a snapshot; the folders whose entries they changed.
fn apply_changes(
    want: &mut BTreeMap<PathBuf, Entry>,
    changes: &[String],
) -> std::collections::HashSet<PathBuf> {
    let mut touched = std::collections::HashSet::new();
    for change in changes {
        let mut touch = |p: &Path| {
            touched.insert(p.parent().unwrap().to_path_buf());
        };
        let (op, rest) = change.split_once(' ').unwrap();
        match op {
            "mv" => {
                let (from, to) = rest.split_once(' ').unwrap();
                let entry = want
                    .remove(Path::new(from))
                    .expect("codex moved a known file");
                want.insert(PathBuf::from(to), entry);
                touch(Path::new(from));
                touch(Path::new(to));
            }
            "rm" => {
                want.remove(Path::new(rest))
                    .expect("codex removed a known file");
                touch(Path::new(rest));
            }
            "mkdir" => {
                let dir = PathBuf::from(rest);
                let entry = Entry {
                    kind: "dir",
                    len: 0,
                    modified: None,
                    content: None,
                    link_target: None,
                };
                want.insert(dir.clone(), entry);
                touch(&dir);
                touched.insert(dir);
            }
            _ => panic!("unknown change {change:?}"),
        }
    }
    touched
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

/// A picker session in tmux on the store: archive one session and delete another through the
/// stand-in codex, then quit; the changes it says it made.
fn archive_and_delete_in_the_picker(env: &ReadOnlyEnv) -> Vec<String> {
    let Some(tmux) = crate::tmux::Tmux::start() else {
        return Vec::new();
    };
    let side = tempfile::tempdir().unwrap();
    let codex = crate::stand_in::StandIn::new(side.path());
    let q = |p: &Path| crate::tmux::shell_quote(p);
    let cmd = format!(
        "cd {side} && env NO_COLOR=1 XDG_CACHE_HOME={cache} XDG_CONFIG_HOME={cache} HOME={user} PATH={path} {bin} --all --codex-home {home}; sleep 30",
        side = q(side.path()),
        cache = q(&env.cache),
        user = q(&env.user_home),
        path = q(Path::new(&codex.path_env())),
        bin = q(Path::new(env!("CARGO_BIN_EXE_codex-picker"))),
        home = q(&env.home),
    );
    crate::tmux::start(&tmux, &cmd);
    tmux.wait_for("sessions (all folders)");
    // The whole id in the pane: the session is selected (the query is only its start).
    tmux.keys(&["-l", "01a22be7-ede3"]);
    tmux.wait_for("01a22be7-ede3-7d00");
    tmux.keys(&["M-a"]);
    tmux.wait_for("archived “");
    tmux.keys(&["C-u"]);
    tmux.keys(&["-l", "01a22be7-f57c"]);
    tmux.wait_for("01a22be7-f57c-7771");
    tmux.keys(&["M-d"]);
    tmux.wait_for("delete this session?");
    tmux.keys(&["y"]);
    tmux.wait_for("deleted “");
    tmux.keys(&["C-c"]);
    let args = codex.args();
    assert_eq!(args.len(), 2, "{args:?}");
    assert!(args[0].starts_with("archive 01a22be7-ede3"), "{args:?}");
    assert!(
        args[1].starts_with("delete --force 01a22be7-f57c"),
        "{args:?}"
    );
    std::fs::read_to_string(&codex.changes)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_picker_session_that_archives_and_deletes_changes_only_what_codex_changed() {
    let (_tmp, home) = big_store();
    assert_store_changed_only_by(&home, |env| {
        let changes = archive_and_delete_in_the_picker(env);
        assert!(changes.is_empty() || changes.iter().any(|c| c.starts_with("rm ")));
        changes
    });
}

#[test]
#[should_panic(expected = "changed")]
fn the_check_sees_a_change_codex_did_not_say() {
    let (_tmp, home) = big_store();
    assert_store_changed_only_by(&home, |env| {
        let index = env.home.join("session_index.jsonl");
        std::fs::write(&index, "{}\n").unwrap();
        Vec::new()
    });
}
