//! `codex-picker usage` through the built binary, on sessions recorded from the real codex
//! 0.171 with rate limits (`tests/fixtures/codex-limits/`: an exec session resumed, a TUI
//! session and a `codex fork` of it) and the Claude Code fixture store. The expected figures
//! are `tests/fixtures/usage/read_usage.py`'s, a reading of every token count from the files
//! alone (none of the reader's code), run with TZ=UTC.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::{bin, fixtures, json_lines, stderr, stdout};

fn limits_home() -> PathBuf {
    fixtures().join("codex-limits")
}

/// `codex-picker usage` with `args` on the Codex fixture store `home` and no Claude Code
/// store (or the fixture one), in UTC; fails on an error.
fn usage(home: &PathBuf, claude: bool, args: &[&str]) -> String {
    let claude_home = if claude {
        fixtures().join("claude/home")
    } else {
        fixtures().join("no-such-claude-home")
    };
    let out = bin()
        .env("TZ", "UTC")
        .arg("usage")
        .args(args)
        .arg("--codex-home")
        .arg(home)
        .arg("--claude-home")
        .arg(claude_home)
        .output()
        .expect("run codex-picker");
    assert!(out.status.success(), "usage {args:?}: {}", stderr(&out));
    stdout(&out)
}

fn totals(lines: &[Value]) -> u64 {
    lines.iter().map(|l| l["total"].as_u64().unwrap()).sum()
}

#[test]
fn by_day_matches_a_reading_of_every_token_count_and_a_fork_counts_its_own() {
    let days = json_lines(&usage(&limits_home(), false, &["--json"]));
    assert_eq!(days.len(), 1, "{days:?}");
    let day = &days[0];
    assert_eq!(day["day"], "2026-12-07");
    assert_eq!(day["sessions"], 3);
    // read_usage.py: input 26346, cached 0, output 520, reasoning 130, total 26866.
    for (key, want) in [
        ("input", 26_346),
        ("cached_input", 0),
        ("output", 520),
        ("reasoning", 130),
        ("total", 26_866),
    ] {
        assert_eq!(day[key], want, "{key}");
    }
    assert_eq!(day["cost"], Value::Null, "no prices in the config: no cost");
    let sessions = json_lines(&usage(
        &limits_home(),
        false,
        &["--json", "--by", "session"],
    ));
    let of = |id: &str| {
        sessions
            .iter()
            .find(|s| s["session"] == id)
            .map(|s| s["total"].as_u64().unwrap())
    };
    assert_eq!(of("01a24e9b-c5cc-79e3-90db-4e1439a450c4"), Some(5_140));
    assert_eq!(of("01a24e9c-5b9c-73b0-9957-ec7487a9fd6f"), Some(19_637));
    assert_eq!(
        of("01a24e9d-090a-77a2-98cc-94dcc5d4d549"),
        Some(2_089),
        "the fork counts what it added to its parent's running total"
    );
}

#[test]
fn every_grouping_sums_to_the_list_totals_with_claude_code_too() {
    let home = limits_home();
    let listed: u64 = {
        let out = bin()
            .args(["list", "--json", "--archived", "--codex-home"])
            .arg(&home)
            .arg("--claude-home")
            .arg(fixtures().join("claude/home"))
            .output()
            .unwrap();
        json_lines(&stdout(&out))
            .iter()
            .filter_map(|r| r["tokens"]["total"].as_u64())
            .sum()
    };
    assert!(listed > 26_866, "Claude Code's tokens are listed too");
    for by in ["day", "week", "month", "folder", "model", "session"] {
        let lines = json_lines(&usage(&home, true, &["--json", "--by", by]));
        assert_eq!(totals(&lines), listed, "--by {by}");
        assert!(lines.iter().all(|l| l.get(by).is_some()), "--by {by} keys");
    }
    let claude = json_lines(&usage(&home, true, &["--json", "source:claude"]));
    let codex = json_lines(&usage(&home, true, &["--json", "--source", "codex"]));
    assert_eq!(totals(&codex), 26_866);
    assert_eq!(totals(&claude) + totals(&codex), listed);
}

#[test]
fn days_out_of_range_and_bad_arguments() {
    let home = limits_home();
    let none = usage(&home, false, &["--json", "--until", "2026-12-06"]);
    assert_eq!(none, "");
    let one = json_lines(&usage(&home, false, &["--json", "--since", "2026-12-07"]));
    assert_eq!(totals(&one), 26_866);
    let table = usage(&home, false, &["--by", "model"]);
    assert!(table.contains("gpt-5.5"), "{table}");
    assert!(table.contains("26,866"), "{table}");
    for bad in [&["--since", "last week"][..], &["hello"][..], &["dir:"][..]] {
        let out = bin()
            .arg("usage")
            .args(bad)
            .arg("--codex-home")
            .arg(&home)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(stderr(&out).starts_with("codex-picker: "), "{bad:?}");
    }
}

