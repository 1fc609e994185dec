//! Generators for the property tests in `fuzz.rs`: JSON values shaped like rollout rows,
//! a faithful but noisy JSON renderer (random white space, `\u` escapes, member order and
//! repeated keys), damaged real fixture lines and whole hostile byte streams.

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::{select, Index};
use serde_json::{Map, Value};

use crate::common;

pub const WORDS: &[&str] = &[
    "type",
    "payload",
    "role",
    "content",
    "text",
    "message",
    "item",
    "phase",
    "ordinal",
    "event_msg",
    "response_item",
    "session_meta",
    "turn_context",
    "user_message",
    "agent_message",
    "item_completed",
    "thread_name_updated",
    "UserMessage",
    "AgentMessage",
    "user",
    "assistant",
    "developer",
    "function_call",
    "function_call_output",
    "reasoning",
    "commentary",
    "# AGENTS.md instructions",
    "<environment_context>",
    "## My request for Codex: fix it",
    "   ",
    "\t\n",
    "",
    "fix the bug",
    "\u{1b}]52;c;aGk=\u{7}",
    "\u{202e}txt",
    "é😀\u{0}",
];

pub fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => select(WORDS).prop_map(str::to_owned),
        1 => any::<String>(),
    ]
}

pub fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        select(&[0.5, -2.25, 1e10, 3.0e-7][..]).prop_map(Value::from),
        word().prop_map(Value::String),
    ]
}

