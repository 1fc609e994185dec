//! What a session used and changed, as its own records say: codex's running total of the
//! tokens (`event_msg` / `token_count`, `info.total_token_usage`), the models its turns ran on
//! (`turn_context.model`) and the files its applied patches changed (codex's `FileChange` items
//! and older `patch_apply_end` events, read by [`super::event`]: a patch that did not apply
//! changed nothing).
//!
//! Pure. The token and model rows are many (a `token_count` after each model response), so
//! they are read into small typed structs that skip every other field, not into a tree. A field
//! of the wrong type makes the row say nothing; it never panics.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::event::FileChange;
use super::json_scan;
use super::limits::{self, Reading};
use super::over_time::OverTime;
pub use super::tokens::Tokens;
use crate::timefmt::{self, Millis};

/// What one record reporting tokens says: the session's running total (`None`: a
/// `token_count` whose `info` is null), when it was written, and the account's rate limits
/// then (see [`super::limits`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TokenCount {
    pub total: Option<Tokens>,
    pub at: Option<Millis>,
    pub limits: Vec<Reading>,
}

#[derive(Deserialize)]
struct UsageLine {
    ordinal: Option<u64>,
    timestamp: Option<String>,
    payload: UsagePayload,
}

#[derive(Deserialize)]
struct UsagePayload {
    info: Option<UsageInfo>,
    /// Read as a tree and then leniently: its shape changed over codex's versions, and a
    /// reading that does not fit must not lose the line's tokens.
    #[serde(default)]
    rate_limits: Option<Value>,
}

#[derive(Deserialize)]
struct UsageInfo {
    total_token_usage: Option<Counts>,
}

#[derive(Deserialize)]
struct Counts {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    cached_input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
    #[serde(default)]
    reasoning_output_tokens: u64,
    #[serde(default)]
    total_tokens: u64,
}

/// A `token_count` line: its ordinal and what it says (see [`TokenCount`]). `None` when the line
/// does not read as one.
pub fn read_token_count(line: &[u8]) -> Option<(Option<u64>, TokenCount)> {
    let row: UsageLine = serde_json::from_slice(line).ok()?;
    let total = row.payload.info.and_then(|i| i.total_token_usage);
    let at = row.timestamp.as_deref().and_then(timefmt::parse_rfc3339);
    let limits = row
        .payload
        .rate_limits
        .map(|v| limits::read(&v, at))
        .unwrap_or_default();
    let total = total.map(|c| Tokens {
        input: c.input_tokens,
        cached_input: c.cached_input_tokens,
        output: c.output_tokens,
        reasoning: c.reasoning_output_tokens,
        total: c.total_tokens,
    });
    Some((row.ordinal, TokenCount { total, at, limits }))
}

/// The time of a line, from its top-level `timestamp` (codex writes it first, so this is
/// usually a look at the line's first bytes). `None` when it has none that reads as one.
pub fn line_time(line: &[u8]) -> Option<Millis> {
    let mut i = json_scan::skip_ws(line, 0);
    if line.get(i) != Some(&b'{') {
        return None;
    }
    loop {
        i = json_scan::skip_ws(line, i + 1);
        if line.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = json_scan::string_end(line, i + 1)?;
        let key = &line[i + 1..key_end];
        i = json_scan::skip_ws(line, key_end + 1);
        if line.get(i) != Some(&b':') {
            return None;
        }
        i = json_scan::skip_ws(line, i + 1);
        let end = json_scan::value_end(line, i)?;
        if key == b"timestamp" {
            let text = line.get(i + 1..end.checked_sub(1)?)?;
            return timefmt::parse_rfc3339(std::str::from_utf8(text).ok()?);
        }
        i = json_scan::skip_ws(line, end);
        if line.get(i) != Some(&b',') {
            return None;
        }
    }
}

#[derive(Deserialize)]
struct TurnLine {
    ordinal: Option<u64>,
    payload: TurnPayload,
}

