//! Tests of the query language, every operator, ranking, smart case and highlights.

use super::*;
use crate::rollout::record::Meta;

fn row(id: &str, name: Option<&str>, preview: &str, cwd: &str, branch: &str, t: i64) -> SessionRow {
    SessionRow {
        id: id.into(),
        name: name.map(Into::into),
        preview: preview.into(),
        meta: Meta {
            cwd: Some(cwd.into()),
            git_branch: Some(branch.into()),
            ..Meta::default()
        },
        updated_ms: t,
        created_ms: Some(1000 - t),
        ..SessionRow::default()
    }
}

fn rows() -> Vec<SessionRow> {
    vec![
        row(
            "aaaa-0001",
            None,
            "Fix the checkout rounding bug",
            "/home/u/work/webshop",
            "fix/rounding",
            10,
        ),
        row(
            "bbbb-0002",
            Some("Release notes 2.4"),
            "Draft the release notes",
            "/home/u/work/api",
            "release/2.4",
            20,
        ),
        row(
            "cccc-0003",
            None,
            "Add dark mode to the Dashboard",
            "/home/u/work/dashboard",
            "main",
            30,
        ),
        row(
            "dddd-0004",
            None,
            "翻訳ファイルの欠けているキーを探す",
            "/home/u/work/i18n",
            "main",
            40,
        ),
        row(
            "eeee-0005",
            None,
            "Refactor the lexer",
            "/home/u/work/parser",
            "refactor/lexer",
            50,
        ),
    ]
}

fn ids(input: &str) -> Vec<String> {
    let rows = rows();
    let hays: Vec<Haystack> = rows.iter().map(Haystack::new).collect();
    rank(&hays, &parse(input), None, Recency::Updated)
        .into_iter()
        .map(|i| rows[i].id[..4].to_owned())
        .collect()
}

fn term(kind: TermKind, negated: bool, text: &str, case_sensitive: bool) -> Term {
    Term {
        kind,
        negated,
        text: text.into(),
        case_sensitive,
    }
}

#[test]
fn parses_every_operator() {
    let q = parse("fuz 'ex ^pre suf$ ^eq$ !not !^np !ns$ a | b");
    let flat: Vec<&Term> = q.groups.iter().flatten().collect();
    assert_eq!(flat[0], &term(TermKind::Fuzzy, false, "fuz", false));
    assert_eq!(flat[1], &term(TermKind::Exact, false, "ex", false));
    assert_eq!(flat[2], &term(TermKind::Prefix, false, "pre", false));
    assert_eq!(flat[3], &term(TermKind::Suffix, false, "suf", false));
    assert_eq!(flat[4], &term(TermKind::Equal, false, "eq", false));
    assert_eq!(flat[5], &term(TermKind::Exact, true, "not", false));
    assert_eq!(flat[6], &term(TermKind::Prefix, true, "np", false));
    assert_eq!(flat[7], &term(TermKind::Suffix, true, "ns", false));
    assert_eq!(q.groups.len(), 9, "a | b is one OR group");
    assert_eq!(q.groups[8].len(), 2);
}

#[test]
fn lone_operators_and_escapes() {
    assert!(
        parse("' ^ |").is_empty(),
        "operators alone match everything"
    );
    assert!(parse("   ").is_empty());
    let q = parse(r"dark\ mode");
    assert_eq!(q.groups[0][0].text, "dark mode");
    // A trailing `|` does not turn the query into "match anything".
    assert_eq!(parse("lexer |").groups.len(), 1);
}

#[test]
fn smart_case_per_term() {
    let q = parse("Dash mode");
    assert!(q.groups[0][0].case_sensitive);
    assert!(!q.groups[1][0].case_sensitive);
    assert_eq!(ids("Dashboard"), vec!["cccc"]);
    assert_eq!(ids("dashboard"), vec!["cccc"]);
    assert!(
        ids("DASHBOARD").is_empty(),
        "uppercase makes the term case-sensitive"
    );
}

#[test]
fn fuzzy_matches_every_field() {
    assert_eq!(ids("checkout"), vec!["aaaa"], "preview");
    assert_eq!(ids("relnotes"), vec!["bbbb"], "name, fuzzy");
    assert_eq!(ids("webshop"), vec!["aaaa"], "cwd");
    assert_eq!(ids("refactor/lex"), vec!["eeee"], "branch");
    assert_eq!(ids("cccc-0003"), vec!["cccc"], "id");
    assert_eq!(ids("キーを"), vec!["dddd"], "unicode");
}

