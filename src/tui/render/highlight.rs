//! Code blocks highlighted by their info string, with syntect's grammars (the set bat and
//! delta use; TypeScript is read with the JavaScript grammar, which the set lacks). Only the
//! grammars are used, never syntect's themes: each token's scope is mapped to a [`Code`] kind and
//! the picker's theme styles it, so `NO_COLOR` and the colour theme stay one table.
//!
//! Highlighting costs about 20 µs a line (Oniguruma regexes), so the pane does it lazily: a
//! block is highlighted when it first comes on screen, once.

use std::sync::OnceLock;

use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};

use super::{Code, Part, Run};

/// Lines of one block highlighted; the rest of a longer block stays plain.
pub(crate) const MAX_LINES: usize = 5000;
/// A line longer than this is left plain (a grammar can be slow on one giant line).
const MAX_LINE_BYTES: usize = 4096;

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// The scope prefixes that decide a token's kind, most specific first.
fn kinds() -> &'static [(Scope, Code)] {
    static KINDS: OnceLock<Vec<(Scope, Code)>> = OnceLock::new();
    KINDS.get_or_init(|| {
        [
            ("comment", Code::Comment),
            ("string", Code::String),
            ("constant.numeric", Code::Number),
            ("constant.character.escape", Code::String),
            ("constant", Code::Constant),
            ("markup.inserted", Code::Inserted),
            ("markup.deleted", Code::Deleted),
            ("meta.diff", Code::DiffMeta),
            ("markup.changed", Code::DiffMeta),
            ("entity.name.function", Code::Function),
            ("support.function", Code::Function),
            ("variable.function", Code::Function),
            ("entity.name.type", Code::Type),
            ("entity.name.class", Code::Type),
            ("entity.name.struct", Code::Type),
            ("entity.name.enum", Code::Type),
            ("support.type", Code::Type),
            ("support.class", Code::Type),
            ("storage.type", Code::Keyword),
            ("storage.modifier", Code::Keyword),
            ("keyword.operator", Code::Plain),
            ("keyword", Code::Keyword),
            ("variable.language", Code::Constant),
        ]
        .into_iter()
        .filter_map(|(s, k)| Some((Scope::new(s).ok()?, k)))
        .collect()
    })
}

/// The grammar for a fenced block's info string (`rust`, `py`, `ts`, `sh`, `diff`, ...).
pub(crate) fn grammar(info: &str) -> Option<&'static SyntaxReference> {
    let lang = info
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
        .next()?
        .trim_start_matches('.')
        .to_ascii_lowercase();
    let token = match lang.as_str() {
        "" | "text" | "txt" | "plain" | "plaintext" | "output" => return None,
        "ts" | "tsx" | "typescript" | "jsx" | "mjs" | "cjs" | "javascript" | "node" => "js",
        "shell" | "console" | "zsh" | "bash" | "sh" | "shellsession" => "bash",
        "py" | "python3" | "py3" => "python",
        "rs" => "rust",
        "golang" => "go",
        "jsonc" | "jsonl" | "json5" => "json",
        "patch" | "udiff" => "diff",
        "yml" => "yaml",
        other => other,
    };
    let set = syntaxes();
    set.find_syntax_by_token(token)
}

/// The kind of the token under `stack`: its innermost scope that names one.
fn kind_of(stack: &ScopeStack) -> Code {
    for scope in stack.as_slice().iter().rev() {
        if let Some((_, k)) = kinds().iter().find(|(p, _)| p.is_prefix_of(*scope)) {
            return *k;
        }
    }
    Code::Plain
}

/// Each line of `source` (already safe for the terminal) as runs of code kinds.
pub(crate) fn highlight(source: &str, grammar: &SyntaxReference) -> Vec<Vec<Run>> {
    let set = syntaxes();
    let mut state = ParseState::new(grammar);
    let mut stack = ScopeStack::new();
    let mut out = Vec::new();
    let mut plain_from_here = false;
    for (n, line) in source.split('\n').enumerate() {
        if plain_from_here || n >= MAX_LINES || line.len() > MAX_LINE_BYTES {
            // The parser's state is lost past a line it did not see: the rest stays plain.
            plain_from_here = true;
            out.push(vec![(line.to_owned(), Part::Code(Code::Plain))]);
            continue;
        }
        let with_newline = format!("{line}\n");
        let Ok(ops) = state.parse_line(&with_newline, set) else {
            plain_from_here = true;
            out.push(vec![(line.to_owned(), Part::Code(Code::Plain))]);
            continue;
        };
        let mut runs: Vec<Run> = Vec::new();
        let mut at = 0;
        let push = |text: &str, kind: Code, runs: &mut Vec<Run>| {
            if text.is_empty() {
                return;
            }
            match runs.last_mut() {
                Some((s, Part::Code(k))) if *k == kind => s.push_str(text),
                _ => runs.push((text.to_owned(), Part::Code(kind))),
            }
        };
        for (pos, op) in ops {
            let pos = pos.min(line.len());
            if pos > at && line.is_char_boundary(pos) {
                push(&line[at..pos], kind_of(&stack), &mut runs);
                at = pos;
            }
            if stack.apply(&op).is_err() {
                break;
            }
        }
        push(&line[at..], kind_of(&stack), &mut runs);
        if runs.is_empty() {
            runs.push((String::new(), Part::Code(Code::Plain)));
        }
        out.push(runs);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds_of(lines: &[Vec<Run>], word: &str) -> Vec<Code> {
        lines
            .iter()
            .flatten()
            .filter(|(s, _)| s.contains(word))
            .filter_map(|(_, p)| match p {
                Part::Code(k) => Some(*k),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn rust_keywords_strings_and_comments_are_told_apart() {
        let g = grammar("rust").expect("rust grammar");
        let lines = highlight("fn main() {\n    let s = \"hi\"; // note\n}", g);
        assert_eq!(lines.len(), 3);
        assert!(kinds_of(&lines, "fn").contains(&Code::Keyword));
        assert!(kinds_of(&lines, "hi").contains(&Code::String));
        assert!(kinds_of(&lines, "note").contains(&Code::Comment));
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.iter().map(|(s, _)| s.as_str()).collect())
            .collect();
        assert_eq!(
            text,
            vec!["fn main() {", "    let s = \"hi\"; // note", "}"]
        );
    }

    #[test]
    fn every_asked_language_has_a_grammar() {
        for info in [
            "rust",
            "python",
            "py",
            "ts",
            "typescript",
            "javascript",
            "js",
            "go",
            "sh",
            "bash",
            "json",
            "diff",
        ] {
            assert!(grammar(info).is_some(), "{info}");
        }
        assert!(grammar("text").is_none());
        assert!(grammar("").is_none());
        assert!(grammar("no-such-language").is_none());
    }

    #[test]
    fn a_diff_shows_added_and_removed_lines() {
        let g = grammar("diff").unwrap();
        let lines = highlight("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new", g);
        assert!(kinds_of(&lines, "old").contains(&Code::Deleted));
        assert!(kinds_of(&lines, "new").contains(&Code::Inserted));
    }
}