#[derive(Deserialize)]
struct TurnPayload {
    model: Option<String>,
}

/// A `turn_context` line: its ordinal and its model (`None` when it names none). `None` when
/// the line does not read as one.
pub fn read_turn_model(line: &[u8]) -> Option<(Option<u64>, Option<String>)> {
    let row: TurnLine = serde_json::from_slice(line).ok()?;
    let model = row.payload.model.filter(|m| !m.trim().is_empty());
    Some((row.ordinal, model))
}

/// What a whole session changed and used.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Files changed by applied patches, in the order first changed.
    pub files: ChangedFiles,
    /// Tokens used: codex's last running total, for a fork less its parent's at the fork
    /// point (`None`: the session's records give no count).
    pub tokens: Option<Tokens>,
    /// Models its turns ran on, in the order first used.
    pub models: Vec<String>,
    /// Its tokens over time, by quarter hour and model (a fork's own).
    pub over_time: OverTime,
    /// The rate-limit windows it saw, each with its last reading.
    pub limits: super::limits::Limits,
}

/// What a session did to a file, over all its applied patches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Change {
    Add,
    Modify,
    Delete,
    Rename,
}

impl Change {
    const ALL: [Change; 4] = [Change::Add, Change::Modify, Change::Delete, Change::Rename];

    /// The word `list --json` writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Add => "add",
            Change::Modify => "modify",
            Change::Delete => "delete",
            Change::Rename => "rename",
        }
    }

    /// The letter the views show (`A`, `M`, `D`, `R`), as `git status` does.
    pub fn letter(self) -> char {
        match self {
            Change::Add => 'A',
            Change::Modify => 'M',
            Change::Delete => 'D',
            Change::Rename => 'R',
        }
    }
}

/// A file a session changed: the path as codex wrote it (absolute), what happened to it, and
/// for a rename the new path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedFile {
    pub path: String,
    pub change: Change,
    pub to: Option<String>,
}

impl ChangedFile {
    fn as_ref(&self) -> FileRef<'_> {
        FileRef {
            path: &self.path,
            change: self.change,
            to: self.to.as_deref(),
        }
    }
}

/// A file a session changed, as its row holds it (see [`ChangedFiles`]); written as a
/// [`ChangedFile`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FileRef<'a> {
    pub path: &'a str,
    pub change: Change,
    pub to: Option<&'a str>,
}

impl FileRef<'_> {
    /// Whether the file's path (or its new path) contains `part`, any case.
    pub fn matches(&self, part_lower: &str) -> bool {
        let has = |p: &str| p.to_lowercase().contains(part_lower);
        has(self.path) || self.to.is_some_and(has)
    }
}

/// The files a session changed, in the order first changed, packed into one allocation: a row
/// lives as long as the picker, and a `Vec` of paths, an entry and a string each, held a fifth
/// of the picker's memory at 30,000 sessions. Each file is its change (a byte, with a bit for
/// a new path), its path, and for a rename its new path, each path a length (4 bytes,
/// little-endian) and its text. Made from the files a pass merged ([`merge`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangedFiles(Box<[u8]>);

/// The bit of a file's first byte that says a new path follows its path.
const MOVED: u8 = 0x80;

impl ChangedFiles {
    pub fn iter(&self) -> ChangedFilesIter<'_> {
        ChangedFilesIter(&self.0)
    }

    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<&[ChangedFile]> for ChangedFiles {
    fn from(files: &[ChangedFile]) -> Self {
        let size = files
            .iter()
            .map(|f| 5 + f.path.len() + f.to.as_ref().map_or(0, |t| 4 + t.len()))
            .sum();
        let mut packed = Vec::with_capacity(size);
        fn text(packed: &mut Vec<u8>, t: &str) {
            // A path of 4 GB or more is no path codex writes: it is cut (at a char boundary).
            let t = super::text::clip(t, u32::MAX as usize);
            packed.extend_from_slice(&(t.len() as u32).to_le_bytes());
            packed.extend_from_slice(t.as_bytes());
        }
        for f in files.iter().map(ChangedFile::as_ref) {
            packed.push(f.change as u8 | if f.to.is_some() { MOVED } else { 0 });
            text(&mut packed, f.path);
            if let Some(to) = f.to {
                text(&mut packed, to);
            }
        }
        ChangedFiles(packed.into_boxed_slice())
    }
}

