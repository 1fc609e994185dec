//! Fuzzy search over session rows: the ONLY file that touches `fuzzy-matcher`.
//!
//! Owns the query language (fzf's extended syntax: `'exact`, `^prefix`, `suffix$`, `^equal$`,
//! `!not`, space = AND, `|` = OR, `\ ` = a literal space), smart case per term, scoring with
//! `SkimMatcherV2`, ranking (score, then recency), incremental narrowing when a query extends the
//! previous one, and highlight positions for the few rows on screen. Callers hand it whole rows
//! ([`Haystack::new`]) and get row indices and per-field character positions back; no matcher
//! type leaks out. Pure: no IO, no clock.

use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;

use crate::sanitize;
use crate::session::SessionRow;

/// Searchable fields of a row, in haystack order.
pub const FIELDS: usize = 5;
/// Index of each field in [`Highlights::fields`].
pub const NAME: usize = 0;
pub const PREVIEW: usize = 1;
pub const CWD: usize = 2;
pub const BRANCH: usize = 3;
pub const ID: usize = 4;

/// The longest part of a preview that is searched (the list shows far less; the whole
/// conversation is the content search's job).
const PREVIEW_CHARS: usize = 400;
/// Between fields; never typed, so a term cannot match across it by accident of an exact match.
pub(crate) const SEP: char = '\u{1f}';
/// Candidates per thread before scoring is split over two threads.
const PARALLEL_FROM: usize = 4000;

/// Which time breaks ties (and orders an empty query).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Recency {
    #[default]
    Updated,
    Created,
    /// Most tokens first (a session not read whole yet counts none).
    Tokens,
}

/// One row, prepared once for every query: the fields joined, and a lowercase twin with the same
/// characters count so positions agree.
#[derive(Debug, Clone)]
pub struct Haystack {
    text: String,
    lower: String,
    /// (start, length) in characters of each field within `text`.
    spans: [(u32, u32); FIELDS],
    /// Byte ranges of each field within `text` and within `lower` (case folding can change a
    /// character's byte length, so the two differ).
    text_bytes: [(u32, u32); FIELDS],
    lower_bytes: [(u32, u32); FIELDS],
    updated: i64,
    created: i64,
    tokens: i64,
}

