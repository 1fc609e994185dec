//! Filters typed into the query, as fast-resume and fzf users expect: `dir:` (or `cwd:`) part
//! of the session's folder, `branch:` part of its git branch, `file:` part of the path of a
//! file the session changed, and `date:` its updated time —
//! `date:today`, `date:yesterday`, `date:<2w` (within the last two weeks; `h`, `d`, `w`, `m`
//! for 30 days, `y`), `date:>3d` (older than that), `date:>2026-10-01`, `date:<2026-10-01`, or
//! a year, month or day (`date:2026`, `date:2026-11`, `date:2026-11-30`). Days are UTC days.
//! `source:claude` / `source:codex` keeps the sessions of that agent (a start of its name
//! will do: `source:cl`).
//!
//! Pure: the query comes in with the time it is read at; what is left of it is searched.

use crate::session::SessionRow;
use crate::sources::Source;
use crate::timefmt::{parse_rfc3339, Millis};

const DAY_MS: Millis = 86_400_000;

/// The filters of a query (empty: every row passes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryFilters {
    dirs: Vec<String>,
    branches: Vec<String>,
    files: Vec<String>,
    /// Updated time at least `.0` and before `.1`.
    dates: Vec<(Millis, Millis)>,
    /// The agents that wrote the session (any of them; empty: every agent).
    sources: Vec<Source>,
}

/// A filter that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    /// `dir:`, `branch:` or `file:` with nothing after it.
    #[error("{key}: needs a part of a name after it")]
    Empty { key: String },
    #[error("date:{value} is not a date ({DATE_FORMS})")]
    NotADate { value: String },
    #[error("source:{value} is not a source (codex, claude)")]
    NotASource { value: String },
}

/// A query split into its filters and the words left to search.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Split {
    pub words: String,
    pub filters: QueryFilters,
    /// The first filter that could not be read.
    pub error: Option<FilterError>,
}

impl QueryFilters {
    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty()
            && self.branches.is_empty()
            && self.files.is_empty()
            && self.dates.is_empty()
            && self.sources.is_empty()
    }

    /// A `file:` filter is among them: it reads the files each session changed.
    pub fn reads_files(&self) -> bool {
        !self.files.is_empty()
    }

    /// Whether `row` passes every filter (folders, branches and changed files: any case, any
    /// part; a session not read whole yet has changed no file known).
    pub fn keeps(&self, row: &SessionRow) -> bool {
        let holds = |field: Option<&str>, want: &str| {
            field.is_some_and(|f| f.to_lowercase().contains(want))
        };
        self.dirs.iter().all(|d| holds(row.meta.cwd.as_deref(), d))
            && self
                .branches
                .iter()
                .all(|b| holds(row.meta.git_branch.as_deref(), b))
            && self.files.iter().all(|f| {
                row.usage
                    .as_ref()
                    .is_some_and(|u| u.files.iter().any(|c| c.matches(f)))
            })
            && self
                .dates
                .iter()
                .all(|&(from, to)| (from..to).contains(&row.updated_ms))
            && (self.sources.is_empty() || self.sources.contains(&row.source))
    }
}

/// Split `text` (read at `now`) into its filters and the rest.
pub fn split(text: &str, now: Millis) -> Split {
    let mut out = Split::default();
    let mut words = Vec::new();
    for token in text.split_whitespace() {
        let Some((key, value)) = token.split_once(':') else {
            words.push(token);
            continue;
        };
        let result = match key.to_ascii_lowercase().as_str() {
            "dir" | "cwd" => non_empty(key, value).map(|v| out.filters.dirs.push(v)),
            "branch" => non_empty(key, value).map(|v| out.filters.branches.push(v)),
            "file" => non_empty(key, value).map(|v| out.filters.files.push(v)),
            "date" => date(value, now).map(|r| out.filters.dates.push(r)),
            "source" | "src" => source(value).map(|s| out.filters.sources.push(s)),
            _ => {
                words.push(token);
                Ok(())
            }
        };
        if let (Err(e), None) = (result, &out.error) {
            out.error = Some(e);
        }
    }
    out.words = words.join(" ");
    out
}

