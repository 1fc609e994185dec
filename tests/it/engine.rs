//! The index engine seen from both sides: the picker's stream and `list` give the same rows of
//! the same store, cold and through the cache each wrote, forks titled, files that are not
//! sessions and duplicate ids reported alike.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use codex_picker::store::engine;
use codex_picker::store::CacheSetup;
use codex_picker::store::Store;
use codex_picker::workers::indexer::{self, Event, IndexOptions};
use serde_json::Value;

use crate::common::{bin, json_lines, stderr, stdout};

/// The demo store (a paginated fork among its sessions), with a file that is not a session and
/// an archived copy of a session (its id then twice in the store).
fn store() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let home = codex_picker::demo::materialize(&dir.path().join("demo")).unwrap();
    let first = walkdir::WalkDir::new(home.join("sessions"))
        .into_iter()
        .flatten()
        .map(walkdir::DirEntry::into_path)
        .find(|p| p.to_string_lossy().ends_with(".jsonl"))
        .unwrap();
    let day = first.parent().unwrap();
    std::fs::write(
        day.join("rollout-2026-01-01T00-00-00-00000000-0000-0000-0000-00000000000e.jsonl"),
        b"not json\n",
    )
    .unwrap();
    let archived = home.join("archived_sessions");
    std::fs::create_dir_all(&archived).unwrap();
    std::fs::copy(&first, archived.join(first.file_name().unwrap())).unwrap();
    (dir, home)
}

/// What both sides show of a session: the fields a person reads in the list (the first
/// message, branch, folder and creation time as `texts`). Not its counts, nor a name that only a
/// `thread_name_updated` line after the first prompt gives: the picker reads each file up to
/// its first prompt, `list` to its end.
fn shown(id: &str, path: &Path, texts: [Option<&str>; 4], archived: bool) -> String {
    format!("{id} | {} | {texts:?} | {archived}", path.display())
}

/// The picker's stream, applied as the picker applies it: rows by path, and the files passed
/// over.
fn picker(home: &Path, cache: &Path) -> (BTreeMap<PathBuf, String>, Vec<PathBuf>) {
    let run = picker_run(home, cache, None);
    (run.rows, run.issues)
}

/// What a picker holds after an index run: its rows as shown, each row's file as the row was
/// made of it (size, mtime), the files passed over, and the paths of the rows the run sent.
#[derive(Clone, Default)]
struct Held {
    rows: BTreeMap<PathBuf, String>,
    files: BTreeMap<PathBuf, (u64, i64)>,
    issues: Vec<PathBuf>,
    sent: Vec<PathBuf>,
}

/// One run of the picker's indexer, a later run of a picker holding `before` when given,
/// applied to its rows.
fn picker_run(home: &Path, cache: &Path, before: Option<&Held>) -> Held {
    let held = before.map(|b| {
        let files = b
            .files
            .iter()
            .map(|(p, (size, mtime))| (p.as_path(), *size, *mtime));
        std::sync::Arc::new(codex_picker::store::engine::Held::of(files))
    });
    let rx = indexer::spawn(
        Store::codex(home.to_path_buf()),
        IndexOptions {
            held,
            ..IndexOptions::default()
        },
        CacheSetup {
            dir: Some(cache.to_path_buf()),
            content: false,
        },
    );
    let mut run = before.cloned().unwrap_or_default();
    run.sent.clear();
    run.issues.clear();
    for event in rx {
        let (Event::Run(event) | Event::Whole(event)) = event else {
            continue;
        };
        match event {
            engine::Event::Rows(_) | engine::Event::Updated(_) => {
                for r in event.into_rows().unwrap_or_default() {
                    run.sent.push(r.path.clone());
                    run.files.insert(r.path.clone(), (r.size, r.updated_ms));
                    let texts = [
                        r.first_user_message.as_deref(),
                        r.meta.git_branch.as_deref(),
                        r.meta.cwd.as_deref(),
                        r.meta.timestamp.as_deref(),
                    ];
                    let line = shown(&r.id, &r.path, texts, r.archived);
                    run.rows.insert(r.path.clone(), line);
                }
            }
            engine::Event::Removed(paths) => {
                for p in paths {
                    run.rows.remove(&p);
                    run.files.remove(&p);
                    run.sent.push(p);
                }
            }
            engine::Event::Issue(issue) => run.issues.push(issue.path),
            _ => {}
        }
    }
    run.issues.sort();
    run
}

