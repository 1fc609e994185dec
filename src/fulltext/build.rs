//! Building the content index from rollout files, incrementally against a previous index, and
//! keeping it in its own cache file.
//!
//! Owns the text extraction (the transcript rule with tools off: every real user and assistant
//! message, each once, no tool output, no injected context), the caps, the streaming assembly
//! (each file's text is appended to the arena as soon as it is read, so memory holds the arena
//! and a few files in flight, never all texts twice), and the cache file's body (the arena,
//! then the other tables in postcard, so the arena is read in place). A file whose
//! size and mtime match the previous index is copied from it, not read; any other file is read
//! whole again (content is not resumed from an offset).

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use super::{fold_into, ContentIndex, MessageSpan, SessionText};
use super::{MAX_MESSAGE_BYTES, MAX_SESSION_BYTES};
use crate::rollout::record::Role;
use crate::rollout::transcript::{Entry, Parse, TranscriptOptions};
use crate::store::cache::{read_envelope, write_envelope_with, Bytes};
use crate::store::walk::RolloutFile;

/// Bumped whenever the binary layout or the extraction rule changes.
// 4: replies kept only as `response` rows are indexed (per-role transcript source), and the
// body is postcard records.
pub const CONTENT_VERSION: u32 = 4;

/// A reading thread hands its files' texts over when it holds this many, or this many bytes.
const HANDOVER_FILES: usize = 16;
const HANDOVER_BYTES: usize = 1 << 20;

/// One session to index: its file and id (the row's id).
#[derive(Debug, Clone)]
pub struct Target {
    pub file: RolloutFile,
    pub id: String,
}

/// One file's text, folded, ready to append.
#[derive(Debug, Default)]
struct FileText {
    lower: Vec<u8>,
    upper_at: Vec<u32>,
    exceptions: Vec<(u32, char)>,
    msgs: Vec<(u32, u32, Role)>,
    capped: u32,
}

/// Read one file's messages by the transcript rule (a paginated fork includes its parent's
/// history), capped.
fn extract(file: &RolloutFile, files: &[RolloutFile]) -> FileText {
    let opts = TranscriptOptions {
        max_message_bytes: Some(MAX_MESSAGE_BYTES),
        tools: false,
        ordinal_below: None,
    };
    let mut out = FileText::default();
    let Ok(t) = crate::store::fork::read_transcript(file, &mut { files }, &opts, Parse::Lean)
    else {
        return out;
    };
    let mut messages = t.entries.into_iter().filter_map(|e| match e {
        Entry::Message {
            role, text, elided, ..
        } => Some((role, text, elided)),
        Entry::Tool(_) => None,
    });
    for (role, text, elided) in messages.by_ref() {
        if out.lower.len() + text.len() > MAX_SESSION_BYTES {
            out.capped += 1;
            break;
        }
        if elided > 0 {
            out.capped += 1;
        }
        let start = out.lower.len() as u32;
        fold_into(
            &text,
            &mut out.lower,
            &mut out.upper_at,
            &mut out.exceptions,
        );
        out.msgs.push((start, text.len() as u32, role));
        out.lower.push(0);
    }
    out.capped += messages.count() as u32;
    out
}

impl ContentIndex {
    fn set_upper(&mut self, at: u64) {
        let (w, b) = ((at / 64) as usize, at % 64);
        if self.upper.len() <= w {
            self.upper.resize(w + 1, 0);
        }
        self.upper[w] |= 1 << b;
    }

    fn push_session(&mut self, mut s: SessionText) {
        s.end = self.lower.len() as u64;
        if let Some(&old) = self.by_path.get(&s.path) {
            // The same path twice among the targets: keep the later text.
            self.sessions[old] = s;
            return;
        }
        self.by_path.insert(s.path.clone(), self.sessions.len());
        self.sessions.push(s);
    }