fn non_empty(key: &str, value: &str) -> Result<String, FilterError> {
    if value.is_empty() {
        return Err(FilterError::Empty {
            key: key.to_owned(),
        });
    }
    Ok(value.to_lowercase())
}

/// The source a `source:` value names.
fn source(value: &str) -> Result<Source, FilterError> {
    Source::parse(value).ok_or_else(|| FilterError::NotASource {
        value: value.to_owned(),
    })
}

const DATE_FORMS: &str = "today, yesterday, <2w, >3d, >2026-10-01, 2026-11";

/// The updated times a `date:` value stands for.
fn date(value: &str, now: Millis) -> Result<(Millis, Millis), FilterError> {
    let bad = || FilterError::NotADate {
        value: value.to_owned(),
    };
    let today = now.div_euclid(DAY_MS) * DAY_MS;
    match value {
        "today" => return Ok((today, Millis::MAX)),
        "yesterday" => return Ok((today - DAY_MS, today)),
        _ => {}
    }
    if let Some(rest) = value.strip_prefix('<') {
        return match age(rest) {
            Some(ms) => Ok((now - ms, Millis::MAX)),
            None => day_start(rest).map(|d| (Millis::MIN, d)).ok_or_else(bad),
        };
    }
    if let Some(rest) = value.strip_prefix('>') {
        return match age(rest) {
            Some(ms) => Ok((Millis::MIN, now - ms)),
            None => day_start(rest)
                .map(|d| (d + DAY_MS, Millis::MAX))
                .ok_or_else(bad),
        };
    }
    period(value).ok_or_else(bad)
}

/// `2w`, `3d`, `12h`, `1m` (30 days), `1y` (365 days) in milliseconds.
fn age(text: &str) -> Option<Millis> {
    let unit = text.chars().last()?;
    let n: Millis = text[..text.len() - unit.len_utf8()].parse().ok()?;
    let per = match unit {
        'h' => 3_600_000,
        'd' => DAY_MS,
        'w' => 7 * DAY_MS,
        'm' => 30 * DAY_MS,
        'y' => 365 * DAY_MS,
        _ => return None,
    };
    n.checked_mul(per)
}

/// The start of the UTC day `YYYY-MM-DD`.
fn day_start(text: &str) -> Option<Millis> {
    if text.len() != 10 {
        return None;
    }
    parse_rfc3339(&format!("{text}T00:00:00Z"))
}

