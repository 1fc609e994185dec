//! The rows a Claude Code reader takes only for part of what they hold: a row of tool results
//! none of which a reader that keeps no tools wants (passed over unparsed), and a row of a
//! rewind's abandoned branch (read only for what it used and changed).

use std::collections::VecDeque;

use serde_json::Value;

use super::super::carry::OpenCall;
use super::super::row_type::RowType;
use super::super::tools;
use super::ClaudeLines;
use crate::rollout::event::Event;
use crate::rollout::record::Record;
use crate::rollout::text::Cap;

impl ClaudeLines {
    /// A reader that keeps no tools needs nothing of a row of tool results but the edits'
    /// (files changed): a row whose results are all of other calls is passed over unparsed
    /// (they are most of a transcript's bytes), its calls forgotten as reading it would. A row
    /// that may hold text besides results is read.
    pub(super) fn only_unwanted_results(&mut self, line: &[u8]) -> bool {
        use memchr::memmem;
        if memmem::find(line, b"\"tool_result\"").is_none()
            || memmem::find(line, b"\"type\":\"text\"").is_some()
        {
            return false;
        }
        const KEY: &[u8] = b"\"tool_use_id\":\"";
        let mut ids = Vec::new();
        for at in memmem::find_iter(line, KEY) {
            let rest = &line[at + KEY.len()..];
            let Some(end) = memchr::memchr2(b'"', b'\\', rest) else {
                return false;
            };
            if rest[end] != b'"' {
                return false;
            }
            ids.push(&rest[..end]);
        }
        let open = &mut self.carry.open;
        let at = |open: &[OpenCall], id: &[u8]| open.iter().position(|c| c.id.as_bytes() == id);
        let edit = |id: &&[u8]| at(open, id).is_some_and(|i| tools::is_edit(&open[i].name));
        if ids.is_empty() || ids.iter().any(edit) {
            return false;
        }
        for id in ids {
            if let Some(i) = at(open, id) {
                open.remove(i);
            }
        }
        true
    }

    /// A row of an abandoned branch: not part of the conversation, but what it used and
    /// changed happened (its tokens, its models, the edits that applied).
    pub(super) fn off_row(&mut self, kind: RowType, row: &Value, out: &mut VecDeque<Record>) {
        let Some(message) = row.get("message") else {
            return;
        };
        let blocks = message.get("content").and_then(Value::as_array);
        match kind {
            RowType::Assistant => {
                for block in blocks.into_iter().flatten() {
                    let call = block.get("type").and_then(Value::as_str) == Some("tool_use");
                    let open = call.then(|| tools::open_call(block));
                    if let Some(open) = open.filter(|o| tools::is_edit(&o.name)) {
                        self.carry.open.push(open);
                    }
                }
                self.usage(row, message, out);
            }
            RowType::User if self.want.usage || self.want.tools => {
                for block in blocks.into_iter().flatten() {
                    let id = block.get("tool_use_id").and_then(Value::as_str);
                    let Some(at) = self.carry.open.iter().position(|c| Some(&*c.id) == id) else {
                        continue;
                    };
                    let open = self.carry.open.remove(at);
                    let outcome = row.get("toolUseResult");
                    let result = tools::result(block, Some(&open), outcome, Cap(Some(0)));
                    if let Some(event @ Event::PatchApplied { .. }) = result.event {
                        out.push_back(Record::Event(event));
                    }
                }
            }
            _ => {}
        }
    }
}
