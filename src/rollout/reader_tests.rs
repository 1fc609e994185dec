//! The reader's own rules: which lines are records, the ordinal bound, a cut-short last line, a
//! read error part-way, and `response` rows left unparsed.

use super::*;
use crate::rollout::record::Shape;
use serde_json::json;
use std::io::{BufReader, Read};

fn lines(values: &[serde_json::Value]) -> String {
    values.iter().map(|v| format!("{v}\n")).collect()
}

fn read_all(text: &[u8], opts: ReadOptions) -> (Vec<Record>, u32, End, bool) {
    let mut r = Records::new(text, opts, Resume::start());
    let mut out = Vec::new();
    while let Some(record) = r.next_record().unwrap() {
        out.push(record);
    }
    (out, r.skipped(), r.end(), r.pending_tail())
}

fn meta(ordinal: u64) -> serde_json::Value {
    json!({"ordinal":ordinal,"type":"session_meta","payload":{"id":"a","cwd":"/w"}})
}

fn user(ordinal: u64, text: &str) -> serde_json::Value {
    json!({"ordinal":ordinal,"type":"event_msg","payload":{"type":"user_message","message":text}})
}

fn response(role: &str, text: &str) -> serde_json::Value {
    json!({"type":"response_item","payload":{"type":"message","role":role,
        "content":[{"type":"output_text","text":text}]}})
}

#[test]
fn records_come_in_file_order_and_only_wanted_kinds() {
    let text = lines(&[
        meta(0),
        json!({"type":"turn_context","payload":{"cwd":"/w"}}),
        user(1, "hi"),
        json!({"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}"}}),
        json!({"type":"event_msg","payload":{"type":"thread_name_updated","thread_name":"named"}}),
        meta(2),
    ]);
    let (records, skipped, end, _) = read_all(text.as_bytes(), ReadOptions::default());
    assert_eq!(records.len(), 2, "{records:?}");
    assert!(matches!(&records[0], Record::Meta(m) if m.id.as_deref() == Some("a")));
    assert!(matches!(&records[1], Record::Message(m) if m.text == "hi"));
    assert_eq!((skipped, end), (0, End::Eof));
    let all = ReadOptions {
        tools: true,
        thread_names: true,
        ..ReadOptions::default()
    };
    let (records, _, _, _) = read_all(text.as_bytes(), all);
    assert!(matches!(&records[2], Record::Tool(t) if t.kind == "function_call"));
    assert!(matches!(&records[3], Record::ThreadName(n) if n == "named"));
    assert_eq!(records.len(), 4, "a second session_meta is not a record");
}

#[test]
fn the_ordinal_bound_ends_the_stream_before_its_line() {
    let text = lines(&[meta(0), user(1, "kept"), user(2, "past"), user(3, "later")]);
    let opts = ReadOptions {
        ordinal_below: Some(2),
        ..ReadOptions::default()
    };
    let mut r = Records::new(text.as_bytes(), opts, Resume::start());
    let mut texts = Vec::new();
    while let Some(record) = r.next_record().unwrap() {
        if let Record::Message(m) = record {
            texts.push(m.text);
        }
    }
    assert_eq!(texts, ["kept"]);
    assert_eq!(r.end(), End::Bound);
    let first_two = lines(&[meta(0), user(1, "kept")]).len() as u64;
    assert_eq!(r.consumed(), first_two, "the bounded line is not consumed");
}

#[test]
fn a_cut_short_last_line_is_left_for_a_later_read() {
    let whole = lines(&[meta(0), user(1, "hi")]);
    let text = format!("{whole}{{\"type\":\"event_msg\",\"payload\":{{\"type\":\"user_mess");
    let mut r = Records::new(text.as_bytes(), ReadOptions::default(), Resume::start());
    while r.next_record().unwrap().is_some() {}
    assert!(r.pending_tail());
    assert_eq!(r.skipped(), 1);
    assert_eq!(r.consumed(), whole.len() as u64);
    // A whole object without its newline is a record like any other.
    let text = whole.trim_end();
    let (records, skipped, _, pending) = read_all(text.as_bytes(), ReadOptions::default());
    assert_eq!((records.len(), skipped, pending), (2, 0, false));
}

