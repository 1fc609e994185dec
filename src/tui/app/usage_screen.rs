//! The usage screen's state: the sessions' tokens by day, week, folder or model
//! ([`crate::usage`]), one group selected (its totals and the sessions behind it, largest
//! first, one of them under the cursor), made from the rows the picker holds when it opens.
//!
//! Pure: the rows, the time and the zone come in (the app's keys for it, and its one reading
//! outside the state, the system's local zone, are in `usage_keys`).

use std::sync::Arc;

use crate::prices::Prices;
use crate::session::SessionRow;
use crate::usage::limits::Limit;
use crate::usage::period::By;
use crate::usage::zone::Zone;
use crate::usage::{self, Days, Group};

/// The groupings the screen goes through, in order.
const GROUPINGS: [By; 4] = [By::Day, By::Week, By::Folder, By::Model];

#[derive(Debug, Clone)]
pub struct UsageScreen {
    by: By,
    groups: Vec<Group>,
    /// The selected group.
    at: usize,
    /// The session under the cursor, in the selected group's sessions.
    cursor: usize,
    /// Today's local day.
    today: i64,
    /// The rows it was made of, as they were (the groups' sessions index them).
    rows: Vec<Arc<SessionRow>>,
    /// Codex's rate limits as the sessions last recorded them.
    limits: Vec<Limit>,
}

impl UsageScreen {
    /// The screen over `rows`, by day, today selected.
    pub fn open(
        rows: &[Arc<SessionRow>],
        today: i64,
        zone: &mut dyn Zone,
        prices: &Prices,
    ) -> Self {
        let mut screen = UsageScreen {
            by: By::Day,
            groups: Vec::new(),
            at: 0,
            cursor: 0,
            today,
            rows: rows.to_vec(),
            limits: usage::limits::limits(rows, 1),
        };
        screen.regroup(By::Day, zone, prices);
        screen
    }

    fn regroup(&mut self, by: By, zone: &mut dyn Zone, prices: &Prices) {
        let mut groups = usage::groups(&self.rows, by, Days::default(), zone, prices);
        for g in &mut groups {
            g.sessions.sort_by_key(|s| std::cmp::Reverse(s.1.total));
        }
        self.by = by;
        self.groups = if by.is_time() {
            usage::continuous(by, groups, self.today)
        } else {
            groups
        };
        // Time: the newest period (today, this week); else the largest.
        self.at = if by.is_time() {
            self.groups.len().saturating_sub(1)
        } else {
            0
        };
        self.cursor = 0;
    }

    /// The next grouping (day, week, folder, model, day ...).
    pub fn next_grouping(&mut self, zone: &mut dyn Zone, prices: &Prices) {
        let at = GROUPINGS.iter().position(|b| *b == self.by).unwrap_or(0);
        let by = GROUPINGS[(at + 1) % GROUPINGS.len()];
        self.regroup(by, zone, prices);
    }

    /// Codex's rate limits, each as its newest reading says.
    pub fn limits(&self) -> &[Limit] {
        &self.limits
    }

    /// The rows the screen was made of.
    pub fn rows(&self) -> &[Arc<SessionRow>] {
        &self.rows
    }

    /// Select the group `step` away (clamped); the cursor goes to its first session.
    pub fn step(&mut self, step: i32) {
        let last = self.groups.len().saturating_sub(1);
        self.at = self.at.saturating_add_signed(step as isize).min(last);
        self.cursor = 0;
    }

    /// Move the cursor among the selected group's sessions (clamped).
    pub fn move_cursor(&mut self, step: i32) {
        let last = self
            .selected()
            .map_or(0, |g| g.sessions.len().saturating_sub(1));
        self.cursor = self.cursor.saturating_add_signed(step as isize).min(last);
    }

    pub fn by(&self) -> By {
        self.by
    }

    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The selected group's index.
    pub fn at(&self) -> usize {
        self.at
    }

    pub fn selected(&self) -> Option<&Group> {
        self.groups.get(self.at)
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The row (an index into [`UsageScreen::rows`]) under the cursor.
    pub fn session(&self) -> Option<usize> {
        self.selected()?.sessions.get(self.cursor).map(|s| s.0)
    }

    /// The session under the cursor.
    pub fn session_row(&self) -> Option<&Arc<SessionRow>> {
        self.rows.get(self.session()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::over_time::OverTime;
    use crate::rollout::usage::{Tokens, Usage};
    use crate::timefmt::days_from_civil;
    use crate::usage::zone::Fixed;

    fn row(id: &str, day: i64, total: u64) -> Arc<SessionRow> {
        let mut over_time = OverTime::default();
        let tokens = Tokens {
            input: total,
            total,
            ..Tokens::default()
        };
        over_time.add(Some(day * 86_400_000 + 3_600_000), 0, tokens);
        Arc::new(SessionRow {
            id: id.into(),
            usage: Some(Box::new(Usage {
                over_time,
                models: vec!["m".into()],
                ..Usage::default()
            })),
            ..SessionRow::default()
        })
    }

    #[test]
    fn days_to_today_the_largest_session_first_and_other_groupings() {
        let d = days_from_civil(2026, 12, 1);
        let rows = [row("a", d, 10), row("b", d + 2, 5), row("c", d + 2, 50)];
        let mut s = UsageScreen::open(&rows, d + 3, &mut Fixed(0), &Prices::new());
        assert_eq!(s.groups().len(), 4);
        assert_eq!(s.selected().unwrap().key, "2026-12-04", "today, empty");
        assert_eq!(s.session(), None);
        s.step(-1);
        assert_eq!(s.session(), Some(2), "c used most that day");
        s.move_cursor(1);
        assert_eq!(s.session(), Some(1));
        s.move_cursor(5);
        assert_eq!(s.session(), Some(1));
        s.step(-10);
        assert_eq!(s.selected().unwrap().key, "2026-12-01");
        s.next_grouping(&mut Fixed(0), &Prices::new());
        assert_eq!((s.by(), s.groups().len()), (By::Week, 1));
        s.next_grouping(&mut Fixed(0), &Prices::new());
        assert_eq!(s.by(), By::Folder);
        s.next_grouping(&mut Fixed(0), &Prices::new());
        assert_eq!(
            (s.by(), s.selected().unwrap().key.as_str()),
            (By::Model, "m")
        );
    }
}
