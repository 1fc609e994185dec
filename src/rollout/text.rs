//! Small text helpers of the reading rules: a prefix cut on a char boundary, the cap on how
//! much of a long text a row keeps, and message content flattened to its text.

use serde_json::Value;

/// Flatten message content: a string as is; an array gives the string `text` of each block,
/// skipping empty ones, joined with `\n`; anything else gives nothing. Not trimmed.
pub(crate) fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => {
            let mut out = String::new();
            for text in blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .filter(|t| !t.is_empty())
            {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(text);
            }
            out
        }
        _ => String::new(),
    }
}

/// The largest prefix of `text` of at most `max` bytes that ends on a char boundary.
pub(crate) fn clip(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// How much of a long text a row keeps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cap(pub(crate) Option<usize>);

impl Cap {
    /// `text` cut to the cap on a char boundary, and the bytes cut.
    pub(crate) fn cut(self, mut text: String) -> (String, u64) {
        let Some(max) = self.0.filter(|&max| text.len() > max) else {
            return (text, 0);
        };
        let kept = clip(&text, max).len();
        let elided = (text.len() - kept) as u64;
        text.truncate(kept);
        text.shrink_to_fit();
        (text, elided)
    }

    /// [`Cap::cut`] of a borrowed text: only the kept part is copied.
    pub(crate) fn cut_str(self, text: &str) -> (String, u64) {
        let kept = self.0.map_or(text, |max| clip(text, max));
        (kept.to_owned(), (text.len() - kept.len()) as u64)
    }

    /// `text` cut to the cap, a cut marked by a closing `…` (for a field that has no count).
    pub(crate) fn mark(self, text: String) -> String {
        match self.cut(text) {
            (mut text, elided) if elided > 0 => {
                text.push('…');
                text
            }
            (text, _) => text,
        }
    }
}
