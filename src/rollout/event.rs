//! What codex writes about a turn or a tool beside the calls and messages: a turn starting,
//! ending or being interrupted, a compaction of the context, and its own record of a tool's
//! result (the files a patch changed, how a command or an MCP call ended).
//!
//! Pure and lenient, like [`super::tool`]: a field that is missing or of the wrong type is
//! absent ([`super::lenient`]), an unknown row is `None`, nothing panics. Long texts are cut to
//! the reader's cap. Each row is read straight from its bytes into typed fields that skip
//! everything an event does not say (a `compacted` row's replacement history, a patch's
//! output), and, when the reader keeps none of them, the diffs too: the row pass reads every
//! patch of every session for its files' paths alone.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use super::lenient::{absent_otherwise, Flag, Int, Num, Obj, Text};
use super::text::clip;

/// One turn or tool event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// `task_started`: a turn begins.
    TurnStarted { turn_id: Option<String> },
    /// `task_complete`: a turn ended normally.
    TurnEnded { turn_id: Option<String> },
    /// `turn_aborted`: a turn was cut short (the user pressed Esc, or codex stopped it).
    TurnAborted {
        turn_id: Option<String>,
        /// Codex's reason (`interrupted`, `replaced`, ...).
        reason: Option<String>,
        duration_ms: Option<u64>,
    },
    /// The context was compacted: a `compacted` row (with the summary codex wrote), a
    /// `ContextCompaction` item or an older `context_compacted` event (without it).
    Compacted {
        turn_id: Option<String>,
        summary: Option<String>,
        /// Whether the user asked for it (`/compact`) or it was automatic, when the row says
        /// (Claude Code's `compactMetadata.trigger`); `None`: the turn around it tells.
        manual: Option<bool>,
    },
    /// Codex's record of what an `apply_patch` call changed (`FileChange` item) or of how it
    /// ended (an older `patch_apply_end` event).
    PatchApplied {
        call_id: String,
        /// Each file by the path codex wrote (absolute): what happened to it.
        changes: Vec<FileChange>,
        /// The patch applied (`completed`), or why not.
        failure: Option<String>,
        duration_ms: Option<u64>,
    },
    /// Codex's record of a command (`CommandExecution` item): how it ended, in the end, even
    /// when it was left running in the background.
    CommandEnded {
        call_id: String,
        exit_code: Option<i32>,
        /// `completed`, `failed`, `declined`, ... as written.
        status: Option<String>,
        duration_ms: Option<u64>,
        /// Everything it printed, cut to the cap.
        output: String,
    },
    /// Codex's record of an MCP tool call (`McpToolCall` item).
    McpEnded {
        call_id: String,
        /// The server's error, or the text of a result it marked as an error.
        failure: Option<String>,
        duration_ms: Option<u64>,
    },
    /// How a tool call ended when its output row says no more than its text (a Claude Code
    /// `tool_result` marked `is_error`, or cut short by the user).
    ToolEnded {
        call_id: String,
        /// The user cut it short.
        interrupted: bool,
        /// Why it failed.
        failure: Option<String>,
    },
}

/// A file an applied patch changed, as codex recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    pub path: String,
    /// `add`, `delete` or `update`, as written.
    pub kind: String,
    /// The new path of a renamed file.
    pub move_path: Option<String>,
    /// The unified diff of an update, or the content of an added or deleted file.
    pub diff: Option<String>,
}

/// Why a line could not be read at all: it is not JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unreadable;

