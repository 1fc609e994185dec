//! What a session changed and used, as facts of the pane's header: its changed files (how
//! many, the first few, all of them when every tool call is expanded), its tokens (a fork's
//! own) and the models it ran on (on the tokens' line), and its cost when the config file prices its model. Pure.

use crate::prices::{self, Prices};
use crate::rollout::usage::{ChangedFiles, FileRef, Usage};
use crate::tui::numbers::thousands;

/// Changed files named in the header before "+N more".
const FIRST_FILES: usize = 3;

/// The header's facts about `usage`: (key, value) pairs, a key left empty on a line that goes
/// on the one above. `cwd` shortens the paths in it; `(all, key)`: list every file, one a
/// line, and the key that does it; a fork's tokens are said to be its own.
pub(super) fn facts(
    usage: &Usage,
    cwd: Option<&str>,
    all: (bool, &str),
    fork: bool,
    prices: &Prices,
) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    files(&mut out, &usage.files, cwd, all);
    let models = usage.models.join(", ");
    if let Some(t) = &usage.tokens {
        let own = if fork { " (this fork's own)" } else { "" };
        let on = if models.is_empty() {
            String::new()
        } else {
            format!(" · {models}")
        };
        out.push((
            "tokens",
            format!(
                "{} · input {} ({} cached) · output {} ({} reasoning){own}{on}",
                thousands(t.total),
                thousands(t.input),
                thousands(t.cached_input),
                thousands(t.output),
                thousands(t.reasoning)
            ),
        ));
        if let Some(cost) = prices::cost(t, &usage.models, prices) {
            // A cent or more in cents; less with the digits that say how much.
            let digits = if cost >= 0.01 { 2 } else { 4 };
            out.push((
                "cost",
                format!("${cost:.digits$} at the prices in your config"),
            ));
        }
    }
    if usage.tokens.is_none() && !models.is_empty() {
        out.push(("model", models));
    }
    out
}

fn files(
    out: &mut Vec<(&'static str, String)>,
    files: &ChangedFiles,
    cwd: Option<&str>,
    (all, expand_all): (bool, &str),
) {
    if files.is_empty() {
        return;
    }
    let n = files.len();
    let head = if n == 1 {
        "1 file".to_owned()
    } else {
        format!("{} files", thousands(n as u64))
    };
    if all {
        out.push(("changed", head));
        out.extend(files.iter().map(|f| ("", one(f, cwd))));
        return;
    }
    let first: Vec<String> = files
        .iter()
        .take(FIRST_FILES)
        .map(|f| one(f, cwd))
        .collect();
    let mut text = format!("{head}: {}", first.join(", "));
    if n > FIRST_FILES {
        text.push_str(&format!(
            " +{} more ({expand_all} lists them)",
            thousands((n - FIRST_FILES) as u64)
        ));
    }
    out.push(("changed", text));
}

/// `M src/main.rs`, `R old.py → new.py`: the path below `cwd` when it is there.
fn one(file: FileRef, cwd: Option<&str>) -> String {
    let short = |p: &str| -> String {
        cwd.and_then(|c| p.strip_prefix(c.trim_end_matches('/')))
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(p)
            .to_owned()
    };
    let mut text = format!("{} {}", file.change.letter(), short(file.path));
    if let Some(to) = file.to {
        text.push_str(&format!(" → {}", short(to)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prices::Price;
    use crate::rollout::usage::{Change, ChangedFile, Tokens};

    fn usage(n: usize) -> Usage {
        Usage {
            files: (0..n)
                .map(|i| ChangedFile {
                    path: format!("/w/p/f{i}.rs"),
                    change: if i == 1 {
                        Change::Rename
                    } else {
                        Change::Modify
                    },
                    to: (i == 1).then(|| "/w/p/g.rs".to_owned()),
                })
                .collect(),
            tokens: Some(Tokens {
                input: 12_000,
                cached_input: 2_000,
                output: 300,
                reasoning: 100,
                total: 12_300,
            }),
            models: vec!["gpt-5.5".into()],
            ..Usage::default()
        }
    }

    #[test]
    fn the_first_files_then_how_many_more_or_every_one() {
        let few = facts(&usage(5), Some("/w/p"), (false, "E"), false, &Prices::new());
        assert_eq!(
            few[0],
            (
                "changed",
                "5 files: M f0.rs, R f1.rs → g.rs, M f2.rs +2 more (E lists them)".into()
            )
        );
        assert_eq!(
            few[1],
            (
                "tokens",
                "12,300 · input 12,000 (2,000 cached) · output 300 (100 reasoning) · gpt-5.5"
                    .into()
            )
        );
        assert_eq!(few.len(), 2);
        let every = facts(&usage(5), None, (true, "E"), true, &Prices::new());
        assert_eq!(every[0], ("changed", "5 files".into()));
        assert_eq!(every[5], ("", "M /w/p/f4.rs".into()));
        assert!(every[6].1.ends_with("(this fork's own) · gpt-5.5"));
        let untold = Usage {
            tokens: None,
            ..usage(0)
        };
        let model = facts(&untold, None, (false, "E"), false, &Prices::new());
        assert_eq!(model, [("model", "gpt-5.5".to_owned())]);
    }

    #[test]
    fn a_cost_only_with_a_price_for_its_model() {
        let mut prices = Prices::new();
        prices.insert(
            "gpt-5.5".into(),
            Price {
                input: 2.0,
                cached_input: None,
                output: 10.0,
            },
        );
        let with = facts(&usage(0), None, (false, "E"), false, &prices);
        // 12,000 input at $2 and 300 output at $10 a million.
        assert_eq!(
            with[1],
            ("cost", "$0.03 at the prices in your config".into())
        );
        let without = facts(&usage(0), None, (false, "E"), false, &Prices::new());
        assert!(without.iter().all(|(k, _)| *k != "cost"));
    }
}
