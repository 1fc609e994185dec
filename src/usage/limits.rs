//! The account's rate limits over every session: codex reports them with its token counts,
//! so each session holds the windows it saw ([`crate::rollout::limits`]). For each limit the
//! newest reading says where it stands and when it resets; the windows before it say how it
//! moved (how far each went before it reset).
//!
//! Pure.

use std::borrow::Borrow;

use crate::rollout::limits::{Reading, Which};
use crate::session::SessionRow;

/// One limit across the sessions.
#[derive(Debug, Clone, PartialEq)]
pub struct Limit {
    pub which: Which,
    /// The newest reading of it.
    pub newest: Reading,
    /// Its windows, newest first, each as far as it went (its highest reading).
    pub windows: Vec<Reading>,
}

/// Each limit the rows' sessions saw, primary first, with at most `most` windows.
pub fn limits<R: Borrow<SessionRow>>(rows: &[R], most: usize) -> Vec<Limit> {
    let mut all: Vec<Reading> = rows
        .iter()
        .filter_map(|r| r.borrow().usage.as_deref())
        .flat_map(|u| u.limits.readings().iter().copied())
        .collect();
    all.sort_by_key(|r| (r.which, r.resets_at, r.seen_at));
    let mut out: Vec<Limit> = Vec::new();
    for r in all {
        let limit = match out.last_mut() {
            Some(l) if l.which == r.which => l,
            _ => {
                out.push(Limit {
                    which: r.which,
                    newest: r,
                    windows: Vec::new(),
                });
                out.last_mut().expect("just pushed")
            }
        };
        if r.seen_at >= limit.newest.seen_at {
            limit.newest = r;
        }
        match limit.windows.last_mut() {
            Some(w) if w.same_window(&r) => {
                if r.used >= w.used {
                    *w = Reading {
                        seen_at: w.seen_at.max(r.seen_at),
                        ..r
                    };
                }
            }
            _ => limit.windows.push(r),
        }
    }
    for l in &mut out {
        l.windows.reverse();
        l.windows.truncate(most);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::limits::Limits;
    use crate::rollout::usage::Usage;

    fn reading(which: Which, used: u32, resets_at: i64, seen_at: i64) -> Reading {
        Reading {
            which,
            used,
            window_minutes: Some(300),
            resets_at: Some(resets_at),
            seen_at,
        }
    }

    fn row(readings: &[Reading]) -> SessionRow {
        let mut limits = Limits::default();
        for r in readings {
            limits.note(*r);
        }
        SessionRow {
            usage: Some(Box::new(Usage {
                limits,
                ..Usage::default()
            })),
            ..SessionRow::default()
        }
    }

    #[test]
    fn newest_reading_and_how_far_each_window_went() {
        let rows = [
            row(&[
                reading(Which::Primary, 1000, 18_000, 1),
                reading(Which::Secondary, 3000, 600_000, 1),
            ]),
            row(&[
                reading(Which::Primary, 4000, 18_030, 5),
                reading(Which::Primary, 500, 36_000, 9),
            ]),
            row(&[reading(Which::Primary, 2000, 18_001, 3)]),
        ];
        let got = limits(&rows, 10);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].which, Which::Primary);
        assert_eq!(got[0].newest.used, 500);
        let went: Vec<u32> = got[0].windows.iter().map(|w| w.used).collect();
        assert_eq!(
            went,
            [500, 4000],
            "newest window first, each at its highest"
        );
        assert_eq!(got[1].newest.used, 3000);
        assert_eq!(limits(&rows, 1)[0].windows.len(), 1);
        assert!(limits(&[row(&[])], 5).is_empty());
    }
}
