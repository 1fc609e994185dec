//! Which sessions another codex has open. Since 0.147 a running codex (its TUI's shared
//! app-server, `codex exec`, an IDE's app-server) holds an exclusive `flock` on
//! `<home>/thread-writer-locks/<thread id>.lock` for each thread it has loaded. On Linux,
//! `/proc/locks` names the holder of every lock by the locked file's device and inode; this
//! module reads the lock folder once and `/proc/locks` once per [`read`], and says which
//! thread ids are held, by which pid and by what kind of codex (from the holder's command
//! line). Elsewhere the holder cannot be read without taking the lock, so it is
//! [`Snapshot::NotShown`].
//!
//! It never opens a lock file, let alone locks one: taking the lock, even for a moment, can make
//! the user's own `codex resume` fail with "already has an active writer".

use std::collections::HashMap;
use std::path::Path;

use super::Store;

/// The folder under the Codex home that holds the thread locks.
#[cfg(target_os = "linux")]
pub(crate) const LOCK_DIR: &str = "thread-writer-locks";

/// What kind of codex holds a thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HolderKind {
    /// The app-server the 0.171 TUI starts and shares (`codex app-server --managed-daemon`):
    /// it keeps a thread loaded after the window that opened it has closed, so a thread it
    /// holds may or may not be open in a window.
    SharedAppServer,
    /// A `codex exec` run.
    Exec,
    /// Any other process (a codex TUI of an older release, an IDE's app-server, ...).
    Codex,
    /// A Claude Code process (its `sessions/<pid>.json` names the session).
    Claude,
}

/// The process holding a thread's lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holder {
    pub pid: u32,
    pub kind: HolderKind,
}

impl Holder {
    /// "open in codex, pid 42", "open in codex exec, pid 42", "loaded in codex's app-server,
    /// pid 42".
    pub fn describe(self) -> String {
        let pid = self.pid;
        match self.kind {
            HolderKind::SharedAppServer => format!("loaded in codex's app-server, pid {pid}"),
            HolderKind::Exec => format!("open in codex exec, pid {pid}"),
            HolderKind::Codex => format!("open in codex, pid {pid}"),
            HolderKind::Claude => format!("open in Claude Code, pid {pid}"),
        }
    }

    /// "another codex (pid 42)", "codex exec (pid 42)", "codex's app-server (pid 42)": what
    /// a question before acting names.
    pub fn who(self) -> String {
        let pid = self.pid;
        match self.kind {
            HolderKind::SharedAppServer => format!("loaded in codex's app-server (pid {pid})"),
            HolderKind::Exec => format!("open in codex exec (pid {pid})"),
            HolderKind::Codex => format!("open in another codex (pid {pid})"),
            HolderKind::Claude => format!("open in Claude Code (pid {pid})"),
        }
    }
}

/// The held threads of a store at one moment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Held {
    by_id: HashMap<String, Holder>,
}

impl Held {
    /// The holder of thread `id`, when another process has it open.
    pub fn holder(&self, id: &str) -> Option<Holder> {
        self.by_id.get(id).copied()
    }

    /// How many threads are held.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// `held` as given (tests, and what a platform without `/proc/locks` would build).
    pub fn from_pairs(held: impl IntoIterator<Item = (String, Holder)>) -> Held {
        Held {
            by_id: held.into_iter().collect(),
        }
    }
}

/// What can be said about the store's thread locks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Snapshot {
    Shown(Held),
    /// This system does not say who holds a lock (or `/proc/locks` cannot be read): why.
    NotShown(String),
}

impl Snapshot {
    /// The holder of thread `id`, when known to be held.
    pub fn holder(&self, id: &str) -> Option<Holder> {
        match self {
            Snapshot::Shown(held) => held.holder(id),
            Snapshot::NotShown(_) => None,
        }
    }
}

/// A lock's file, as `/proc/locks` names it: (device major, device minor, inode).
#[cfg(any(target_os = "linux", test))]
type FileKey = (u32, u32, u64);

/// The held threads of the store at `home`: one read of its lock folder and, when it holds a
/// lock file, one read of `/proc/locks`, plus each holder's command line.
/// The sessions open elsewhere in `store`: Codex's threads by their locks, Claude Code's by
/// its process files (which say so on every system).
pub(crate) fn read(store: &Store) -> Snapshot {
    let mut snapshot = read_codex(&store.home);
    if let (Some(claude), Snapshot::Shown(held)) = (&store.claude, &mut snapshot) {
        for (id, pid) in crate::sources::claude::open::open_sessions(claude) {
            let kind = HolderKind::Claude;
            held.by_id.entry(id).or_insert(Holder { pid, kind });
        }
    }
    snapshot
}

