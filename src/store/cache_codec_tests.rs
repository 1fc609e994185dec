use super::*;
use crate::rollout::record::HistoryBase;
use crate::rollout::record::Meta;
use crate::rollout::usage::{Change, ChangedFile, Tokens};

#[allow(clippy::needless_update, reason = "fields added later are filled too")]
fn full_state() -> ScanState {
    let s = |v: &str| Some(v.to_owned());
    ScanState {
        offset: 123_456,
        complete: true,
        meta: Some(Meta {
            id: s("0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee"),
            timestamp: s("2026-01-01T00:00:00.000Z"),
            cwd: s("/home/u/work"),
            git_branch: s("main"),
            source: s("cli"),
            originator: s("codex_cli_rs"),
            cli_version: s("0.130.0"),
            model_provider: s("openai"),
            forked_from_id: s("0199aaaa-bbbb-7ccc-8ddd-000000000000"),
            history_base: Some(HistoryBase {
                thread_id: "0199aaaa-bbbb-7ccc-8ddd-000000000000".into(),
                end_ordinal_exclusive: Some(7),
            }),
        }),
        event_user: 3,
        event_assistant: 4,
        response_user: 5,
        response_assistant: 6,
        event_prompt: s("fix the parser"),
        response_prompt: s("fix the parser, please"),
        thread_name: s("parser fix"),
        skipped_lines: 2,
        saw_message: true,
        pending_tail: true,
        files: vec![ChangedFile {
            path: "/w/a.py".into(),
            change: Change::Rename,
            to: s("/w/b.py"),
        }],
        tokens: Some(Tokens {
            input: 1,
            cached_input: 2,
            output: 3,
            reasoning: 4,
            total: 300,
        }),
        models: vec!["gpt-5.5".into()],
        over_time: {
            let mut o = crate::rollout::over_time::OverTime::default();
            o.add(
                Some(900_000),
                0,
                Tokens {
                    input: 3,
                    cached_input: 2,
                    output: 1,
                    reasoning: 0,
                    total: 4,
                },
            );
            o
        },
        model_now: Some(0),
        limits: {
            let mut l = crate::rollout::limits::Limits::default();
            l.note(crate::rollout::limits::Reading {
                which: crate::rollout::limits::Which::Secondary,
                used: 4850,
                window_minutes: Some(300),
                resets_at: Some(7),
                seen_at: 5,
            });
            l
        },
        ..ScanState::default()
    }
}

/// The encoded state above, byte for byte. When this test fails, the layout of a cached state
/// changed (a field added, removed, reordered or retyped in `ScanState` or what it holds): a
/// cache written by an earlier build would be misread, so raise `cache::ROWS_VERSION`, then
/// put the new bytes here.
const FULL_STATE_BYTES: &str = concat!(
    // What a usage report reads first: the tokens, the models, the tokens over time (one slot:
    // the first quarter hour, model 0, 3 in of which 2 cached, 1 out, 4 in all), the rate
    // limits (one reading: secondary, 48.50%, a 300-minute window resetting at 7 s, seen at
    // 5 ms), then the metadata.
    "01",
    "01020304ac02",
    "01076770742d352e35",
    "0101000302010004",
    "0101f22501ac02010e0a",
    "01",
    "01243031393961616161",
    "2d626262622d376363632d386464642d656565656565656565656565",
    "0118323032362d30312d30315430303a30303a30302e3030305a",
    "010c2f686f6d652f752f776f726b",
    "01046d61696e",
    "0103636c69",
    "010c636f6465785f636c695f7273",
    "0107302e3133302e30",
    "01066f70656e6169",
    "0124303139396161616",
    "12d626262622d376363632d386464642d303030303030303030303030",
    "01243031393961616161",
    "2d626262622d376363632d386464642d303030303030303030303030",
    "0107",
    // The pass: offset, complete, counts, prompts, name, skipped lines, flags, files.
    "c0c407",
    "01",
    "03040506",
    "010e666978207468652070617273657",
    "2",
    "0116666978207468652070617273657",
    "22c20706c65617365",
    "010a70617273657220666978",
    "02",
    "01",
    "01",
    "01072f772f612e7079",
    "03",
    "01072f772f622e7079",
    // The current model 0; no automatic title, no Claude Code carry.
    "0100",
    "00",
    "00",
);

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn the_encoded_layout_of_a_state_is_the_one_this_version_reads() {
    assert_eq!(
        hex(&encode_state(&full_state())),
        FULL_STATE_BYTES,
        "the cached state's layout changed: raise cache::ROWS_VERSION and update the bytes"
    );
}

/// Every value survives encoding, empty ones too: a field left out when empty
/// (`skip_serializing_if`) would shift every field after it in a postcard body.
#[test]
fn states_round_trip_full_and_empty() {
    for state in [full_state(), ScanState::default()] {
        let bytes = encode_state(&state);
        assert_eq!(decode_state(&bytes), Some(state));
    }
    let mut longer = encode_state(&full_state());
    longer.push(0);
    assert_eq!(decode_state(&longer), None, "trailing bytes");
}