/// Fold case one character at a time, keeping the character count (positions must agree):
/// the lower case of a character when that is one character.
pub(crate) fn fold(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// Character spans -> byte spans of the same fields in `text`.
fn byte_spans(text: &str, spans: &[(u32, u32); FIELDS]) -> [(u32, u32); FIELDS] {
    let offsets: Vec<u32> = text
        .char_indices()
        .map(|(b, _)| b as u32)
        .chain([text.len() as u32])
        .collect();
    let at = |c: u32| {
        offsets
            .get(c as usize)
            .copied()
            .unwrap_or(text.len() as u32)
    };
    spans.map(|(start, len)| (at(start), at(start + len)))
}

fn fold_str(s: &str) -> String {
    s.chars().map(fold).collect()
}

/// The display form of a field: one line, safe, as the list draws it.
pub fn field_text(row: &SessionRow, field: usize) -> String {
    let text = |v: &Option<String>| v.as_deref().map(sanitize::one_line).unwrap_or_default();
    match field {
        // A session with no name is titled by the one its agent gave it, when it has one.
        NAME => match &row.name {
            Some(name) if !name.trim().is_empty() => sanitize::one_line(name),
            _ => text(&row.auto_title),
        },
        PREVIEW => sanitize::one_line(&row.preview),
        CWD => text(&row.meta.cwd),
        BRANCH => text(&row.meta.git_branch),
        _ => sanitize::one_line(&row.id),
    }
}

impl Haystack {
    pub fn new(row: &SessionRow) -> Haystack {
        let mut text = String::new();
        let mut spans = [(0u32, 0u32); FIELDS];
        let mut at = 0u32;
        for (i, span) in spans.iter_mut().enumerate() {
            if i > 0 {
                text.push(SEP);
                at += 1;
            }
            let mut n = 0u32;
            for c in field_text(row, i).chars().take(PREVIEW_CHARS) {
                text.push(if c == SEP { ' ' } else { c });
                n += 1;
            }
            *span = (at, n);
            at += n;
        }
        let lower = fold_str(&text);
        let text_bytes = byte_spans(&text, &spans);
        let lower_bytes = byte_spans(&lower, &spans);
        Haystack {
            text,
            lower,
            spans,
            text_bytes,
            lower_bytes,
            updated: row.updated_ms,
            created: row.created_ms.unwrap_or(row.updated_ms),
            tokens: i64::try_from(row.total_tokens()).unwrap_or(i64::MAX),
        }
    }

    /// The row's own words (name, title, folder, branch, id), folded to lowercase, fields
    /// apart by [`SEP`]: what the one box's words-together reading looks at.
    pub(crate) fn lower(&self) -> &str {
        &self.lower
    }

    fn recency(&self, order: Recency) -> i64 {
        match order {
            Recency::Updated => self.updated,
            Recency::Created => self.created,
            Recency::Tokens => self.tokens,
        }
    }

    /// The text of one field, of `text` or of `lower` (`hay` must be one of the two).
    fn field<'a>(&'a self, hay: &'a str, field: usize) -> &'a str {
        let spans = if std::ptr::eq(hay, self.lower.as_str()) {
            &self.lower_bytes
        } else {
            &self.text_bytes
        };
        let (from, to) = spans[field];
        hay.get(from as usize..to as usize).unwrap_or("")
    }

    /// The field a haystack character belongs to, and its offset within it.
    fn locate(&self, pos: usize) -> Option<(usize, usize)> {
        self.spans.iter().enumerate().find_map(|(i, &(s, n))| {
            let (s, n) = (s as usize, n as usize);
            (pos >= s && pos < s + n).then(|| (i, pos - s))
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TermKind {
    Fuzzy,
    Exact,
    Prefix,
    Suffix,
    Equal,
}

/// One word of a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub kind: TermKind,
    pub negated: bool,
    /// As typed, operators removed; lowercased when the term is case-insensitive.
    pub text: String,
    pub case_sensitive: bool,
}

/// A parsed query: every group must match (AND); a group matches when one of its terms does (OR).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pub groups: Vec<Vec<Term>>,
}

impl Query {
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Whether every word is a plain fuzzy one: no operator, no alternative.
    pub fn is_plain(&self) -> bool {
        self.groups
            .iter()
            .all(|g| matches!(g.as_slice(), [t] if t.kind == TermKind::Fuzzy && !t.negated))
    }
}

/// Split on unescaped spaces; `\ ` is a literal space.
fn tokens(input: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = input.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                cur.push(' ');
                chars.next();
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn parse_term(token: &str) -> Option<Term> {
    let mut s = token;
    let negated = s.len() > 1 && s.starts_with('!');
    if negated {
        s = &s[1..];
    }
    let mut kind = if negated {
        TermKind::Exact
    } else {
        TermKind::Fuzzy
    };
    if let Some(rest) = s.strip_prefix('\'') {
        kind = TermKind::Exact;
        s = rest;
    } else if let Some(rest) = s.strip_prefix('^') {
        kind = TermKind::Prefix;
        s = rest;
    }
    if s.len() > 1 || kind == TermKind::Prefix {
        if let Some(rest) = s.strip_suffix('$') {
            kind = if kind == TermKind::Prefix {
                TermKind::Equal
            } else {
                TermKind::Suffix
            };
            s = rest;
        }
    }
    if s.is_empty() {
        return None;
    }
    let case_sensitive = s.chars().any(char::is_uppercase);
    Some(Term {
        kind,
        negated,
        text: if case_sensitive {
            s.to_owned()
        } else {
            fold_str(s)
        },
        case_sensitive,
    })
}

/// Parse fzf's extended syntax. Operators with nothing after them are ignored (they match all).
pub fn parse(input: &str) -> Query {
    let mut groups: Vec<Vec<Term>> = Vec::new();
    let mut join_next = false;
    for token in tokens(input) {
        if token == "|" {
            join_next = !groups.is_empty();
            continue;
        }
        let Some(term) = parse_term(&token) else {
            continue;
        };
        match groups.last_mut() {
            Some(group) if join_next => group.push(term),
            _ => groups.push(vec![term]),
        }
        join_next = false;
    }
    Query { groups }
}

/// A tight window of `hay` holding `needle`'s characters in order: the greedy left-most match
/// fixes the end, then a backward scan from there finds the latest start. `None` when `needle`
/// is not a subsequence of `hay`.
fn subsequence(hay: &str, needle: &str) -> Option<std::ops::Range<usize>> {
    if needle.is_ascii() {
        let bytes = hay.as_bytes();
        let mut at = 0;
        for b in needle.bytes() {
            at += memchr::memchr(b, &bytes[at..])? + 1;
        }
        let end = at;
        let mut start = end;
        for b in needle.bytes().rev() {
            start = memchr::memrchr(b, &bytes[..start])?;
        }
        return Some(start..end);
    }
    let mut it = hay.char_indices();
    let mut end = 0;
    for n in needle.chars() {
        let (i, c) = it.find(|&(_, c)| c == n)?;
        end = i + c.len_utf8();
    }
    let mut back = hay[..end].char_indices().rev();
    let mut start = end;
    for n in needle.chars().rev() {
        start = back.find(|&(_, c)| c == n)?.0;
    }
    Some(start..end)
}

/// The matchers, built once per search. Case-insensitive terms run on the lowercase twin, so
/// every matcher compares characters as they are.
struct Matchers {
    matcher: SkimMatcherV2,
    linear: bool,
}

impl Matchers {
    /// The optimal (dynamic-programming) alignment: for the best rows and for highlights.
    fn optimal() -> Matchers {
        Matchers {
            matcher: SkimMatcherV2::default().respect_case(),
            linear: false,
        }
    }

    /// The linear (greedy) alignment of the same scorer, used to rank every row; an element
    /// limit of 1 makes fuzzy-matcher take its linear path for any haystack.
    fn linear() -> Matchers {
        Matchers {
            matcher: SkimMatcherV2::default().respect_case().element_limit(1),
            linear: true,
        }
    }
}

/// How many of the best rows are rescored with the optimal alignment.
const RESCORE_TOP: usize = 64;

/// Score a term for the given haystack text; exact kinds score by length (a longer literal
/// is a stronger signal), with a bonus at the start of a field.
fn term_score(m: &Matchers, hay: &Haystack, term: &Term) -> Option<i64> {
    let text = if term.case_sensitive {
        &hay.text
    } else {
        &hay.lower
    };
    let len = term.text.chars().count() as i64;
    let hit = match term.kind {
        TermKind::Fuzzy => {
            let span = subsequence(text, &term.text)?;
            // The linear alignment scores one greedy alignment and treats the character before
            // it as a non-word, so handing it just the tight window scores the same kind of
            // alignment at a cost that follows the match, not the haystack.
            if m.linear && span.len() > SCATTERED * term.text.len() + 16 {
                return finish(term, Some(scattered_score(term.text.len(), span.len())));
            }
            let window = if m.linear { &text[span] } else { text.as_str() };
            m.matcher.fuzzy_match(window, &term.text)
        }
        TermKind::Exact => memchr::memmem::find(text.as_bytes(), term.text.as_bytes()).map(|at| {
            let start_bonus = if at == 0 || text[..at].ends_with([SEP, ' ', '/', '-']) {
                8
            } else {
                0
            };
            len * 16 + start_bonus
        }),
        TermKind::Prefix | TermKind::Suffix | TermKind::Equal => (0..FIELDS)
            .any(|f| {
                let field = hay.field(text, f);
                match term.kind {
                    TermKind::Prefix => field.starts_with(&term.text),
                    TermKind::Suffix => field.ends_with(&term.text),
                    _ => field == term.text,
                }
            })
            .then_some(len * 16 + 8),
    };
    finish(term, hit)
}

/// A negated term matches where its pattern does not.
fn finish(term: &Term, hit: Option<i64>) -> Option<i64> {
    if term.negated {
        match hit {
            Some(_) => None,
            None => Some(0),
        }
    } else {
        hit
    }
}

/// A window longer than this many bytes per pattern byte is a scattered match.
const SCATTERED: usize = 4;

/// The score of a scattered match without aligning it: fuzzy-matcher's per-character match score
/// and gap penalties for the window's length. Such matches rank below every compact one, which is
/// all a reader needs of them, and skipping the alignment keeps long haystacks cheap.
fn scattered_score(pattern_bytes: usize, window_bytes: usize) -> i64 {
    let (n, w) = (pattern_bytes as i64, window_bytes as i64);
    16 * n - 3 * n - (w - n)
}

fn query_score(m: &Matchers, hay: &Haystack, query: &Query) -> Option<i64> {
    let mut total = 0;
    for group in &query.groups {
        total += group.iter().filter_map(|t| term_score(m, hay, t)).max()?;
    }
    Some(total)
}

/// Score `candidates` (all rows when `None`); the matches, best first, ties newest first.
pub fn rank(
    hays: &[Haystack],
    query: &Query,
    candidates: Option<&[usize]>,
    order: Recency,
) -> Vec<usize> {
    let all: Vec<usize>;
    let candidates = match candidates {
        Some(c) => c,
        None => {
            all = (0..hays.len()).collect();
            &all
        }
    };
    let score_part = |part: &[usize]| -> Vec<(i64, i64, usize)> {
        let m = Matchers::linear();
        part.iter()
            .filter_map(|&i| {
                let hay = &hays[i];
                query_score(&m, hay, query).map(|s| (s, hay.recency(order), i))
            })
            .collect()
    };
    let mut scored = if candidates.len() >= PARALLEL_FROM {
        let (a, b) = candidates.split_at(candidates.len() / 2);
        std::thread::scope(|scope| {
            let other = scope.spawn(|| score_part(b));
            let mut mine = score_part(a);
            mine.extend(other.join().unwrap_or_default());
            mine
        })
    } else {
        score_part(candidates)
    };
    let order_of = |a: &(i64, i64, usize), b: &(i64, i64, usize)| {
        b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(b.2.cmp(&a.2))
    };
    scored.sort_unstable_by(order_of);
    // The best rows are the ones a user reads: order them by the optimal alignment.
    let top = scored.len().min(RESCORE_TOP);
    let m = Matchers::optimal();
    for entry in &mut scored[..top] {
        if let Some(score) = query_score(&m, &hays[entry.2], query) {
            entry.0 = score;
        }
    }
    scored[..top].sort_unstable_by(order_of);
    scored.into_iter().map(|(_, _, i)| i).collect()
}

/// Matched character positions of one row, per field (offsets within the field's display text).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Highlights {
    pub fields: [Vec<usize>; FIELDS],
}

/// Where `query` matches `hay` (compute only for rows on screen).
pub fn highlights(hay: &Haystack, query: &Query) -> Highlights {
    let m = Matchers::optimal();
    let mut out = Highlights::default();
    let mut add = |pos: usize| {
        if let Some((f, off)) = hay.locate(pos) {
            if !out.fields[f].contains(&off) {
                out.fields[f].push(off);
            }
        }
    };
    for term in query.groups.iter().flatten().filter(|t| !t.negated) {
        let text = if term.case_sensitive {
            &hay.text
        } else {
            &hay.lower
        };
        let n = term.text.chars().count();
        match term.kind {
            TermKind::Fuzzy => {
                let found = m.matcher.fuzzy_indices(text, &term.text);
                for pos in found.map(|(_, p)| p).unwrap_or_default() {
                    add(pos);
                }
            }
            TermKind::Exact => {
                if let Some(at) = text.find(&term.text) {
                    let start = text[..at].chars().count();
                    (start..start + n).for_each(&mut add);
                }
            }
            _ => {
                for f in 0..FIELDS {
                    let field = hay.field(text, f);
                    let (start, len) = hay.spans[f];
                    let (start, len) = (start as usize, len as usize);
                    let hit = match term.kind {
                        TermKind::Prefix => field.starts_with(&term.text).then_some(start),
                        TermKind::Suffix => field.ends_with(&term.text).then(|| start + len - n),
                        _ => (field == term.text).then_some(start),
                    };
                    if let Some(from) = hit {
                        (from..from + n).for_each(&mut add);
                    }
                }
            }
        }
    }
    for f in &mut out.fields {
        f.sort_unstable();
    }
    out
}

/// Remembers the last search so a query that extends it only rescans the previous matches.
#[derive(Debug, Default)]
pub struct Searcher {
    last: Option<(String, Recency, usize, Vec<usize>)>,
}

/// `next` can only match a subset of what `prev` matched.
pub fn narrows(prev: &str, next: &str) -> bool {
    next.starts_with(prev)
        && !prev.contains(['!', '$', '|', '\\'])
        && !next[prev.len()..].contains('|')
        && !prev.is_empty()
}

impl Searcher {
    /// Rank every row for `input`; reuses the previous matches when that is exact.
    pub fn search(&mut self, hays: &[Haystack], input: &str, order: Recency) -> Vec<usize> {
        let query = parse(input);
        let reuse = match &self.last {
            Some((prev, o, n, hits)) if *o == order && *n == hays.len() && narrows(prev, input) => {
                Some(hits.clone())
            }
            _ => None,
        };
        let ranked = rank(hays, &query, reuse.as_deref(), order);
        self.last = Some((input.to_owned(), order, hays.len(), ranked.clone()));
        ranked
    }

    /// Forget the last search (rows changed in place).
    pub fn reset(&mut self) {
        self.last = None;
    }
}

#[cfg(test)]
#[path = "title_tests.rs"]
mod tests;
