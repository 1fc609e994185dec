//! The rows cache's delta: a run that changed a few sessions writes them beside the rows file,
//! which stays as it was; the next run reads nothing; a torn or stale delta costs only the
//! reading of its sessions; many changes write the rows file whole again.

use std::io::Write;
use std::path::{Path, PathBuf};

use codex_picker::store::cache;

use crate::cache::{cached, cold, fixture, indexed, indexer_rows, plain_file, set_mtime, Fixture};

/// Plain active rollouts of the fixture, `n` of them.
fn plain_files(f: &Fixture, n: usize) -> Vec<PathBuf> {
    let mut rows = cold(f);
    rows.retain(|r| !r.archived && r.path.extension().is_some_and(|e| e == "jsonl"));
    rows.truncate(n);
    assert_eq!(rows.len(), n, "plain rollouts in the fixture");
    rows.into_iter().map(|r| r.path).collect()
}

/// Write one more message at the end of a rollout, with a later modification time.
fn grow(path: &Path, later_secs: u64) {
    let line = r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"agent_message","message":"one more answer"}}"#;
    let mut file = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    writeln!(file, "{line}").unwrap();
    drop(file);
    set_mtime(path, later_secs);
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn a_few_changes_are_saved_beside_a_rows_file_left_as_it_was() {
    let f = fixture(200);
    cached(&f);
    let rows_file = bytes(&f.cache);
    let delta = cache::delta_file(&f.cache);
    assert!(!delta.exists());
    // One session grows, one is deleted, one is new.
    let [grown, gone] = plain_files(&f, 2).try_into().unwrap();
    grow(&grown, 60);
    let new = gone
        .with_file_name("rollout-2026-01-01T00-00-00-0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee.jsonl");
    std::fs::copy(&gone, &new).unwrap();
    std::fs::remove_file(&gone).unwrap();
    let (rows, stats, _) = cached(&f);
    assert_eq!((stats.resumed, stats.rescanned, stats.removed), (1, 1, 1));
    assert_eq!(rows, cold(&f));
    assert_eq!(bytes(&f.cache), rows_file, "the rows file is as it was");
    assert!(delta.is_file(), "the changes are beside it");
    // The next run starts from both and has nothing to read or save.
    let (again, stats, ignored) = cached(&f);
    assert!(ignored.is_none(), "{ignored:?}");
    assert_eq!((stats.reused, stats.bytes_read), (200, 0), "{stats:?}");
    assert!(!stats.changed_cache(), "{stats:?}");
    assert_eq!(again, rows);
    assert!(again.iter().all(|r| r.path != gone));
    let row = again.iter().find(|r| r.path == grown).unwrap();
    assert_eq!(row.size, std::fs::metadata(&grown).unwrap().len());
}

#[test]
fn a_torn_delta_costs_only_the_reading_of_its_sessions() {
    let f = fixture(200);
    cached(&f);
    let grown = plain_file(&f);
    grow(&grown, 60);
    cached(&f);
    let delta = cache::delta_file(&f.cache);
    let mut torn = bytes(&delta);
    let at = torn.len() - 20;
    torn[at] ^= 0x41;
    std::fs::write(&delta, torn).unwrap();
    let (rows, stats, ignored) = cached(&f);
    assert!(
        ignored.is_none(),
        "the rows file itself is whole: {ignored:?}"
    );
    assert_eq!((stats.reused, stats.resumed), (199, 1), "{stats:?}");
    assert_eq!(rows, cold(&f));
    // Cut short.
    let whole = bytes(&delta);
    std::fs::write(&delta, &whole[..whole.len() / 2]).unwrap();
    let (rows, stats, _) = cached(&f);
    assert_eq!((stats.reused, stats.resumed), (199, 1), "{stats:?}");
    assert_eq!(rows, cold(&f));
}

#[test]
fn many_changes_write_the_rows_file_whole_and_an_old_delta_is_passed_over() {
    let f = fixture(200);
    cached(&f);
    let files = plain_files(&f, 40);
    grow(&files[0], 60);
    cached(&f);
    let delta = cache::delta_file(&f.cache);
    let old_delta = bytes(&delta);
    let rows_file = bytes(&f.cache);
    for path in &files {
        grow(path, 120);
    }
    let (rows, stats, _) = cached(&f);
    assert_eq!(stats.resumed, 40);
    assert_eq!(rows, cold(&f));
    assert_ne!(bytes(&f.cache), rows_file, "written whole");
    assert!(!delta.exists(), "the delta is folded in");
    // A delta written against the rows file before (two processes at once, or a crash before
    // the delta was removed) is not applied: its state of the first file is out of date.
    std::fs::write(&delta, old_delta).unwrap();
    let (again, stats, ignored) = cached(&f);
    assert!(ignored.is_none(), "{ignored:?}");
    assert_eq!((stats.reused, stats.bytes_read), (200, 0), "{stats:?}");
    assert_eq!(again, rows);
}

#[test]
fn the_first_rows_are_read_with_the_delta() {
    let (f, dir, file) = indexed(300);
    let grown = plain_file(&f);
    grow(&grown, 3600);
    assert_eq!(indexer_rows(&f, Some(dir.clone())), indexer_rows(&f, None));
    assert!(cache::delta_file(&file).is_file());
    // The first section of the rows file does not know the change; read with the delta, the
    // newest session is the one that grew, as it is now.
    let head = cache::RowCache::head(&file, &f.home);
    assert_eq!(head.len(), cache::HEAD_ROWS);
    let newest = head.file(&head.entries()[0]);
    let now = std::fs::metadata(&grown).unwrap().len();
    assert_eq!((newest.path, newest.size), (grown, now));
    assert_eq!(indexer_rows(&f, Some(dir)), indexer_rows(&f, None));
}

/// The picker's first rows, read from the first section and the delta, join the whole cache
/// (read with the delta too) as they are: each is found by its own path, in its own part of
/// the bytes (the delta's), and changes nothing (a row of the delta once read its path from
/// the first section's bytes: a wrong path, or past their end on a large store, a crash).
#[test]
fn the_first_rows_read_with_the_delta_join_the_whole_cache_as_they_are() {
    let (f, dir, file) = indexed(300);
    for (i, path) in plain_files(&f, 3).iter().enumerate() {
        grow(path, 3600 + i as u64);
    }
    indexer_rows(&f, Some(dir.clone()));
    assert!(cache::delta_file(&file).is_file());
    let head = cache::RowCache::head(&file, &f.home);
    let (mut whole, _) = cache::RowCache::load(&file, &f.home);
    let paths = |rc: &cache::RowCache| -> Vec<(String, u64)> {
        rc.entries()
            .iter()
            .map(|e| {
                (
                    String::from_utf8_lossy(rc.path(e)).into_owned(),
                    e.key().size,
                )
            })
            .collect()
    };
    let before = paths(&whole);
    let from_delta: Vec<Vec<u8>> = head
        .entries()
        .iter()
        .take(3)
        .map(|e| head.path(e).to_vec())
        .collect();
    whole.adopt(head);
    let after = paths(&whole);
    let new: Vec<_> = after.iter().filter(|p| !before.contains(p)).collect();
    assert!(new.is_empty(), "entries the first rows added: {new:?}");
    assert_eq!(after.len(), before.len());
    for path in from_delta {
        let e = whole
            .entries()
            .iter()
            .find(|e| whole.path(e) == path.as_slice());
        let e = e.expect("a grown session is in the whole cache");
        assert!(
            whole.state(e).is_some(),
            "its state decodes from its own bytes"
        );
    }
}
