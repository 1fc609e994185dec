//! Time from launching the picker to what a person sees: its first session row, or its status
//! line counting every session. The release binary runs in a tmux pane (a private tmux server,
//! started beforehand like the terminal a user already has open), and the pane is read until the
//! text looked for is drawn. Skipped when tmux is not installed.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How often the pane is read.
const POLL: Duration = Duration::from_millis(5);

/// The private tmux server of this benchmark run.
struct Server(String);

impl Server {
    fn tmux(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.args(["-L", &self.0])
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        cmd
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}

/// What to wait for on screen.
#[derive(Clone, Copy)]
pub enum Until<'a> {
    /// A row with the selection marker.
    FirstRow,
    /// This text (the status line's count of every session, say).
    Text(&'a str),
}

/// Launch -> `until` on screen, `runs` times; `None` when tmux is missing or a run never
/// showed it within 10 s. `cache` is the cache folder, or `None` for `--no-cache`; `args` are
/// more command-line arguments. The pane's folder is `cwd`, outside the store (so the scope is
/// every folder).
pub fn shown(
    bin: &Path,
    store: &Path,
    cache: Option<&Path>,
    cwd: &Path,
    runs: usize,
    until: Until,
    args: &str,
) -> Option<Vec<Duration>> {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let server = Server(format!("codex-picker-bench-{}-{call}", std::process::id()));
    let keeper = server
        .tmux()
        .args(["new", "-d", "-s", "keep", "sleep 3600"])
        .status()
        .ok()?;
    if !keeper.success() {
        return None;
    }
    let mut times = Vec::new();
    for _ in 0..runs {
        let (claude_env, claude_args) = super::sources::shell(store);
        let mut cmd = format!(
            "{claude_env} exec {} --no-config --codex-home '{}' {claude_args} {args}",
            bin.display(),
            store.display()
        );
        match cache {
            Some(dir) => cmd = format!("XDG_CACHE_HOME='{}' {cmd}", dir.display()),
            None => cmd.push_str(" --no-cache"),
        }
        let start = Instant::now();
        let ok = server
            .tmux()
            .args(["new", "-d", "-s", "run", "-x", "120", "-y", "40", "-c"])
            .arg(cwd)
            .arg(&cmd)
            .status()
            .ok()?
            .success();
        if !ok {
            return None;
        }
        let mut seen = None;
        while start.elapsed() < Duration::from_secs(10) {
            let out = server
                .tmux()
                .args(["capture-pane", "-p", "-t", "run"])
                .output()
                .ok()?;
            let screen = String::from_utf8_lossy(&out.stdout);
            let drawn = match until {
                Until::FirstRow => screen.contains('▶'),
                Until::Text(text) => screen.contains(text),
            };
            if drawn {
                seen = Some(start.elapsed());
                break;
            }
            // Each look starts a tmux client, which takes a core from the picker for a moment:
            // looked for every millisecond, a cold picker took visibly longer to list every row.
            // Every 5 ms costs little, and makes the figure late by 2.5 ms on average.
            std::thread::sleep(POLL);
        }
        let _ = server.tmux().args(["kill-session", "-t", "run"]).status();
        times.push(seen?);
        // Let the killed picker's threads go before the next launch.
        std::thread::sleep(Duration::from_millis(300));
    }
    Some(times)
}
