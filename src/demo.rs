//! The built-in demo store: a dozen sessions of varied shapes, compiled into the binary and laid
//! out on demand in the user's cache folder (never in a Codex home), so `--demo` works from an
//! installed binary. Modification times are set so the newest demo session is minutes old.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::timefmt::{self, Millis};

macro_rules! demo_files {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_bytes!(concat!("../assets/demo/", $path)) as &[u8])),*]
    };
}

/// (path inside the store, bytes).
pub const FILES: &[(&str, &[u8])] = demo_files![
    "session_index.jsonl",
    "archived_sessions/rollout-2026-11-10T10-05-00-019ac006-7e2d-7a41-9c3b-000000000006.jsonl",
    "sessions/rollout-2026-11-15T09-00-00-019ac00d-7e2d-7a41-9c3b-00000000000d.jsonl",
    "sessions/2026/11/12/rollout-2026-11-12T16-20-00-019ac00e-7e2d-7a41-9c3b-00000000000e.jsonl",
    "sessions/2026/11/20/rollout-2026-11-20T09-45-00-019ac007-7e2d-7a41-9c3b-000000000007.jsonl.zst",
    "sessions/2026/11/22/rollout-2026-11-22T15-30-00-019ac00c-7e2d-7a41-9c3b-00000000000c.jsonl",
    "sessions/2026/11/24/rollout-2026-11-24T13-15-00-019ac00a-7e2d-7a41-9c3b-00000000000a.jsonl",
    "sessions/2026/11/25/rollout-2026-11-25T18-02-00-019ac008-7e2d-7a41-9c3b-000000000008.jsonl",
    "sessions/2026/11/26/rollout-2026-11-26T11-20-00-019ac005-7e2d-7a41-9c3b-000000000005.jsonl",
    "sessions/2026/11/27/rollout-2026-11-27T16-40-00-019ac004-7e2d-7a41-9c3b-000000000004.jsonl",
    "sessions/2026/11/28/rollout-2026-11-28T09-12-00-019ac001-7e2d-7a41-9c3b-000000000001.jsonl",
    "sessions/2026/11/29/rollout-2026-11-29T10-00-00-019ac00b-7e2d-7a41-9c3b-00000000000b.jsonl",
    "sessions/2026/11/29/rollout-2026-11-29T14-03-00-019ac002-7e2d-7a41-9c3b-000000000002.jsonl",
    "sessions/2026/11/30/rollout-2026-11-30T08-01-00-019ac003-7e2d-7a41-9c3b-000000000003.jsonl",
    "sessions/2026/11/30/rollout-2026-11-30T09-30-00-019ac009-7e2d-7a41-9c3b-000000000009.jsonl",
];

/// The newest demo file name's time; files are dated relative to it.
const NEWEST: &str = "2026-11-30T09:30:00Z";

/// The age a demo file is given: its file-name time before [`NEWEST`], plus a few minutes.
fn age_of(path: &str) -> Millis {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stamp = name.get(8..27).map(|s| {
        let (date, time) = s.split_at(10);
        format!("{date}{}Z", time.replace('-', ":"))
    });
    let newest = timefmt::parse_rfc3339(NEWEST).unwrap_or(0);
    let then = stamp
        .as_deref()
        .and_then(timefmt::parse_rfc3339)
        .unwrap_or(newest);
    (newest - then).max(0) + 7 * 60_000
}

/// Lay the demo store out under `cache_dir` and return its Codex home.
pub fn materialize(cache_dir: &Path) -> io::Result<PathBuf> {
    let home = cache_dir.join(format!("demo-{}", env!("CARGO_PKG_VERSION")));
    let now = SystemTime::now();
    for (rel, bytes) in FILES {
        let path = home.join(rel);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        fs::write(&tmp, bytes)?;
        let age = Duration::from_millis(u64::try_from(age_of(rel)).unwrap_or(0));
        let file = fs::File::options().write(true).open(&tmp)?;
        file.set_modified(now.checked_sub(age).unwrap_or(now))?;
        drop(file);
        fs::rename(&tmp, &path)?;
    }
    Ok(home)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_follow_file_names() {
        let file = |id: &str| FILES.iter().find(|f| f.0.contains(id)).unwrap().0;
        assert_eq!(age_of(file("000000000009")), 7 * 60_000);
        assert_eq!(age_of(file("000000000003")), (89 + 7) * 60_000);
    }
}
