//! The picker's usage screen in tmux, as a person uses it: Alt+U opens it on today, ← goes
//! back to a day a session used tokens, the day's totals and sessions show, Enter goes to the
//! session in the list (Enter there prints its id), and Tab groups by week.

use crate::tmux::{demo_store, picker_into, read_when_there, start, Tmux};

#[test]
fn the_usage_screen_moves_between_days_and_goes_to_a_session() {
    let Some(tmux) = Tmux::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let home = demo_store(dir.path());
    let (cmd, out) = picker_into(dir.path(), &home, "env TZ=UTC ", "");
    start(&tmux, &cmd);
    tmux.wait_for("checkout rounding fix");
    tmux.keys(&["F1"]);
    // The help is drawn in more than one write: wait for the whole row, not its first word.
    let help = tmux.wait_until("the help names the usage screen", |s| {
        s.lines()
            .any(|l| l.contains("Alt+U") && l.contains("usage: tokens by day"))
    });
    assert!(help.contains("usage: tokens by day"), "{help}");
    tmux.keys(&["Escape"]);
    tmux.wait_until("the help closed", |s| !s.contains("usage: tokens by day"));
    tmux.keys(&["M-u"]);
    tmux.wait_for("usage · tokens by day");
    // Back, a day at a time, to the day the demo's checkout session ran.
    let screen = back_to(&tmux, "2026-11-28");
    assert!(
        screen.contains("2026-11-28 · 1 session · 43,650 tokens"),
        "{screen}"
    );
    assert!(screen.contains("input 42,100 (30,720 cached)"), "{screen}");
    let session_line = screen
        .lines()
        .find(|l| l.contains("checkout rounding fix"))
        .unwrap_or_else(|| panic!("the day's session is listed:\n{screen}"));
    assert!(session_line.contains("43k"), "{session_line}");
    tmux.keys(&["Tab"]);
    tmux.wait_for("usage · tokens by week");
    tmux.keys(&["Tab", "Tab", "Tab"]);
    tmux.wait_for("usage · tokens by day");
    back_to(&tmux, "2026-11-28");
    tmux.keys(&["Enter"]);
    tmux.wait_until("the usage screen closed", |s| !s.contains("usage · tokens"));
    tmux.keys(&["Enter"]);
    let printed = read_when_there(&out);
    assert_eq!(
        printed.trim(),
        "019ac001-7e2d-7a41-9c3b-000000000001",
        "the session gone to"
    );
}

/// The day the usage screen has selected (its totals line starts with it).
fn selected_day(screen: &str) -> Option<String> {
    screen
        .lines()
        .find_map(|l| {
            l.strip_prefix('│')
                .filter(|l| l.starts_with("20") && l.contains(" · "))
        })
        .map(|l| l[..10].to_owned())
}

/// Press ← a day at a time, each once the screen has moved, until `day` is selected.
fn back_to(tmux: &Tmux, day: &str) -> String {
    for _ in 0..1000 {
        let screen = tmux.capture();
        let at = selected_day(&screen);
        if at.as_deref() == Some(day) {
            return screen;
        }
        assert!(
            at.as_deref().is_some_and(|at| at > day),
            "went past {day}:\n{screen}"
        );
        tmux.keys(&["Left"]);
        tmux.wait_until("the day before", |s| selected_day(s) != at);
    }
    panic!("{day} never selected");
}