/// The line's `ordinal` and its event (`None` for a line that is not one, or whose fields are
/// not what codex writes), texts cut to `cap`. A cap of 0 keeps none of a long text (a diff,
/// an output, a summary), so those are skipped by their bytes, never copied: the row pass reads
/// only the paths and kinds of a patch's files. A line that is not JSON is [`Unreadable`]
/// (invalid UTF-8 inside a string is replaced first, as [`super::rules::parse_line`] does).
pub fn read(line: &[u8], cap: Option<usize>) -> Result<(Option<u64>, Option<Event>), Unreadable> {
    match read_typed(line, cap) {
        Ok(read) => Ok(read),
        Err(_) if std::str::from_utf8(line).is_err() => {
            let fixed = String::from_utf8_lossy(line);
            read_typed(fixed.as_bytes(), cap).map_err(|_| Unreadable)
        }
        // Valid JSON that the typed read refuses (a key written twice) is not an event.
        Err(_) if serde_json::from_slice::<IgnoredAny>(line).is_ok() => Ok((None, None)),
        Err(_) => Err(Unreadable),
    }
}

fn read_typed(line: &[u8], cap: Option<usize>) -> serde_json::Result<(Option<u64>, Option<Event>)> {
    fn with<'a, D: LongText + Deserialize<'a>>(
        line: &'a [u8],
        cap: Option<usize>,
    ) -> serde_json::Result<(Option<u64>, Option<Event>)> {
        let Obj(row) = serde_json::from_slice::<Obj<Line<'a, D>>>(line)?;
        Ok(row.map_or((None, None), |row| (row.ordinal.0, row.event(cap))))
    }
    if cap == Some(0) {
        with::<IgnoredAny>(line, cap)
    } else {
        with::<Text>(line, cap)
    }
}

/// A long text of a row: read ([`Text`]) or skipped unread ([`IgnoredAny`]).
trait LongText: Default {
    fn text(&self) -> Option<&str>;
}

impl LongText for IgnoredAny {
    fn text(&self) -> Option<&str> {
        None
    }
}

impl LongText for Text<'_> {
    fn text(&self) -> Option<&str> {
        self.get()
    }
}

/// A row, as far as events read it.
#[derive(Deserialize, Default)]
#[serde(default, bound(deserialize = "D: Deserialize<'de> + Default"))]
struct Line<'a, D> {
    #[serde(rename = "type", borrow)]
    kind: Text<'a>,
    ordinal: Num,
    #[serde(borrow)]
    payload: Obj<Payload<'a, D>>,
}

/// The fields of every event's payload (each event uses a few).
#[derive(Deserialize, Default)]
#[serde(default, bound(deserialize = "D: Deserialize<'de> + Default"))]
struct Payload<'a, D> {
    #[serde(rename = "type", borrow)]
    kind: Text<'a>,
    #[serde(borrow)]
    turn_id: Text<'a>,
    #[serde(borrow)]
    reason: Text<'a>,
    duration_ms: Num,
    #[serde(borrow)]
    call_id: Text<'a>,
    #[serde(borrow)]
    changes: Obj<Changes<'a, D>>,
    success: Flag,
    stderr: D,
    stdout: D,
    /// A `compacted` row's summary.
    message: D,
    #[serde(borrow)]
    item: Obj<Item<'a, D>>,
    started_at_ms: Num,
    completed_at_ms: Num,
}

/// The fields of an `item_completed` event's item.
#[derive(Deserialize, Default)]
#[serde(default, bound(deserialize = "D: Deserialize<'de> + Default"))]
struct Item<'a, D> {
    #[serde(rename = "type", borrow)]
    kind: Text<'a>,
    #[serde(borrow)]
    id: Text<'a>,
    #[serde(borrow)]
    status: Text<'a>,
    stderr: D,
    #[serde(borrow)]
    changes: Obj<Changes<'a, D>>,
    exit_code: Int,
    aggregated_output: D,
    duration: Obj<Duration>,
    /// An MCP call's error: a string, or an object with a `message`.
    error: Option<Value>,
    result: Obj<McpResult>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Duration {
    secs: Num,
    nanos: Num,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct McpResult {
    content: Option<Value>,
    #[serde(rename = "isError")]
    is_error: Flag,
}

/// A patch's `changes`: each path (as codex wrote it, absolute) with what happened to it, in
/// path order.
type Changes<'a, D> = BTreeMap<String, ChangeSpec<'a, D>>;

/// One file of `changes`: `{type, unified_diff | content, move_path}`; older codex wrote
/// `{"update": {unified_diff, move_path}}`, the kind as the only key.
#[derive(Default)]
struct ChangeSpec<'a, D> {
    kind: Option<Cow<'a, str>>,
    fields: ChangeFields<'a, D>,
}