    fn append_file(&mut self, target: &Target, text: FileText) {
        let base = self.lower.len() as u64;
        let first_msg = self.messages.len() as u32;
        self.lower.extend_from_slice(&text.lower);
        for at in text.upper_at {
            self.set_upper(base + u64::from(at));
        }
        self.exceptions.extend(
            text.exceptions
                .into_iter()
                .map(|(o, c)| (base + u64::from(o), c)),
        );
        self.messages
            .extend(text.msgs.iter().map(|&(start, len, role)| MessageSpan {
                start: base + u64::from(start),
                len,
                role,
            }));
        self.push_session(SessionText {
            path: target.file.path.clone(),
            id: target.id.clone(),
            updated_ms: target.file.mtime_ms,
            size: target.file.size,
            mtime_ms: target.file.mtime_ms,
            start: base,
            end: 0,
            first_msg,
            msg_count: text.msgs.len() as u32,
            capped: text.capped,
        });
    }

    /// Copy session `si` of `old` (unchanged file) to the end of this index.
    fn append_from(&mut self, old: &ContentIndex, si: usize, id: &str) {
        let s = &old.sessions[si];
        let base = self.lower.len() as u64;
        let shift = |o: u64| o - s.start + base;
        self.lower
            .extend_from_slice(&old.lower[s.start as usize..s.end as usize]);
        let (w0, w1) = ((s.start / 64) as usize, s.end.div_ceil(64) as usize);
        for w in w0..w1.min(old.upper.len()) {
            let mut bits = old.upper[w];
            while bits != 0 {
                let at = w as u64 * 64 + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                if at >= s.start && at < s.end {
                    self.set_upper(shift(at));
                }
            }
        }
        let from = old.exceptions.partition_point(|(o, _)| *o < s.start);
        self.exceptions.extend(
            old.exceptions[from..]
                .iter()
                .take_while(|(o, _)| *o < s.end)
                .map(|&(o, c)| (shift(o), c)),
        );
        let first_msg = self.messages.len() as u32;
        self.messages.extend(
            old.messages[s.first_msg as usize..(s.first_msg + s.msg_count) as usize]
                .iter()
                .map(|m| MessageSpan {
                    start: shift(m.start),
                    ..*m
                }),
        );
        self.push_session(SessionText {
            id: id.to_owned(),
            start: base,
            first_msg,
            ..s.clone()
        });
    }

    fn finish_build(&mut self) {
        let words = (self.lower.len() as u64).div_ceil(64) as usize;
        self.upper.resize(words.max(self.upper.len()), 0);
        self.exceptions.sort_by_key(|(o, _)| *o);
        self.lower.shrink_to_fit();
        self.upper.shrink_to_fit();
        self.exceptions.shrink_to_fit();
        self.messages.shrink_to_fit();
        self.sessions.shrink_to_fit();
    }
}

/// What a build did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Sessions copied from the previous index (file unchanged).
    pub reused: usize,
    /// Sessions read from their files.
    pub read: usize,
}

