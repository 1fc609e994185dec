//! `codex-picker usage`: what the sessions used, summed by day, week, month, folder, model or
//! session ([`crate::usage`]), or with `--limits` codex's rate limits, as a table or JSON
//! lines ([`super::usage_out`]). The rows come from one run of the index engine over every
//! session, archived ones included (they were used), so an unchanged store is answered from
//! the rows cache without reading a session file, and mostly from the first fields of each
//! cached state ([`super::usage_rows`]).

use std::io::Write;

use super::list::cache_file;
use super::report::{finish, report, say};
use super::usage_out;
use super::usage_rows::Rows;
use crate::cli::{StoreArgs, UsageArgs, EXIT_ERROR};
use crate::prices::Prices;
use crate::search::filter;
use crate::session::SessionRow;
use crate::store::engine::{self, Kind};
use crate::timefmt::now_ms;
use crate::usage::period::{parse_day, By};
use crate::usage::zone::{Local, Zone};
use crate::usage::{self, Days};

/// Windows of each limit `--limits` shows.
const WINDOWS: usize = 8;

pub fn run_usage(
    store_args: &StoreArgs,
    args: &UsageArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let now = now_ms();
    let mut zone = Local::new();
    let today = zone.day(now);
    let days = match range(args, today) {
        Ok(days) => days,
        Err(e) => {
            say(err, e);
            return EXIT_ERROR;
        }
    };
    let split = filter::split(&args.filters.join(" "), now);
    if let Some(e) = split.error {
        say(err, e);
        return EXIT_ERROR;
    }
    if !split.words.is_empty() {
        let why = format!(
            "{}: not a filter (usage takes dir:, branch:, file:, date:, source:)",
            split.words
        );
        say(err, why);
        return EXIT_ERROR;
    }
    let store = match store_args.resolve() {
        Ok(store) => store,
        Err(e) => {
            say(err, &e);
            return EXIT_ERROR;
        }
    };
    let opts = engine::Options {
        cache: cache_file(&store, store_args, "rows"),
        ..engine::Options::new(Kind::States, true)
    };
    // A `file:` filter reads the files each session changed, and a report by session shows
    // each session's title: only a whole row has them. Over every day, nearly every session
    // is in a report by session: its rows are made whole at once, else once it is known which
    // are shown.
    let by_session = args.by == By::Session && !args.limits;
    let every_day = days == Days::default();
    let whole = split.filters.reads_files() || (by_session && every_day);
    let keep = |r: &SessionRow| split.filters.keeps(r) && args.source.is_none_or(|s| r.source == s);
    let (mut rows, issues) = Rows::collect(&store, &opts, whole, &keep);
    report(err, &issues);
    let result = if args.limits {
        let limits = usage::limits::limits(&rows.rows, WINDOWS);
        usage_out::write_limits(out, &limits, args.json, now, &mut zone)
    } else {
        let prices = prices(err);
        let groups = usage::groups(&rows.rows, args.by, days, &mut zone, &prices);
        if by_session && !whole {
            rows.make_whole(
                groups
                    .iter()
                    .filter_map(|g| g.sessions.first().map(|s| s.0)),
            );
        }
        let shown = usage_out::Shown {
            by: args.by,
            rows: &rows.rows,
            groups: &groups,
            priced: !prices.is_empty(),
        };
        usage_out::write_groups(out, &shown, args.json)
    };
    rows.drop_later();
    finish(result.and_then(|()| out.flush()), err)
}

/// The days `--since` and `--until` name.
fn range(args: &UsageArgs, today: i64) -> Result<Days, String> {
    let day = |text: &Option<String>, flag: &str| match text {
        None => Ok(None),
        Some(t) => parse_day(t, today).map(Some).ok_or_else(|| {
            format!("{flag} {t}: not a day (YYYY-MM-DD, today, yesterday, 7d, 2w, 3m, 1y)")
        }),
    };
    Ok(Days {
        since: day(&args.since, "--since")?,
        until: day(&args.until, "--until")?,
    })
}

/// The config file's prices; none when it has none or cannot be read (said on stderr: costs
/// are then not shown).
fn prices(err: &mut dyn Write) -> Prices {
    let Some(path) = crate::config::path() else {
        return Prices::new();
    };
    match crate::config::load(&path) {
        Ok(file) => file.and_then(|f| f.prices).unwrap_or_default(),
        Err(e) => {
            say(err, format!("{e}; costs are not shown"));
            Prices::new()
        }
    }
}
