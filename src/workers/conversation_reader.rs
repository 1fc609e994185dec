//! The transcript thread: reads the selected session's conversation as a
//! [`job`](crate::workers::job) (newest request wins: older queued ones are skipped, and a newer
//! one ends the read of a large file under way) with giant messages and tool outputs elided and
//! each tool output attached to its call, so a large rollout never freezes the list. A large
//! file's start is sent first (a partial transcript), so its first screen does not wait for the
//! rest.

use std::path::PathBuf;

use crate::rollout::transcript::{Parse, Transcript, TranscriptOptions};
use crate::store::fork::{self, LazyWalk};
use crate::store::walk::RolloutFile;
use crate::store::{FileIssue, Store};
use crate::workers::job::{Reply, SingleJob, Work};
use crate::workers::wake::Waker;

/// Longest message kept whole in the pane.
pub const MAX_MESSAGE_BYTES: usize = 256 * 1024;

/// Longest tool output (or patch, or other tool text) kept whole in the pane.
pub const MAX_TOOL_OUTPUT_BYTES: usize = 64 * 1024;

/// A conversation to read, under the generation the pane asked it.
#[derive(Debug, Clone)]
pub struct Job {
    pub gen: u64,
    pub id: String,
    pub path: PathBuf,
}

/// A conversation read (or its start), for session `id` (the job's answer carries its
/// generation).
pub struct Loaded {
    pub id: String,
    pub result: Result<Transcript, ReadError>,
}

/// Why a conversation could not be read (the pane says it in place of the conversation).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened (deleted since it was listed, say).
    #[error("{0}")]
    Open(#[from] std::io::Error),
    /// The file could not be read through.
    #[error("{}", .0.problem)]
    Read(FileIssue),
}

/// How the pane reads a transcript: giant messages and tool texts elided, tool calls kept with
/// their outputs attached.
pub fn pane_options() -> TranscriptOptions {
    TranscriptOptions {
        max_message_bytes: Some(MAX_MESSAGE_BYTES),
        tools: true,
        max_tool_output_bytes: Some(MAX_TOOL_OUTPUT_BYTES),
        pair_outputs: true,
        ordinal_below: None,
        ..TranscriptOptions::default()
    }
}

/// The transcript thread's state: the store, and its file list once a fork needed it.
pub struct Reader {
    /// The store's file list is needed only for a paginated fork (to find its parent): walked
    /// the first time one is shown, and again when a fork's parent is not in it (a session
    /// created since). Other sessions are read straight away, with no walk before the first one.
    files: LazyWalk,
    opts: TranscriptOptions,
}

/// Start the thread; each conversation read wakes the loop through `waker`. It stops when the
/// job is dropped.
pub fn spawn(store: Store, waker: Waker) -> SingleJob<Reader> {
    let reader = Reader {
        files: LazyWalk::new(store),
        opts: pane_options(),
    };
    SingleJob::spawn("codex-picker-transcript", reader, waker)
}

impl SingleJob<Reader> {
    /// Ask for a conversation under the pane's generation; `false` when the thread is gone (it
    /// panicked: the pane goes on without it).
    pub fn read(&mut self, job: Job) -> bool {
        self.submit_as(job.gen, job).is_ok()
    }
}

impl Work for Reader {
    type Note = std::convert::Infallible;
    type Ask = Job;
    type Answer = Loaded;

    fn note(&mut self, note: Self::Note) {
        match note {}
    }

