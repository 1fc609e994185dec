//! Content search: the text of every user and assistant message of every session, searchable
//! case-insensitively in a few milliseconds.
//!
//! Owns the in-memory layout and the search. All text lives in one lowercase byte arena (every
//! message of a session back to back, separated by a NUL byte so no match spans two messages);
//! the original case is restored for display from a bit per byte (ASCII letters that were upper
//! case) and a short list of non-ASCII characters whose lower case differs. Lowercasing never
//! changes a character's byte length (a character whose lower case is longer or shorter, such as
//! `İ`, is kept as written), so offsets in the arena are offsets in the original text.
//!
//! Bounds: a message keeps at most [`MAX_MESSAGE_BYTES`] (its head), a session at most
//! [`MAX_SESSION_BYTES`] (its first messages); [`ContentStats`] says how much was capped.
//! Which text is indexed follows the transcript rule (reading-rules section 5): no tool output,
//! no injected context. Building and caching are in [`build`].

pub mod build;
pub mod cached;
mod search;

use memchr::memmem;
use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::rollout::record::Role;
use crate::timefmt::Millis;

/// Longest part of one message that is indexed (its head).
pub const MAX_MESSAGE_BYTES: usize = 32 << 10;
/// Most text indexed for one session (its first messages).
pub const MAX_SESSION_BYTES: usize = 1 << 20;
/// Hits counted per term and session; ranking saturates there.
pub const HIT_CAP: usize = 100;
/// Longest snippet, in bytes.
pub const SNIPPET_BYTES: usize = 120;

pub(crate) use search::LastQuery;

/// One session's part of the arena; in the cache file as it is here, the path as its bytes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SessionText {
    #[serde(with = "crate::store::cache::path_as_bytes")]
    pub path: PathBuf,
    pub id: String,
    pub updated_ms: Millis,
    /// The file's size and mtime when read (the cache key).
    pub size: u64,
    pub mtime_ms: Millis,
    /// Byte range in the arena.
    pub start: u64,
    pub end: u64,
    /// Range in the message table.
    pub first_msg: u32,
    pub msg_count: u32,
    /// Messages (or message tails) left out by the caps.
    pub capped: u32,
}

/// One message's place in the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MessageSpan {
    pub start: u64,
    pub len: u32,
    pub role: Role,
}

/// One session that matches a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentHit {
    pub path: PathBuf,
    pub id: String,
    /// Matches of all terms in the session (each term counted up to [`HIT_CAP`]).
    pub hits: usize,
    /// Index among the session's messages of the first match.
    pub first_message: usize,
    /// One line around the first match (at most [`SNIPPET_BYTES`]; control characters blanked).
    pub snippet: String,
    /// Byte range of the match within `snippet`.
    pub snippet_match: Range<usize>,
    /// The session's updated time, for callers that rank by recency too.
    pub updated_ms: Millis,
}

/// Size figures of an index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContentStats {
    pub sessions: usize,
    pub messages: usize,
    /// Text bytes held.
    pub bytes: u64,
    /// Messages cut to their head, or dropped, by the caps.
    pub capped_messages: u64,
    /// Sessions that hit the per-session cap.
    pub capped_sessions: usize,
    /// Approximate heap bytes held by the index.
    pub heap_bytes: u64,
}

/// The content index (immutable once built; share it behind an `Arc`).
#[derive(Default, Clone)]
pub struct ContentIndex {
    pub(crate) lower: Vec<u8>,
    /// Bit `i` set: arena byte `i` was an upper-case ASCII letter.
    pub(crate) upper: Vec<u64>,
    /// Non-ASCII characters whose lower case differs: (arena offset, original character).
    pub(crate) exceptions: Vec<(u64, char)>,
    pub(crate) sessions: Vec<SessionText>,
    pub(crate) messages: Vec<MessageSpan>,
    pub(crate) by_path: HashMap<PathBuf, usize>,
    /// The last query and every session it matched: a query typed on from it (it starts with
    /// the last one) can only match among those, so each keystroke narrows the scan.
    pub(crate) last: std::sync::Arc<Mutex<Option<LastQuery>>>,
}

impl PartialEq for ContentIndex {
    fn eq(&self, other: &Self) -> bool {
        self.lower == other.lower
            && self.upper == other.upper
            && self.exceptions == other.exceptions
            && self.sessions == other.sessions
            && self.messages == other.messages
            && self.by_path == other.by_path
    }
}

impl Eq for ContentIndex {}

impl fmt::Debug for ContentIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.stats();
        write!(
            f,
            "ContentIndex {{ sessions: {}, messages: {}, bytes: {} }}",
            s.sessions, s.messages, s.bytes
        )
    }
}

