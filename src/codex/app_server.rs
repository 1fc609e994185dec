//! One request to codex's app-server, the supported way to change what codex has no command
//! for (a session's name). `codex app-server` speaks JSON-RPC over stdio, one JSON object a
//! line, without the "jsonrpc" field: `initialize`, the `initialized` notification, then the
//! request; notifications (`configWarning`, ...) may come between the answers.
//!
//! The server is started for the one request, in a process group of its own, and always
//! stopped after it: its stdin is closed (codex ends on that), and whatever of the group is
//! left after a moment is killed. A server that does not answer within the time limit is
//! stopped too, and its silence is the error; one that ends without answering is an error
//! with the last line it wrote to stderr. The group being run is kept in an [`InFlight`], so a
//! picker that quits mid-request stops it. Nothing here reads or writes the Codex home.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long after its answer the server may take to say the name it stored.
const NAME_GRACE: Duration = Duration::from_millis(500);

/// How long the server has to end by itself once its stdin is closed.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// The longest line read from the server (longer ones are skipped).
const MAX_LINE: u64 = 1 << 20;

/// How much of the server's stderr is kept, from its end.
const STDERR_TAIL: usize = 8 << 10;

/// Why the app-server did not set the name.
#[derive(Debug, Clone, thiserror::Error)]
pub enum AppServerError {
    /// The program could not be started.
    #[error("cannot run {program}: {source}")]
    Run {
        program: String,
        source: Arc<std::io::Error>,
    },
    /// No answer within the time limit (the server was stopped).
    #[error("codex app-server did not answer within {secs} s (it was stopped)")]
    TimedOut { secs: u64 },
    /// The server ended without answering: its error line on stderr, else how it ended.
    #[error("codex app-server ended without answering: {0}")]
    Ended(String),
    /// codex answered with an error: its message, on one line.
    #[error("{0}")]
    Refused(String),
}

/// The process group of the app-server being run, if any: the picker stops it when it quits.
#[derive(Debug, Clone, Default)]
pub(crate) struct InFlight(Arc<Mutex<Option<i32>>>);

impl InFlight {
    /// Kill the app-server being run, if any, and every process it started.
    pub(crate) fn stop(&self) {
        if let Some(group) = self.take() {
            kill_group(group);
        }
    }

    /// Whether an app-server is being run.
    #[cfg(all(test, target_os = "linux"))]
    pub(crate) fn running(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .is_some()
    }

    fn set(&self, group: Option<i32>) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = group;
    }

    fn take(&self) -> Option<i32> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }
}

/// Ask the app-server `cmd` starts (codex, its `app-server` argument added here) to name the
/// thread `id` `name`; the name as codex stored it, or why not (codex's own error message when
/// it refused).
pub(crate) fn set_thread_name(
    cmd: Command,
    id: &str,
    name: &str,
    limit: Duration,
    in_flight: &InFlight,
) -> Result<String, AppServerError> {
    let mut server = Server::start(cmd, limit, in_flight)?;
    let result = server.set_thread_name(id, name);
    server.stop();
    result
}

/// A running app-server and what it has written.
struct Server<'a> {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
    stderr: Tail,
    deadline: Instant,
    limit: Duration,
    in_flight: &'a InFlight,
}

/// Why waiting for an answer ended without one.
enum NoAnswer {
    TimedOut,
    Ended,
}

