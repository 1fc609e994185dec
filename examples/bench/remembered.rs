//! Remembered-words relevance: queries made the way a person remembers a session, from its own
//! text, and the sessions each one is about, known exactly.
//!
//! A person remembers one word that few sessions hold (a name, a number, an odd identifier)
//! and a few ordinary words around it. So every query holds one word of its session that at most
//! three sessions of the store hold, plus words of the place the kind says, and its relevant
//! sessions are those that hold every word of it (any form the kind allows), counted by a table
//! of every session's words read here from the files (its messages, by the transcript rule, and
//! its folder, branch and name), never by the search under test. A query more than three
//! sessions hold is not a known item and is not asked.
//!
//! The table's words are runs of letters and digits, lower case, and also the parts of a
//! camelCase or PascalCase word (`readManifest` holds readmanifest, read and manifest), as the
//! index splits names; snake_case is split already (`_` is not a letter).
//!
//! Kinds: words of one message shuffled; a word of the first prompt with words of a reply (no one
//! message holds them all); the same with a typo; a word in another form than the session has it;
//! four words from anywhere in the first prompt; the folder's last part typed as a word; and
//! names inside paths, flags and identifiers (see `names`).

use std::collections::{HashMap, HashSet};

use codex_picker::session::SessionRow;
use codex_picker::store::walk::RolloutFile;

use super::common::gen::Rng;
use super::names;
use super::relevance::messages;

/// The kinds made here; the names kinds (`names::KINDS`) follow them.
pub const KINDS: [&str; 6] = [
    "one message, shuffled",
    "prompt + reply",
    "prompt + reply, a typo",
    "another word form",
    "4 words of the first prompt",
    "folder typed bare",
];

/// Words nobody remembers a session by.
const STOP: &[&str] = &[
    "the", "and", "a", "an", "of", "to", "in", "is", "was", "it", "this", "that", "for", "with",
    "on", "why", "does", "what", "you", "we", "could", "please", "when", "then", "also", "my",
    "after", "so", "like", "out", "find", "make", "sure", "see", "below", "keep",
];

/// One query and the ids of the sessions it is about.
pub struct Query {
    pub kind: usize,
    pub text: String,
    pub relevant: HashSet<String>,
}

/// Every session's words (lower case, letters and digits), and how many sessions hold each.
pub struct Oracle {
    ids: Vec<String>,
    words: Vec<HashSet<String>>,
    df: HashMap<String, u32>,
    at: HashMap<String, usize>,
    /// Every file stem the messages name (as written).
    pub stems: HashSet<String>,
}

/// Words of `text` as a person reads them: runs of letters and digits, lower case.
pub fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The oracle's words of `text`: its words (`words_of`) and the parts of its camelCase and
/// PascalCase words, lower case.
fn table_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .flat_map(|w| {
            let parts = names::camel_parts(w);
            let parts = if parts.len() > 1 { parts } else { Vec::new() };
            std::iter::once(w).chain(parts).map(str::to_lowercase)
        })
}

/// The words of a row's folder, branch and name.
fn label_words(row: &SessionRow) -> Vec<String> {
    [&row.meta.cwd, &row.meta.git_branch, &row.name]
        .into_iter()
        .flatten()
        .flat_map(|t| table_words(t))
        .collect()
}

