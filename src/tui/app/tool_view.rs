//! A tool call or reasoning step as the pane's lines: collapsed to its heading and first
//! lines, or expanded whole. Pure; every rollout string is neutralised first.

use crate::rollout::record::ToolCall;
use crate::sanitize;
use crate::tui::render::markdown;
use crate::tui::render::wrap::wrap_runs;
use crate::tui::render::{PaneLine, Part};

/// Whether the row is a reasoning summary rather than a tool call.
pub fn is_reasoning(call: &ToolCall) -> bool {
    call.kind == "reasoning"
}

/// The lines of `call`, expanded (`open`) or not.
pub fn lines(call: &ToolCall, width: usize, open: bool) -> Vec<PaneLine> {
    if is_reasoning(call) {
        return reasoning(&call.summary, width);
    }
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

/// A reasoning summary: a heading line, then its Markdown, indented.
fn reasoning(text: &str, width: usize) -> Vec<PaneLine> {
    let mut out = vec![PaneLine::one("  ◆ reasoning", Part::ReasoningHeader)];
    let body = markdown::render(text, width.saturating_sub(4).max(8), Part::ReasoningText);
    out.extend(body.lines.into_iter().map(|mut l| {
        l.spans.insert(0, ("    ".to_owned(), Part::ReasoningText));
        l
    }));
    out
}
