//! Names inside paths, flags and identifiers, as remembered-words kinds: a person types the
//! name of a file, a flag or a part of an identifier they saw in a session, read here from the
//! session's raw message text (before it is split into words).
//!
//! Kinds (each with the session's rare word, so that it is a known item; see `remembered`):
//! - a file's stem (`rand` from `tokio/src/util/rand.rs`) or its stem and extension (`config.md`);
//! - a long flag typed as written (`--no-deps`; `--filter=sparse:oid` gives `--filter`);
//! - one part of a snake_case, camelCase or PascalCase identifier (`manifest` of
//!   `read_manifest`, `readManifest`);
//! - a folder's name inside a file's path (`reference` of `src/doc/src/reference/config.md`).
//!
//! A query's relevant sessions are those the oracle finds holding each of its words (the name
//! split as the oracle splits words: letters and digits, camelCase parts too) and the rare word.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use codex_picker::session::SessionRow;
use codex_picker::store::walk::RolloutFile;

use super::common::gen::Rng;
use super::remembered::{memorable, shuffle, words_of, Oracle, Query, Text};

/// Queries of each kind at most; sessions are read (in an order fixed from run to run) until
/// every kind has them, up to `READ` times the other kinds' sample: few sessions hold a flag.
const PER_KIND: usize = 60;
const READ: usize = 8;

pub const KINDS: [&str; 4] = [
    "file stem (+ rare word)",
    "flag (+ rare word)",
    "identifier part (+ rare word)",
    "path part (+ rare word)",
];

/// Where a text's tokens start and end: spaces, and the quotes, brackets and punctuation
/// that surround a name in prose or markdown.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || "`'\"()[]{}<>,;|*".contains(c))
        .map(|t| t.trim_end_matches(['.', ':', '!', '?']))
        .filter(|t| !t.is_empty())
}

/// A file named in a path: its folders, stem and extension.
pub struct FilePath<'a> {
    pub folders: Vec<&'a str>,
    pub stem: &'a str,
    pub ext: &'a str,
}

/// `token` as a path to a file (`a/b/name.ext`, a line number after `:` ignored; names of
/// letters, digits, `_` and `-`); not a URL.
pub fn file_path(token: &str) -> Option<FilePath<'_>> {
    if token.contains("://") {
        return None;
    }
    let token = token.split(':').next()?;
    let (dir, file) = token.rsplit_once('/')?;
    let (stem, ext) = file.split_once('.')?;
    let word =
        |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || "_-".contains(c));
    let ext_ok = (1..=5).contains(&ext.len())
        && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        && ext.bytes().any(|b| b.is_ascii_alphabetic());
    (word(stem) && ext_ok).then(|| FilePath {
        folders: dir.split('/').filter(|p| word(p)).collect(),
        stem,
        ext,
    })
}

/// `token` as a long flag (`--name`, up to an `=`), as written.
fn flag(token: &str) -> Option<&str> {
    let name = token.split('=').next()?;
    let rest = name.strip_prefix("--")?;
    let ok = rest.len() >= 2
        && rest.starts_with(|c: char| c.is_ascii_lowercase())
        && !rest.ends_with('-')
        && rest
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    ok.then_some(name)
}

/// The parts of a camelCase or PascalCase word: split where a lower-case letter is followed by
/// an upper-case one, and before the last capital of a run of capitals followed by a lower-case
/// letter (`HTTPServer` gives `HTTP`, `Server`).
pub fn camel_parts(word: &str) -> Vec<&str> {
    let cs: Vec<(usize, char)> = word.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..cs.len() {
        let (prev, c) = (cs[i - 1].1, cs[i].1);
        let next_lower = cs.get(i + 1).is_some_and(|n| n.1.is_lowercase());
        if c.is_uppercase() && (prev.is_lowercase() || (prev.is_uppercase() && next_lower)) {
            out.push(&word[start..cs[i].0]);
            start = cs[i].0;
        }
    }
    out.push(&word[start..]);
    out
}

/// The parts of `text`'s snake_case, camelCase and PascalCase identifiers, lower case (not of
/// runs with digits: they are hashes and keys more often than names).
fn identifier_parts(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for run in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        let parts: Vec<&str> = run
            .split('_')
            .filter(|p| !p.is_empty())
            .flat_map(camel_parts)
            .collect();
        let words = parts
            .iter()
            .all(|p| p.bytes().all(|b| b.is_ascii_alphabetic()));
        if parts.len() >= 2 && words {
            out.extend(parts.into_iter().map(str::to_lowercase));
        }
    }
    out
}

