//! The stripped row against the row itself: the same metadata, refused alike.

use super::*;
use crate::rollout::meta_line::{self, tests::reference};

/// A `session_meta` row whose payload has `key` set to `value` (raw JSON) after its id and
/// before its cwd.
fn row(key: &str, value: &str) -> Vec<u8> {
    format!(
        r#"{{"timestamp":"t","type":"session_meta","payload":{{"id":"a","{key}":{value},"cwd":"/w","source":"cli"}}}}"#
    )
    .into_bytes()
}

fn long_text(piece: &str) -> String {
    piece.repeat(LONG / piece.len().max(1) + 8)
}

fn agrees(line: &[u8]) {
    assert_eq!(
        meta_line::parse(line),
        reference(line),
        "{}",
        String::from_utf8_lossy(line)
    );
}

#[test]
fn long_ignored_values_of_strings_literals_objects_and_arrays_are_replaced() {
    let text = long_text(r#"Line one\n\"quoted\" \\ \/ \b\f\r\t \u00e9 é \u0041 "#);
    for value in [
        format!(r#""{text}""#),
        format!(r#"{{"text":"{text}"}}"#),
        format!(r#"{{ "text" : "{text}" , "more" : "{text}" }}"#),
        format!("{{{}}}", " ".repeat(LONG)),
        format!(
            r#"{{"text":["{text}"],"provenance":{{"type":"model","on":true,"off":false,"x":null}}}}"#
        ),
        format!(r#"[{{"text":"{text}"}}, [], {{}}, "", null]"#),
    ] {
        let line = row("base_instructions", &value);
        let stripped = strip(&line, meta_line::reads_payload_field).expect("replaced");
        assert!(stripped.len() < line.len() / 2);
        assert!(String::from_utf8_lossy(&stripped).contains(r#""base_instructions":null"#));
        agrees(&line);
        let (meta, _) = meta_line::parse(&line).expect("read");
        assert_eq!(meta.id.as_deref(), Some("a"));
        assert_eq!(meta.cwd.as_deref(), Some("/w"));
    }
}

#[test]
fn values_serde_json_would_refuse_are_left_for_it_to_refuse() {
    for bad in [
        "raw \u{1} control",
        r"bad \x escape",
        r"lone \ud800 surrogate",
        r"lone \udfff trailing",
        r"short \u12 escape",
        "raw\ttab",
    ] {
        let line = row("base_instructions", &format!(r#""{}""#, long_text(bad)));
        assert_eq!(strip(&line, meta_line::reads_payload_field), None, "{bad}");
        agrees(&line);
        assert_eq!(meta_line::parse(&line), None, "{bad}");
    }
}

#[test]
fn what_is_read_or_might_be_read_is_never_replaced() {
    let text = long_text("words ");
    for (key, value) in [
        ("cwd", format!(r#""{text}""#)),
        (r"c\u0077d", format!(r#""{text}""#)),
        ("git", format!(r#"{{"branch":"{text}"}}"#)),
        ("history_base", format!(r#"{{"thread_id":"{text}"}}"#)),
        ("source", format!(r#"{{"{text}":1}}"#)),
        // A number, or nesting past the check's depth: left to the parser.
        ("base_instructions", format!(r#"{{"text":"{text}","n":1}}"#)),
        (
            "base_instructions",
            format!(r#"{{"text":"{text}","n":1e400}}"#),
        ),
        (
            "base_instructions",
            format!(r#"{}"{text}"{}"#, "[".repeat(9), "]".repeat(9)),
        ),
        (
            "base_instructions",
            format!(r#"{{"text":"{text}","t":tru}}"#),
        ),
        // A surrogate pair is valid, but left to serde_json.
        ("base_instructions", format!(r#""{text}\ud83d\ude00""#)),
    ] {
        let line = row(key, &value);
        assert_eq!(strip(&line, meta_line::reads_payload_field), None, "{key}");
        agrees(&line);
    }
    let mut not_utf8 = row("base_instructions", &format!(r#""{text}""#));
    let at = not_utf8.len() - 40;
    not_utf8[at] = 0xff;
    assert_eq!(strip(&not_utf8, meta_line::reads_payload_field), None);
    agrees(&not_utf8);
}

#[test]
fn a_damaged_row_is_refused_as_before() {
    let text = long_text("words ");
    let good = row("base_instructions", &format!(r#""{text}""#));
    let cut = &good[..good.len() - 3];
    let trailing = [good.as_slice(), b" x"].concat();
    let doubled = [&good[..good.len() - 1], br#","payload":{"id":"b"}}"#].concat();
    for line in [cut, trailing.as_slice(), doubled.as_slice()] {
        agrees(line);
    }
    assert_eq!(meta_line::parse(&trailing), None);
    assert_eq!(
        meta_line::parse(&doubled).and_then(|(m, _)| m.id),
        Some("b".into())
    );
}

#[test]
fn a_control_byte_anywhere_in_a_long_string_is_refused() {
    // Escapes as dense as one every byte or two, with a raw control byte (or none) placed at
    // every offset: first, last, right after an escape, inside a run of escapes.
    for piece in [r#"\n"#, r#"a\"b"#, r#"\\\\x"#, r"\u00e9 ", "é\\t"] {
        let text = long_text(piece);
        let good = row("base_instructions", &format!(r#""{text}""#));
        assert!(
            strip(&good, meta_line::reads_payload_field).is_some(),
            "{piece}"
        );
        agrees(&good);
        for at in (0..text.len()).step_by(7).chain([text.len()]) {
            if !text.is_char_boundary(at) {
                continue;
            }
            for control in ["\u{0}", "\u{1f}", "\n"] {
                let bad = format!(r#""{}{control}{}""#, &text[..at], &text[at..]);
                let line = row("base_instructions", &bad);
                // A control byte inside an escape makes the escape bad, which is refused too.
                assert_eq!(
                    strip(&line, meta_line::reads_payload_field),
                    None,
                    "{piece} {at}"
                );
                agrees(&line);
            }
        }
    }
}
