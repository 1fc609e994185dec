//! Wrapping styled text to a width in display cells (CJK and emoji are two cells, combining
//! marks none): at spaces when a word fits, inside a word longer than the line, and at every
//! `\n`. Each line comes out at most `width` cells, with its pieces' parts kept.

use unicode_width::UnicodeWidthChar;

use super::{Part, Run};

fn cells(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// Collects characters into a line of runs, merging neighbours of the same part.
#[derive(Default)]
struct LineBuf {
    runs: Vec<Run>,
    used: usize,
}

impl LineBuf {
    fn push(&mut self, c: char, part: Part) {
        match self.runs.last_mut() {
            Some((s, p)) if *p == part => s.push(c),
            _ => self.runs.push((c.to_string(), part)),
        }
        self.used += cells(c);
    }

    /// The line so far, without trailing spaces; the buffer starts over.
    fn take(&mut self) -> Vec<Run> {
        let mut runs = std::mem::take(&mut self.runs);
        while let Some((s, _)) = runs.last_mut() {
            let kept = s.trim_end_matches(' ').len();
            if kept > 0 {
                s.truncate(kept);
                break;
            }
            runs.pop();
        }
        self.used = 0;
        runs
    }
}

/// The characters of `runs` with their parts, split into words: a word is its non-space
/// characters followed by the spaces after them.
fn words(runs: &[Run]) -> Vec<Vec<(char, Part)>> {
    let mut out: Vec<Vec<(char, Part)>> = Vec::new();
    let mut word: Vec<(char, Part)> = Vec::new();
    let mut in_spaces = false;
    for (text, part) in runs {
        for c in text.chars() {
            if c == '\n' {
                out.push(std::mem::take(&mut word));
                out.push(vec![('\n', *part)]);
                in_spaces = false;
                continue;
            }
            if c != ' ' && in_spaces {
                out.push(std::mem::take(&mut word));
                in_spaces = false;
            }
            in_spaces |= c == ' ';
            word.push((c, *part));
        }
    }
    out.push(word);
    out.retain(|w| !w.is_empty());
    out
}

/// Wrap `runs` to `width` cells at spaces (inside a word only when it is longer than a line).
/// Always at least one line.
pub(crate) fn wrap_runs(runs: &[Run], width: usize) -> Vec<Vec<Run>> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = LineBuf::default();
    for word in words(runs) {
        if word[0].0 == '\n' {
            lines.push(line.take());
            continue;
        }
        let w: usize = word.iter().map(|&(c, _)| cells(c)).sum();
        let trailing = word.iter().rev().take_while(|(c, _)| *c == ' ').count();
        if line.used > 0 && line.used + w - trailing > width {
            lines.push(line.take());
        }
        for &(c, part) in &word {
            let cw = cells(c);
            if line.used + cw > width {
                if c == ' ' {
                    continue;
                }
                lines.push(line.take());
            }
            if c == ' ' && line.used == 0 && !lines.is_empty() {
                continue;
            }
            line.push(c, part);
        }
    }
    lines.push(line.take());
    lines
}

/// Cut `runs` into lines of at most `width` cells with every character kept (spaces too): for
/// code. A line breaks after its last space when that is in the line's second half, else at
/// the width. Where it breaks depends on the characters only, never on their parts, so the
/// same text always takes the same lines, highlighted or not.
pub(crate) fn wrap_hard(runs: &[Run], width: usize) -> Vec<Vec<Run>> {
    let width = width.max(2);
    let chars: Vec<(char, Part)> = runs
        .iter()
        .flat_map(|(s, p)| s.chars().map(move |c| (c, *p)))
        .collect();
    let mut lines = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let (mut end, mut used, mut space) = (start, 0, None);
        while end < chars.len() && used + cells(chars[end].0) <= width {
            used += cells(chars[end].0);
            if chars[end].0 == ' ' && used * 2 > width {
                space = Some(end + 1);
            }
            end += 1;
        }
        if end < chars.len() {
            end = space.unwrap_or(end).max(start + 1);
        }
        let mut line = LineBuf::default();
        for &(c, p) in &chars[start..end] {
            line.push(c, p);
        }
        lines.push(line.runs);
        start = end;
    }
    if lines.is_empty() {
        lines.push(Vec::new());
    }
    lines
}

/// Wrap plain text to `width` cells (see [`wrap_runs`]).
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    wrap_runs(&[(text.to_owned(), Part::Notice)], width)
        .into_iter()
        .map(|l| l.into_iter().map(|(s, _)| s).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::textwidth::width;

    #[test]
    fn wraps_at_spaces_and_inside_long_words() {
        assert_eq!(wrap("aaa bbb ccc", 7), vec!["aaa bbb", "ccc"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("a\n\nb", 4), vec!["a", "", "b"]);
        assert_eq!(wrap("", 4), vec![""]);
    }

    #[test]
    fn wide_characters_never_overflow() {
        let text = "日本語のテキストと絵文字🚀🚀🚀が混ざった長い行です";
        for w in 2..12 {
            for line in wrap(text, w) {
                assert!(width(&line) <= w, "{line:?} at {w}");
            }
        }
        let joined: String = wrap(text, 5).concat();
        assert_eq!(joined, text, "nothing lost");
    }

    #[test]
    fn parts_are_kept_across_a_break() {
        let runs = vec![
            ("see ".to_owned(), Part::AssistantText),
            ("the bold words".to_owned(), Part::Strong),
            (" here".to_owned(), Part::AssistantText),
        ];
        let lines = wrap_runs(&runs, 10);
        assert_eq!(
            lines,
            vec![
                vec![
                    ("see ".to_owned(), Part::AssistantText),
                    ("the".to_owned(), Part::Strong)
                ],
                vec![("bold words".to_owned(), Part::Strong)],
                vec![("here".to_owned(), Part::AssistantText)],
            ]
        );
    }

    #[test]
    fn hard_wrap_keeps_every_character() {
        let runs = vec![(
            "    let x = 1;".to_owned(),
            Part::Code(super::super::Code::Plain),
        )];
        let lines = wrap_hard(&runs, 6);
        let text: String = lines.iter().flatten().map(|(s, _)| s.as_str()).collect();
        assert_eq!(text, "    let x = 1;");
        assert!(lines
            .iter()
            .all(|l| l.iter().map(|(s, _)| width(s)).sum::<usize>() <= 6));
    }
}