/// Build the index of `targets` on `threads` threads. Sessions of unchanged files (same path,
/// size and mtime) are kept from `previous` without copying: dropped sessions only leave dead
/// bytes in its arena, which is compacted (copied once) when they pass a quarter of it.
/// `files` is every rollout of the store (fork parents). `progress(done, total)` is called now
/// and then; when it returns false the build stops and `None` is returned.
pub fn build(
    previous: Option<ContentIndex>,
    targets: &[Target],
    files: &[RolloutFile],
    threads: usize,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Option<(ContentIndex, BuildStats)> {
    let mut index = previous.unwrap_or_default();
    // Session numbers change below: forget the last query's matches.
    index.last = Default::default();
    let mut stats = BuildStats {
        reused: index.keep_unchanged(targets),
        read: 0,
    };
    let todo: Vec<usize> = (0..targets.len())
        .filter(|&i| !index.by_path.contains_key(&targets[i].file.path))
        .collect();
    let total = targets.len();
    if !progress(stats.reused, total) {
        return None;
    }
    let stop = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    // Texts go to the assembling thread a few files at a time: a hand-over per file woke that
    // thread ten thousand times. The channel is bounded, so memory holds a few batches at most.
    let (tx, rx) = mpsc::sync_channel::<Vec<(usize, FileText)>>(threads.max(1) * 2);
    let finished = std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (todo, stop, next) = (&todo, &stop, &next);
            scope.spawn(move || read_files(targets, files, todo, stop, next, &tx));
        }
        drop(tx);
        let mut done = stats.reused;
        let mut cancelled = false;
        for (i, text) in rx.iter().flatten() {
            // Once cancelled, what is still sent is drained (not kept), so no reading thread
            // ever waits on a full channel that nobody reads.
            if cancelled {
                continue;
            }
            index.append_file(&targets[i], text);
            stats.read += 1;
            done += 1;
            if done.is_multiple_of(64) && !progress(done, total) {
                stop.store(true, Ordering::Relaxed);
                cancelled = true;
            }
        }
        !cancelled
    });
    if !finished {
        return None;
    }
    progress(total, total);
    index.finish_build();
    Some((index, stats))
}

/// A reading thread: the files of `todo` the shared counter `next` hands out, their texts sent
/// a few files at a time, until `stop` or the end.
fn read_files(
    targets: &[Target],
    files: &[RolloutFile],
    todo: &[usize],
    stop: &AtomicBool,
    next: &AtomicUsize,
    tx: &mpsc::SyncSender<Vec<(usize, FileText)>>,
) {
    let mut batch = Vec::new();
    let mut bytes = 0;
    while !stop.load(Ordering::Relaxed) {
        let k = next.fetch_add(1, Ordering::Relaxed);
        let Some(&i) = todo.get(k) else { break };
        let text = extract(&targets[i].file, files);
        bytes += text.lower.len();
        batch.push((i, text));
        if batch.len() >= HANDOVER_FILES || bytes >= HANDOVER_BYTES {
            if tx.send(std::mem::take(&mut batch)).is_err() {
                return;
            }
            bytes = 0;
        }
    }
    if !batch.is_empty() {
        // The assembling thread may have stopped listening; the texts are then not wanted.
        let _ = tx.send(batch);
    }
}

impl ContentIndex {
    /// Keep the sessions of `targets` whose files are unchanged (same path, size and mtime),
    /// compacting the arena when the dropped ones pass a quarter of it; returns how many.
    fn keep_unchanged(&mut self, targets: &[Target]) -> usize {
        let wanted: HashMap<&Path, &Target> =
            targets.iter().map(|t| (t.file.path.as_path(), t)).collect();
        let old_sessions = std::mem::take(&mut self.sessions);
        self.by_path.clear();
        let mut kept = Vec::with_capacity(old_sessions.len());
        let mut have = std::collections::HashSet::new();
        for mut s in old_sessions {
            let Some(t) = wanted.get(s.path.as_path()) else {
                continue;
            };
            if t.file.size == s.size && t.file.mtime_ms == s.mtime_ms && have.insert(s.path.clone())
            {
                s.id.clone_from(&t.id);
                kept.push(s);
            }
        }
        let live: u64 = kept.iter().map(|s| s.end - s.start).sum();
        if (self.lower.len() as u64 - live) * 4 > self.lower.len() as u64 {
            let old = std::mem::take(self);
            let old = ContentIndex {
                sessions: kept,
                ..old
            };
            for si in 0..old.sessions.len() {
                self.append_from(&old, si, &old.sessions[si].id.clone());
            }
        } else {
            for s in kept {
                self.by_path.insert(s.path.clone(), self.sessions.len());
                self.sessions.push(s);
            }
        }
        self.sessions.len()
    }
}