impl Oracle {
    /// Read every session of `rows` on `threads` threads.
    pub fn build(rows: &[SessionRow], files: &[RolloutFile], threads: usize) -> Oracle {
        let by_path: HashMap<&std::path::Path, &RolloutFile> =
            files.iter().map(|f| (f.path.as_path(), f)).collect();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let read = |row: &SessionRow| {
            let mut set: HashSet<String> = label_words(row).into_iter().collect();
            let mut stems = HashSet::new();
            if let Some(file) = by_path.get(row.path.as_path()) {
                for t in messages(file, files).iter().flatten() {
                    set.extend(table_words(t));
                    stems.extend(names::file_stems(t).map(str::to_owned));
                }
            }
            (set, stems)
        };
        type Read = (HashSet<String>, HashSet<String>);
        let mut words: Vec<Option<HashSet<String>>> = vec![None; rows.len()];
        let mut stems = HashSet::new();
        let parts: Vec<Vec<(usize, Read)>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads.max(1))
                .map(|_| {
                    s.spawn(|| {
                        let mut mine = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(row) = rows.get(i) else { break };
                            mine.push((i, read(row)));
                        }
                        mine
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("reader"))
                .collect()
        });
        for (i, (set, named)) in parts.into_iter().flatten() {
            words[i] = Some(set);
            stems.extend(named);
        }
        let words: Vec<HashSet<String>> =
            words.into_iter().map(Option::unwrap_or_default).collect();
        let mut df: HashMap<String, u32> = HashMap::new();
        for set in &words {
            for w in set {
                *df.entry(w.clone()).or_default() += 1;
            }
        }
        Oracle {
            ids: rows.iter().map(|r| r.id.clone()).collect(),
            at: rows
                .iter()
                .enumerate()
                .map(|(i, r)| (r.id.clone(), i))
                .collect(),
            words,
            df,
            stems,
        }
    }

    /// How many sessions the table holds.
    pub fn sessions(&self) -> usize {
        self.ids.len()
    }

    /// How many sessions hold `word`.
    pub fn df(&self, word: &str) -> u32 {
        self.df.get(word).copied().unwrap_or(0)
    }

    /// Whether the session `id` holds `word` (lower case) as a word of the table.
    pub fn holds(&self, id: &str, word: &str) -> bool {
        self.at
            .get(id)
            .is_some_and(|&i| self.words[i].contains(word))
    }

    /// The query `words` of `kind` when it is a known item: 1 to 3 sessions hold, for every
    /// group, one of its words.
    pub fn known(
        &self,
        kind: usize,
        words: Vec<String>,
        groups: Vec<Vec<String>>,
    ) -> Option<Query> {
        let relevant = self.holders(&groups);
        (1..=3).contains(&relevant.len()).then(|| Query {
            kind,
            text: words.join(" "),
            relevant,
        })
    }

    /// The sessions that hold, for every group, one of its words.
    pub fn holders(&self, groups: &[Vec<String>]) -> HashSet<String> {
        self.words
            .iter()
            .zip(&self.ids)
            .filter(|(set, _)| groups.iter().all(|g| g.iter().any(|w| set.contains(w))))
            .map(|(_, id)| id.clone())
            .collect()
    }
}

/// A word a person might remember: three letters or more (or digits), not a stop word, ASCII.
pub fn memorable(w: &str) -> bool {
    w.is_ascii() && (w.len() >= 3 || w.bytes().all(|b| b.is_ascii_digit())) && !STOP.contains(&w)
}

fn pick<'a, T>(rng: &mut Rng, xs: &'a [T]) -> Option<&'a T> {
    (!xs.is_empty()).then(|| &xs[rng.below(xs.len() as u64) as usize])
}

