//! What Claude Code names its files: a session is `<session id>.jsonl`, its id a uuid.

use crate::session::is_uuid;

/// A file name that names a session: `<uuid>.jsonl`.
pub fn is_session_name(name: &[u8]) -> bool {
    name.strip_suffix(b".jsonl")
        .and_then(|stem| std::str::from_utf8(stem).ok())
        .is_some_and(is_uuid)
}