/// A year, a month or a day, as the times from its start to the next one's.
fn period(text: &str) -> Option<(Millis, Millis)> {
    let parts: Vec<&str> = text.split('-').collect();
    let num = |s: &str, len: usize| (s.len() == len).then(|| s.parse::<u32>().ok()).flatten();
    match parts.as_slice() {
        [y] => {
            let y = num(y, 4)?;
            Some((
                day_start(&format!("{y:04}-01-01"))?,
                day_start(&format!("{:04}-01-01", y + 1))?,
            ))
        }
        [y, m] => {
            let (y, m) = (num(y, 4)?, num(m, 2)?);
            let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            Some((
                day_start(&format!("{y:04}-{m:02}-01"))?,
                day_start(&format!("{ny:04}-{nm:02}-01"))?,
            ))
        }
        [_, _, _] => {
            let d = day_start(text)?;
            Some((d, d + DAY_MS))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::record::Meta;

    const NOW: Millis = 1_764_496_961_879; // 2025-11-30T10:02:41.879Z

    fn row(cwd: &str, branch: &str, updated: &str) -> SessionRow {
        SessionRow {
            meta: Meta {
                cwd: Some(cwd.into()),
                git_branch: Some(branch.into()),
                ..Meta::default()
            },
            updated_ms: parse_rfc3339(updated).unwrap(),
            ..SessionRow::default()
        }
    }

    fn keeps(query: &str, r: &SessionRow) -> bool {
        let s = split(query, NOW);
        assert_eq!(s.error, None, "{query}");
        s.filters.keeps(r)
    }

    #[test]
    fn filters_are_taken_out_and_the_words_kept() {
        let s = split("retry DIR:Parser logic branch:fix cwd:work", NOW);
        assert_eq!(s.words, "retry logic");
        assert_eq!(s.error, None);
        let r = row("/home/me/work/parser", "fix/lexer", "2025-11-30T09:00:00Z");
        assert!(s.filters.keeps(&r));
        assert!(!split("dir:garage", NOW).filters.keeps(&r));
        assert!(!split("branch:main", NOW).filters.keeps(&r));
        assert_eq!(
            split("http://x a:b", NOW).words,
            "http://x a:b",
            "other colons are words"
        );
    }

    #[test]
    fn file_keeps_the_sessions_that_changed_a_file_whose_path_holds_it() {
        use crate::rollout::usage::{Change, ChangedFile, Usage};
        let changed = |files: &[(&str, Option<&str>)]| SessionRow {
            usage: Some(Box::new(Usage {
                files: files
                    .iter()
                    .map(|(p, to)| ChangedFile {
                        path: (*p).into(),
                        change: if to.is_some() {
                            Change::Rename
                        } else {
                            Change::Modify
                        },
                        to: to.map(str::to_owned),
                    })
                    .collect(),
                ..Usage::default()
            })),
            ..SessionRow::default()
        };
        let auth = changed(&[("/w/app/src/Auth.rs", None)]);
        let moved = changed(&[("/w/app/src/util.py", Some("/w/app/src/helpers.py"))]);
        let none = changed(&[]);
        let unread = SessionRow::default();
        let cases: [(&str, [bool; 4]); 5] = [
            ("file:src/auth.rs", [true, false, false, false]),
            ("file:auth", [true, false, false, false]),
            ("file:helpers", [false, true, false, false]),
            ("file:src/ file:util", [false, true, false, false]),
            ("file:nothing", [false, false, false, false]),
        ];
        for (q, want) in cases {
            let got = [&auth, &moved, &none, &unread].map(|r| keeps(q, r));
            assert_eq!(got, want, "{q}");
        }
        let s = split("retry file:auth", NOW);
        assert_eq!(s.words, "retry");
        assert_eq!(s.filters.files, ["auth"]);
    }

    #[test]
    fn every_date_form() {
        let today = row("/w", "m", "2025-11-30T06:00:00Z");
        let yesterday = row("/w", "m", "2025-11-29T23:00:00Z");
        let october = row("/w", "m", "2025-10-15T12:00:00Z");
        let last_year = row("/w", "m", "2024-11-20T12:00:00Z");
        let cases: [(&str, [bool; 4]); 11] = [
            ("date:today", [true, false, false, false]),
            ("date:yesterday", [false, true, false, false]),
            ("date:<2w", [true, true, false, false]),
            ("date:>2w", [false, false, true, true]),
            ("date:<6h", [true, false, false, false]),
            ("date:>2025-10-01", [true, true, true, false]),
            ("date:<2025-10-16", [false, false, true, true]),
            ("date:2025-10", [false, false, true, false]),
            ("date:2025-11-29", [false, true, false, false]),
            ("date:2024", [false, false, false, true]),
            ("date:<1y", [true, true, true, false]),
        ];
        for (q, want) in cases {
            let got = [&today, &yesterday, &october, &last_year].map(|r| keeps(q, r));
            assert_eq!(got, want, "{q}");
        }
    }

    #[test]
    fn a_filter_that_cannot_be_read_says_so_briefly() {
        for q in [
            "date:soon",
            "date:<2x",
            "date:2025-13",
            "date:>2025-1-1",
            "dir:",
            "branch:",
            "file:",
            "date:",
        ] {
            let s = split(q, NOW);
            let e = s
                .error
                .unwrap_or_else(|| panic!("{q} accepted"))
                .to_string();
            assert!(
                e.len() < 90 && e.contains(q.split(':').next().unwrap()),
                "{q}: {e}"
            );
        }
        assert!(
            split("date:99999999999999999y", NOW).error.is_some(),
            "no overflow"
        );
    }
}
