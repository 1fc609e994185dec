use super::*;

#[test]
fn a_file_gone_after_the_listing_is_an_issue_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rollout-2025-01-01T00-00-00-x.jsonl");
    let listed = RolloutFile::listed(path.clone(), false);
    let issue = listed.look().unwrap_err();
    assert_eq!(issue.path, path);
    let Problem::Io { kind, message } = &issue.problem else {
        panic!("an io problem: {:?}", issue.problem);
    };
    assert_eq!(*kind, std::io::ErrorKind::NotFound);
    assert!(
        message.starts_with("IO error for operation on"),
        "{message}"
    );
}

#[test]
fn listing_is_newest_name_first_with_plain_twins_winning() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = dir.path().join("sessions");
    let names = [
        "2025/01/02/rollout-2025-01-02T09-00-00-b.jsonl",
        "2025/01/02/rollout-2025-01-02T09-00-00-b.jsonl.zst",
        "2025/01/01/rollout-2025-01-01T10-00-00-a.jsonl.zst",
        "2025/02/01/rollout-2025-02-01T08-00-00-c.jsonl",
        "2025/02/01/notes.txt",
    ];
    for name in names {
        let path = sessions.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, b"{}\n").unwrap();
    }
    let (listed, issues) = list_rollouts(&sessions, None);
    assert!(issues.is_empty(), "{issues:?}");
    let got: Vec<String> = listed
        .iter()
        .map(|l| {
            l.path
                .strip_prefix(&sessions)
                .unwrap()
                .display()
                .to_string()
        })
        .collect();
    assert_eq!(got, [names[3], names[0], names[2]]);
    assert!(listed[2].compressed && !listed[1].compressed);
}

#[test]
fn rollouts_in_nested_and_look_alike_folders_come_out_in_path_order() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = dir.path().join("sessions");
    // Files beside a subfolder with files, and a folder whose name extends another's:
    // laid end to end folder by folder, these would interleave.
    let names = [
        "2025/rollout-z.jsonl",
        "2025/01/rollout-a.jsonl",
        "2025/01/rollout-b.jsonl",
        "2025/01/02/rollout-c.jsonl",
        "2025-x/rollout-d.jsonl",
        "2025.x/rollout-e.jsonl",
        "2026/rollout-f.jsonl",
    ];
    for name in names {
        let path = sessions.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, b"{}\n").unwrap();
    }
    let mut want: Vec<PathBuf> = names.iter().map(|n| sessions.join(n)).collect();
    want.sort_by(|a, b| path_bytes(b).cmp(path_bytes(a)));
    for look in [true, false] {
        let (found, issues) = walk(&sessions, None, look);
        assert!(issues.is_empty(), "{issues:?}");
        let got: Vec<PathBuf> = found.into_iter().map(|f| f.path).collect();
        assert_eq!(got, want, "look: {look}");
    }
}

#[test]
fn folders_that_interleave_laid_end_to_end_are_sorted_whole() {
    let file = |p: &str| RolloutFile::listed(PathBuf::from(p), false);
    // A folder's files on both sides of its subfolder's, each folder in order.
    let found = Found::default();
    found.add(vec![
        Ok(file("/s/a/rollout-1.jsonl")),
        Ok(file("/s/a/rollout-9.jsonl")),
    ]);
    found.add(vec![Ok(file("/s/a/rollout-5x/rollout-0.jsonl"))]);
    found.add(vec![Ok(file("/s/b/rollout-2.jsonl"))]);
    let (files, issues) = found.sorted();
    assert!(issues.is_empty());
    let got: Vec<&str> = files.iter().map(|f| f.path.to_str().unwrap()).collect();
    assert_eq!(
        got,
        [
            "/s/b/rollout-2.jsonl",
            "/s/a/rollout-9.jsonl",
            "/s/a/rollout-5x/rollout-0.jsonl",
            "/s/a/rollout-1.jsonl",
        ]
    );
}

#[test]
fn walk_reads_sizes_reports_odd_entries_and_keeps_archived_flat() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = dir.path().join("sessions");
    let archived = dir.path().join("archived_sessions");
    let files = [
        (sessions.join("2025/01/01/rollout-a.jsonl"), 3),
        (
            sessions.join("2025/01/01/rollout-odd.jsonl/rollout-inner.jsonl"),
            5,
        ),
        (archived.join("rollout-b.jsonl.zst"), 7),
        (archived.join("deeper/rollout-c.jsonl"), 9),
    ];
    for (path, len) in &files {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, vec![b'x'; *len]).unwrap();
    }
    std::os::unix::fs::symlink(
        "rollout-a.jsonl",
        sessions.join("2025/01/01/rollout-l.jsonl"),
    )
    .unwrap();
    let (found, issues) = find_rollouts(&sessions, Some(&archived));
    let got: Vec<(PathBuf, u64, bool, bool)> = found
        .into_iter()
        .map(|f| (f.path, f.size, f.archived, f.compressed))
        .collect();
    assert_eq!(
        got,
        [
            (files[1].0.clone(), 5, false, false),
            (files[0].0.clone(), 3, false, false),
            (files[2].0.clone(), 7, true, true),
        ]
    );
    let problems: Vec<(PathBuf, Problem)> = issues
        .iter()
        .map(|i| (i.path.clone(), i.problem.clone()))
        .collect();
    assert_eq!(
        problems,
        [
            (
                sessions.join("2025/01/01/rollout-l.jsonl"),
                Problem::Symlink
            ),
            (
                files[1].0.parent().unwrap().to_path_buf(),
                Problem::NotAFile
            ),
        ]
    );
    assert_eq!(problems[0].1.to_string(), "symbolic link, not followed");
    assert_eq!(problems[1].1.to_string(), "not a regular file");
}

#[test]
fn looking_through_the_folder_reads_what_a_plain_metadata_call_reads() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = dir.path().join("sessions");
    let day = sessions.join("2025/01/01");
    std::fs::create_dir_all(&day).unwrap();
    for (i, secs) in [0u64, 1, 1_700_000_000].iter().enumerate() {
        let path = day.join(format!("rollout-{i}.jsonl"));
        std::fs::write(&path, vec![b'x'; i * 7 + 1]).unwrap();
        let t = UNIX_EPOCH + std::time::Duration::from_millis(secs * 1000 + 123);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }
    let (found, issues) = find_rollouts(&sessions, None);
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(found.len(), 3);
    for f in found {
        let meta = std::fs::symlink_metadata(&f.path).unwrap();
        assert_eq!((f.size, f.mtime_ms), (meta.len(), mtime_ms(&meta)), "{f:?}");
    }
}
