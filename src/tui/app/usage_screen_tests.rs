//! The usage screen in the app: Alt+U opens it on today, a day's sessions are listed largest
//! first, Enter goes to one in the list, widening the filters that hide it.

use super::*;
use crate::rollout::over_time::OverTime;
use crate::rollout::usage::{Tokens, Usage};
use crate::tui::action::UsageKey;

const DAY: i64 = 86_400_000;

/// A session of `cwd` that used `total` tokens on day `day` (days since 1970, UTC).
fn spent(id: &str, cwd: &str, day: i64, total: u64, archived: bool) -> SessionRow {
    let mut over_time = OverTime::default();
    let tokens = Tokens {
        input: total,
        total,
        ..Tokens::default()
    };
    over_time.add(Some(day * DAY + 12 * 3_600_000), 0, tokens);
    SessionRow {
        usage: Some(Box::new(Usage {
            over_time,
            models: vec!["gpt-5.5".into()],
            ..Usage::default()
        })),
        ..row(id, cwd, day * DAY, true, archived)
    }
}

#[test]
fn enter_on_a_days_session_goes_to_it_and_shows_what_hid_it() {
    let today = 20_000;
    let mut app = App::new(
        Options {
            scope_root: Some("/w/p".into()),
            ..Options::default()
        },
        today * DAY + 1,
    );
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 120, 30)));
    app.apply_index(Event::rows(vec![
        spent("a", "/w/p", today - 2, 100, false),
        spent("b", "/w/q", today - 1, 50, true),
        spent("c", "/w/p", today - 1, 10, false),
    ]));
    assert_eq!(
        shown(&app),
        vec!["c", "a"],
        "b is in another folder and archived"
    );
    app.update(Action::OpenUsage);
    let usage = app.usage().expect("Alt+U opens the usage screen");
    assert_eq!(usage.selected().map(|g| g.tokens.total), Some(0), "today");
    app.update(Action::Usage(UsageKey::Step(-1)));
    let usage = app.usage().unwrap();
    let ids: Vec<&str> = usage
        .selected()
        .unwrap()
        .sessions
        .iter()
        .map(|s| usage.rows()[s.0].id.as_str())
        .collect();
    assert_eq!(ids, ["b", "c"], "the day's sessions, largest first");
    app.update(Action::Usage(UsageKey::Jump));
    assert!(app.usage().is_none(), "Enter closes the screen");
    assert_eq!(app.selected_row().map(|r| r.id.as_str()), Some("b"));
    assert!(app.filters().show_archived());
    assert_eq!(app.filters().effective_scope(), Scope::All);
    let said = app.screen().flash().unwrap_or_default().to_owned();
    assert!(
        said.contains("every folder") && said.contains("archived"),
        "{said}"
    );
    // A session already shown is simply selected.
    app.update(Action::OpenUsage);
    app.update(Action::Usage(UsageKey::Step(-2)));
    app.update(Action::Usage(UsageKey::Jump));
    assert_eq!(app.selected_row().map(|r| r.id.as_str()), Some("a"));
    // Esc and Alt+U close it.
    app.update(Action::OpenUsage);
    app.update(Action::OpenUsage);
    assert!(app.usage().is_none());
}
