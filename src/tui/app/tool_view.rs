//! A tool call or reasoning step as the pane's lines: collapsed to its heading and first
//! lines, or expanded whole. Pure; every rollout string is neutralised first.

use crate::rollout::record::ToolCall;
use crate::sanitize;
use crate::tui::render::wrap::wrap_runs;
use crate::tui::render::{PaneLine, Part};

/// Whether the row is a reasoning summary rather than a tool call.
pub fn is_reasoning(call: &ToolCall) -> bool {
    call.kind == "reasoning"
}

/// The lines of `call`, expanded (`open`) or not.
pub fn lines(call: &ToolCall, width: usize, open: bool) -> Vec<PaneLine> {
    let kind = sanitize::one_line(&call.kind);
    let summary = sanitize::one_line(&call.summary);
    let (mark, head_part, body_part) = if is_reasoning(call) {
        ("", Part::ReasoningHeader, Part::ReasoningText)
    } else {
        (if open { "▾ " } else { "▸ " }, Part::Tool, Part::ToolOutput)
    };
    if !open && !is_reasoning(call) {
        let text = format!("  {mark}{kind}: {summary}");
        return vec![PaneLine::one(
            crate::textwidth::truncate(&text, width),
            head_part,
        )];
    }
    let mut out = vec![PaneLine::one(format!("  {mark}{kind}"), head_part)];
    for spans in wrap_runs(&[(summary, body_part)], width.saturating_sub(4).max(8)) {
        let mut line = vec![("    ".to_owned(), body_part)];
        line.extend(spans);
        out.push(PaneLine { spans: line });
    }
    out
}
