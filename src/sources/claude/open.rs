//! Which Claude Code sessions a running Claude Code has open: each process writes
//! `<claude home>/sessions/<pid>.json` naming its `sessionId`; a file whose process is gone is
//! left behind by a crash and says nothing. Read only: nothing here opens a session or locks.

use std::path::Path;

/// The session id and pid of every live Claude Code process's session under `claude_home`.
pub fn open_sessions(claude_home: &Path) -> Vec<(String, u32)> {
    let Ok(entries) = std::fs::read_dir(claude_home.join("sessions")) else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let name = entry.file_name();
            let pid: u32 = name.to_str()?.strip_suffix(".json")?.parse().ok()?;
            let id = session_of(&std::fs::read(entry.path()).ok()?)?;
            alive(pid).then_some((id, pid))
        })
        .collect()
}

/// The `sessionId` a process file names.
fn session_of(bytes: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Process {
        #[serde(rename = "sessionId")]
        session_id: Option<String>,
    }
    let process: Process = serde_json::from_slice(bytes).ok()?;
    process.session_id.filter(|id| !id.is_empty())
}

/// The process runs (a signal 0 reaches it, or it exists under another user).
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 sends nothing; kill only checks that the process exists.
    let sent = unsafe { libc::kill(pid, 0) };
    sent == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_process_names_its_session_and_a_dead_one_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let sessions = dir.path().join("sessions");
        std::fs::create_dir(&sessions).unwrap();
        let me = std::process::id();
        let write = |name: String, id: &str| {
            let body = format!(r#"{{"pid":1,"sessionId":"{id}","cwd":"/w","kind":"interactive"}}"#);
            std::fs::write(sessions.join(name), body).unwrap();
        };
        write(format!("{me}.json"), "live-session");
        // No process has pid 2^22 + 1 (above Linux's largest pid).
        write("4194305.json".into(), "dead-session");
        write("notes.json".into(), "no-pid");
        std::fs::write(sessions.join("7.json"), "not json").unwrap();
        assert_eq!(
            open_sessions(dir.path()),
            vec![("live-session".to_owned(), me)]
        );
    }
}