/// Any JSON value, with keys and strings drawn mostly from the words codex writes.
pub fn json() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((word(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Message content in every shape seen or imaginable: strings, block arrays with and without a
/// string `text`, objects, numbers.
pub fn content() -> impl Strategy<Value = Value> {
    let block = prop_oneof![
        word().prop_map(|t| serde_json::json!({"type": "input_text", "text": t})),
        word().prop_map(|t| serde_json::json!({"type": "text", "text": t})),
        leaf().prop_map(|t| serde_json::json!({"text": t})),
        Just(serde_json::json!({"type": "input_image", "image_url": "data:"})),
        leaf(),
    ];
    prop_oneof![
        word().prop_map(Value::String),
        prop::collection::vec(block, 0..4).prop_map(Value::Array),
        json(),
    ]
}

pub fn opt<T: std::fmt::Debug + Clone + 'static>(
    s: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<Option<T>> {
    prop_oneof![1 => Just(None), 3 => s.prop_map(Some)].boxed()
}

/// Lines shaped like rollout rows, every field optional or of a wrong type now and then.
pub fn message_like() -> impl Strategy<Value = Value> {
    let top = select(
        &[
            "event_msg",
            "response_item",
            "session_meta",
            "event_msg",
            "x",
        ][..],
    );
    let ptype = select(
        &[
            "user_message",
            "agent_message",
            "item_completed",
            "message",
            "function_call",
            "reasoning",
            "thread_name_updated",
            "token_count",
        ][..],
    );
    let item = (
        opt(select(&["UserMessage", "AgentMessage", "Reasoning"][..])),
        opt(content()),
        opt(leaf()),
    )
        .prop_map(|(kind, content, phase)| {
            let mut m = Map::new();
            if let Some(k) = kind {
                m.insert("type".into(), k.into());
            }
            if let Some(c) = content {
                m.insert("content".into(), c);
            }
            if let Some(p) = phase {
                m.insert("phase".into(), p);
            }
            Value::Object(m)
        });
    let payload = (
        opt(ptype),
        opt(select(&["user", "assistant", "developer", "system"][..])),
        opt(content()),
        opt(content()),
        opt(prop_oneof![3 => item, 1 => json()]),
        opt(leaf()),
    )
        .prop_map(|(kind, role, message, body, item, phase)| {
            let mut m = Map::new();
            let mut put = |k: &str, v: Option<Value>| {
                if let Some(v) = v {
                    m.insert(k.into(), v);
                }
            };
            put("type", kind.map(Value::from));
            put("role", role.map(Value::from));
            put("message", message);
            put("content", body);
            put("item", item);
            put("phase", phase);
            Value::Object(m)
        });
    (
        opt(top),
        opt(prop_oneof![6 => payload, 1 => json()]),
        prop::collection::vec((word(), json()), 0..3),
    )
        .prop_map(|(top, payload, extra)| {
            let mut m: Map<String, Value> = extra.into_iter().collect();
            if let Some(t) = top {
                m.insert("type".into(), t.into());
            }
            if let Some(p) = payload {
                m.insert("payload".into(), p);
            }
            Value::Object(m)
        })
}

/// A tiny deterministic generator driving the rendering choices.
pub struct Rng(u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn one_in(&mut self, n: u64) -> bool {
        self.next().is_multiple_of(n)
    }
}

pub fn render_str(s: &str, rng: &mut Rng, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' if rng.one_in(2) => out.push_str("\\n"),
            '/' if rng.one_in(2) => out.push_str("\\/"),
            c if (c as u32) < 0x20 || rng.one_in(12) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

pub fn space(rng: &mut Rng, out: &mut String, newlines: bool) {
    while rng.one_in(6) {
        let set: &[char] = if newlines {
            &[' ', '\t', '\r', '\n']
        } else {
            &[' ', '\t']
        };
        out.push(set[(rng.next() % set.len() as u64) as usize]);
    }
}

/// Serialize `v` as valid JSON that parses back to `v`, with random white space, random `\u`
/// escapes, members in a random order, and decoy earlier copies of keys (serde_json keeps the last).
pub fn render(v: &Value, rng: &mut Rng, out: &mut String, newlines: bool) {
    space(rng, out, newlines);
    match v {
        Value::String(s) => render_str(s, rng, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                render(item, rng, out, newlines);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            if !entries.is_empty() {
                let by = (rng.next() % entries.len() as u64) as usize;
                entries.rotate_left(by);
            }
            let decoys = [
                Value::Null,
                Value::from("event_msg"),
                Value::from("user"),
                serde_json::json!({"type": "user_message", "message": "decoy"}),
                serde_json::json!({"type": "UserMessage", "content": "decoy"}),
            ];
            let mut first = true;
            for (key, value) in entries {
                let decoy = rng
                    .one_in(6)
                    .then(|| &decoys[(rng.next() % decoys.len() as u64) as usize]);
                for v in decoy.into_iter().chain([value]) {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    space(rng, out, newlines);
                    render_str(key, rng, out);
                    space(rng, out, newlines);
                    out.push(':');
                    render(v, rng, out, newlines);
                }
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
    space(rng, out, newlines);
}

pub fn render_line(v: &Value, seed: u64, newlines: bool) -> String {
    let mut out = String::new();
    render(v, &mut Rng(seed | 1), &mut out, newlines);
    out
}

/// Every line of the real fixture rollouts.
pub fn real_lines() -> &'static [Vec<u8>] {
    static LINES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    LINES.get_or_init(|| {
        let mut lines = Vec::new();
        for entry in walkdir::WalkDir::new(common::real_fixtures()).sort_by_file_name() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy();
            if entry.file_type().is_file() && name.ends_with(".jsonl") {
                let bytes = std::fs::read(entry.path()).unwrap();
                lines.extend(bytes.split(|b| *b == b'\n').map(<[u8]>::to_vec));
            }
        }
        assert!(lines.len() > 100, "fixture lines found");
        lines
    })
}

/// Byte-level damage: flip a bit, cut, insert, delete or repeat a run.
pub fn mutate(line: &mut Vec<u8>, ops: &[(u8, usize, u8)]) {
    for &(op, at, byte) in ops {
        let len = line.len();
        let pos = if len == 0 { 0 } else { at % len };
        match op % 5 {
            0 if len > 0 => line[pos] ^= 1 << (byte % 8),
            1 => line.truncate(pos),
            2 => line.insert(pos, byte),
            3 if len > 0 => {
                let end = (pos + 1 + byte as usize).min(len);
                line.drain(pos..end);
            }
            4 if len > 0 => {
                let end = (pos + 1 + byte as usize).min(len);
                let run = line[pos..end].to_vec();
                line.splice(pos..pos, run);
            }
            _ => {}
        }
    }
}

pub fn mutated_real_line() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<Index>(),
        prop::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 0..4),
    )
        .prop_map(|(pick, ops)| {
            let lines = real_lines();
            let mut line = lines[pick.index(lines.len())].clone();
            mutate(&mut line, &ops);
            line
        })
}

/// Bytes biased towards JSON punctuation and codex words.
pub fn jsonish_bytes() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        select(&["{", "}", "[", "]", "\"", ":", ",", "\\", " ", "u00", "0", "-1e5", "null"][..])
            .prop_map(|s| s.as_bytes().to_vec()),
        select(WORDS).prop_map(|s| format!("\"{s}\"").into_bytes()),
        any::<u8>().prop_map(|b| vec![b]),
    ];
    prop::collection::vec(token, 0..40).prop_map(|t| t.concat())
}

/// One line of a hostile rollout (may itself contain `\n` when it is random bytes).
pub fn stream_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => (message_like(), any::<u64>()).prop_map(|(v, s)| render_line(&v, s, false).into_bytes()),
        1 => (json(), any::<u64>()).prop_map(|(v, s)| render_line(&v, s, false).into_bytes()),
        3 => mutated_real_line(),
        1 => prop::collection::vec(any::<u8>(), 0..48),
        1 => jsonish_bytes(),
        1 => select(&["", "   ", "\u{feff}", "\0\0\0"][..]).prop_map(|s| s.as_bytes().to_vec()),
    ]
}

/// A whole rollout stream: lines joined by `\n` or `\r\n`, maybe a BOM, maybe no final newline.
pub fn stream() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<bool>(),
        prop::collection::vec((stream_line(), any::<bool>()), 0..10),
        any::<bool>(),
    )
        .prop_map(|(bom, lines, final_newline)| {
            let mut out = Vec::new();
            if bom {
                out.extend_from_slice(b"\xEF\xBB\xBF");
            }
            let n = lines.len();
            for (i, (line, crlf)) in lines.into_iter().enumerate() {
                out.extend_from_slice(&line);
                if i + 1 < n || final_newline {
                    out.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
                }
            }
            out
        })
}
