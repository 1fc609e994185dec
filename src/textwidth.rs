//! Display width of text in terminal cells (CJK and emoji count two), and fitting text to a width.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// The longest prefix of `text` that fits in `max` cells, with `…` when something was cut.
pub fn truncate(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_owned();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// The longest suffix of `text` that fits in `max` cells, with a leading `…` when cut.
pub fn truncate_left(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_owned();
    }
    if max == 0 {
        return String::new();
    }
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in text.chars().rev() {
        let w = UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        tail.push(c);
        used += w;
    }
    let mut out = String::from("…");
    out.extend(tail.into_iter().rev());
    out
}

/// `text` fitted to exactly `cells` cells: truncated or padded with spaces.
pub fn fit(text: &str, cells: usize) -> String {
    let mut out = truncate(text, cells);
    let w = width(&out);
    out.extend(std::iter::repeat_n(' ', cells.saturating_sub(w)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_count_twice() {
        assert_eq!(width("日本"), 4);
        assert_eq!(truncate("日本語のテスト", 7), "日本語…");
        assert_eq!(width(&fit("日本語のテスト", 7)), 7);
        assert_eq!(fit("ab", 4), "ab  ");
        assert_eq!(truncate_left("/home/dev/work/proj", 8), "…rk/proj");
    }
}