#[derive(Deserialize, Default)]
#[serde(default, bound(deserialize = "D: Deserialize<'de> + Default"))]
struct ChangeFields<'a, D> {
    #[serde(borrow)]
    move_path: Text<'a>,
    unified_diff: D,
    content: D,
}

/// The keys of a change that are its fields.
enum Field {
    Kind,
    MovePath,
    Diff,
    Content,
    Other,
}

impl<'de: 'a, 'a, D: Deserialize<'de> + Default> Deserialize<'de> for ChangeSpec<'a, D> {
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        struct Spec<'a, D>(PhantomData<(&'a (), D)>);
        impl<'de: 'a, 'a, D: Deserialize<'de> + Default> Visitor<'de> for Spec<'a, D> {
            type Value = ChangeSpec<'a, D>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a file's change")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut own = ChangeFields::default();
                let (mut kind, mut keys, mut only) = (None, 0, None);
                while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
                    keys += 1;
                    let field = match key.as_deref() {
                        Some("type") => Field::Kind,
                        Some("move_path") => Field::MovePath,
                        Some("unified_diff") => Field::Diff,
                        Some("content") => Field::Content,
                        _ => Field::Other,
                    };
                    match field {
                        Field::Kind => kind = map.next_value::<Text>()?.0.filter(|k| !k.is_empty()),
                        Field::MovePath => own.move_path = map.next_value()?,
                        Field::Diff => own.unified_diff = map.next_value()?,
                        Field::Content => own.content = map.next_value()?,
                        Field::Other => {
                            only = Some((key, map.next_value::<Obj<ChangeFields<D>>>()?.0));
                        }
                    }
                }
                Ok(match only {
                    Some((key, fields)) if kind.is_none() && keys == 1 => ChangeSpec {
                        kind: key,
                        fields: fields.unwrap_or_default(),
                    },
                    _ => ChangeSpec { kind, fields: own },
                })
            }

            // Not a map: a change that says nothing but that the file was there, an update.
            absent_otherwise!(bool, i64, u64, f64, str, unit, seq);
        }
        d.deserialize_any(Spec(PhantomData))
    }
}

impl<D: LongText> Line<'_, D> {
    fn event(self, cap: Option<usize>) -> Option<Event> {
        let payload = self.payload.0?;
        let cut = |text: &str| cap.map_or(text, |max| clip(text, max)).to_owned();
        match self.kind.get()? {
            "compacted" => {
                return Some(Event::Compacted {
                    turn_id: None,
                    summary: payload.message.text().map(|m| cut(summary_of(m))),
                    manual: None,
                })
            }
            "event_msg" => {}
            _ => return None,
        }
        let turn_id = payload.turn_id.get().map(str::to_owned);
        match payload.kind.get()? {
            "task_started" | "turn_started" => Some(Event::TurnStarted { turn_id }),
            "task_complete" | "turn_complete" => Some(Event::TurnEnded { turn_id }),
            "turn_aborted" => Some(Event::TurnAborted {
                turn_id,
                reason: payload.reason.owned(),
                duration_ms: payload.duration_ms.0,
            }),
            "context_compacted" => Some(Event::Compacted {
                turn_id,
                summary: None,
                manual: None,
            }),
            "patch_apply_end" => Some(Event::PatchApplied {
                call_id: payload.call_id.owned()?,
                changes: changes(payload.changes, &cut),
                failure: (payload.success.0 == Some(false)).then(|| {
                    let why = payload.stderr.text().or_else(|| payload.stdout.text());
                    cut(why.unwrap_or("the patch did not apply").trim())
                }),
                duration_ms: None,
            }),
            "item_completed" => {
                let timed = (payload.started_at_ms.0, payload.completed_at_ms.0);
                payload.item.0?.event(timed, turn_id, &cut)
            }
            _ => None,
        }
    }
}

