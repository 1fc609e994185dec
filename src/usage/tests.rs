use super::*;
use crate::prices::Price;
use crate::rollout::over_time::OverTime;
use crate::rollout::record::Meta;
use crate::rollout::usage::Usage;
use crate::timefmt::days_from_civil;
use zone::Fixed;

const HOUR: i64 = 3_600_000;

fn t(input: u64, output: u64) -> Tokens {
    Tokens {
        input,
        output,
        total: input + output,
        ..Tokens::default()
    }
}

/// A session in `cwd` on `models` that used `spent` (hours since 2026-11-30 00:00 UTC, model
/// index, tokens).
fn row(id: &str, cwd: &str, models: &[&str], spent: &[(i64, u8, Tokens)]) -> SessionRow {
    let base = days_from_civil(2026, 11, 30) * 86_400_000;
    let mut over_time = OverTime::default();
    for &(hour, model, tokens) in spent {
        over_time.add(Some(base + hour * HOUR), model, tokens);
    }
    SessionRow {
        id: id.into(),
        meta: Meta {
            cwd: Some(cwd.into()),
            ..Meta::default()
        },
        usage: Some(Box::new(Usage {
            tokens: Some(over_time.total()),
            models: models.iter().map(ToString::to_string).collect(),
            over_time,
            ..Usage::default()
        })),
        ..SessionRow::default()
    }
}

fn rows() -> Vec<SessionRow> {
    vec![
        // Over midnight UTC: 23:00 on the 30th and 01:00 on the 1st.
        row(
            "a",
            "/w/api",
            &["gpt-5"],
            &[(23, 0, t(100, 10)), (25, 0, t(50, 5))],
        ),
        // Switched models in one session, a week later.
        row(
            "b",
            "/w/web",
            &["gpt-5", "o3"],
            &[(7 * 24 + 2, 0, t(10, 1)), (7 * 24 + 3, 1, t(20, 2))],
        ),
        row("c", "/w/api", &["o3"], &[(26, 0, t(1000, 100))]),
    ]
}

/// The rows' groups by `by`, every day, in UTC, with no prices.
fn in_utc(rows: &[SessionRow], by: By) -> Vec<Group> {
    groups(rows, by, Days::default(), &mut Fixed(0), &Prices::new())
}

fn keys(groups: &[Group]) -> Vec<(&str, u64, usize)> {
    groups
        .iter()
        .map(|g| (g.key.as_str(), g.tokens.total, g.sessions.len()))
        .collect()
}

#[test]
fn a_session_over_midnight_counts_on_both_days_in_the_zone_asked() {
    let rows = rows();
    let utc = in_utc(&rows, By::Day);
    assert_eq!(
        keys(&utc),
        [
            ("2026-11-30", 110, 1),
            ("2026-12-01", 1155, 2),
            ("2026-12-07", 33, 1)
        ]
    );
    // Three hours behind UTC, 01:00 and 02:00 on the 1st are still the 30th.
    let west = groups(
        &rows,
        By::Day,
        Days::default(),
        &mut Fixed(-3 * HOUR),
        &Prices::new(),
    );
    assert_eq!(keys(&west)[0], ("2026-11-30", 1265, 2));
}

#[test]
fn every_grouping_sums_to_the_same_total() {
    let rows = rows();
    let whole: u64 = rows
        .iter()
        .map(|r| r.usage.as_ref().unwrap().tokens.unwrap().total)
        .sum();
    for by in [
        By::Day,
        By::Week,
        By::Month,
        By::Folder,
        By::Model,
        By::Session,
    ] {
        let g = in_utc(&rows, by);
        assert_eq!(total(&g).total, whole, "{by:?}");
    }
    let weeks = in_utc(&rows, By::Week);
    assert_eq!(
        keys(&weeks),
        [("2026-11-30", 1265, 2), ("2026-12-07", 33, 1)]
    );
    let models = in_utc(&rows, By::Model);
    assert_eq!(keys(&models), [("o3", 1122, 2), ("gpt-5", 176, 2)]);
    let folders = in_utc(&rows, By::Folder);
    assert_eq!(keys(&folders)[0], ("/w/api", 1265, 2));
}

#[test]
fn days_outside_the_range_are_left_out() {
    let rows = rows();
    let first = days_from_civil(2026, 12, 1);
    let days = Days {
        since: Some(first),
        until: Some(first),
    };
    let g = groups(&rows, By::Session, days, &mut Fixed(0), &Prices::new());
    assert_eq!(keys(&g), [("c", 1100, 1), ("a", 55, 1)]);
}

#[test]
fn cost_only_where_every_token_has_a_price() {
    let rows = rows();
    let mut prices = Prices::new();
    let price = Price {
        input: 1.0,
        cached_input: None,
        output: 10.0,
    };
    prices.insert("gpt-5".into(), price);
    let g = groups(&rows, By::Model, Days::default(), &mut Fixed(0), &prices);
    assert_eq!(g[0].key, "o3");
    assert_eq!(g[0].cost(), None);
    assert_eq!(g[0].unpriced, 1122);
    let gpt = g[1].cost().unwrap();
    assert!((gpt - (160.0 + 160.0) / 1e6).abs() < 1e-12, "{gpt}");
    let sessions = groups(&rows, By::Session, Days::default(), &mut Fixed(0), &prices);
    let b = sessions.iter().find(|g| g.key == "b").unwrap();
    assert_eq!(b.cost(), None, "half of b ran on a model with no price");
}

#[test]
fn quiet_days_are_there_up_to_today() {
    let rows = rows();
    let g = in_utc(&rows, By::Day);
    let today = days_from_civil(2026, 12, 9);
    let all = continuous(By::Day, g, today);
    assert_eq!(all.len(), 10, "2026-11-30 to 2026-12-09");
    assert_eq!(all[2].key, "2026-12-02");
    assert_eq!(all[2].tokens.total, 0);
    assert_eq!(all[7].tokens.total, 33);
    let months = in_utc(&rows, By::Month);
    let months = continuous(By::Month, months, days_from_civil(2027, 2, 3));
    let keys: Vec<&str> = months.iter().map(|g| g.key.as_str()).collect();
    assert_eq!(keys, ["2026-11", "2026-12", "2027-01", "2027-02"]);
}