/// `list --json --archived` with the cache in `xdg`: rows by path, and the files passed over
/// (the warning that names a second copy of a session is not one: both copies are listed).
fn list(home: &Path, xdg: &Path) -> (BTreeMap<PathBuf, String>, Vec<PathBuf>) {
    let out = bin()
        .args(["list", "--json", "--archived", "--codex-home"])
        .arg(home)
        .env("XDG_CACHE_HOME", xdg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = |v: &Value| v.as_str().map(str::to_owned);
    let rows = json_lines(&stdout(&out))
        .iter()
        .map(|r| {
            let path = PathBuf::from(r["path"].as_str().unwrap());
            let texts =
                ["first_user_message", "git_branch", "cwd", "created_at"].map(|k| text(&r[k]));
            let texts = [0, 1, 2, 3].map(|i| texts[i].as_deref());
            let line = shown(
                r["id"].as_str().unwrap(),
                &path,
                texts,
                r["archived"].as_bool().unwrap(),
            );
            (path, line)
        })
        .collect();
    let said = stderr(&out);
    assert!(
        said.contains("both are listed"),
        "the second copy is named: {said}"
    );
    let mut issues: Vec<PathBuf> = said
        .lines()
        .filter(|l| !l.contains("both are listed"))
        .filter_map(|l| l.strip_prefix("codex-picker: "))
        .filter_map(|l| l.split(": ").next())
        .map(PathBuf::from)
        .collect();
    issues.sort();
    (rows, issues)
}

type Seen = (BTreeMap<PathBuf, String>, Vec<PathBuf>);

/// `got` is `want`; else the rows that differ, and the files passed over.
fn same(got: Seen, want: &Seen, what: &str) {
    let differ: Vec<_> = want
        .0
        .iter()
        .filter(|(p, r)| got.0.get(*p) != Some(*r))
        .map(|(p, r)| (r, got.0.get(p)))
        .collect();
    let extra: Vec<_> = got.0.keys().filter(|p| !want.0.contains_key(*p)).collect();
    assert!(
        differ.is_empty() && extra.is_empty(),
        "{what}: {differ:#?} {extra:?}"
    );
    assert_eq!(got.1, want.1, "{what}: files passed over");
}

#[test]
fn the_picker_stream_and_list_give_the_same_rows() {
    let (dir, home) = store();
    let xdg = dir.path().join("xdg");
    let picker_cache = dir.path().join("picker-cache");
    let (cold_rows, cold_issues) = list(&home, &xdg);
    assert_eq!(cold_issues.len(), 1, "not a session: {cold_issues:?}");
    let fork = cold_rows
        .values()
        .find(|r| r.starts_with("019ac009-7e2d-7a41-9c3b-000000000009"))
        .expect("the demo's fork");
    assert_ne!(
        fork.split(" | ").nth(2).map(|t| t.starts_with("[None")),
        Some(true),
        "the fork is titled from its parent: {fork}"
    );
    let want = (cold_rows, cold_issues);
    for run in ["cold", "warm"] {
        same(
            picker(&home, &picker_cache),
            &want,
            &format!("picker, {run}"),
        );
        same(list(&home, &xdg), &want, &format!("list, {run}"));
    }
    // The picker reading through the cache `list` wrote (and the other way round).
    let shared = dir.path().join("shared");
    same(list(&home, &shared), &want, "list, cold");
    let shared_cache = shared.join("codex-picker");
    same(picker(&home, &shared_cache), &want, "picker after list");
    same(list(&home, &shared), &want, "list after the picker");
}

/// A picker's later run (the store changed while it was open) makes and sends only what changed
/// since its first run, and what it never had: nothing at all when nothing did, a session that
/// another process's listing put in the shared rows cache meanwhile, and what it sends brings
/// the rows the picker holds to exactly those a new picker would show.
#[test]
fn a_later_run_sends_only_what_changed() {
    use crate::common::{meta_line, rollout_rel, user_event, write_lines};
    let (dir, home) = store();
    // The picker's cache folder is the one `list` uses under this XDG_CACHE_HOME.
    let xdg = dir.path().join("xdg");
    let cache = xdg.join("codex-picker");
    let first = picker_run(&home, &cache, None);
    assert!(first.sent.len() >= first.rows.len() && first.rows.len() > 5);
    // The fork alone is made again each run: its title is its parent's, which may have changed.
    let fork = |p: &PathBuf| {
        first
            .rows
            .get(p)
            .is_some_and(|r| r.starts_with("019ac009-7e2d-7a41-9c3b-000000000009"))
    };
    let unchanged = picker_run(&home, &cache, Some(&first));
    assert!(
        unchanged.sent.len() == 1 && fork(&unchanged.sent[0]),
        "nothing changed: no row made or sent but the fork's: {:?}",
        unchanged.sent
    );
    assert_eq!(unchanged.rows, first.rows);
    // A session the picker never had, read by a listing that saved it in the shared cache.
    let new = |id: &str, text: &str| {
        write_lines(
            &home,
            &rollout_rel(id),
            &[meta_line(id, "/w/later"), user_event(text)],
        )
    };
    let mut paths = first
        .rows
        .keys()
        .filter(|p| !p.to_string_lossy().contains("archived") && !fork(p))
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"));
    let mut next = || paths.next().unwrap().clone();
    let (listed_then_gone, grown, gone) = (next(), next(), next());
    let grow = |path: &Path| {
        let mut text = std::fs::read_to_string(path).unwrap();
        text.push_str(&user_event("one more prompt"));
        text.push('\n');
        std::fs::write(path, text).unwrap();
    };
    // Between two runs, a listing reads a new session and a grown one into the shared cache,
    // then the grown one is deleted: the picker is sent the one and told of the other.
    let listed = new(
        "019ac009-7e2d-7a41-9c3b-0000000000ab",
        "listed elsewhere first",
    );
    grow(&listed_then_gone);
    let _ = list(&home, &xdg);
    std::fs::remove_file(&listed_then_gone).unwrap();
    let after_list = picker_run(&home, &cache, Some(&first));
    assert!(
        after_list.rows.contains_key(&listed),
        "a session the picker does not hold is sent though the cache has it"
    );
    assert!(
        !after_list.rows.contains_key(&listed_then_gone),
        "a session the picker holds an older row of is removed though the cache knew it newer"
    );
    // A new session, one grown, one deleted.
    let added = new(
        "019ac009-7e2d-7a41-9c3b-0000000000aa",
        "a session started later",
    );
    grow(&grown);
    std::fs::remove_file(&gone).unwrap();
    let later = picker_run(&home, &cache, Some(&after_list));
    // Each row the preview read is sent again once read whole.
    let sent: std::collections::BTreeSet<_> = later.sent.iter().filter(|p| !fork(p)).collect();
    assert_eq!(
        sent,
        [&added, &grown, &gone].into_iter().collect(),
        "the new, grown and gone sessions alone"
    );
    assert!(!later.rows.contains_key(&gone));
    let fresh = picker(&home, &dir.path().join("fresh-cache"));
    same(
        (later.rows, later.issues.clone()),
        &fresh,
        "a later run against a new picker",
    );
    assert_eq!(first.issues, fresh.1);
}