/// Whether a file stem is a name a person would type: each of its parts (between `_` and `-`)
/// letters then digits (`flate2`, `test_22_httpsrr`), not a generated one (`snt5fq`).
fn plain_stem(stem: &str) -> bool {
    stem.split(['_', '-']).all(|p| {
        let letters = p.trim_end_matches(|c: char| c.is_ascii_digit());
        letters.bytes().all(|b| b.is_ascii_alphabetic())
    })
}

/// The file stems a text names, as written.
pub fn file_stems(text: &str) -> impl Iterator<Item = &str> {
    tokens(text).filter_map(|t| file_path(t).map(|p| p.stem))
}

/// The names of one kind in a session's raw texts, as they would be typed (sorted, distinct).
fn names(kind: usize, rng: &mut Rng, raw: &[String]) -> Vec<String> {
    let mut out = BTreeSet::new();
    for text in raw {
        if kind == 2 {
            out.extend(
                identifier_parts(text)
                    .into_iter()
                    .filter(|p| memorable(p) && p.bytes().all(|b| b.is_ascii_alphabetic())),
            );
            continue;
        }
        for t in tokens(text) {
            match (kind, file_path(t)) {
                (0, Some(p)) if p.stem.len() >= 3 && plain_stem(p.stem) => {
                    let dotted = rng.chance(1.0 / 3.0);
                    out.insert(if dotted {
                        format!("{}.{}", p.stem, p.ext)
                    } else {
                        p.stem.to_owned()
                    });
                }
                (1, _) => out.extend(flag(t).map(str::to_owned)),
                (3, Some(p)) => {
                    let parts = p.folders.iter().map(|f| f.to_lowercase());
                    out.extend(parts.filter(|f| memorable(f)));
                }
                _ => {}
            }
        }
    }
    out.into_iter().collect()
}

/// Up to `PER_KIND` queries of each names kind (numbered from `first_kind`), from up to
/// `READ * sessions` sessions of `sample` in a shuffled order.
pub fn queries(
    sample: &[&SessionRow],
    sessions: usize,
    by_path: &HashMap<&Path, &RolloutFile>,
    files: &[RolloutFile],
    o: &Oracle,
    first_kind: usize,
) -> Vec<Query> {
    let mut rng = Rng::new(super::relevance::query_seed(13));
    let mut order = sample.to_vec();
    shuffle(&mut rng, &mut order);
    let mut counts = [0; KINDS.len()];
    let mut out = Vec::new();
    for row in order.into_iter().take(READ * sessions) {
        if counts.iter().all(|&c| c >= PER_KIND) {
            break;
        }
        let Some(file) = by_path.get(row.path.as_path()) else {
            continue;
        };
        let text = Text::read(row, file, files, o);
        for q in session_queries(&mut rng, &text.raw, &text.rare, o, first_kind) {
            let n = &mut counts[q.kind - first_kind];
            if *n < PER_KIND {
                *n += 1;
                out.push(q);
            }
        }
    }
    out
}

/// One query of each names kind for a session (kinds it cannot give are left out): `raw` its
/// messages as written, `rare` its words that at most three sessions hold. The name is one that
/// at most a tenth of the sessions hold (its rarest word).
fn session_queries(
    rng: &mut Rng,
    raw: &[String],
    rare: &[String],
    o: &Oracle,
    first_kind: usize,
) -> Vec<Query> {
    let mut out = Vec::new();
    // A name most sessions hold (`src`, `--test`) says nothing of its session.
    let telling = |name: &String| {
        let df = words_of(name).iter().map(|w| o.df(w)).min().unwrap_or(0);
        df as usize <= o.sessions() / 10
    };
    for kind in 0..KINDS.len() {
        let mut all = names(kind, rng, raw);
        all.retain(telling);
        let Some(name) = all.get(rng.below(all.len() as u64) as usize) else {
            continue;
        };
        let name_words = words_of(name);
        let others: Vec<&String> = rare.iter().filter(|r| !name_words.contains(r)).collect();
        let Some(&rare) = others.get(rng.below(others.len() as u64) as usize) else {
            continue;
        };
        let mut typed = vec![name.clone(), rare.clone()];
        if rng.chance(0.5) {
            typed.reverse();
        }
        let mut groups: Vec<Vec<String>> = name_words.into_iter().map(|w| vec![w]).collect();
        groups.push(vec![rare.clone()]);
        out.extend(o.known(first_kind + kind, typed, groups));
    }
    out
}
