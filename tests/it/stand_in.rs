//! A stand-in for codex, for the tests of the session actions: a shell script named `codex`
//! that says it is 0.171.0, records every other call (folder, `CODEX_HOME`, arguments) and does
//! to the store what codex 0.171 does (archive moves the rollout to the flat
//! `archived_sessions/`, unarchive back to `sessions/YYYY/MM/DD/`, `delete --force` removes
//! it), writing down each file it moved or removed and each folder it made. Its resume and fork exit with status 7.
//! Its `app-server` answers `initialize` and `thread/name/set` as codex 0.171's does (the name
//! appended to `session_index.jsonl`, an empty one refused with codex's message), writing down
//! each line it reads; once [`StandIn::hang`] is called it reads and never answers.

use std::path::{Path, PathBuf};

pub struct StandIn {
    /// The folder holding `codex`, to put first on PATH.
    pub bin: PathBuf,
    /// One line per call: `<pwd>\t<CODEX_HOME>\t<args>`.
    pub calls: PathBuf,
    /// One line per change to the store: `mv <from> <to>`, `rm <path>` or `mkdir <path>`.
    pub changes: PathBuf,
    /// Every line the app-server read.
    pub requests: PathBuf,
    /// When it exists, the app-server hangs, and writes its pid and its child's here.
    hang: PathBuf,
}

impl StandIn {
    /// Write the stand-in into `dir`.
    pub fn new(dir: &Path) -> StandIn {
        use std::os::unix::fs::PermissionsExt;
        let bin = dir.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let calls = dir.join("calls.log");
        let changes = dir.join("changes.log");
        let requests = dir.join("requests.log");
        let hang = dir.join("hang");
        let script = SCRIPT
            .replace("@CALLS@", &calls.display().to_string())
            .replace("@CHANGES@", &changes.display().to_string())
            .replace("@REQUESTS@", &requests.display().to_string())
            .replace("@HANG@", &hang.display().to_string());
        let path = bin.join("codex");
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        StandIn {
            bin,
            calls,
            changes,
            requests,
            hang,
        }
    }

    /// From now on the app-server reads and never answers.
    pub fn hang(&self) {
        std::fs::write(&self.hang, "").unwrap();
    }

    /// The pids of the hanging app-server and of the child it started, once it has started.
    pub fn hung_pids(&self) -> Option<Vec<i32>> {
        let text = std::fs::read_to_string(&self.hang).ok()?;
        let pids: Vec<i32> = text
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect();
        (pids.len() == 2).then_some(pids)
    }

    /// Every line the app-server read, as JSON.
    pub fn requests(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(&self.requests)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// The calls recorded so far, each as (folder, CODEX_HOME, arguments).
    pub fn calls(&self) -> Vec<(String, String, String)> {
        std::fs::read_to_string(&self.calls)
            .unwrap_or_default()
            .lines()
            .map(|l| {
                let mut parts = l.splitn(3, '\t').map(str::to_owned);
                let mut next = || parts.next().unwrap_or_default();
                (next(), next(), next())
            })
            .collect()
    }

    /// Just the arguments of each call.
    pub fn args(&self) -> Vec<String> {
        self.calls().into_iter().map(|(_, _, a)| a).collect()
    }

    /// `PATH` with the stand-in first.
    pub fn path_env(&self) -> String {
        format!(
            "{}:{}",
            self.bin.display(),
            std::env::var("PATH").unwrap_or_default()
        )
    }
}

const SCRIPT: &str = r#"#!/bin/sh
if [ "$1" = --version ]; then echo 'codex-cli 0.171.0'; exit 0; fi
printf '%s\t%s\t%s\n' "$PWD" "$CODEX_HOME" "$*" >> '@CALLS@'
h="$CODEX_HOME"
case "$1" in
archive)
  f=$(find "$h/sessions" -name "*$2.jsonl*" | head -n 1)
  [ -n "$f" ] || { echo 'Error: failed to archive session' >&2; exit 1; }
  [ -d "$h/archived_sessions" ] || { mkdir "$h/archived_sessions"; echo "mkdir $h/archived_sessions" >> '@CHANGES@'; }
  mv "$f" "$h/archived_sessions/"
  echo "mv $f $h/archived_sessions/$(basename "$f")" >> '@CHANGES@'
  echo "Archived session $2." ;;
unarchive)
  f=$(find "$h/archived_sessions" -name "*$2.jsonl*" | head -n 1)
  [ -n "$f" ] || { echo 'Error: failed to unarchive session' >&2; exit 1; }
  n=$(basename "$f")
  d=$(echo "$n" | sed 's/^rollout-\(....\)-\(..\)-\(..\).*/\1\/\2\/\3/')
  [ -d "$h/sessions/$d" ] || { mkdir -p "$h/sessions/$d"; echo "mkdir $h/sessions/$d" >> '@CHANGES@'; }
  mv "$f" "$h/sessions/$d/"
  echo "mv $f $h/sessions/$d/$n" >> '@CHANGES@' ;;
delete)
  [ "$2" = --force ] || { echo 'Error: cannot confirm session deletion without an interactive terminal' >&2; exit 1; }
  f=$(find "$h/sessions" "$h/archived_sessions" -name "*$3.jsonl*" 2>/dev/null | head -n 1)
  [ -n "$f" ] || { echo 'Error: failed to delete session' >&2; exit 1; }
  rm "$f"
  echo "rm $f" >> '@CHANGES@'
  echo "Deleted session $3." ;;
resume|fork) exit 7 ;;
app-server)
  if [ -e '@HANG@' ]; then
    sleep 600 & echo "$$ $!" > '@HANG@'
    while IFS= read -r line; do :; done
    wait; exit 0
  fi
  while IFS= read -r line; do
    printf '%s\n' "$line" >> '@REQUESTS@'
    case "$line" in
    *'"initialize"'*) echo '{"id":0,"result":{"userAgent":"stand-in"}}' ;;
    *'thread/name/set'*)
      tid=$(printf '%s' "$line" | sed 's/.*"threadId":"\([^"]*\)".*/\1/')
      name=$(printf '%s' "$line" | sed 's/.*"name":"\([^"]*\)".*/\1/')
      if [ -z "$name" ]; then
        echo '{"error":{"code":-32600,"message":"thread name must not be empty"},"id":1}'
      else
        printf '{"id":"%s","thread_name":"%s","updated_at":"2026-12-03T12:00:00Z"}\n' "$tid" "$name" >> "$h/session_index.jsonl"
        echo '{"method":"configWarning","params":{"summary":"stand-in"}}'
        echo '{"id":1,"result":{}}'
        printf '{"method":"thread/name/updated","params":{"threadId":"%s","threadName":"%s"}}\n' "$tid" "$name"
      fi ;;
    esac
  done ;;
*) echo "Error: unknown command $1" >&2; exit 2 ;;
esac
"#;