impl FromIterator<ChangedFile> for ChangedFiles {
    fn from_iter<I: IntoIterator<Item = ChangedFile>>(files: I) -> Self {
        files.into_iter().collect::<Vec<_>>().as_slice().into()
    }
}

/// Written as the list of files it holds (as a `Vec<ChangedFile>` is).
impl Serialize for ChangedFiles {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for ChangedFiles {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<ChangedFile>::deserialize(d).map(|files| files.as_slice().into())
    }
}

/// The files of a [`ChangedFiles`], in order.
pub struct ChangedFilesIter<'a>(&'a [u8]);

impl<'a> ChangedFilesIter<'a> {
    /// The next length-prefixed text (the packing wrote it from a `&str`).
    fn text(&mut self) -> Option<&'a str> {
        let (len, rest) = self.0.split_first_chunk::<4>()?;
        let (text, rest) = rest.split_at_checked(u32::from_le_bytes(*len) as usize)?;
        self.0 = rest;
        std::str::from_utf8(text).ok()
    }
}

impl<'a> Iterator for ChangedFilesIter<'a> {
    type Item = FileRef<'a>;

    fn next(&mut self) -> Option<FileRef<'a>> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        let change = Change::ALL[usize::from(first & 3)];
        let path = self.text()?;
        let to = if first & MOVED != 0 {
            Some(self.text()?)
        } else {
            None
        };
        Some(FileRef { path, change, to })
    }
}