impl<D: LongText> Item<'_, D> {
    /// The event of a non-message item; `timed` is the event's start and end times.
    fn event(
        self,
        timed: (Option<u64>, Option<u64>),
        turn_id: Option<String>,
        cut: &dyn Fn(&str) -> String,
    ) -> Option<Event> {
        let duration_ms = match &self.duration.0 {
            Some(d) => d.secs.0.map(|secs| {
                let nanos = d.nanos.0.unwrap_or(0);
                secs.saturating_mul(1000).saturating_add(nanos / 1_000_000)
            }),
            None => timed
                .1
                .zip(timed.0)
                .map(|(end, start)| end.saturating_sub(start)),
        };
        match self.kind.get()? {
            "ContextCompaction" => Some(Event::Compacted {
                turn_id,
                summary: None,
                manual: None,
            }),
            "FileChange" => {
                let failure = match self.status.get() {
                    None | Some("completed") => None,
                    Some(other) => Some(
                        self.stderr
                            .text()
                            .map(|e| cut(e.trim()))
                            .filter(|e| !e.is_empty())
                            .unwrap_or_else(|| format!("patch {other}")),
                    ),
                };
                Some(Event::PatchApplied {
                    call_id: self.id.owned()?,
                    changes: changes(self.changes, cut),
                    failure,
                    duration_ms,
                })
            }
            "CommandExecution" => Some(Event::CommandEnded {
                call_id: self.id.owned()?,
                exit_code: self.exit_code.0.and_then(|c| i32::try_from(c).ok()),
                status: self.status.owned(),
                duration_ms,
                output: self.aggregated_output.text().map(cut).unwrap_or_default(),
            }),
            "McpToolCall" => {
                let failure = self.mcp_failure(cut);
                Some(Event::McpEnded {
                    call_id: self.id.owned()?,
                    failure,
                    duration_ms,
                })
            }
            _ => None,
        }
    }

    /// The server's error, or the text of a result it marked as an error.
    fn mcp_failure(&self, cut: &dyn Fn(&str) -> String) -> Option<String> {
        let error = self.error.as_ref().and_then(|e| {
            e.get("message")
                .and_then(Value::as_str)
                .or_else(|| e.as_str())
                .filter(|s| !s.is_empty())
        });
        if let Some(error) = error {
            return Some(cut(error));
        }
        let result = self.result.0.as_ref();
        let is_error = result.and_then(|r| r.is_error.0);
        (is_error == Some(true) || self.status.get() == Some("failed")).then(|| {
            let said = result
                .and_then(|r| r.content.as_ref())
                .map(super::text::content_text)
                .unwrap_or_default();
            if said.trim().is_empty() {
                "the tool reported an error".to_owned()
            } else {
                cut(said.trim())
            }
        })
    }
}

/// The files of a `FileChange` item or a `patch_apply_end` event. Paths are kept whole: they
/// are short, and what a session changed is looked up by them.
fn changes<D: LongText>(
    changes: Obj<Changes<'_, D>>,
    cut: &dyn Fn(&str) -> String,
) -> Vec<FileChange> {
    changes
        .0
        .unwrap_or_default()
        .into_iter()
        .map(|(path, spec)| {
            let f = spec.fields;
            FileChange {
                path,
                kind: spec
                    .kind
                    .map_or_else(|| "update".to_owned(), Cow::into_owned),
                move_path: f.move_path.owned(),
                diff: f.unified_diff.text().or_else(|| f.content.text()).map(cut),
            }
        })
        .collect()
}

/// The summary codex wrote, without the sentence it puts before it for the model.
fn summary_of(message: &str) -> &str {
    const PREFIX: &str = "Another language model started to solve this problem";
    match message.strip_prefix(PREFIX) {
        Some(rest) => rest
            .split_once('\n')
            .map_or(message, |(_, summary)| summary),
        None => message,
    }
}

#[cfg(test)]
#[path = "event_tests.rs"]
mod tests;
