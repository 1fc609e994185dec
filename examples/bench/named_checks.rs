//! Three named queries of real sessions and where their sessions land: a name met only inside
//! a path and a flag, with another form (`deps referencing prominent`), three whole words of a
//! first prompt among prompts holding their other forms and prefixes (`fix refactor tests`),
//! and a file stem among the many longer words it begins (`rand`).
//!
//! The sessions each query is about are found by the oracle (the words every session holds),
//! never by the search under test; on a store that has none, the line says so.

use std::collections::HashSet;

use codex_picker::search::filter;
use codex_picker::search::fulltext::ContentIndex;
use codex_picker::session::SessionRow;
use codex_picker::store::walk::RolloutFile;

use super::one_box::Picker;
use super::relevance::{listed, messages};
use super::remembered::{words_of, Oracle};

/// Results looked at for a rank.
const DEPTH: usize = 1000;

fn groups(words: &[&[&str]]) -> Vec<Vec<String>> {
    words
        .iter()
        .map(|g| g.iter().map(|w| (*w).to_owned()).collect())
        .collect()
}

/// Where the first of `relevant` lands for `query`, in `list --content` and in the one box.
fn rank_line(content: &ContentIndex, picker: &mut Picker, query: &str, relevant: &HashSet<String>) {
    if relevant.is_empty() {
        println!("{query:?}: no session of this store is about it");
        return;
    }
    let split = filter::split(query, codex_picker::timefmt::now_ms());
    let listed: Vec<String> = content
        .search(&split.words, DEPTH)
        .into_iter()
        .map(|h| h.id)
        .collect();
    let boxed = picker.top(query, 100);
    let at = |ids: &[String]| match ids.iter().position(|id| relevant.contains(id)) {
        Some(r) => format!("{} of {}", r + 1, ids.len()),
        None => format!("not found in {}", ids.len()),
    };
    println!(
        "{query:?}: list --content {}, one box {} (sessions about it: {})",
        at(&listed),
        at(&boxed),
        relevant.len()
    );
}

/// The sessions whose first prompt holds every one of `words` as a word.
fn first_prompt_holders(
    o: &Oracle,
    rows: &[SessionRow],
    files: &[RolloutFile],
    words: &[&str],
) -> HashSet<String> {
    let candidates = o.holders(&groups(
        &words.iter().map(std::slice::from_ref).collect::<Vec<_>>(),
    ));
    rows.iter()
        .filter(|r| candidates.contains(&r.id))
        .filter(|r| {
            let Some(file) = files.iter().find(|f| f.path == r.path) else {
                return false;
            };
            let first = messages(file, files)[0].first().map(|t| words_of(t));
            first.is_some_and(|ws| words.iter().all(|w| ws.iter().any(|x| x == w)))
        })
        .map(|r| r.id.clone())
        .collect()
}

/// Print the three named checks.
pub fn print(
    content: &ContentIndex,
    picker: &mut Picker,
    o: &Oracle,
    rows: &[SessionRow],
    files: &[RolloutFile],
) {
    println!("\nnamed checks:");
    let reference: &[&str] = &["reference", "references", "referenced", "referencing"];
    let deps = o.holders(&groups(&[&["deps"], &["prominent"], reference]));
    rank_line(content, picker, "deps referencing prominent", &deps);
    let fix = first_prompt_holders(o, rows, files, &["fix", "refactor", "tests"]);
    rank_line(content, picker, "fix refactor tests", &fix);
    let whole = |ids: &[String]| ids.iter().filter(|id| o.holds(id, "rand")).count();
    let listed = listed(content, "rand");
    let boxed = picker.top("rand", 10);
    println!(
        "\"rand\": of the first ten, list --content {} of {}, one box {} of {} hold the whole word (sessions holding it: {})",
        whole(&listed),
        listed.len(),
        whole(&boxed),
        boxed.len(),
        o.df("rand")
    );
}