/// A usage report reads the first fields of a cached state alone: they are the state's own.
#[test]
fn the_first_fields_of_a_state_decode_alone() {
    let state = full_state();
    let bytes = encode_state(&state);
    let view = decode_usage(&bytes).expect("decodes");
    assert_eq!(view.tokens, state.tokens);
    assert_eq!(view.models, state.models);
    assert_eq!(view.over_time, state.over_time);
    assert_eq!(view.limits, state.limits);
    let meta = view.meta.expect("has metadata");
    let full = state.meta.as_ref().expect("has metadata");
    assert_eq!(meta.id, full.id.as_deref());
    assert_eq!(meta.timestamp, full.timestamp.as_deref());
    assert_eq!(meta.cwd, full.cwd.as_deref());
    assert_eq!(meta.git_branch, full.git_branch.as_deref());
    let empty = encode_state(&ScanState::default());
    let view = decode_usage(&empty).expect("decodes");
    assert!(view.over_time.is_empty() && view.meta.is_none());
    assert!(decode_usage(&bytes[..3]).is_none(), "cut short");
}

#[test]
fn sections_round_trip_and_give_each_part_its_bytes() {
    let states = [
        encode_state(&full_state()),
        encode_state(&ScanState::default()),
    ];
    let key = |size, mtime_ms, compressed, archived, session, fork| Key {
        size,
        mtime_ms,
        compressed,
        archived,
        session,
        fork,
        complete: fork,
        source: if archived {
            crate::sources::Source::Codex
        } else {
            crate::sources::Source::Claude
        },
    };
    let records = [
        RecordRef {
            path: b"/s/rollout-a.jsonl",
            key: key(10, -5, false, true, true, true),
            state: &states[0],
            id: b"0199",
            line: b"{\"id\":\"0199\"}",
        },
        RecordRef {
            path: b"/s/rollout-b.jsonl.zst",
            key: key(u64::MAX, i64::MAX, true, false, false, false),
            state: &states[1],
            id: b"",
            line: b"",
        },
    ];
    let stamp = Stamp(5);
    let body = encode_section(b"xx".to_vec(), b"/home", stamp, &records).unwrap();
    let section = decode_section(&body[2..]).unwrap();
    assert_eq!(section.home, b"/home");
    assert_eq!(section.stamp, stamp);
    assert_eq!(section.records.len(), 2);
    let bytes = &body[2..];
    for (r, d) in records.iter().zip(&section.records) {
        assert_eq!(d.key, r.key);
        assert_eq!(&bytes[d.path.clone()], r.path);
        assert_eq!(&bytes[d.state.clone()], r.state);
        assert_eq!(&bytes[d.id.clone()], r.id);
        assert_eq!(&bytes[d.line.clone()], r.line);
    }
    assert!(
        decode_section(&body[2..body.len() - 1]).is_none(),
        "cut short"
    );
}

/// A section of one record, byte for byte: its table (the home, the stamp, each record's path,
/// size, mtime, flags, id and the lengths of its state and line), then its state, then its
/// line. When this test fails, the layout of a rows file changed: raise `cache::ROWS_VERSION`,
/// then put the new bytes here.
#[test]
fn the_encoded_layout_of_a_section_is_the_one_this_version_reads() {
    let record = RecordRef {
        path: b"/s/a",
        key: Key {
            size: 10,
            mtime_ms: -5,
            archived: true,
            session: true,
            ..Key::default()
        },
        state: b"ab",
        id: b"01",
        line: b"{1}",
    };
    let stamp = Stamp(5);
    let body = encode_section(Vec::new(), b"/h", stamp, &[record]).unwrap();
    let expected = concat!(
        "022f68",
        "05",
        "01",
        "042f732f61",
        "0a",
        "09",
        "06",
        "023031",
        "02",
        "03",
        "6162",
        "7b317d",
    );
    assert_eq!(
        hex(&body),
        expected,
        "the rows file's layout changed: raise cache::ROWS_VERSION and update the bytes"
    );
}

/// Lengths in a table that do not add up to the bytes after it make the section unreadable.
#[test]
fn a_section_whose_lengths_overrun_its_bytes_does_not_decode() {
    let record = RecordRef {
        path: b"/s/a",
        key: Key::default(),
        state: b"ab",
        id: b"01",
        line: b"{1}",
    };
    let body = encode_section(Vec::new(), b"/h", Stamp::default(), &[record]).unwrap();
    assert!(decode_section(&body).is_some());
    let mut longer = body.clone();
    longer.push(b'x');
    assert!(decode_section(&longer).is_none(), "a byte past the lines");
    assert!(
        decode_section(&body[..body.len() - 1]).is_none(),
        "a line cut short"
    );
}
