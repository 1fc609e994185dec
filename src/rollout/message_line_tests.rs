//! The direct message read against `parse_line` + `rules::message_from_line`.

use super::*;

/// What the `Value` route gives.
fn reference(line: &[u8]) -> Option<(Option<Message>, Option<u64>)> {
    let v = parse_line(line)?;
    let ordinal = v.get("ordinal").and_then(serde_json::Value::as_u64);
    Some((rules::message_from_line(&v), ordinal))
}

fn direct(line: &[u8]) -> Option<(Option<Message>, Option<u64>)> {
    parse_row(line).map(|row| {
        let ordinal = row.ordinal;
        (message_of(row), ordinal)
    })
}

#[test]
fn agrees_on_hand_made_lines() {
    let lines: &[&[u8]] = &[
        br#"{"type":"event_msg","ordinal":4,"payload":{"type":"user_message","message":"hi","phase":"p"}}"#,
        br#"{"type":"event_msg","payload":{"type":"agent_message","message":["a",{"text":"b"},{"text":""},{"text":"c","text":1},{"text":1,"text":"d"}]}}"#,
        br#"{"type":"event_msg","payload":{"type":"agent_message","message":{"text":"x"}}}"#,
        br#"{"type":"event_msg","payload":{"type":"agent_message","message":"x","message":7}}"#,
        br#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"type":"text","text":"q"}],"phase":""}}}"#,
        br#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","content":"a","phase":"final"},"item":[]}}"#,
        br#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"Reasoning","content":"a"}}}"#,
        br#"{"payload":{"role":"user","content":"<env>"},"type":"response_item","ordinal":-1}"#,
        br#"{"type":"response_item","payload":{"role":"assistant","content":[{"text":"x"}],"phase":"c","phase":3}}"#,
        br#"{"type":"response_item","payload":{"role":"developer","content":"x"}}"#,
        br#"{"type":"response_item","payload":{"role":"user","content":""}}"#,
        br#"{"type":"response_item","payload":[{"role":"user","content":"x"}]}"#,
        br#"{"type":"response_item","type":1,"payload":{"role":"user","content":"x"}}"#,
        br#"{"type":"event_msg","payload":{"type":"user_message","message":"a"},"payload":null}"#,
        br#"{"ty\u0070e":"event_msg","payload":{"type":"user_\u006dessage","message":"\u00e9\ud83d\ude00\n"}}"#,
        br#"{"type":"event_msg","payload":{"type":"user_message","message":"a","x":1e400}}"#,
        br#"{"type":"event_msg","payload":{"type":"user_message","message":"\ud800"}}"#,
        br#"{"type":"event_msg","payload":{"type":"user_message","message":"a"}} x"#,
        br#"{"type":"event_msg","payload":{"type":"user_message","message":"a""#,
        br#"{"type":"event_msg","ordinal":2.0,"payload":{"type":"user_message","message":"a"}}"#,
        br#"{"type":"event_msg","ordinal":18446744073709551616,"payload":{"type":"user_message","message":"a"}}"#,
        br#"{"type":"event_msg","ordinal":-0,"ordinal":5,"payload":{"type":"user_message","message":"a"}}"#,
        b"{\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"a\xff\"}}",
        b"{\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"a\",\"x\":\"\xc3\"}}",
        b"{\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"a\x01\"}}",
        b"  {\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\" \"}}  ",
        b"[1,2]",
        b"\"x\"",
        b"",
    ];
    for line in lines {
        let want = reference(line);
        assert_eq!(parse(line), want, "{}", String::from_utf8_lossy(line));
        if std::str::from_utf8(line).is_ok() {
            assert_eq!(direct(line), want, "{}", String::from_utf8_lossy(line));
        }
    }
    let deep = crate::rollout::test_lines::nested_too_deep(
        r#"{"type":"event_msg","payload":{"type":"user_message","message":"a","x":"#,
        "}}",
    );
    assert_eq!(parse(deep.as_bytes()), reference(deep.as_bytes()));
    assert_eq!(direct(deep.as_bytes()), None);
}

#[test]
fn agrees_on_every_real_message_line() {
    let mut checked = 0;
    for (path, line) in crate::rollout::test_lines::real_fixture_lines() {
        let line = line.as_slice();
        assert_eq!(parse(line), reference(line), "{}", path.display());
        if std::str::from_utf8(line).is_ok() {
            assert_eq!(direct(line), reference(line), "{}", path.display());
        }
        if reference(line).is_some_and(|(m, _)| m.is_some()) {
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} message lines");
}
