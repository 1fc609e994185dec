//! The transcript thread: reads the selected session's conversation (newest request wins; older
//! queued ones are skipped) with giant messages elided, so a large rollout never freezes the list.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use crate::store::transcript::{Transcript, TranscriptOptions};
use crate::store::walk::RolloutFile;
use crate::store::{self, Store};

/// Longest message kept whole in the pane.
pub const MAX_MESSAGE_BYTES: usize = 256 * 1024;

pub struct Job {
    pub gen: u64,
    pub id: String,
    pub path: PathBuf,
}

pub struct Loaded {
    pub gen: u64,
    pub id: String,
    pub result: Result<Transcript, String>,
}

pub fn spawn(store: Store) -> (Sender<Job>, Receiver<Loaded>) {
    let (tx, rx) = mpsc::channel::<Job>();
    let (ltx, lrx) = mpsc::channel();
    thread::Builder::new()
        .name("codex-picker-transcript".into())
        .spawn(move || run(&store, &rx, &ltx))
        .expect("spawn the transcript thread");
    (tx, lrx)
}

fn file_of(path: &PathBuf, files: &[RolloutFile]) -> RolloutFile {
    if let Some(f) = files.iter().find(|f| f.path == *path) {
        return f.clone();
    }
    let meta = std::fs::metadata(path).ok();
    RolloutFile {
        path: path.clone(),
        archived: false,
        compressed: path.extension().is_some_and(|e| e == "zst"),
        size: meta.as_ref().map_or(0, std::fs::Metadata::len),
        mtime_ms: meta.as_ref().map_or(0, store::walk::mtime_ms),
    }
}

fn run(store: &Store, rx: &Receiver<Job>, tx: &Sender<Loaded>) {
    // The file list is only needed for forks (their parent's history); walk it once, lazily.
    let mut files: Option<Vec<RolloutFile>> = None;
    let opts = TranscriptOptions {
        max_message_bytes: Some(MAX_MESSAGE_BYTES),
        tools: true,
        ordinal_below: None,
    };
    while let Ok(first) = rx.recv() {
        let Some(job) = std::iter::once(first).chain(rx.try_iter()).last() else {
            continue;
        };
        let files = files.get_or_insert_with(|| store.files(true).0);
        let file = file_of(&job.path, files);
        let result = store::read_transcript(&file, files, &opts).map_err(|i| i.reason);
        let loaded = Loaded {
            gen: job.gen,
            id: job.id,
            result,
        };
        if tx.send(loaded).is_err() {
            return;
        }
    }
}
