//! Whole words before other forms and prefixes: file stems typed alone (`rand`, as typed in the
//! box, so that the word is also a prefix), and how many of the first ten sessions `list
//! --content` gives (and the picker's one box shows) hold the stem as a whole word (by the
//! oracle, never by the search).
//!
//! The stems are those some message names as a file (`tokio/src/util/rand.rs`) that 10 to 60
//! sessions hold as a word: enough to fill ten rows with whole-word matches, few beside the
//! sessions holding only longer words it begins (`random`, `randomize`).

use codex_picker::search::fulltext::ContentIndex;

use super::common::gen::Rng;
use super::one_box::Picker;
use super::relevance::listed;
use super::remembered::{memorable, shuffle, Oracle};

/// Stems asked (fewer when the store names fewer).
const STEMS: usize = 40;

/// Print the mean share of whole-word matches among the first ten results, over the stems,
/// and the share of stems whose ten first results all hold it.
pub fn figure(content: &ContentIndex, picker: &mut Picker, o: &Oracle) {
    let mut stems: Vec<&String> = o
        .stems
        .iter()
        .filter(|s| s.bytes().all(|b| b.is_ascii_lowercase()) && memorable(s))
        .filter(|s| (10..=60).contains(&o.df(s)))
        .collect();
    stems.sort();
    shuffle(&mut Rng::new(17), &mut stems);
    stems.truncate(STEMS);
    // (share, stems with all ten) for list --content and the one box.
    let mut figures = [(0.0, 0); 2];
    for stem in &stems {
        let shown = [listed(content, stem), picker.top(stem, 10)];
        for (mode, ids) in shown.iter().enumerate() {
            let whole = ids.iter().filter(|id| o.holds(id, stem)).count();
            figures[mode].0 += whole as f64 / ids.len().max(1) as f64;
            figures[mode].1 += usize::from(ids.len() == 10 && whole == 10);
            if whole < ids.len() && std::env::var_os("BENCH_MISSES").is_some() {
                let by = ["list --content", "one box"][mode];
                println!("whole word first, {by}: {stem:?} {whole} of {}", ids.len());
            }
        }
    }
    let n = stems.len().max(1) as f64;
    let [(l, l10), (b, b10)] = figures;
    println!(
        "\n| whole word first: file stems typed alone | stems | list --content: share of the first 10 holding the whole word | stems with all 10 | one box: share | stems with all 10 |\n|---|---|---|---|---|---|\n| held as a word by 10-60 sessions | {} | {:.3} | {:.3} | {:.3} | {:.3} |",
        stems.len(),
        l / n,
        l10 as f64 / n,
        b / n,
        b10 as f64 / n
    );
}