#[cfg(target_os = "linux")]
fn read_codex(home: &Path) -> Snapshot {
    let files = lock_files(&home.join(LOCK_DIR));
    if files.is_empty() {
        return Snapshot::Shown(Held::default());
    }
    let table = match std::fs::read("/proc/locks") {
        Ok(bytes) => bytes,
        Err(e) => return Snapshot::NotShown(format!("/proc/locks cannot be read: {e}")),
    };
    let holders = parse_proc_locks(&String::from_utf8_lossy(&table));
    let mut kinds: HashMap<u32, HolderKind> = HashMap::new();
    let by_id = files
        .into_iter()
        .filter_map(|(id, key)| {
            let pid = *holders.get(&key)?;
            let kind = *kinds.entry(pid).or_insert_with(|| kind_of_pid(pid));
            Some((id, Holder { pid, kind }))
        })
        .collect();
    Snapshot::Shown(Held { by_id })
}

/// Other systems: who holds a lock is not shown.
#[cfg(not(target_os = "linux"))]
fn read_codex(_home: &Path) -> Snapshot {
    Snapshot::NotShown("this system does not say which process holds a lock".to_owned())
}

/// Each `<thread id>.lock` regular file of `dir` and its device and inode (read from the
/// folder entry's metadata, never by opening the file). A folder that is not there holds none.
#[cfg(target_os = "linux")]
fn lock_files(dir: &Path) -> Vec<(String, FileKey)> {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let name = entry.file_name();
            let id = name.to_str()?.strip_suffix(".lock")?;
            if id.is_empty() {
                return None;
            }
            // Not followed: a link could name any file somebody else has locked.
            let meta = std::fs::symlink_metadata(entry.path()).ok()?;
            if !meta.file_type().is_file() {
                return None;
            }
            let dev = meta.dev();
            Some((
                id.to_owned(),
                (libc::major(dev), libc::minor(dev), meta.ino()),
            ))
        })
        .collect()
}

/// The holder's kind, from its command line (a process that has ended, or whose command line
/// cannot be read, is taken for a codex).
#[cfg(target_os = "linux")]
fn kind_of_pid(pid: u32) -> HolderKind {
    std::fs::read(format!("/proc/{pid}/cmdline")).map_or(HolderKind::Codex, |c| kind_of(&c))
}

/// The kind of codex a command line (NUL-separated arguments) runs.
#[cfg(any(target_os = "linux", test))]
pub(crate) fn kind_of(cmdline: &[u8]) -> HolderKind {
    let args: Vec<&[u8]> = cmdline
        .split(|&b| b == 0)
        .filter(|a| !a.is_empty())
        .collect();
    if args.iter().any(|a| *a == b"--managed-daemon") {
        HolderKind::SharedAppServer
    } else if args.iter().skip(1).any(|a| *a == b"exec") {
        HolderKind::Exec
    } else {
        HolderKind::Codex
    }
}

/// The holder's pid of every lock in `/proc/locks` text, by the locked file. Lines of processes
/// waiting for a lock (`->`) are not holders; a pid the reader cannot see (0 or negative: a
/// holder in another pid namespace) is left out, as it cannot be named.
///
/// ```text
/// 1: FLOCK  ADVISORY  WRITE 10412 fe:00:10043546 0 EOF
/// 2: -> FLOCK  ADVISORY  WRITE 10500 fe:00:10043546 0 EOF
/// ```
#[cfg(any(target_os = "linux", test))]
pub(crate) fn parse_proc_locks(text: &str) -> HashMap<FileKey, u32> {
    let mut holders = HashMap::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        // "N:", then the class, unless the line is a waiter's ("->").
        if words.next().is_none() {
            continue;
        }
        let Some(class) = words.next() else { continue };
        if class == "->" {
            continue;
        }
        // class, kind (ADVISORY/MANDATORY), mode (READ/WRITE), pid, file.
        let (Some(_kind), Some(_mode), Some(pid), Some(file)) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            continue;
        };
        let Some(pid) = pid.parse::<i64>().ok().and_then(|p| u32::try_from(p).ok()) else {
            continue;
        };
        if pid == 0 {
            continue;
        }
        if let Some(key) = parse_file(file) {
            holders.entry(key).or_insert(pid);
        }
    }
    holders
}

/// `fe:00:10043546`: the major and minor device numbers in hex, the inode in decimal.
#[cfg(any(target_os = "linux", test))]
fn parse_file(word: &str) -> Option<FileKey> {
    let mut parts = word.split(':');
    let major = u32::from_str_radix(parts.next()?, 16).ok()?;
    let minor = u32::from_str_radix(parts.next()?, 16).ok()?;
    let inode = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some((major, minor, inode))
}

#[cfg(test)]
#[path = "locks_tests.rs"]
mod tests;