impl<'a> Server<'a> {
    fn start(
        mut cmd: Command,
        limit: Duration,
        in_flight: &'a InFlight,
    ) -> Result<Self, AppServerError> {
        let program = crate::sanitize::path_line(std::path::Path::new(cmd.get_program()));
        let mut child = cmd
            .arg("app-server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| AppServerError::Run {
                program,
                source: Arc::new(e),
            })?;
        // The group's id is the child's pid (`process_group(0)`).
        let group = i32::try_from(child.id()).ok();
        in_flight.set(group);
        let lines = read_lines(child.stdout.take());
        let stderr = keep_tail(child.stderr.take());
        Ok(Server {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            deadline: Instant::now() + limit,
            limit,
            in_flight,
        })
    }

    fn set_thread_name(&mut self, id: &str, name: &str) -> Result<String, AppServerError> {
        let hello = json!({"method": "initialize", "id": 0, "params": {"clientInfo": {
            "name": "codex-picker", "title": "codex-picker",
            "version": env!("CARGO_PKG_VERSION")}}});
        self.send(&hello);
        self.answer(0)?;
        self.send(&json!({"method": "initialized"}));
        self.send(&json!({"method": "thread/name/set", "id": 1,
            "params": {"threadId": id, "name": name}}));
        self.answer(1)?;
        Ok(self
            .stored_name(id)
            .unwrap_or_else(|| name.trim().to_owned()))
    }

    /// Write one message; a server that has ended is found out when its answer does not come.
    fn send(&mut self, message: &Value) {
        if let Some(stdin) = &mut self.stdin {
            let mut line = message.to_string();
            line.push('\n');
            if stdin.write_all(line.as_bytes()).is_err() {
                self.stdin = None;
            }
        }
    }

    /// The answer to request `id`: its result, or codex's error message.
    fn answer(&mut self, id: u64) -> Result<Value, AppServerError> {
        loop {
            let message = match self.next_message(self.deadline) {
                Ok(message) => message,
                Err(NoAnswer::TimedOut) => {
                    let secs = self.limit.as_secs_f32().round() as u64;
                    return Err(AppServerError::TimedOut { secs });
                }
                Err(NoAnswer::Ended) => return Err(self.ended()),
            };
            if message.get("id").and_then(Value::as_u64) != Some(id) {
                continue;
            }
            if let Some(error) = message.get("error") {
                let text = error
                    .get("message")
                    .and_then(Value::as_str)
                    .map_or_else(|| error.to_string(), str::to_owned);
                return Err(AppServerError::Refused(one_line(&text)));
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }

    /// The name codex says it stored for `id` (its `thread/name/updated` notification), if it
    /// says so soon.
    fn stored_name(&mut self, id: &str) -> Option<String> {
        let until = self.deadline.min(Instant::now() + NAME_GRACE);
        loop {
            let message = self.next_message(until).ok()?;
            if message.get("method").and_then(Value::as_str) != Some("thread/name/updated") {
                continue;
            }
            let params = message.get("params")?;
            if params.get("threadId").and_then(Value::as_str) == Some(id) {
                return params
                    .get("threadName")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            }
        }
    }

    /// The next JSON object the server writes before `until` (lines that are not JSON objects
    /// are passed over).
    fn next_message(&mut self, until: Instant) -> Result<Value, NoAnswer> {
        loop {
            let wait = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(line) => match serde_json::from_slice::<Value>(&line) {
                    Ok(value) if value.is_object() => return Ok(value),
                    _ => continue,
                },
                Err(RecvTimeoutError::Timeout) => return Err(NoAnswer::TimedOut),
                Err(RecvTimeoutError::Disconnected) => return Err(NoAnswer::Ended),
            }
        }
    }

    /// Why the server ended without answering: its error line on stderr, else how it ended.
    fn ended(&mut self) -> AppServerError {
        let end = Instant::now() + EXIT_GRACE;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < end => thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
        };
        let stderr = self.stderr.text(end);
        let why = super::error_text::error_text(&stderr).unwrap_or_else(|| match status {
            Some(s) if s.code().is_some() => format!("status {}", s.code().unwrap_or_default()),
            Some(_) => "killed by a signal".to_owned(),
            None => "no reason given".to_owned(),
        });
        AppServerError::Ended(why)
    }

    /// Close the server's stdin, give it a moment to end, then kill what is left of its group
    /// and reap it.
    fn stop(mut self) {
        self.stdin = None;
        let end = Instant::now() + EXIT_GRACE;
        while Instant::now() < end && matches!(self.child.try_wait(), Ok(None)) {
            thread::sleep(Duration::from_millis(10));
        }
        // What the server started may outlive it (codex's npm launcher runs the real binary as
        // its child): the whole group goes.
        if let Some(group) = self.in_flight.take() {
            kill_group(group);
        }
        let _ = self.child.wait();
    }
}

/// The lines a reader gives, on a thread of its own (it ends at the end of the output).
fn read_lines(out: Option<impl Read + Send + 'static>) -> Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    if let Some(out) = out {
        thread::spawn(move || {
            let mut reader = BufReader::new(out);
            loop {
                let mut line = Vec::new();
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if !line.ends_with(b"\n") && line.len() as u64 == MAX_LINE => {
                        // Too long: skip to the end of the line.
                        let mut rest = Vec::new();
                        if reader.read_until(b'\n', &mut rest).unwrap_or(0) == 0 {
                            break;
                        }
                    }
                    Ok(_) => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
    }
    rx
}

/// The end of what the server wrote to stderr, gathered on a thread of its own.
struct Tail {
    kept: Arc<Mutex<Vec<u8>>>,
    /// Disconnected when the thread has read everything.
    done: Receiver<()>,
}

impl Tail {
    /// The text kept, once the thread has read to the end of the output (or at `until`).
    fn text(&self, until: Instant) -> String {
        let wait = until.saturating_duration_since(Instant::now());
        let _ = self.done.recv_timeout(wait);
        self.kept
            .lock()
            .map(|s| String::from_utf8_lossy(&s).into_owned())
            .unwrap_or_default()
    }
}

/// The last [`STDERR_TAIL`] bytes a reader gives.
fn keep_tail(err: Option<impl Read + Send + 'static>) -> Tail {
    let kept = Arc::new(Mutex::new(Vec::new()));
    let (finished, done) = mpsc::channel::<()>();
    if let Some(mut err) = err {
        let kept = Arc::clone(&kept);
        thread::spawn(move || {
            let _finished = finished;
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = err.read(&mut buf) {
                let Ok(mut kept) = kept.lock() else { break };
                kept.extend_from_slice(&buf[..n]);
                let over = kept.len().saturating_sub(STDERR_TAIL);
                kept.drain(..over);
            }
        });
    }
    Tail { kept, done }
}

fn kill_group(group: i32) {
    // SAFETY: killpg only sends a signal. `group` is a process group this module started:
    // Linux does not give its id to a new process while any member of the group is alive, and
    // once none is, the signal finds no one (ESRCH).
    unsafe {
        libc::killpg(group, libc::SIGKILL);
    }
}

/// A message of codex's for the status line: one line, no control characters, not too long.
fn one_line(text: &str) -> String {
    crate::textwidth::truncate(&crate::sanitize::one_line(text), 200)
}

#[cfg(test)]
#[path = "app_server_tests.rs"]
mod tests;
