//! The account's rate limits as codex records them with its token counts
//! (`token_count.rate_limits.primary` / `.secondary`: `used_percent`, `window_minutes`,
//! `resets_at` in Unix seconds, or in older versions `resets_in_seconds` from the record's
//! time). A session keeps, for each window it saw (which limit, when it resets), the last
//! reading of it: within a window the percentage only grows, so the last reading is how far
//! that window went.
//!
//! Pure and lenient: a field of the wrong type is no reading; nothing here panics.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::timefmt::Millis;

/// Which of codex's two limits: the short one (`primary`, five hours in 2026) or the long one
/// (`secondary`, a week).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Which {
    Primary,
    Secondary,
}

impl Which {
    pub fn as_str(self) -> &'static str {
        match self {
            Which::Primary => "primary",
            Which::Secondary => "secondary",
        }
    }
}

/// One reading of one limit's window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    pub which: Which,
    /// Hundredths of a percent of the window used.
    pub used: u32,
    pub window_minutes: Option<u32>,
    /// When the window resets, in Unix seconds.
    pub resets_at: Option<i64>,
    /// When it was read (the record's time).
    pub seen_at: Millis,
}

impl Reading {
    pub fn used_percent(&self) -> f64 {
        f64::from(self.used) / 100.0
    }

    /// The window's length as people say it (`5h`, `7d`, `90m`), when it was recorded.
    pub fn window_name(&self) -> Option<String> {
        self.window_minutes.map(|m| match m {
            m if m % 1440 == 0 => format!("{}d", m / 1440),
            m if m % 60 == 0 => format!("{}h", m / 60),
            m => format!("{m}m"),
        })
    }

    /// The same window of the same limit: resets within two minutes of each other (codex's
    /// older `resets_in_seconds` moves by a second or so from record to record).
    pub fn same_window(&self, other: &Reading) -> bool {
        self.which == other.which
            && match (self.resets_at, other.resets_at) {
                (Some(a), Some(b)) => (a - b).abs() <= 120,
                (None, None) => true,
                _ => false,
            }
    }
}

/// The windows a session saw, each with its last reading, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits(Vec<Reading>);

/// Windows kept a session: a session open for weeks sees a short window every five hours.
const MOST_WINDOWS: usize = 64;

impl Limits {
    pub fn readings(&self) -> &[Reading] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Take a reading: it replaces an older one of its window.
    pub fn note(&mut self, reading: Reading) {
        if let Some(known) = self.0.iter_mut().find(|r| r.same_window(&reading)) {
            if reading.seen_at >= known.seen_at {
                *known = reading;
            }
            return;
        }
        self.0.push(reading);
        if self.0.len() > MOST_WINDOWS {
            self.0.remove(0);
        }
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// The readings of a `rate_limits` object recorded at `at`.
pub fn read(rate_limits: &Value, at: Option<Millis>) -> Vec<Reading> {
    let Some(at) = at else { return Vec::new() };
    [("primary", Which::Primary), ("secondary", Which::Secondary)]
        .into_iter()
        .filter_map(|(key, which)| window(rate_limits.get(key)?, which, at))
        .collect()
}

fn window(w: &Value, which: Which, at: Millis) -> Option<Reading> {
    let percent = w.get("used_percent")?.as_f64()?;
    if !percent.is_finite() || percent < 0.0 {
        return None;
    }
    let resets_at = w.get("resets_at").and_then(Value::as_i64).or_else(|| {
        let after = w.get("resets_in_seconds").and_then(Value::as_i64)?;
        Some(at / 1000 + after)
    });
    Some(Reading {
        which,
        used: (percent * 100.0).round().min(f64::from(u32::MAX)) as u32,
        window_minutes: w
            .get("window_minutes")
            .and_then(Value::as_u64)
            .and_then(|m| u32::try_from(m).ok()),
        resets_at,
        seen_at: at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn readings_of_both_limits_and_of_older_codex() {
        let v = json!({"primary":{"used_percent":12.5,"window_minutes":300,"resets_at":1_800_000_000},
            "secondary":{"used_percent":40.0,"window_minutes":10080,"resets_in_seconds":60}});
        let r = read(&v, Some(1_700_000_000_000));
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[0].which, r[0].used, r[0].window_minutes),
            (Which::Primary, 1250, Some(300))
        );
        assert_eq!(r[1].resets_at, Some(1_700_000_060));
        assert!(read(
            &json!({"primary":null,"secondary":{"used_percent":"x"}}),
            Some(1)
        )
        .is_empty());
        assert!(read(&v, None).is_empty(), "a reading needs its time");
    }

    #[test]
    fn a_window_keeps_its_last_reading() {
        let r = |used, resets_at, seen_at| Reading {
            which: Which::Primary,
            used,
            window_minutes: Some(300),
            resets_at: Some(resets_at),
            seen_at,
        };
        let mut l = Limits::default();
        l.note(r(100, 1000, 1));
        l.note(r(300, 1001, 3));
        l.note(r(200, 1000, 2));
        l.note(r(50, 20_000, 4));
        assert_eq!(l.readings().len(), 2);
        assert_eq!(l.readings()[0].used, 300);
        for i in 0..100 {
            l.note(r(1, 100_000 + i * 1000, 10 + i));
        }
        assert_eq!(l.readings().len(), MOST_WINDOWS);
    }
}
