//! What sessions used, over time: their tokens summed by local day, week or month, by folder,
//! model or session, from each row's tokens over time ([`crate::rollout::over_time`]), so a
//! report reads no session file. A session that ran over midnight counts on both days; a fork
//! counts what it added; a quarter hour's tokens count on the model its turn ran on, so a
//! report by model and the cost of a session that switched models are exact. Cost comes only
//! from the prices in the config file: tokens of a model without a price are counted as
//! unpriced, and a group holding any has no cost.
//!
//! Pure: the rows, the zone and the prices come in; [`zone::Local`] is the one reading of the
//! system. [`limits`] is the account's rate limits over the same rows.

pub mod limits;
pub mod period;
pub mod zone;

use std::borrow::Borrow;
use std::collections::HashMap;

use crate::prices::{self, Prices};
use crate::rollout::over_time::NO_MODEL;
use crate::rollout::usage::Tokens;
use crate::session::SessionRow;
use period::By;
use zone::Zone;

/// The local days a report covers, both ends included (`None`: no end).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Days {
    pub since: Option<i64>,
    pub until: Option<i64>,
}

impl Days {
    fn holds(&self, day: i64) -> bool {
        self.since.is_none_or(|s| day >= s) && self.until.is_none_or(|u| day <= u)
    }
}

/// One group of a report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Group {
    /// Its key as `--json` writes it (a day, a folder, a session id, ...).
    pub key: String,
    /// The first local day of a time group (0 for the others).
    pub day: i64,
    /// The sessions that used tokens in it (indices into the rows), each with what it used
    /// in the group, in the order first met.
    pub sessions: Vec<(usize, Tokens)>,
    pub tokens: Tokens,
    /// The cost of its priced tokens.
    priced_cost: f64,
    /// Tokens of models without a price (or of no known model).
    pub unpriced: u64,
}

impl Group {
    /// A group with nothing in it yet (or a day no session used tokens).
    pub fn empty(key: String, day: i64) -> Group {
        Group {
            key,
            day,
            ..Group::default()
        }
    }

    /// Its cost in US dollars, when every token in it has a price.
    pub fn cost(&self) -> Option<f64> {
        (self.unpriced == 0 && self.tokens.total > 0).then_some(self.priced_cost)
    }
}

/// Where a slot goes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key<'a> {
    Day(i64),
    Name(&'a str),
    Row(usize),
}

/// The groups of `rows`'s tokens `by` what, over `days`, in `zone`, costed with `prices`:
/// time groups oldest first, the others largest first.
pub fn groups<R: Borrow<SessionRow>>(
    rows: &[R],
    by: By,
    days: Days,
    zone: &mut dyn Zone,
    prices: &Prices,
) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    let mut at: HashMap<Key, usize> = HashMap::new();
    for (i, row) in rows.iter().enumerate() {
        let row: &SessionRow = row.borrow();
        let Some(usage) = row.usage.as_deref() else {
            continue;
        };
        let start = row.created_ms.unwrap_or(row.updated_ms);
        for slot in usage.over_time.slots() {
            let day = zone.day(slot.start_ms(start));
            if !days.holds(day) {
                continue;
            }
            let model = (slot.model != NO_MODEL)
                .then(|| usage.models.get(usize::from(slot.model)))
                .flatten();
            let key = match by {
                By::Day | By::Week | By::Month => Key::Day(period::period_start(by, day)),
                By::Folder => Key::Name(row.meta.cwd.as_deref().unwrap_or("(no folder)")),
                By::Model => Key::Name(model.map_or("(no model named)", String::as_str)),
                By::Session => Key::Row(i),
            };
            let g = *at.entry(key.clone()).or_insert_with(|| {
                out.push(match key {
                    Key::Day(start) => Group::empty(period::period_key(by, start), start),
                    Key::Name(n) => Group::empty(n.to_owned(), 0),
                    Key::Row(_) => Group::empty(row.id.clone(), 0),
                });
                out.len() - 1
            });
            let group = &mut out[g];
            group.tokens = group.tokens.plus(slot.tokens);
            match group.sessions.last_mut() {
                Some((r, t)) if *r == i => *t = t.plus(slot.tokens),
                _ => group.sessions.push((i, slot.tokens)),
            }
            let cost =
                model.and_then(|m| prices::cost(&slot.tokens, std::slice::from_ref(m), prices));
            match cost {
                Some(c) => group.priced_cost += c,
                None => group.unpriced += slot.tokens.total,
            }
        }
    }
    if by.is_time() {
        out.sort_by_key(|g| g.day);
    } else {
        out.sort_by(|a, b| {
            b.tokens
                .total
                .cmp(&a.tokens.total)
                .then_with(|| a.key.cmp(&b.key))
        });
    }
    out
}

/// Time groups made continuous: a period no session used tokens in is there, empty, up to
/// the period of `today` (a chart shows the quiet days too).
pub fn continuous(by: By, groups: Vec<Group>, today: i64) -> Vec<Group> {
    let Some(first) = groups.first().map(|g| g.day) else {
        return groups;
    };
    let last = groups.last().map_or(first, |g| g.day);
    let end = last.max(period::period_start(by, today));
    let mut out = Vec::with_capacity(groups.len());
    let mut given = groups.into_iter().peekable();
    let mut day = first;
    while day <= end {
        match given.next_if(|g| g.day == day) {
            Some(g) => out.push(g),
            None => out.push(Group::empty(period::period_key(by, day), day)),
        }
        // The next period (`day` starts one): a day, a week, or the next month's first.
        day = match by {
            By::Week => day + 7,
            By::Month => period::period_start(by, day + 31),
            _ => day + 1,
        };
    }
    out
}

/// Everything the groups hold.
pub fn total(groups: &[Group]) -> Tokens {
    groups
        .iter()
        .fold(Tokens::default(), |t, g| t.plus(g.tokens))
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
