//! Content search over the arena: matching, ranking and snippets, typed one keystroke at a time.
//!
//! A query's sessions are ranked by the hits of each term, counted up to [`HIT_CAP`] as
//! `memmem::find_iter` finds them (non-overlapping, leftmost first). The picker searches again
//! on every keystroke, so the last query's work is kept: when the new query extends it, only the
//! sessions it matched are looked at; a term it already had is not searched again; and a term
//! that extends one of its terms (`kub` -> `kube`) is checked only at that term's hits when those
//! are all of its occurrences (fewer than the cap, and a term that cannot overlap itself). The
//! answer is always the one a fresh search would give.

use memchr::memmem;

use super::{is_char_start, query_terms, ContentHit, ContentIndex, HIT_CAP, SNIPPET_BYTES};

/// The hits of one term in a run of sessions: `pos[offs[k]..offs[k + 1]]` are the positions
/// (relative to the session's start, as `find_iter` gives them, at most [`HIT_CAP`]) in the
/// `k`-th session.
#[derive(Debug, Clone, Default)]
struct TermHits {
    offs: Vec<u32>,
    pos: Vec<u32>,
}

impl TermHits {
    fn of(&self, k: usize) -> &[u32] {
        &self.pos[self.offs[k] as usize..self.offs[k + 1] as usize]
    }
}

/// The last query, the sessions it matched (ascending) and each term's hits in them.
#[derive(Debug, Clone, Default)]
pub(crate) struct LastQuery {
    query: String,
    sessions: Vec<u32>,
    terms: Vec<(Vec<u8>, TermHits)>,
}

