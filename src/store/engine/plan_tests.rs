use super::*;
use crate::store::cache::{Key, RecordRef, Stamp};
use std::path::PathBuf;

fn walked(path: &str, size: u64) -> RolloutFile {
    RolloutFile {
        path: PathBuf::from(path),
        archived: false,
        compressed: false,
        size,
        mtime_ms: 5,
        source: crate::sources::Source::Codex,
    }
}

fn ask(lines: bool, states: bool) -> Ask<'static> {
    Ask {
        until: Until::End,
        archived: true,
        lines,
        states,
        sent: &[],
        whole: false,
        tapped: &[],
    }
}

/// A receiver that reads the cached states itself is handed each unchanged session whose state
/// is a whole pass, unless it is a fork (its row depends on its parent's file); the others are
/// settled, and a listing that reads no states settles every session without a line.
#[test]
fn a_run_that_reads_the_states_keeps_the_unchanged_whole_sessions_that_are_not_forks() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rows.cache");
    let key = |fork, complete| Key {
        size: 10,
        mtime_ms: 5,
        session: true,
        fork,
        complete,
        ..Key::default()
    };
    // In path order: whole, a fork, a part read, whole but grown since, whole with a line.
    let cached = [
        ("/s/a", key(false, true), &b""[..]),
        ("/s/b", key(true, true), b""),
        ("/s/c", key(false, false), b""),
        ("/s/d", key(false, true), b""),
        ("/s/e", key(false, true), b"{}"),
    ];
    let records: Vec<(RecordRef, bool)> = cached
        .iter()
        .map(|&(path, key, line)| {
            let record = RecordRef {
                path: path.as_bytes(),
                key,
                state: b"",
                id: b"x",
                line,
            };
            (record, false)
        })
        .collect();
    cache::save(&file, &RowCache::empty(home.path()), Stamp(1), &records).unwrap();
    let (rc, _) = RowCache::load(&file, home.path());
    assert_eq!(rc.len(), 5);
    // The walk: newest name first, the fourth grown since.
    let files = [
        walked("/s/e", 10),
        walked("/s/d", 20),
        walked("/s/c", 10),
        walked("/s/b", 10),
        walked("/s/a", 10),
    ];
    let kept = |lines, states| {
        let mut kept = plan(&files, &rc, &ask(lines, states)).kept;
        kept.sort_unstable();
        kept
    };
    assert_eq!(kept(false, true), [(0, 4), (4, 0)], "/s/e and /s/a");
    assert_eq!(kept(true, false), [(0, 4)], "the line of /s/e only");
    assert_eq!(kept(true, true), [(0, 4), (4, 0)]);
    assert!(kept(false, false).is_empty());
    let work = plan(&files, &rc, &ask(false, true));
    let mut todo: Vec<usize> = work.todo.iter().map(|t| t.file).collect();
    todo.sort_unstable();
    assert_eq!(todo, [1, 2, 3], "grown, part read, fork");
}