/// Append the case-folded `text` to `lower`, recording what folding changed. Returns the bytes
/// appended (always `text.len()`).
pub(crate) fn fold_into(
    text: &str,
    lower: &mut Vec<u8>,
    upper_at: &mut Vec<u32>,
    exceptions: &mut Vec<(u32, char)>,
) {
    let base = lower.len();
    let bytes = text.as_bytes();
    if bytes.is_ascii() {
        lower.extend(bytes.iter().enumerate().map(|(i, &b)| {
            if b.is_ascii_uppercase() {
                upper_at.push((base + i) as u32);
            }
            b.to_ascii_lowercase()
        }));
        return;
    }
    for (i, c) in text.char_indices() {
        let at = (base + i) as u32;
        if c.is_ascii() {
            let b = c as u8;
            if b.is_ascii_uppercase() {
                upper_at.push(at);
            }
            lower.push(b.to_ascii_lowercase());
            continue;
        }
        let mut buf = [0u8; 4];
        let mut folded = c.to_lowercase();
        let l = match (folded.next(), folded.next()) {
            (Some(l), None) if l != c && l.len_utf8() == c.len_utf8() => {
                exceptions.push((at, c));
                l
            }
            _ => c,
        };
        lower.extend_from_slice(l.encode_utf8(&mut buf).as_bytes());
    }
}

/// The query's terms, folded like the arena (empty terms dropped).
pub fn query_terms(query: &str) -> Vec<Vec<u8>> {
    query
        .split_whitespace()
        .map(|t| {
            let mut lower = Vec::with_capacity(t.len());
            fold_into(t, &mut lower, &mut Vec::new(), &mut Vec::new());
            lower.retain(|&b| b != 0);
            lower
        })
        .filter(|t| !t.is_empty())
        .collect()
}

fn is_char_start(b: u8) -> bool {
    (b & 0xC0) != 0x80
}

impl ContentIndex {
    pub fn stats(&self) -> ContentStats {
        ContentStats {
            sessions: self.sessions.len(),
            messages: self.messages.len(),
            bytes: self.lower.len() as u64,
            capped_messages: self.sessions.iter().map(|s| u64::from(s.capped)).sum(),
            capped_sessions: self
                .sessions
                .iter()
                .filter(|s| s.end - s.start >= MAX_SESSION_BYTES as u64)
                .count(),
            heap_bytes: (self.lower.capacity()
                + self.upper.capacity() * 8
                + self.exceptions.capacity() * 16
                + self.messages.capacity() * std::mem::size_of::<MessageSpan>()
                + self.sessions.capacity() * std::mem::size_of::<SessionText>()
                + self
                    .sessions
                    .iter()
                    .map(|s| s.id.len() + s.path.as_os_str().len() * 2)
                    .sum::<usize>()) as u64,
        }
    }

    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }

    /// The indexed sessions (path, id, updated time, arena range, caps).
    pub fn sessions(&self) -> &[SessionText] {
        &self.sessions
    }

    /// The original text of an arena range (case restored).
    fn original(&self, range: Range<u64>) -> String {
        String::from_utf8_lossy(&self.original_bytes(range)).into_owned()
    }

    /// The original bytes of an arena range (case restored).
    fn original_bytes(&self, range: Range<u64>) -> Vec<u8> {
        let (s, e) = (range.start as usize, range.end as usize);
        let mut out = self.lower[s..e].to_vec();
        for (i, b) in out.iter_mut().enumerate() {
            let at = s + i;
            if self.upper[at / 64] >> (at % 64) & 1 == 1 {
                *b = b.to_ascii_uppercase();
            }
        }
        let from = self.exceptions.partition_point(|(o, _)| *o < range.start);
        for &(o, c) in self.exceptions[from..]
            .iter()
            .take_while(|(o, _)| *o < range.end)
        {
            let at = (o - range.start) as usize;
            let mut buf = [0u8; 4];
            let enc = c.encode_utf8(&mut buf).as_bytes();
            if at + enc.len() <= out.len() {
                out[at..at + enc.len()].copy_from_slice(enc);
            }
        }
        out
    }

    /// The messages of a session: (role, original text as indexed, possibly capped).
    pub fn session_messages(&self, path: &Path) -> Vec<(Role, String)> {
        let Some(&si) = self.by_path.get(path) else {
            return Vec::new();
        };
        let s = &self.sessions[si];
        self.messages[s.first_msg as usize..(s.first_msg + s.msg_count) as usize]
            .iter()
            .map(|m| (m.role, self.original(m.start..m.start + u64::from(m.len))))
            .collect()
    }

    /// Every match of every term of `query` in one session: (message index, byte range in that
    /// message's text), in order, for jumping between hits in a transcript view.
    pub fn message_hits(&self, path: &Path, query: &str) -> Vec<(usize, Range<usize>)> {
        let Some(&si) = self.by_path.get(path) else {
            return Vec::new();
        };
        let terms = query_terms(query);
        let s = &self.sessions[si];
        let mut out = Vec::new();
        let msgs = &self.messages[s.first_msg as usize..(s.first_msg + s.msg_count) as usize];
        for (mi, m) in msgs.iter().enumerate() {
            let text = &self.lower[m.start as usize..(m.start + u64::from(m.len)) as usize];
            for t in &terms {
                out.extend(memmem::find_iter(text, t).map(|p| (mi, p..p + t.len())));
            }
        }
        out.sort_by_key(|(mi, r)| (*mi, r.start, r.end));
        out.dedup();
        out
    }
}
