//! Keystroke-by-keystroke search must answer exactly as a fresh search does.

use std::path::PathBuf;

use super::*;
use crate::fulltext::{fold_into, MessageSpan, SessionText};
use crate::rollout::record::Role;

fn index(sessions: &[Vec<String>]) -> ContentIndex {
    let mut ix = ContentIndex::default();
    let (mut upper_at, mut exceptions) = (Vec::new(), Vec::new());
    for (n, msgs) in sessions.iter().enumerate() {
        let start = ix.lower.len() as u64;
        let first_msg = ix.messages.len() as u32;
        for m in msgs {
            let at = ix.lower.len() as u64;
            fold_into(m, &mut ix.lower, &mut upper_at, &mut exceptions);
            ix.messages.push(MessageSpan {
                start: at,
                len: m.len() as u32,
                role: Role::User,
            });
            ix.lower.push(0);
        }
        let path = PathBuf::from(format!("/s/{n}"));
        ix.by_path.insert(path.clone(), n);
        ix.sessions.push(SessionText {
            path,
            id: format!("id{n}"),
            updated_ms: (n % 7) as i64,
            size: 0,
            mtime_ms: 0,
            start,
            end: ix.lower.len() as u64,
            first_msg,
            msg_count: msgs.len() as u32,
            capped: 0,
        });
    }
    ix.upper = vec![0; ix.lower.len().div_ceil(64)];
    for at in upper_at {
        ix.upper[at as usize / 64] |= 1 << (at % 64);
    }
    ix.exceptions = exceptions
        .into_iter()
        .map(|(o, c)| (u64::from(o), c))
        .collect();
    ix
}

/// Sessions over a tiny alphabet, so terms overlap themselves and often pass the hit cap.
fn sessions() -> Vec<Vec<String>> {
    let mut seed: u64 = 7;
    let mut next = move || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) as usize
    };
    let alphabet = ['a', 'b', 'A', ' ', 'é', '\u{85}', 'c'];
    (0..300)
        .map(|_| {
            (0..1 + next() % 3)
                .map(|_| {
                    let len = next() % 700;
                    (0..len)
                        .map(|_| alphabet[next() % alphabet.len()])
                        .collect()
                })
                .collect()
        })
        .collect()
}

#[test]
fn typing_gives_what_a_fresh_search_gives() {
    let ix = index(&sessions());
    let queries = [
        "aab ab",
        "abab",
        "aaaa b",
        "ba ab aba",
        "Ab bA",
        "cab aac",
        "éa ca",
        "a a",
        "bbbbbb",
    ];
    for q in queries {
        for end in (1..=q.len()).filter(|&e| q.is_char_boundary(e)) {
            let typed = ix.search(&q[..end], usize::MAX);
            let fresh = ContentIndex {
                last: Default::default(),
                ..ix.clone()
            };
            assert_eq!(
                typed,
                fresh.search(&q[..end], usize::MAX),
                "{:?}",
                &q[..end]
            );
        }
    }
}

#[test]
fn overlap_rule() {
    assert!(self_overlaps(b"aa"));
    assert!(self_overlaps(b"abab"));
    assert!(self_overlaps(b"aba"));
    assert!(!self_overlaps(b"ab"));
    assert!(!self_overlaps(b"a"));
    assert!(!self_overlaps(b"kube"));
}

#[test]
fn snippets_blank_controls_keeping_offsets() {
    let got = blank_controls("a\u{1b}b\u{85}c\u{7f}é".as_bytes().to_vec());
    assert_eq!(got, "a b\u{b7}c é");
    assert_eq!(got.len(), "a\u{1b}b\u{85}c\u{7f}é".len());
}