    fn run(&mut self, job: Job, reply: &mut Reply<'_, Self>) {
        // A large file's start is shown while the rest is read; a newer ask ends the read.
        let mut given_up = false;
        let mut early = |start: Option<Transcript>| {
            if reply.superseded() {
                given_up = true;
                return false;
            }
            let Some(start) = start else { return true };
            reply.send(Loaded {
                id: job.id.clone(),
                result: Ok(start),
            })
        };
        let result = RolloutFile::at(&job.path)
            .map_err(ReadError::Open)
            .and_then(|file| {
                let (files, opts) = (&mut self.files, &self.opts);
                fork::read_transcript_watched(&file, files, opts, Parse::Every, &mut early)
                    .map_err(ReadError::Read)
            });
        if given_up {
            // Given up for a newer ask: nothing to send.
            return;
        }
        reply.send(Loaded { id: job.id, result });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::transcript::Entry;
    use std::path::Path;
    use std::time::Duration;

    fn write(home: &Path, id: &str, lines: &[serde_json::Value]) -> PathBuf {
        let dir = home.join("sessions/2026/01/01");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("rollout-2026-01-01T00-00-00-{id}.jsonl"));
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, text).unwrap();
        path
    }

    fn item(n: u64, kind: &str, text: &str) -> serde_json::Value {
        serde_json::json!({"ordinal":n,"type":"event_msg","payload":{"type":"item_completed",
            "item":{"type":kind,"content":[{"type":"text","text":text}]}}})
    }

    fn ask(reader: &mut SingleJob<Reader>, gen: u64, path: &Path) {
        assert!(reader.read(Job {
            gen,
            id: String::new(),
            path: path.to_path_buf(),
        }));
    }

    /// The next answer: its generation and transcript.
    fn next(reader: &mut SingleJob<Reader>) -> (u64, Transcript) {
        let loaded = reader.recv_timeout(Duration::from_secs(30)).unwrap();
        (loaded.gen, loaded.answer.result.unwrap())
    }

    fn load(reader: &mut SingleJob<Reader>, gen: u64, path: &Path) -> Transcript {
        ask(reader, gen, path);
        let (answered, transcript) = next(reader);
        assert_eq!(answered, gen);
        transcript
    }

    fn texts(reader: &mut SingleJob<Reader>, gen: u64, path: &Path) -> Vec<String> {
        load(reader, gen, path)
            .entries
            .into_iter()
            .filter_map(|e| match e {
                Entry::Message { text, .. } => Some(text),
                Entry::Tool(_) | Entry::Marker(_) => None,
            })
            .collect()
    }

    #[test]
    fn the_pane_gets_each_output_with_its_call_cut_to_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let id = "00000000-0000-7000-8000-00000000000c";
        let printed = "x".repeat(MAX_TOOL_OUTPUT_BYTES + 1000);
        let output = format!("Process exited with code 2\nOutput:\n{printed}");
        let path = write(
            home,
            id,
            &[
                serde_json::json!({"type":"session_meta","payload":{"id":id,"cwd":"/w"}}),
                item(1, "UserMessage", "build it"),
                serde_json::json!({"type":"response_item","payload":{"type":"function_call",
                    "name":"exec_command","arguments":"{\"cmd\":\"make\"}","call_id":"c1"}}),
                serde_json::json!({"type":"response_item","payload":{
                    "type":"function_call_output","call_id":"c1","output":output}}),
            ],
        );
        let mut reader = spawn(Store::codex(home.to_path_buf()), Waker::noop());
        let entries = load(&mut reader, 1, &path).entries;
        assert_eq!(entries.len(), 2, "the output is not an entry of its own");
        let Entry::Tool(call) = &entries[1] else {
            panic!("{entries:?}");
        };
        let out = call.output.as_ref().expect("paired");
        assert_eq!(out.exit_code, Some(2));
        assert_eq!(out.text.len(), MAX_TOOL_OUTPUT_BYTES);
        assert_eq!(out.elided, 1000);
    }

    #[test]
    fn a_fork_created_while_the_picker_runs_shows_its_parents_history() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let a = "00000000-0000-7000-8000-00000000000a";
        let a_path = write(
            home,
            a,
            &[
                serde_json::json!({"type":"session_meta","payload":{"id":a,"cwd":"/w"}}),
                item(1, "UserMessage", "plain session"),
            ],
        );
        let mut reader = spawn(Store::codex(home.to_path_buf()), Waker::noop());
        assert_eq!(texts(&mut reader, 1, &a_path), vec!["plain session"]);
        // Parent and fork appear after the worker has already shown a session.
        let (parent, fork) = (
            "00000000-0000-7000-8000-0000000000b1",
            "00000000-0000-7000-8000-0000000000b2",
        );
        write(
            home,
            parent,
            &[
                serde_json::json!({"ordinal":0,"type":"session_meta","payload":{"id":parent,"cwd":"/w"}}),
                item(1, "UserMessage", "parent prompt"),
                item(2, "AgentMessage", "parent reply"),
                item(3, "UserMessage", "after the fork point"),
            ],
        );
        let fork_path = write(
            home,
            fork,
            &[
                serde_json::json!({"ordinal":3,"type":"session_meta","payload":{"id":fork,"cwd":"/w",
                    "history_base":{"thread_id":parent,"end_ordinal_exclusive":3}}}),
                item(4, "UserMessage", "fork prompt"),
            ],
        );
        assert_eq!(
            texts(&mut reader, 2, &fork_path),
            vec!["parent prompt", "parent reply", "fork prompt"]
        );
    }

    #[test]
    fn a_large_file_shows_its_start_first_then_the_whole() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let id = "00000000-0000-7000-8000-0000000000d1";
        let reply = "r".repeat(2000);
        let mut lines =
            vec![serde_json::json!({"type":"session_meta","payload":{"id":id,"cwd":"/w"}})];
        lines.push(item(1, "UserMessage", "the first prompt"));
        // A giant line: the start is shown before it is read.
        let giant = "g".repeat(crate::rollout::transcript::WATCH_BIG_LINE + 10);
        lines.push(item(2, "AgentMessage", &giant));
        for n in 0..3000 {
            lines.push(item(3 + n, "AgentMessage", &reply));
        }
        let path = write(home, id, &lines);
        let mut reader = spawn(Store::codex(home.to_path_buf()), Waker::noop());
        let first = load(&mut reader, 1, &path);
        assert!(first.partial, "the start first");
        assert_eq!(first.entries.len(), 1, "what came before the giant line");
        let (_, whole) = next(&mut reader);
        assert!(!whole.partial);
        assert_eq!(whole.counts(), (1, 3001));
    }

    #[test]
    fn a_newer_ask_ends_the_read_of_a_large_file() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let big = "00000000-0000-7000-8000-0000000000d2";
        let small = "00000000-0000-7000-8000-0000000000d3";
        let reply = "r".repeat(4000);
        let mut lines =
            vec![serde_json::json!({"type":"session_meta","payload":{"id":big,"cwd":"/w"}})];
        lines.push(item(1, "UserMessage", "big"));
        for n in 0..10_000 {
            lines.push(item(2 + n, "AgentMessage", &reply));
        }
        let big_path = write(home, big, &lines);
        let small_path = write(
            home,
            small,
            &[
                serde_json::json!({"type":"session_meta","payload":{"id":small,"cwd":"/w"}}),
                item(1, "UserMessage", "small"),
            ],
        );
        let mut reader = spawn(Store::codex(home.to_path_buf()), Waker::noop());
        let start = load(&mut reader, 1, &big_path);
        assert!(start.partial);
        ask(&mut reader, 2, &small_path);
        let (gen, small) = next(&mut reader);
        assert_eq!(gen, 2, "the big file's read was given up for the newer ask");
        assert_eq!(small.counts(), (1, 0));
    }
}