pub fn shuffle<T>(rng: &mut Rng, xs: &mut [T]) {
    for i in (1..xs.len()).rev() {
        xs.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// Up to `n` distinct memorable words of `from`, none of `not`, in random order.
fn some_words(rng: &mut Rng, from: &[String], not: &[String], n: usize) -> Vec<String> {
    let mut pool: Vec<String> = from
        .iter()
        .filter(|w| memorable(w) && !not.contains(w))
        .cloned()
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    pool.sort();
    shuffle(rng, &mut pool);
    pool.truncate(n);
    pool
}

/// One typing slip in `word`: two letters swapped, one dropped, or one doubled.
fn typo(rng: &mut Rng, word: &str) -> String {
    let mut c: Vec<char> = word.chars().collect();
    let at = 1 + rng.below(c.len() as u64 - 2) as usize;
    match rng.below(3) {
        0 => c.swap(at, at + 1),
        1 => drop(c.remove(at)),
        _ => c.insert(at, c[at]),
    }
    c.into_iter().collect()
}

/// Another English form of `word` a person would type: plural or singular, -ing or -ed of a
/// verb, by the usual spelling rules. A word already inflected is undone (`applied` gives apply
/// or applying, `deleted` deleting), and since the rules alone also make non-words (`nothing`
/// is not noth + ing), a form counts only when three sessions of the store or more hold it (one
/// or two may hold a slip: `poped`).
fn other_form(rng: &mut Rng, word: &str, o: &Oracle) -> Option<String> {
    let cut = |n: usize| word[..word.len() - n].to_owned();
    // `stopped`, `running`: the consonant doubled before the ending, undone.
    let b = word.as_bytes();
    let doubled = |n: usize| b.len() > n + 1 && b[b.len() - n - 1] == b[b.len() - n - 2];
    let undoubled = |n: usize| {
        if doubled(n) {
            cut(n + 1)
        } else {
            String::new()
        }
    };
    let forms: Vec<String> = if word.ends_with("ies") || word.ends_with("ied") {
        vec![cut(3) + "y", cut(3) + "ying"]
    } else if word.ends_with("ed") && !word.ends_with("eed") {
        vec![cut(2), cut(1), cut(2) + "ing", undoubled(2)]
    } else if word.ends_with("ing") {
        vec![cut(3), cut(3) + "e", cut(3) + "ed", undoubled(3)]
    } else if word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") {
        // -es only after the sounds that take it (`fixes`, `matches`; not `comes`).
        let sibilant = ["ses", "xes", "zes", "ches", "shes"]
            .iter()
            .any(|e| word.ends_with(e));
        vec![cut(if sibilant { 2 } else { 1 })]
    } else if let Some(base) = word.strip_suffix('y') {
        vec![
            format!("{base}ies"),
            format!("{base}ied"),
            format!("{word}s"),
            format!("{word}ing"),
        ]
    } else if let Some(base) = word.strip_suffix('e') {
        vec![format!("{word}s"), format!("{word}d"), format!("{base}ing")]
    } else {
        let es = ["s", "x", "ch", "sh"].iter().any(|e| word.ends_with(e));
        let plural = if es { "es" } else { "s" };
        vec![
            word.to_owned() + plural,
            word.to_owned() + "ed",
            word.to_owned() + "ing",
        ]
    };
    let real: Vec<String> = forms
        .into_iter()
        .filter(|f| f.len() >= 3 && f != word && o.df(f) >= 3)
        .collect();
    pick(rng, &real).cloned()
}

/// One session's text as the queries see it.
pub struct Text {
    /// Messages: (is the first prompt, is a reply, words).
    messages: Vec<(bool, bool, Vec<String>)>,
    /// Messages as written.
    pub raw: Vec<String>,
    folder: Option<String>,
    /// Its words that at most three sessions hold.
    pub rare: Vec<String>,
}

impl Text {
    pub fn read(row: &SessionRow, file: &RolloutFile, files: &[RolloutFile], o: &Oracle) -> Text {
        let [first, prompts, replies] = messages(file, files);
        let mut out = Vec::new();
        let mut raw = Vec::new();
        for (i, (texts, reply)) in [(first, false), (prompts, false), (replies, true)]
            .into_iter()
            .enumerate()
        {
            for t in texts {
                out.push((i == 0, reply, words_of(&t)));
                raw.push(t);
            }
        }
        let all: HashSet<&String> = out.iter().flat_map(|m| &m.2).collect();
        let mut rare: Vec<String> = all
            .into_iter()
            .filter(|w| memorable(w) && (1..=3).contains(&o.df(w)))
            .cloned()
            .collect();
        rare.sort();
        let folder = row
            .meta
            .cwd
            .as_deref()
            .and_then(|c| c.rsplit('/').find(|p| !p.is_empty()))
            .map(str::to_lowercase);
        Text {
            messages: out,
            raw,
            folder,
            rare,
        }
    }

    fn holding(&self, word: &str) -> Vec<&(bool, bool, Vec<String>)> {
        self.messages
            .iter()
            .filter(|m| m.2.iter().any(|w| w == word))
            .collect()
    }

    fn first(&self) -> Option<&Vec<String>> {
        self.messages.iter().find(|m| m.0).map(|m| &m.2)
    }
}

/// The queries of every kind for one session (kinds it cannot give are left out).
fn session_queries(rng: &mut Rng, t: &Text, o: &Oracle) -> Vec<Query> {
    let mut out = Vec::new();
    let Some(rare) = pick(rng, &t.rare).cloned() else {
        return out;
    };
    let mut add = |kind: usize, words: Vec<String>, groups: Vec<Vec<String>>| {
        out.extend(o.known(kind, words, groups));
    };
    let exact = |ws: &[String]| ws.iter().map(|w| vec![w.clone()]).collect::<Vec<_>>();
    // Words of one message holding the rare word, in any order.
    if let Some(m) = pick(rng, &t.holding(&rare)) {
        let mut ws = some_words(rng, &m.2, std::slice::from_ref(&rare), 2);
        ws.push(rare.clone());
        shuffle(rng, &mut ws);
        add(0, ws.clone(), exact(&ws));
    }
    // A word of the first prompt and words of a reply that no one message holds together.
    if let Some(pr) = prompt_and_reply(rng, t, &rare) {
        add(1, pr.clone(), exact(&pr));
        let longest = pr.iter().filter(|w| w.len() >= 5).max_by_key(|w| w.len());
        if let Some(long) = longest.cloned() {
            let typed: Vec<String> = pr
                .iter()
                .map(|w| if *w == long { typo(rng, w) } else { w.clone() })
                .collect();
            add(2, typed, exact(&pr));
        }
    }
    // A word of the session in another form.
    if let Some((words, groups)) = other_form_query(rng, t, &rare, o) {
        add(3, words, groups);
    }
    // Four words from anywhere in the first prompt, in its order, a rare one among them.
    if let Some(ws) = first_prompt_words(rng, t) {
        add(4, ws.clone(), exact(&ws));
    }
    // The folder's last part typed as a word, with a word of the session.
    if let Some(folder) = &t.folder {
        let mut ws = vec![folder.clone()];
        if let Some(m) = pick(rng, &t.holding(&rare)) {
            ws.extend(some_words(rng, &m.2, std::slice::from_ref(&rare), 1));
        }
        ws.push(rare.clone());
        add(5, ws.clone(), exact(&ws));
    }
    out
}

/// A word of the session in another form, with the rare word: the words typed and the groups
/// (any word of a group) a relevant session holds.
fn other_form_query(
    rng: &mut Rng,
    t: &Text,
    rare: &str,
    o: &Oracle,
) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    let mut plain: Vec<String> = t
        .messages
        .iter()
        .flat_map(|m| &m.2)
        .filter(|w| w.len() >= 4 && w.bytes().all(|b| b.is_ascii_lowercase()) && memorable(w))
        .cloned()
        .collect::<HashSet<_>>()
        .into_iter()
        .collect::<Vec<_>>();
    plain.sort();
    let w = pick(rng, &plain).cloned()?;
    let form = other_form(rng, &w, o).filter(|f| !plain.contains(f))?;
    Some((
        vec![form.clone(), rare.to_owned()],
        vec![vec![w, form], vec![rare.to_owned()]],
    ))
}

