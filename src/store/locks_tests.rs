use super::*;

const TABLE: &str = "\
1: FLOCK  ADVISORY  WRITE 10412 fe:00:10043546 0 EOF
1: -> FLOCK  ADVISORY  WRITE 10500 fe:00:10043546 0 EOF
2: POSIX  ADVISORY  READ 9643 fe:00:10044478 128 128
3: OFDLCK ADVISORY  WRITE -1 08:01:77 0 EOF
4: FLOCK  ADVISORY  WRITE 0 08:01:78 0 EOF
5: FLOCK  ADVISORY  WRITE 77 103:1a:5 0 EOF
garbage
6: FLOCK ADVISORY WRITE 78 zz:00:5 0 EOF
";

#[test]
fn proc_locks_names_each_holder_by_device_and_inode() {
    let holders = parse_proc_locks(TABLE);
    assert_eq!(holders.get(&(0xfe, 0, 10_043_546)), Some(&10412));
    assert_eq!(holders.get(&(0xfe, 0, 10_044_478)), Some(&9643));
    // Device numbers are hex.
    assert_eq!(holders.get(&(0x103, 0x1a, 5)), Some(&77));
    // Pids the reader cannot see are left out; so are waiters and lines that do not parse.
    assert_eq!(holders.get(&(8, 1, 77)), None);
    assert_eq!(holders.get(&(8, 1, 78)), None);
    assert_eq!(holders.len(), 3);
    assert!(!holders.values().any(|&p| p == 10500));
}

#[test]
fn the_holder_kind_comes_from_its_command_line() {
    let daemon = b"/home/u/.codex/packages/app-server-daemon/releases/0.171.0/bin/codex\0app-server\0--listen\0unix://\0--managed-daemon\0";
    assert_eq!(kind_of(daemon), HolderKind::SharedAppServer);
    assert_eq!(
        kind_of(b"/usr/bin/codex\0exec\0fix the tests\0"),
        HolderKind::Exec
    );
    assert_eq!(
        kind_of(b"/usr/bin/codex\0resume\x00019a\0"),
        HolderKind::Codex
    );
    // An exec whose prompt is "exec" is still an exec; a program named exec is not.
    assert_eq!(kind_of(b"exec\0"), HolderKind::Codex);
    assert_eq!(kind_of(b""), HolderKind::Codex);
}

#[test]
fn what_the_picker_says_of_each_holder() {
    let holder = |kind| Holder { pid: 42, kind };
    assert_eq!(
        holder(HolderKind::Codex).describe(),
        "open in codex, pid 42"
    );
    assert_eq!(
        holder(HolderKind::Exec).who(),
        "open in codex exec (pid 42)"
    );
    assert_eq!(
        holder(HolderKind::SharedAppServer).describe(),
        "loaded in codex's app-server, pid 42"
    );
    assert_eq!(
        holder(HolderKind::Codex).who(),
        "open in another codex (pid 42)"
    );
}

#[cfg(target_os = "linux")]
mod linux {
    use super::*;
    use std::os::fd::AsRawFd;

    const HELD: &str = "01a23b78-fe51-7103-b02b-7ea9ff06c8f1";
    const FREE: &str = "01a23b79-1d38-7852-9b32-9eb167411a12";

    /// A lock folder with a held and a free lock file, plus things that are not lock files.
    fn home_with_locks() -> (tempfile::TempDir, std::fs::File) {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join(LOCK_DIR);
        std::fs::create_dir(&dir).unwrap();
        for name in [
            format!("{HELD}.lock"),
            format!("{FREE}.lock"),
            "notes".into(),
        ] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        std::fs::create_dir(dir.join("folder.lock")).unwrap();
        // A link to the held file is not a lock file of its own.
        std::os::unix::fs::symlink(dir.join(format!("{HELD}.lock")), dir.join("link.lock"))
            .unwrap();
        let file = std::fs::File::open(dir.join(format!("{HELD}.lock"))).unwrap();
        // SAFETY: flock on a descriptor this test owns and keeps open.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        assert_eq!(rc, 0, "flock: {}", std::io::Error::last_os_error());
        (home, file)
    }

    #[test]
    fn a_held_lock_is_found_with_its_holder_and_a_free_one_is_not() {
        let (home, _lock) = home_with_locks();
        let Snapshot::Shown(held) = read(&Store::codex(home.path().to_path_buf())) else {
            panic!("/proc/locks should be readable on Linux");
        };
        let me = std::process::id();
        assert_eq!(held.holder(HELD).map(|h| h.pid), Some(me));
        assert_eq!(held.holder(FREE), None);
        assert_eq!(held.len(), 1, "{held:?}");
    }

    #[test]
    fn released_locks_and_a_missing_folder_hold_nothing() {
        let (home, lock) = home_with_locks();
        drop(lock);
        assert_eq!(
            read(&Store::codex(home.path().to_path_buf())),
            Snapshot::Shown(Held::default())
        );
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(
            read(&Store::codex(empty.path().to_path_buf())),
            Snapshot::Shown(Held::default())
        );
    }
}
