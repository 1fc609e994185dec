use std::path::PathBuf;

use super::*;

fn file(path: &str, size: u64, mtime_ms: i64) -> RolloutFile {
    RolloutFile {
        path: PathBuf::from(path),
        archived: false,
        compressed: false,
        size,
        mtime_ms,
    }
}

fn walk() -> Vec<RolloutFile> {
    vec![
        file("/h/sessions/2026/01/01/rollout-a.jsonl", 100, 1_000),
        file("/h/sessions/2026/01/02/rollout-b.jsonl", 200, 2_000),
        file("/h/sessions/2026/01/03/rollout-c.jsonl", 300, 3_000),
    ]
}

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().to_path_buf();
    (dir, Store { home })
}

#[test]
fn a_walk_in_another_order_has_the_same_fingerprint() {
    let (_dir, store) = store();
    let files = walk();
    let mut reversed = files.clone();
    reversed.reverse();
    assert_eq!(
        Fingerprint::of(&store, true, &files, &[]),
        Fingerprint::of(&store, true, &reversed, &[])
    );
}

/// A change made to a walk.
type Change = fn(&mut Vec<RolloutFile>);

#[test]
fn any_change_a_listing_could_show_changes_the_fingerprint() {
    let (_dir, store) = store();
    let files = walk();
    let base = Fingerprint::of(&store, true, &files, &[]);
    let changed: [(&str, Change); 7] = [
        ("a file grew", |f| f[1].size += 1),
        ("a file was touched", |f| f[2].mtime_ms += 1),
        ("a file was renamed", |f| {
            f[0].path = PathBuf::from("/h/sessions/2026/01/01/rollout-d.jsonl");
        }),
        ("a file was archived", |f| f[0].archived = true),
        ("a file was compressed", |f| f[0].compressed = true),
        ("a file was deleted", |f| {
            f.remove(1);
        }),
        ("a file was added", |f| {
            f.push(file("/h/x/rollout-e.jsonl", 1, 1));
        }),
    ];
    for (what, change) in changed {
        let mut other = files.clone();
        change(&mut other);
        assert_ne!(base, Fingerprint::of(&store, true, &other, &[]), "{what}");
    }
    // Two changes that cancel in a plain sum of sizes still differ.
    let mut swapped = files.clone();
    swapped[0].size += 1;
    swapped[1].size -= 1;
    assert_ne!(base, Fingerprint::of(&store, true, &swapped, &[]));
    let issue = FileIssue {
        path: PathBuf::from("/h/sessions/2026"),
        reason: "cannot read folder".into(),
    };
    assert_ne!(base, Fingerprint::of(&store, true, &files, &[issue]));
    assert_ne!(base, Fingerprint::of(&store, false, &files, &[]));
}

#[test]
fn a_renamed_session_changes_the_fingerprint() {
    let (_dir, store) = store();
    let files = walk();
    let before = Fingerprint::of(&store, true, &files, &[]);
    let index = store.home.join("session_index.jsonl");
    std::fs::write(&index, "{\"id\":\"a\",\"thread_name\":\"one\"}\n").unwrap();
    let named = Fingerprint::of(&store, true, &files, &[]);
    assert_ne!(before, named);
    std::fs::write(&index, "{\"id\":\"a\",\"thread_name\":\"two\"}\n").unwrap();
    let when = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(&index)
        .unwrap()
        .set_modified(when)
        .unwrap();
    assert_ne!(named, Fingerprint::of(&store, true, &files, &[]));
}

#[test]
fn a_saved_memo_gives_back_its_output_for_its_own_walk_only() {
    let (dir, store) = store();
    let memo_file = dir.path().join("cache").join("list-1.cache");
    let files = walk();
    let fingerprint = Fingerprint::of(&store, true, &files, &[]);
    let stdout = b"{\"id\":\"a\"}\n{\"id\":\"b\"}\n";
    let stderr = b"codex-picker: /h/x: not a session\n";
    save(&memo_file, &fingerprint, stderr, stdout).unwrap();
    let memo = Memo::load(&memo_file).expect("a memo");
    assert!(memo.made_from(&fingerprint));
    assert_eq!(memo.stdout(), stdout);
    assert_eq!(memo.stderr(), stderr);
    let mut grown = files.clone();
    grown[0].size += 10;
    assert!(!memo.made_from(&Fingerprint::of(&store, true, &grown, &[])));
}

#[test]
fn a_damaged_memo_is_not_used() {
    let (dir, store) = store();
    let memo_file = dir.path().join("list-2.cache");
    let fingerprint = Fingerprint::of(&store, true, &walk(), &[]);
    save(&memo_file, &fingerprint, b"", b"{\"id\":\"a\"}\n").unwrap();
    let mut bytes = std::fs::read(&memo_file).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x20;
    std::fs::write(&memo_file, &bytes).unwrap();
    assert!(Memo::load(&memo_file).is_none(), "a flipped byte is caught");
    std::fs::write(&memo_file, &bytes[..bytes.len() / 2]).unwrap();
    assert!(Memo::load(&memo_file).is_none(), "a cut file is caught");
    assert!(Memo::load(&dir.path().join("none.cache")).is_none());
}

#[test]
fn first_lines_cuts_after_the_nth_line_end() {
    let text = b"a\nbb\nccc\n";
    assert_eq!(first_lines(text, 0), b"");
    assert_eq!(first_lines(text, 1), b"a\n");
    assert_eq!(first_lines(text, 2), b"a\nbb\n");
    assert_eq!(first_lines(text, 3), text);
    assert_eq!(first_lines(text, 9), text);
}
