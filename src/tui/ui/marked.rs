//! A text cut to a width with the characters a search matched in their own style.

use ratatui::text::Span;
use unicode_width::UnicodeWidthChar;

/// `text` as spans in at most `max` cells, characters at `marks` (char offsets, sorted) in
/// `hit`, the rest in `base`; `…` when cut. Returns the spans and the cells used.
pub(crate) fn marked<'a>(
    text: &str,
    marks: &[usize],
    max: usize,
    base: ratatui::style::Style,
    hit: ratatui::style::Style,
) -> (Vec<Span<'a>>, usize) {
    let total: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    let limit = if total > max {
        max.saturating_sub(1)
    } else {
        max
    };
    let mut spans = Vec::new();
    let mut cur = String::new();
    let mut cur_hit = false;
    let mut used = 0;
    for (i, c) in text.chars().enumerate() {
        let w = c.width().unwrap_or(0);
        if used + w > limit {
            break;
        }
        let is_hit = marks.binary_search(&i).is_ok();
        if is_hit != cur_hit && !cur.is_empty() {
            spans.push(Span::styled(
                std::mem::take(&mut cur),
                if cur_hit { hit } else { base },
            ));
        }
        cur_hit = is_hit;
        cur.push(c);
        used += w;
    }
    if total > max && max > 0 {
        if cur_hit && !cur.is_empty() {
            spans.push(Span::styled(std::mem::take(&mut cur), hit));
            cur_hit = false;
        }
        cur.push('…');
        used += 1;
    }
    if !cur.is_empty() {
        spans.push(Span::styled(cur, if cur_hit { hit } else { base }));
    }
    (spans, used)
}
