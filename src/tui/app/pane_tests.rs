//! The conversation pane: scrolling, loading the selection's transcript, opening at a content
//! hit, keeping the reading position through updates, and building a long one as it is read.

use super::*;

#[test]
fn scrolling_the_conversation() {
    let mut app = app_with(all());
    with_transcript(&mut app, 100);
    app.update(Action::Scroll(3));
    assert_eq!(app.pane().scroll(), 3);
    app.update(Action::PageConversation(1));
    assert_eq!(
        app.pane().scroll(),
        3 + 7,
        "a page is the pane height (9) less 2"
    );
    app.update(Action::HalfPageConversation(-1));
    assert_eq!(app.pane().scroll(), 10 - 4);
    app.update(Action::Scroll(-100));
    assert_eq!(app.pane().scroll(), 0, "clamped");
    app.update(Action::Scroll(10_000));
    assert_eq!(
        app.pane().scroll(),
        app.pane().lines().len() - 9,
        "last page"
    );
}

#[test]
fn transcripts_load_for_the_selection_and_are_cached() {
    let mut app = app_with(all());
    let asks = |app: &mut App| app.take_outbox().transcripts.len();
    assert!(app
        .pane()
        .lines()
        .iter()
        .any(|l| l.text().contains("loading")));
    with_transcript(&mut app, 3);
    assert!(app
        .pane()
        .lines()
        .iter()
        .any(|l| l.text().contains("line 2")));
    app.update(Action::MoveDown);
    assert_eq!(asks(&mut app), 1, "b is requested");
    app.update(Action::MoveUp);
    assert_eq!(asks(&mut app), 0, "a comes from the cache");
    assert!(app
        .pane()
        .lines()
        .iter()
        .any(|l| l.text().contains("line 2")));
}

#[test]
fn the_pane_opens_at_the_first_hit_and_n_jumps() {
    let mut app = listing_a(12);
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.update(Action::ToggleContent);
    app.update(Action::Paste("needle".into()));
    let (gen, _) = content_requests(&mut app)[0].clone();
    app.apply_content(gen, vec![hit("a", "a needle", 2..8)]);
    app.apply_transcript("a".into(), Ok(needles()));
    assert_eq!(app.pane().hit_lines().len(), 2);
    let first = app.pane().hit_lines()[0];
    assert!(app.pane().lines()[first]
        .text()
        .contains("NEEDLE is here 12"));
    assert!(
        app.pane().scroll() > 0 && app.pane().scroll() <= first,
        "opened at the first hit"
    );
    app.update(Action::JumpHit(HitStep::Next));
    assert!(app.pane().scroll() > first, "n goes to the next hit");
    assert_eq!(app.screen().flash(), Some("match 2 of 2"));
    app.update(Action::JumpHit(HitStep::Next));
    assert_eq!(
        app.screen().flash(),
        Some("match 1 of 2"),
        "and wraps around"
    );
}

/// Session `a`'s conversation read: `n` prompts, `word 0`, `word 1`, ...
fn show_prompts(app: &mut App, n: usize, word: &str) {
    let entries = (0..n)
        .map(|i| {
            message(
                crate::rollout::record::Role::User,
                format!("{word} {i}"),
                None,
            )
        })
        .collect();
    app.apply_transcript(
        "a".into(),
        Ok(Transcript {
            entries,
            ..Transcript::default()
        }),
    );
}

#[test]
fn a_background_update_keeps_the_reading_position() {
    let mut app = listing_a(12);
    show_prompts(&mut app, 40, "line");
    app.update(Action::Scroll(20));
    assert_eq!(app.pane().scroll(), 20);
    let mut newer = row("a", "/w/p", 60, true, false);
    newer.preview = "grew".into();
    app.apply_index(Event::updated(vec![newer]));
    assert_eq!(
        app.pane().scroll(),
        20,
        "the same session stays where the reader was"
    );
    app.apply_index(Event::rows(vec![row("b", "/w/p", 70, true, false)]));
    app.update(Action::First);
    assert_eq!(selected(&app), "b");
    assert_eq!(app.pane().scroll(), 0, "another session starts at the top");
}

#[test]
fn a_long_conversation_is_built_as_it_comes_into_view() {
    let mut app = listing_a(30);
    show_prompts(&mut app, 5000, "message");
    let built = app.pane().lines().len();
    assert!(
        built < 1000,
        "a few screens are built, not 15,000 lines: {built}"
    );
    assert!(
        app.pane().line_total() >= 14_000,
        "the scroll bar counts them all"
    );
    app.update(Action::FocusConversation);
    for _ in 0..10 {
        app.update(Action::PageConversation(1));
    }
    assert!(app.pane().lines().len() > built, "paging builds more");
    app.update(Action::PaneEnd(true));
    let last = app.pane().lines().last().unwrap().text();
    assert_eq!(last, "message 4999", "the end is the last message");
    assert_eq!(app.pane().line_total(), app.pane().lines().len());
}
