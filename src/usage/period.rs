//! What a usage report groups by, and the words of its keys: a local day (`2026-11-30`), the
//! week that starts on a Monday (named by that Monday), a month (`2026-11`), a folder, a model or
//! a session; and the days `--since` / `--until` name (`2026-11-01`, `today`, `yesterday`, or
//! a count back from today: `7d`, `2w`, `3m` for 30-day months, `1y`).
//!
//! Pure: days are day numbers in local time, given by the caller.

use crate::timefmt::{civil_from_days, days_from_civil};

/// What a report groups by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum By {
    Day,
    Week,
    Month,
    Folder,
    Model,
    Session,
}

impl By {
    /// The key's name in `--json` and the table's first heading.
    pub fn as_str(self) -> &'static str {
        match self {
            By::Day => "day",
            By::Week => "week",
            By::Month => "month",
            By::Folder => "folder",
            By::Model => "model",
            By::Session => "session",
        }
    }

    /// A group over time (ordered by time), else over things (ordered by tokens).
    pub fn is_time(self) -> bool {
        matches!(self, By::Day | By::Week | By::Month)
    }
}

/// The first day of the period of `by` (a time grouping) that holds local day `day`.
pub fn period_start(by: By, day: i64) -> i64 {
    match by {
        // 1970-01-01 was a Thursday: Monday is three days before it.
        By::Week => day - (day + 3).rem_euclid(7),
        By::Month => {
            let (y, m, _) = civil_from_days(day);
            days_from_civil(y, m, 1)
        }
        _ => day,
    }
}

/// The period that starts on `start` as its key reads (`2026-11-30`, `2026-11`).
pub fn period_key(by: By, start: i64) -> String {
    let (y, m, d) = civil_from_days(start);
    match by {
        By::Month => format!("{y:04}-{m:02}"),
        _ => format!("{y:04}-{m:02}-{d:02}"),
    }
}

/// The local day `text` names, `today` being day `today`. `None` when it names none.
pub fn parse_day(text: &str, today: i64) -> Option<i64> {
    let text = text.trim();
    match text {
        "today" => return Some(today),
        "yesterday" => return Some(today - 1),
        _ => {}
    }
    if let Some((n, unit)) = text
        .char_indices()
        .last()
        .and_then(|(i, c)| Some((text[..i].parse::<i64>().ok()?, c)))
    {
        let per = match unit {
            'd' => 1,
            'w' => 7,
            'm' => 30,
            'y' => 365,
            _ => return None,
        };
        return Some(today - n.checked_mul(per)?);
    }
    let parts: Vec<&str> = text.split('-').collect();
    let [y, m, d] = parts[..] else { return None };
    if y.len() != 4 {
        return None;
    }
    let (y, m, d): (i64, i64, i64) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let day = days_from_civil(y, m, d);
    // 2026-02-31 is not a day.
    (civil_from_days(day) == (y, m, d)).then_some(day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weeks_start_on_monday_and_months_on_the_first() {
        let sunday = days_from_civil(2026, 12, 6);
        let monday = days_from_civil(2026, 11, 30);
        assert_eq!(period_start(By::Week, sunday), monday);
        assert_eq!(period_start(By::Week, monday), monday);
        assert_eq!(period_key(By::Week, monday), "2026-11-30");
        assert_eq!(
            period_key(By::Month, period_start(By::Month, sunday)),
            "2026-12"
        );
        assert_eq!(period_key(By::Day, sunday), "2026-12-06");
    }

    #[test]
    fn days_as_people_write_them() {
        let today = days_from_civil(2026, 12, 7);
        assert_eq!(parse_day("today", today), Some(today));
        assert_eq!(parse_day("yesterday", today), Some(today - 1));
        assert_eq!(parse_day("2w", today), Some(today - 14));
        assert_eq!(
            parse_day("2026-11-01", today),
            Some(days_from_civil(2026, 11, 1))
        );
        assert_eq!(parse_day("2026-02-31", today), None);
        assert_eq!(parse_day("last week", today), None);
        assert_eq!(parse_day("26-1-1", today), None);
    }
}
