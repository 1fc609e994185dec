use super::*;
use std::path::{Path, PathBuf};

const ID: &str = "01a23b78-e12d-71f3-94ef-3af408e0c477";

/// A stand-in `codex` whose `app-server` runs `body` (a shell script reading its stdin), with
/// `$LOG` the file it may write to. The script is given to `sh -c`, not written to a file and
/// run: a file just written can be busy for `exec` while a test beside it forks.
fn stand_in(dir: &Path, body: &str) -> (Command, PathBuf) {
    let log = dir.join("log");
    let script = format!(
        "LOG='{}'\n[ \"$1\" = app-server ] || exit 3\n{body}\n",
        log.display()
    );
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c").arg(script).arg("codex");
    (cmd, log)
}

/// Answers as codex 0.171 does: the initialize result, a notification, the result, then the
/// name it stored (white space trimmed); every line it reads is logged.
const ANSWERS: &str = r#"
while IFS= read -r line; do
  printf '%s\n' "$line" >> "$LOG"
  case "$line" in
  *'"initialize"'*) echo '{"id":0,"result":{"userAgent":"stand-in"}}' ;;
  *'thread/name/set'*)
    echo 'not json'
    echo '{"method":"configWarning","params":{"summary":"no bubblewrap"}}'
    echo '{"id":1,"result":{}}'
    echo '{"method":"thread/name/updated","params":{"threadId":"01a23b78-e12d-71f3-94ef-3af408e0c477","threadName":"release notes"}}' ;;
  esac
done
echo ended >> "$LOG"
"#;

/// The name set, or the error's message as the user reads it.
fn run(cmd: Command, name: &str, limit: Duration) -> Result<String, String> {
    set_thread_name(cmd, ID, name, limit, &InFlight::default()).map_err(|e| e.to_string())
}

#[test]
fn the_name_is_asked_for_as_codex_expects_and_its_stored_name_returned() {
    let dir = tempfile::tempdir().unwrap();
    let (script, log) = stand_in(dir.path(), ANSWERS);
    let stored = run(script, "  release notes ", Duration::from_secs(20));
    assert_eq!(stored.as_deref(), Ok("release notes"));

    let log = std::fs::read_to_string(log).unwrap();
    let lines: Vec<Value> = log
        .lines()
        .filter(|l| *l != "ended")
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{log}");
    assert_eq!(lines[0]["method"], "initialize");
    assert_eq!(lines[0]["id"], 0);
    assert_eq!(lines[0]["params"]["clientInfo"]["name"], "codex-picker");
    assert_eq!(lines[1], json!({"method": "initialized"}));
    assert_eq!(
        lines[2],
        json!({"method": "thread/name/set", "id": 1,
               "params": {"threadId": ID, "name": "  release notes "}})
    );
    // Its stdin was closed after the answer: it ended by itself.
    assert!(log.ends_with("ended\n"), "{log}");
}

#[test]
fn codexs_error_is_the_reason_given() {
    let dir = tempfile::tempdir().unwrap();
    let body = r#"
while IFS= read -r line; do
  case "$line" in
  *'"initialize"'*) echo '{"id":0,"result":{}}' ;;
  *'thread/name/set'*) printf '{"error":{"code":-32600,"message":"no rollout found for thread id \\u001b[31mx"},"id":1}\n' ;;
  esac
done"#;
    let (script, _) = stand_in(dir.path(), body);
    let why = run(script, "x", Duration::from_secs(20)).unwrap_err();
    assert!(why.starts_with("no rollout found for thread id"), "{why:?}");
    assert!(
        !why.contains('\x1b'),
        "no escape reaches the screen: {why:?}"
    );
}

#[test]
fn a_server_that_ends_without_answering_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let (script, _) = stand_in(
        dir.path(),
        "read -r line; echo 'Error: unrecognized subcommand app-server' >&2; exit 2",
    );
    let why = run(script, "x", Duration::from_secs(20)).unwrap_err();
    assert_eq!(
        why,
        "codex app-server ended without answering: unrecognized subcommand app-server"
    );
    let (script, _) = stand_in(dir.path(), "exit 9");
    let why = run(script, "x", Duration::from_secs(20)).unwrap_err();
    assert_eq!(why, "codex app-server ended without answering: status 9");
}

/// Whether process `pid` is still there (a zombie counts as gone).
#[cfg(target_os = "linux")]
fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        !s.rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

#[cfg(target_os = "linux")]
#[test]
fn a_server_that_hangs_is_stopped_at_the_limit_with_what_it_started() {
    let dir = tempfile::tempdir().unwrap();
    // It reads and never answers, and its child keeps stdout open too.
    let body = r#"
sleep 600 &
echo "$$ $!" > "$LOG"
while IFS= read -r line; do :; done
wait"#;
    let (script, log) = stand_in(dir.path(), body);
    let started = Instant::now();
    let why = run(script, "x", Duration::from_millis(800)).unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "it gave up at the limit: {:?}",
        started.elapsed()
    );
    assert_eq!(
        why,
        "codex app-server did not answer within 1 s (it was stopped)"
    );
    let pids: Vec<i32> = std::fs::read_to_string(log)
        .unwrap()
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    assert_eq!(pids.len(), 2);
    // A killed process dies when it next runs: on a busy machine, a moment later.
    for pid in pids {
        let killed = Instant::now();
        while alive(pid) {
            assert!(
                killed.elapsed() < Duration::from_secs(10),
                "process {pid} of the server was stopped"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_server_in_flight_is_stopped_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let (script, log) = stand_in(
        dir.path(),
        "echo $$ > \"$LOG\"; while IFS= read -r line; do :; done",
    );
    let in_flight = InFlight::default();
    let asked = {
        let in_flight = in_flight.clone();
        thread::spawn(move || set_thread_name(script, ID, "x", Duration::from_secs(60), &in_flight))
    };
    let started = Instant::now();
    while !std::fs::read_to_string(&log).is_ok_and(|s| s.ends_with('\n')) || !in_flight.running() {
        assert!(started.elapsed() < Duration::from_secs(10), "it started");
        thread::sleep(Duration::from_millis(10));
    }
    in_flight.stop();
    let why = asked.join().unwrap().unwrap_err().to_string();
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(
        why.starts_with("codex app-server ended without answering"),
        "{why}"
    );
}

#[test]
fn a_program_that_cannot_run_is_named() {
    let why = run(
        Command::new("/nonexistent/codex"),
        "x",
        Duration::from_secs(1),
    )
    .unwrap_err();
    assert!(why.starts_with("cannot run /nonexistent/codex:"), "{why}");
}