/// Four words from anywhere in the first prompt, in its order, a rare one among them.
fn first_prompt_words(rng: &mut Rng, t: &Text) -> Option<Vec<String>> {
    let first = t.first().cloned().unwrap_or_default();
    let rare_first: Vec<String> = t
        .rare
        .iter()
        .filter(|w| first.contains(w))
        .cloned()
        .collect();
    let rare = pick(rng, &rare_first).cloned()?;
    let mut ws: Vec<String> = Vec::new();
    for w in first.iter().filter(|w| memorable(w)) {
        if !ws.contains(w) {
            ws.push(w.clone());
        }
    }
    while ws.len() > 4 {
        let drop_at = rng.below(ws.len() as u64) as usize;
        if ws[drop_at] != rare {
            ws.remove(drop_at);
        }
    }
    (ws.len() >= 3).then_some(ws)
}

/// A word of the first prompt and one or two of a reply, the rare word among them, that no
/// one message of the session holds together.
fn prompt_and_reply(rng: &mut Rng, t: &Text, rare: &str) -> Option<Vec<String>> {
    let first = t.first()?;
    let replies: Vec<&Vec<String>> = t.messages.iter().filter(|m| m.1).map(|m| &m.2).collect();
    let reply = if first.iter().any(|w| w == rare) {
        (*pick(rng, &replies)?).clone()
    } else {
        (*replies.iter().find(|r| r.iter().any(|w| w == rare))?).clone()
    };
    let mut ws = if first.iter().any(|w| w == rare) {
        let mut ws = vec![rare.to_owned()];
        let n = 1 + rng.below(2) as usize;
        ws.extend(some_words(rng, &reply, first, n));
        ws
    } else {
        let mut ws = some_words(rng, first, &reply, 1);
        ws.push(rare.to_owned());
        ws
    };
    ws.dedup();
    let together = t
        .messages
        .iter()
        .any(|m| ws.iter().all(|w| m.2.contains(w)));
    (ws.len() >= 2 && !together).then_some(ws)
}

/// The queries of every kind for a sample of `sessions` rows (the same sample from run to run).
pub fn queries(
    rows: &[SessionRow],
    files: &[RolloutFile],
    o: &Oracle,
    sessions: usize,
) -> Vec<Query> {
    let mut rng = Rng::new(super::relevance::query_seed(11));
    let mut sample: Vec<&SessionRow> = rows.iter().collect();
    sample.sort_by(|a, b| a.path.cmp(&b.path));
    let step = (rows.len() / sessions).max(1);
    let by_path: HashMap<&std::path::Path, &RolloutFile> =
        files.iter().map(|f| (f.path.as_path(), f)).collect();
    let mut out = Vec::new();
    for row in sample.iter().skip(step / 2).step_by(step) {
        let Some(file) = by_path.get(row.path.as_path()) else {
            continue;
        };
        let text = Text::read(row, file, files, o);
        out.extend(session_queries(&mut rng, &text, o));
    }
    out.extend(names::queries(
        &sample,
        sessions,
        &by_path,
        files,
        o,
        KINDS.len(),
    ));
    out
}