/// Add one applied patch's changes to a session's files, in the order first changed. A file
/// changed again keeps one entry: added then changed is still added, anything then deleted is
/// deleted, deleted then added again is modified, and a rename says where it went.
pub fn merge(files: &mut Vec<ChangedFile>, changes: &[FileChange]) {
    for change in changes {
        let to = change.move_path.clone().filter(|p| !p.is_empty());
        let new = match (change.kind.as_str(), &to) {
            ("add", _) => Change::Add,
            ("delete", _) => Change::Delete,
            (_, Some(_)) => Change::Rename,
            _ => Change::Modify,
        };
        match files.iter_mut().find(|f| f.path == change.path) {
            None => files.push(ChangedFile {
                path: change.path.clone(),
                change: new,
                to,
            }),
            Some(known) => {
                known.change = match (known.change, new) {
                    (Change::Add, Change::Modify) => Change::Add,
                    (Change::Delete, Change::Add) => Change::Modify,
                    (_, new) => new,
                };
                if new == Change::Rename {
                    known.to = to;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fc(path: &str, kind: &str, to: Option<&str>) -> FileChange {
        FileChange {
            path: path.into(),
            kind: kind.into(),
            move_path: to.map(str::to_owned),
            diff: None,
        }
    }

    #[test]
    fn a_file_changed_twice_is_listed_once_with_what_it_came_to() {
        let mut files = Vec::new();
        merge(
            &mut files,
            &[fc("/w/a", "add", None), fc("/w/b", "update", None)],
        );
        merge(
            &mut files,
            &[
                fc("/w/a", "update", None),
                fc("/w/b", "delete", None),
                fc("/w/c", "update", Some("/w/d")),
            ],
        );
        let got: Vec<(&str, Change, Option<&str>)> = files
            .iter()
            .map(|f| (f.path.as_str(), f.change, f.to.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("/w/a", Change::Add, None),
                ("/w/b", Change::Delete, None),
                ("/w/c", Change::Rename, Some("/w/d")),
            ]
        );
    }

    #[test]
    fn packed_files_give_back_every_file_as_it_was_merged() {
        let files: Vec<ChangedFile> = [
            ("/w/a.rs", Change::Add, None),
            ("/w/b.rs", Change::Modify, None),
            ("", Change::Delete, None),
            (
                "/w/old ü\u{0}\n.py",
                Change::Rename,
                Some("/w/new \u{1b}[31m.py"),
            ),
            ("/w/c", Change::Rename, Some("")),
        ]
        .into_iter()
        .map(|(path, change, to)| ChangedFile {
            path: path.into(),
            change,
            to: to.map(str::to_owned),
        })
        .collect();
        let packed = ChangedFiles::from(files.as_slice());
        let back: Vec<ChangedFile> = packed
            .iter()
            .map(|f| ChangedFile {
                path: f.path.into(),
                change: f.change,
                to: f.to.map(str::to_owned),
            })
            .collect();
        assert_eq!(back, files);
        assert_eq!(packed.len(), 5);
        assert!(ChangedFiles::default().is_empty());
        assert_eq!(ChangedFiles::from(&[][..]).iter().count(), 0);
        // Written and read as the list it holds.
        let json = serde_json::to_string(&packed).unwrap();
        assert_eq!(json, serde_json::to_string(&files).unwrap());
        assert_eq!(serde_json::from_str::<ChangedFiles>(&json).unwrap(), packed);
    }

    #[test]
    fn a_lines_time_is_its_top_level_timestamp() {
        let at = timefmt::parse_rfc3339("2026-12-07T03:46:24.332Z");
        assert_eq!(
            line_time(br#"{"timestamp":"2026-12-07T03:46:24.332Z","type":"x"}"#),
            at
        );
        let later = br#"{"type":"x","payload":{"timestamp":"1999-01-01T00:00:00Z"},"timestamp":"2026-12-07T03:46:24.332Z"}"#;
        assert_eq!(line_time(later), at, "a nested timestamp is not the line's");
        assert_eq!(line_time(br#"{"type":"x"}"#), None);
        assert_eq!(line_time(br#"{"timestamp":12}"#), None);
        assert_eq!(line_time(b"not json"), None);
        assert_eq!(line_time(br#"{"timestamp":"2026-12-07T03:46"#), None);
    }

    #[test]
    fn token_rows_with_no_info_or_odd_fields_say_nothing() {
        let line =
            br#"{"ordinal":4,"type":"event_msg","payload":{"type":"token_count","info":null}}"#;
        assert_eq!(
            read_token_count(line),
            Some((Some(4), TokenCount::default()))
        );
        let odd = br#"{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":-1}}}}"#;
        assert_eq!(read_token_count(odd), None);
        let good = br#"{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":3,"reasoning_output_tokens":1,"total_tokens":13},"last_token_usage":{}},"rate_limits":{"x":[1,2]}}}"#;
        let (_, count) = read_token_count(good).unwrap();
        assert_eq!(
            count.limits,
            [],
            "rate limits of another shape are no reading"
        );
        assert_eq!(
            count.total,
            Some(Tokens {
                input: 10,
                cached_input: 4,
                output: 3,
                reasoning: 1,
                total: 13
            })
        );
        let model = br#"{"type":"turn_context","payload":{"model":"gpt-5.5","sandbox_policy":{"type":"x"}}}"#;
        let limited = br#"{"timestamp":"2026-12-07T03:46:24.332Z","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"primary":{"used_percent":48.5,"window_minutes":300,"resets_at":1796010360}}}}"#;
        let (_, count) = read_token_count(limited).unwrap();
        assert_eq!(count.at, timefmt::parse_rfc3339("2026-12-07T03:46:24.332Z"));
        assert_eq!((count.total, count.limits.len()), (None, 1));
        assert_eq!(count.limits[0].used, 4850);
        assert_eq!(read_turn_model(model), Some((None, Some("gpt-5.5".into()))));
    }
}