#[test]
fn limits_give_the_newest_reading_and_how_far_each_window_went() {
    let lines = json_lines(&usage(&limits_home(), false, &["--limits", "--json"]));
    let names: Vec<&str> = lines.iter().map(|l| l["limit"].as_str().unwrap()).collect();
    assert_eq!(names, ["primary", "secondary"]);
    let primary = &lines[0];
    assert_eq!(primary["window_minutes"], 300);
    assert_eq!(primary["resets_at"], "2026-12-07T06:46:00.000Z");
    // The fork's last token count, the newest record, read 41%.
    assert_eq!(primary["used_percent"], 41.0);
    assert_eq!(primary["windows"][0]["used_percent"], 48.5);
    assert_eq!(lines[1]["window_minutes"], 10080);
    let text = usage(&limits_home(), false, &["--limits"]);
    assert!(text.contains("primary (5h window): 41% used"), "{text}");
    assert!(text.contains("secondary (7d window)"), "{text}");
}

#[test]
fn cost_only_from_the_config_files_prices_and_only_where_every_token_has_one() {
    let config = tempfile::tempdir().unwrap();
    let dir = config.path().join("codex-picker");
    std::fs::create_dir_all(&dir).unwrap();
    let prices = "[prices.\"gpt-5.5\"]\ninput = 1.25\ncached_input = 0.125\noutput = 10.0\n";
    std::fs::write(dir.join("config.toml"), prices).unwrap();
    let out = bin()
        .env("TZ", "UTC")
        .env("XDG_CONFIG_HOME", config.path())
        .args(["usage", "--json", "--by", "model", "--codex-home"])
        .arg(limits_home())
        .arg("--claude-home")
        .arg(fixtures().join("claude/home"))
        .output()
        .unwrap();
    let lines = json_lines(&stdout(&out));
    let model = |name: &str| lines.iter().find(|l| l["model"] == name).unwrap().clone();
    let gpt = model("gpt-5.5");
    // 26,346 input (none cached) at $1.25 and 520 output at $10 a million.
    let cost = gpt["cost"].as_f64().unwrap();
    assert!(
        (cost - (26_346.0 * 1.25 + 520.0 * 10.0) / 1e6).abs() < 1e-9,
        "{cost}"
    );
    assert_eq!(gpt["unpriced"], 0);
    let claude = model("claude-opus-5-5");
    assert_eq!(claude["cost"], Value::Null, "no price for it, no guess");
    assert_eq!(claude["unpriced"], claude["total"]);
}

/// A folder and a model named with terminal controls (C1 CSI, a bidi override, ESC) come out
/// of every form of the report inert: escaped in JSON, neutralised in the table; and tokens
/// written at 23:50 and 00:10 count on both days.
#[test]
fn names_from_sessions_reach_the_terminal_inert_and_midnight_splits_the_days() {
    use crate::common::{meta_line, user_event, write_lines};
    let home = tempfile::tempdir().unwrap();
    let evil = "/w/a\u{9b}31m\u{202e}b\u{1b}[2J";
    let count = |at: &str, total: u64| {
        serde_json::json!({"timestamp": at, "type": "event_msg", "payload": {"type": "token_count",
            "info": {"total_token_usage": {"input_tokens": total, "cached_input_tokens": 0,
            "output_tokens": 0, "reasoning_output_tokens": 0, "total_tokens": total}}}})
        .to_string()
    };
    let model = serde_json::json!({"timestamp": "2026-11-30T23:40:00.000Z", "type": "turn_context",
        "payload": {"cwd": evil, "model": "gpt\u{9b}6\u{1b}]0;x\u{7}"}})
    .to_string();
    write_lines(
        home.path(),
        "sessions/2026/11/30/rollout-2026-11-30T23-40-00-0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee.jsonl",
        &[
            meta_line("0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee", evil),
            user_event("hello"),
            model,
            count("2026-11-30T23:50:00.000Z", 100),
            count("2026-12-01T00:10:00.000Z", 130),
        ],
    );
    let home = home.path().to_path_buf();
    let days = json_lines(&usage(&home, false, &["--json"]));
    let per_day: Vec<(&str, u64)> = days
        .iter()
        .map(|d| (d["day"].as_str().unwrap(), d["total"].as_u64().unwrap()))
        .collect();
    assert_eq!(per_day, [("2026-11-30", 100), ("2026-12-01", 30)]);
    for args in [
        &["--json", "--by", "folder"][..],
        &["--json", "--by", "model"],
        &["--json", "--by", "session"],
        &["--by", "folder"],
        &["--by", "model"],
        &["--by", "session"],
    ] {
        let text = usage(&home, false, args);
        assert!(
            !text
                .chars()
                .any(|c| c == '\u{1b}' || c == '\u{9b}' || c == '\u{202e}' || c == '\u{7}'),
            "{args:?}: {text:?}"
        );
    }
    let folders = json_lines(&usage(&home, false, &["--json", "--by", "folder"]));
    assert_eq!(
        folders[0]["folder"], evil,
        "JSON escapes, and reads back to the same name"
    );
}
