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

use super::event::FileChange;

/// Tokens of a session: codex's cumulative counts. `cached_input` is part of `input`,
/// `reasoning` part of `output`, and `total` is input and output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    pub input: u64,
    pub cached_input: u64,
    pub output: u64,
    pub reasoning: u64,
    pub total: u64,
}

impl Tokens {
    /// What was added since `base` (an earlier running total), never below zero.
    pub fn since(self, base: Tokens) -> Tokens {
        Tokens {
            input: self.input.saturating_sub(base.input),
            cached_input: self.cached_input.saturating_sub(base.cached_input),
            output: self.output.saturating_sub(base.output),
            reasoning: self.reasoning.saturating_sub(base.reasoning),
            total: self.total.saturating_sub(base.total),
        }
    }
}

#[derive(Deserialize)]
struct UsageLine {
    ordinal: Option<u64>,
    payload: UsagePayload,
}

#[derive(Deserialize)]
struct UsagePayload {
    info: Option<UsageInfo>,
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

/// A `token_count` line: its ordinal and the running total it carries (`None` when its `info`
/// is null or has no total). `None` when the line does not read as one.
pub fn read_token_count(line: &[u8]) -> Option<(Option<u64>, Option<Tokens>)> {
    let row: UsageLine = serde_json::from_slice(line).ok()?;
    let total = row.payload.info.and_then(|i| i.total_token_usage);
    Some((
        row.ordinal,
        total.map(|c| Tokens {
            input: c.input_tokens,
            cached_input: c.cached_input_tokens,
            output: c.output_tokens,
            reasoning: c.reasoning_output_tokens,
            total: c.total_tokens,
        }),
    ))
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
    pub files: Vec<ChangedFile>,
    /// Tokens used: codex's last running total, for a fork less its parent's at the fork
    /// point (`None`: the session's records give no count).
    pub tokens: Option<Tokens>,
    /// Models its turns ran on, in the order first used.
    pub models: Vec<String>,
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
    /// Whether the file's path (or its new path) contains `part`, any case.
    pub fn matches(&self, part_lower: &str) -> bool {
        let has = |p: &str| p.to_lowercase().contains(part_lower);
        has(&self.path) || self.to.as_deref().is_some_and(has)
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
    fn token_rows_with_no_info_or_odd_fields_say_nothing() {
        let line =
            br#"{"ordinal":4,"type":"event_msg","payload":{"type":"token_count","info":null}}"#;
        assert_eq!(read_token_count(line), Some((Some(4), None)));
        let odd = br#"{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":-1}}}}"#;
        assert_eq!(read_token_count(odd), None);
        let good = br#"{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":3,"reasoning_output_tokens":1,"total_tokens":13},"last_token_usage":{}},"rate_limits":{"x":[1,2]}}}"#;
        let (_, tokens) = read_token_count(good).unwrap();
        assert_eq!(
            tokens,
            Some(Tokens {
                input: 10,
                cached_input: 4,
                output: 3,
                reasoning: 1,
                total: 13
            })
        );
        let model = br#"{"type":"turn_context","payload":{"model":"gpt-5.5","sandbox_policy":{"type":"x"}}}"#;
        assert_eq!(read_turn_model(model), Some((None, Some("gpt-5.5".into()))));
    }
}