/// Everything but the arena, in postcard after it: the arena is the body's head, so on loading
/// it stays where it was read, never moved.
#[derive(Serialize)]
struct Tables<'a> {
    sessions: &'a [SessionText],
    messages: &'a [MessageSpan],
    exceptions: &'a [(u64, char)],
    /// The upper-case bit words, little-endian.
    upper: Bytes<'a>,
}

/// [`Tables`] as read back.
#[derive(Deserialize)]
struct ReadTables<'a> {
    sessions: Vec<SessionText>,
    messages: Vec<MessageSpan>,
    exceptions: Vec<(u64, char)>,
    #[serde(borrow)]
    upper: Bytes<'a>,
}

/// Save `index` to `path`: the text arena (streamed), then the tables, then their length.
pub fn save(index: &ContentIndex, path: &Path) -> io::Result<()> {
    let upper: Vec<u8> = index.upper.iter().flat_map(|w| w.to_le_bytes()).collect();
    let tables = Tables {
        sessions: &index.sessions,
        messages: &index.messages,
        exceptions: &index.exceptions,
        upper: Bytes(&upper),
    };
    let tables = postcard::to_stdvec(&tables).map_err(io::Error::other)?;
    write_envelope_with(path, "content", &content_version(), |w| {
        w.write_all(&index.lower)?;
        w.write_all(&tables)?;
        w.write_all(&(tables.len() as u64).to_le_bytes())
    })
}

fn content_version() -> String {
    format!("v{CONTENT_VERSION}")
}

/// Load a saved index; `Err` says why it cannot be used (missing, corrupt, old format).
pub fn load(path: &Path) -> Result<ContentIndex, String> {
    let mut body = read_envelope(path, "content", &content_version())?;
    let (mut index, arena_len) = parse(&body).ok_or("unreadable content cache")?;
    body.truncate(arena_len);
    body.shrink_to_fit();
    index.lower = body;
    let valid = index.sessions.iter().all(|s| {
        s.start <= s.end
            && s.end <= index.lower.len() as u64
            && (s.first_msg as usize + s.msg_count as usize) <= index.messages.len()
    }) && index
        .messages
        .iter()
        .all(|m| m.start + u64::from(m.len) <= index.lower.len() as u64)
        && index.upper.len() as u64 >= (index.lower.len() as u64).div_ceil(64)
        && index.exceptions.windows(2).all(|w| w[0].0 <= w[1].0)
        && std::str::from_utf8(&index.lower).is_ok();
    if !valid {
        return Err("inconsistent content cache".into());
    }
    Ok(index)
}

/// The tables of a body, and the length of the arena before them.
fn parse(body: &[u8]) -> Option<(ContentIndex, usize)> {
    let n = body.len().checked_sub(8)?;
    let len = usize::try_from(u64::from_le_bytes(body[n..].try_into().ok()?)).ok()?;
    let arena_len = n.checked_sub(len)?;
    let (tables, rest) = postcard::take_from_bytes::<ReadTables>(&body[arena_len..n]).ok()?;
    if !rest.is_empty() || tables.upper.0.len() % 8 != 0 {
        return None;
    }
    let mut index = ContentIndex::default();
    index.by_path.reserve(tables.sessions.len());
    for (i, s) in tables.sessions.iter().enumerate() {
        index.by_path.insert(s.path.clone(), i);
    }
    index.sessions = tables.sessions;
    index.messages = tables.messages;
    index.exceptions = tables.exceptions;
    index.upper = tables
        .upper
        .0
        .chunks_exact(8)
        .map(|w| u64::from_le_bytes(w.try_into().unwrap_or_default()))
        .collect();
    Some((index, arena_len))
}

/// Targets for every row: a map from path to id.
pub fn targets_for(files: &[RolloutFile], ids: &HashMap<PathBuf, String>) -> Vec<Target> {
    files
        .iter()
        .filter_map(|f| {
            Some(Target {
                file: f.clone(),
                id: ids.get(&f.path)?.clone(),
            })
        })
        .collect()
}
