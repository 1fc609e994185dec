//! The direct `session_meta` read against `parse_line` + `meta_from_line`.

use super::*;
use crate::rollout::rules::{meta_from_line, parse_line};

/// What the `Value` route gives.
pub(crate) fn reference(line: &[u8]) -> Option<(Meta, Option<u64>)> {
    let v = parse_line(line)?;
    let ordinal = v.get("ordinal").and_then(serde_json::Value::as_u64);
    Some((meta_from_line(&v), ordinal))
}

#[test]
fn agrees_on_hand_made_lines() {
    let lines: &[&[u8]] = &[
        br#"{"type":"session_meta","ordinal":3,"payload":{"id":"a","timestamp":"t","cwd":"/x","git":{"branch":"main","commit":"c"},"source":"cli","originator":"o","cli_version":"1","model_provider":"p","forked_from_id":"f","history_base":{"thread_id":"tt","end_ordinal_exclusive":7},"base_instructions":{"text":"long"}}}"#,
        br#"{"type":"session_meta","payload":{"id":"a","id":"b","cwd":"","git":{"branch":1},"source":{"subagent":{"x":1},"review":2,"":3}}}"#,
        br#"{"type":"session_meta","payload":{"source":{}, "history_base":{"thread_id":""}}}"#,
        br#"{"type":"session_meta","payload":{"source":{"b":1,"a":2}, "history_base":"x"}}"#,
        br#"{"type":"session_meta","payload":{"id":"a"},"payload":{"cwd":"/y"}}"#,
        br#"{"type":"session_meta","payload":{"id":"a"},"payload":7}"#,
        br#"{"type":"session_meta","payload":[1,{"id":"a"}]}"#,
        br#"{"type":"session_meta","ordinal":-0,"payload":{"id":"a"}}"#,
        br#"{"type":"session_meta","ordinal":-1,"payload":{"id":"a"}}"#,
        br#"{"type":"session_meta","ordinal":2.0,"payload":{"id":"a"}}"#,
        br#"{"type":"session_meta","ordinal":18446744073709551616,"payload":{"id":"a"}}"#,
        br#"{"type":"session_meta","payload":{"id":"a","x":1e400}}"#,
        br#"{"type":"session_meta","payload":{"i\u0064":"esc\"aped","cwd":"\ud83d\ude00"}}"#,
        br#"{"type":"session_meta","payload":{"id":"a","x":"\ud800"}}"#,
        br#"{"type":"session_meta","payload":{"id":"a"}} x"#,
        br#"{"type":"session_meta","payload":{"id":"a""#,
        b"{\"type\":\"session_meta\",\"payload\":{\"id\":\"a\xff\",\"cwd\":\"b\"}}",
        b"{\"type\":\"session_meta\",\"payload\":{\"id\":\"a\",\"x\":\"\xc3\"}}",
        b"{\"type\":\"session_meta\",\"payload\":{\"id\":\"a\x01\"}}",
        b"  {\"type\":\"session_meta\",\"payload\":{\"id\":\"a\"}}  ",
        br#"{"type":"session_meta","payload":{"git":{"branch":"a"},"git":null,"history_base":{"thread_id":"t","end_ordinal_exclusive":-3}}}"#,
    ];
    for line in lines {
        assert_eq!(
            parse(line),
            reference(line),
            "{}",
            String::from_utf8_lossy(line)
        );
    }
    let deep = crate::rollout::test_lines::nested_too_deep(
        r#"{"type":"session_meta","payload":{"id":"a","x":"#,
        "}}",
    );
    assert_eq!(parse(deep.as_bytes()), reference(deep.as_bytes()));
    assert_eq!(parse(deep.as_bytes()), None);
}

#[test]
fn agrees_on_every_real_meta_line() {
    let mut checked = 0;
    for (path, line) in crate::rollout::test_lines::real_fixture_lines() {
        let line = line.as_slice();
        if crate::rollout::classify::kind(line) == crate::rollout::classify::Kind::Meta {
            assert_eq!(parse(line), reference(line), "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} meta lines");
}