#[test]
fn exact_prefix_suffix_equal_and_not() {
    assert_eq!(ids("'dark"), vec!["cccc"]);
    assert!(ids("'drk").is_empty(), "exact needs the literal");
    assert_eq!(
        ids("^fix"),
        vec!["aaaa"],
        "prefix of a field (preview and branch)"
    );
    assert_eq!(
        ids("^main$"),
        vec!["dddd", "cccc"],
        "equal to the branch, newest first"
    );
    assert_eq!(ids("lexer$"), vec!["eeee"]);
    let not_main = ids("!main");
    assert!(!not_main.contains(&"cccc".to_owned()) && not_main.len() == 3);
    assert_eq!(ids("!^fix !lexer$ !main"), vec!["bbbb"]);
}

#[test]
fn and_or() {
    assert_eq!(ids("dark main"), vec!["cccc"], "space is AND");
    assert!(ids("dark lexer").is_empty());
    let mut either = ids("'dark | lexer");
    either.sort();
    assert_eq!(either, vec!["cccc", "eeee"], "| is OR");
}

#[test]
fn ranking_by_score_then_recency() {
    let rows = [
        row("old1", None, "lexer", "/a", "x", 1),
        row("new2", None, "lexer", "/b", "y", 2),
        row("weak", None, "sloexper", "/c", "z", 3),
    ];
    let hays: Vec<Haystack> = rows.iter().map(Haystack::new).collect();
    let ranked = rank(&hays, &parse("lexer"), None, Recency::Updated);
    let got: Vec<&str> = ranked.iter().map(|&i| rows[i].id.as_str()).collect();
    assert_eq!(
        got,
        vec!["new2", "old1", "weak"],
        "equal scores: newest first"
    );
    let by_created = rank(&hays, &parse("lexer"), None, Recency::Created);
    assert_eq!(
        rows[by_created[0]].id, "old1",
        "created order flips the tie"
    );
}

#[test]
fn highlights_land_on_the_drawn_fields() {
    let r = row(
        "abcd-1",
        Some("Release notes"),
        "Draft it",
        "/w/api",
        "release/2.4",
        1,
    );
    let hay = Haystack::new(&r);
    let h = highlights(&hay, &parse("'notes"));
    assert_eq!(h.fields[NAME], vec![8, 9, 10, 11, 12]);
    let h = highlights(&hay, &parse("^release 2.4$"));
    assert_eq!(h.fields[BRANCH], vec![0, 1, 2, 3, 4, 5, 6, 8, 9, 10]);
    assert_eq!(
        h.fields[NAME],
        vec![0, 1, 2, 3, 4, 5, 6],
        "prefix of the name too"
    );
    let h = highlights(&hay, &parse("api"));
    assert_eq!(h.fields[CWD], vec![3, 4, 5]);
    let h = highlights(&hay, &parse("!draft"));
    assert!(
        h.fields.iter().all(Vec::is_empty),
        "negated terms highlight nothing"
    );
    let wide = row("x", None, "日本語のテスト", "/", "", 1);
    let h = highlights(&Haystack::new(&wide), &parse("テスト"));
    assert_eq!(
        h.fields[PREVIEW],
        vec![4, 5, 6],
        "character offsets, not bytes"
    );
}

#[test]
fn incremental_search_equals_full_search() {
    let rows = rows();
    let hays: Vec<Haystack> = rows.iter().map(Haystack::new).collect();
    let mut searcher = Searcher::default();
    for (i, _) in "re notes".char_indices().skip(1) {
        let q = &"re notes"[..=i];
        let inc = searcher.search(&hays, q, Recency::Updated);
        let full = rank(&hays, &parse(q), None, Recency::Updated);
        assert_eq!(inc, full, "{q}");
    }
    assert!(narrows("dar", "dark"));
    assert!(!narrows("!dar", "!dark"), "a longer negation matches more");
    assert!(!narrows("dark", "dark | lexer"));
    assert!(!narrows("lexer$", "lexer$x"));
    assert!(!narrows("", "a"));
}

#[test]
fn compact_matches_outrank_scattered_ones_whatever_their_age() {
    let rows = [
        row(
            "a-1",
            None,
            "parquet reader runs out of memory",
            "/w/ml",
            "main",
            1,
        ),
        row(
            "b-2",
            None,
            "please add a readme; unrelated text goes here quite a while; then a question",
            "/w/docs",
            "main",
            99,
        ),
    ];
    let hays: Vec<Haystack> = rows.iter().map(Haystack::new).collect();
    let ranked = rank(&hays, &parse("parquet"), None, Recency::Updated);
    assert_eq!(
        ranked.first(),
        Some(&0),
        "the word itself wins over scattered letters"
    );
    assert_eq!(ranked.len(), 2, "scattered matches are still listed");
    assert_eq!(subsequence("xxabcxxabc", "abc"), Some(2..5));
    assert_eq!(
        subsequence("a..b..ab", "ab"),
        Some(0..4),
        "the greedy end, tightened backwards"
    );
    assert_eq!(subsequence("日本語", "本語"), Some(3..9));
    assert_eq!(subsequence("abc", "abd"), None);
}