/// Gives `data`, then fails.
struct FailAfter<'a>(&'a [u8]);

impl Read for FailAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("disk gone"));
        }
        let n = buf.len().min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn a_read_error_ends_a_session_but_fails_a_non_session() {
    let text = lines(&[meta(0), user(1, "hi")]);
    let reader = BufReader::with_capacity(16, FailAfter(text.as_bytes()));
    let mut r = Records::new(reader, ReadOptions::default(), Resume::start());
    let mut n = 0;
    while r.next_record().unwrap().is_some() {
        n += 1;
    }
    assert_eq!((n, r.skipped(), r.end()), (2, 1, End::Eof));
    let noise = b"not json\n";
    let reader = BufReader::with_capacity(16, FailAfter(noise));
    let mut r = Records::new(reader, ReadOptions::default(), Resume::start());
    assert!(r.next_record().is_err());
}

#[test]
fn skipped_responses_are_not_parsed_unless_bounded() {
    // Cut short after its payload: known to be an assistant `response` row, not readable.
    let cut = r#"{"type":"response_item","payload":{"role":"assistant","content":"b"},"x":"#;
    let text = format!(
        "{}{}{cut}\n{}",
        lines(&[meta(0)]),
        lines(&[response("assistant", "a")]),
        lines(&[response("user", "u")])
    );
    let mut r = Records::new(text.as_bytes(), ReadOptions::default(), Resume::start());
    r.skip_responses(Role::Assistant);
    let mut shapes = Vec::new();
    while let Some(record) = r.next_record().unwrap() {
        if let Record::Message(m) = record {
            shapes.push((m.role, m.shape));
        }
    }
    assert_eq!(shapes, [(Role::User, Shape::Response)]);
    assert_eq!(r.skipped(), 0, "a cut-short skipped row is not counted");
    let opts = ReadOptions {
        ordinal_below: Some(10),
        ..ReadOptions::default()
    };
    let mut r = Records::new(text.as_bytes(), opts, Resume::start());
    r.skip_responses(Role::Assistant);
    while r.next_record().unwrap().is_some() {}
    assert_eq!(r.skipped(), 1, "under a bound every row is read");
}

/// A command's huge output in a read that drops tool rows streams past (the line reader never
/// holds it), and the records are those of the same file with a short output; a read that keeps
/// tool rows still reads it whole.
#[test]
fn a_huge_tool_output_is_not_held_when_tools_are_dropped() {
    let output = |text: &str| {
        json!({"type":"response_item","payload":{"type":"function_call_output","call_id":"c",
            "output":text}})
    };
    let file = |text: &str| lines(&[meta(0), user(1, "hi"), output(text), user(2, "again")]);
    let huge = "x".repeat(crate::rollout::lines::PASS_OVER_AT * 3);
    let (records, skipped, end, pending) = read_all(file(&huge).as_bytes(), ReadOptions::default());
    let (small, ..) = read_all(file("ok").as_bytes(), ReadOptions::default());
    assert_eq!(format!("{records:?}"), format!("{small:?}"));
    assert_eq!(records.len(), 3);
    assert_eq!((skipped, end, pending), (0, End::Eof, false));
    let tools = ReadOptions {
        tools: true,
        ..ReadOptions::default()
    };
    let (records, ..) = read_all(file(&huge).as_bytes(), tools);
    assert!(
        records
            .iter()
            .any(|r| matches!(r, Record::Tool(t) if t.kind == "function_call_output")),
        "{:?}",
        records.len()
    );
    // Cut short by the end of the file, it is left for a later read.
    let text = file(&huge);
    let cut = &text.as_bytes()[..text.len() / 2];
    let (records, skipped, _, pending) = read_all(cut, ReadOptions::default());
    assert_eq!((records.len(), skipped, pending), (2, 1, true));
}