/// Where a term's hits come from.
#[derive(Clone, Copy)]
enum Source<'a> {
    Scan,
    /// The same term in the last query.
    Same(&'a TermHits),
    /// A term of the last query this one extends, with all its occurrences known where it has
    /// fewer than the cap.
    Extends(&'a TermHits),
}

/// A term that can overlap itself (`aa`, `abab`): its non-overlapping hits are not all its
/// occurrences.
fn self_overlaps(t: &[u8]) -> bool {
    (1..t.len()).any(|k| t[..t.len() - k] == t[k..])
}

/// One matching session: (session, hits, arena offset of the first hit, its length).
type Found = (usize, usize, u64, usize);

/// The result of matching a run of candidate sessions.
#[derive(Default)]
struct Part {
    found: Vec<Found>,
    /// Per term (in search order), its hits in the found sessions.
    terms: Vec<TermHits>,
}

impl ContentIndex {
    /// Match `pool` (candidate sessions; `pool[k]` is the `base + k`-th session of the last
    /// query when `sources` reuse it).
    fn match_part(
        &self,
        pool: &[u32],
        base: usize,
        finders: &[memmem::Finder<'_>],
        sources: &[Source<'_>],
    ) -> Part {
        let mut part = Part {
            found: Vec::new(),
            terms: vec![
                TermHits {
                    offs: vec![0],
                    pos: Vec::new()
                };
                finders.len()
            ],
        };
        let mut scratch: Vec<Vec<u32>> = vec![Vec::new(); finders.len()];
        'sessions: for (k, &si) in pool.iter().enumerate() {
            let s = &self.sessions[si as usize];
            let hay = &self.lower[s.start as usize..s.end as usize];
            let mut hits = 0;
            let mut first = (usize::MAX, 0);
            for (t, f) in finders.iter().enumerate() {
                let needle = f.needle();
                let out = &mut scratch[t];
                out.clear();
                match sources[t] {
                    Source::Same(old) => out.extend_from_slice(old.of(base + k)),
                    Source::Extends(old) if old.of(base + k).len() < HIT_CAP => {
                        let mut next = 0usize;
                        for &p in old.of(base + k) {
                            let p = p as usize;
                            if p >= next && hay[p..].starts_with(needle) {
                                out.push(p as u32);
                                next = p + needle.len();
                            }
                        }
                    }
                    Source::Scan | Source::Extends(_) => {
                        out.extend(f.find_iter(hay).take(HIT_CAP).map(|p| p as u32));
                    }
                }
                let Some(&pos) = out.first() else {
                    continue 'sessions;
                };
                if (pos as usize) < first.0 {
                    first = (pos as usize, needle.len());
                }
                hits += out.len();
            }
            part.found
                .push((si as usize, hits, s.start + first.0 as u64, first.1));
            for (t, out) in scratch.iter().enumerate() {
                let th = &mut part.terms[t];
                th.pos.extend_from_slice(out);
                th.offs.push(th.pos.len() as u32);
            }
        }
        part
    }

    /// Sessions whose messages contain every whitespace-separated term of `query` (each a
    /// case-insensitive substring), most hits first, then most recently updated; at most `limit`.
    pub fn search(&self, query: &str, limit: usize) -> Vec<ContentHit> {
        let terms = query_terms(query);
        if terms.is_empty() || limit == 0 {
            return Vec::new();
        }
        // The longest term first: it is the likeliest to rule a session out early.
        let mut order: Vec<&Vec<u8>> = terms.iter().collect();
        order.sort_by_key(|t| std::cmp::Reverse(t.len()));
        let finders: Vec<memmem::Finder> = order.iter().map(memmem::Finder::new).collect();
        let mut guard = self.last.lock().ok();
        let last: Option<LastQuery> = guard.as_mut().and_then(|g| g.take()).filter(|last| {
            let trimmed = last.query.trim_end();
            !trimmed.is_empty() && query.trim_start().starts_with(trimmed.trim_start())
        });
        let all: Vec<u32>;
        let pool: &[u32] = match &last {
            Some(last) => &last.sessions,
            None => {
                all = (0..self.sessions.len() as u32).collect();
                &all
            }
        };
        let sources = sources_for(&order, last.as_ref());
        let part = self.match_pool(pool, &finders, &sources);
        drop(sources);
        drop(last);
        let Part { mut found, terms } = part;
        if let Some(g) = guard.as_mut() {
            **g = Some(LastQuery {
                query: query.to_owned(),
                sessions: found.iter().map(|f| f.0 as u32).collect(),
                terms: order.iter().map(|t| t.to_vec()).zip(terms).collect(),
            });
        }
        drop(guard);
        found.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then(
                    self.sessions[b.0]
                        .updated_ms
                        .cmp(&self.sessions[a.0].updated_ms),
                )
                .then(self.sessions[b.0].id.cmp(&self.sessions[a.0].id))
        });
        found.truncate(limit);
        found
            .into_iter()
            .map(|(si, hits, at, len)| self.hit(si, hits, at, len))
            .collect()
    }

    /// Match `pool` against every term, on two threads when it is large.
    fn match_pool(&self, pool: &[u32], finders: &[memmem::Finder], sources: &[Source]) -> Part {
        let big = pool.len() > 2000 && self.lower.len() > (4 << 20);
        if !big {
            return self.match_part(pool, 0, finders, sources);
        }
        let mid = pool.len() / 2;
        let (a, b) = pool.split_at(mid);
        std::thread::scope(|sc| {
            let other = sc.spawn(move || self.match_part(b, mid, finders, sources));
            let mut x = self.match_part(a, 0, finders, sources);
            if let Ok(y) = other.join() {
                x.found.extend(y.found);
                for (th, more) in x.terms.iter_mut().zip(y.terms) {
                    let shift = th.pos.len() as u32;
                    th.pos.extend(more.pos);
                    th.offs.extend(more.offs[1..].iter().map(|o| o + shift));
                }
            }
            x
        })
    }

    fn hit(&self, si: usize, hits: usize, at: u64, len: usize) -> ContentHit {
        let s = &self.sessions[si];
        let msgs = &self.messages[s.first_msg as usize..(s.first_msg + s.msg_count) as usize];
        let mi = msgs.partition_point(|m| m.start <= at).saturating_sub(1);
        let m = msgs[mi];
        let (ms, me) = (m.start, m.start + u64::from(m.len));
        let end_hit = at + len as u64;
        let mut start = at.saturating_sub(40).max(ms);
        while start < at && !is_char_start(self.lower[start as usize]) {
            start += 1;
        }
        let mut end = (start + SNIPPET_BYTES as u64).max(end_hit).min(me);
        while end > end_hit && end < me && !is_char_start(self.lower[end as usize]) {
            end -= 1;
        }
        let from = (at - start) as usize;
        ContentHit {
            path: s.path.clone(),
            id: s.id.clone(),
            hits,
            first_message: mi,
            snippet_match: from..from + len,
            snippet: blank_controls(self.original_bytes(start..end)),
            updated_ms: s.updated_ms,
        }
    }
}

/// Text with control characters blanked in place: C0 and DEL become a space, C1 controls (two
/// bytes, `C2 80..9F`) a middle dot (`C2 B7`), so byte offsets stay put.
fn blank_controls(mut b: Vec<u8>) -> String {
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_control() {
            b[i] = b' ';
        } else if b[i] == 0xC2 && b.get(i + 1).is_some_and(|c| (0x80..=0x9F).contains(c)) {
            b[i + 1] = 0xB7;
            i += 1;
        }
        i += 1;
    }
    match String::from_utf8(b) {
        Ok(s) => s,
        Err(e) => blank_controls_slow(&String::from_utf8_lossy(e.as_bytes())),
    }
}

fn blank_controls_slow(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if c.is_ascii_control() => ' ',
            c if c.is_control() => '\u{b7}',
            c => c,
        })
        .collect()
}

/// Where each term's matches come from: the last query's hits of the same term, or of a term
/// it extends, or a scan.
fn sources_for<'a>(order: &[&Vec<u8>], last: Option<&'a LastQuery>) -> Vec<Source<'a>> {
    order
        .iter()
        .map(|t| {
            let Some(last) = last else {
                return Source::Scan;
            };
            if let Some((_, h)) = last.terms.iter().find(|(u, _)| u == *t) {
                return Source::Same(h);
            }
            last.terms
                .iter()
                .filter(|(u, _)| t.starts_with(u) && !self_overlaps(u))
                .max_by_key(|(u, _)| u.len())
                .map_or(Source::Scan, |(_, h)| Source::Extends(h))
        })
        .collect()
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
