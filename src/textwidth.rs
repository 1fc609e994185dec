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
    let mut out: String = fitting(text.chars(), max).collect();
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
    let tail: Vec<char> = fitting(text.chars().rev(), max).collect();
    std::iter::once('…').chain(tail.into_iter().rev()).collect()
}

/// The first of `chars` that fit in `max - 1` cells together, leaving a cell for `…`.
fn fitting(chars: impl Iterator<Item = char>, max: usize) -> impl Iterator<Item = char> {
    let mut used = 0;
    chars.take_while(move |&c| {
        used += UnicodeWidthChar::width(c).unwrap_or(0);
        used < max
    })
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
