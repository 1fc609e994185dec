//! Property tests over hostile input: the message rules, the line classifier, the streaming scan
//! and the transcript reader must never panic, and the classifier must agree with serde_json on
//! every line that is valid JSON.
//!
//! Each property runs `PROPTEST_CASES` cases (default: a few thousand in total, so CI stays
//! short). A long run: `PROPTEST_CASES=2000000 cargo test --release --test it fuzz::`.
//! Crashes found by long runs are kept as named regression tests at the end of this file.

use std::io::BufReader;

use codex_picker::rollout::classify::{self, Kind};
use codex_picker::rollout::record::{Role, Shape};
use codex_picker::rollout::rules;
use codex_picker::rollout::rules::parse_line;
use codex_picker::rollout::summary::{ScanOptions, ScanState, Until};
use codex_picker::rollout::transcript::{
    read, read_transcript, stream_transcript, Entry, Parse, TranscriptOptions,
};
use codex_picker::rollout::{message_line, meta_line};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use serde_json::Value;

use crate::fuzz_gen::{json, jsonish_bytes, message_like, mutated_real_line, render_line, stream};

/// Cases per property: `$PROPTEST_CASES`, else `default`.
fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..ProptestConfig::default()
    }
}

// ---- oracles ---------------------------------------------------------------------------------

/// What `classify::kind` must answer for a line that parses to `v`.
fn expected_kind(v: &Value) -> Kind {
    let Some(obj) = v.as_object() else {
        return Kind::Malformed;
    };
    let payload = obj.get("payload").and_then(Value::as_object);
    let field = |k: &str| payload.and_then(|p| p.get(k)).and_then(Value::as_str);
    let tool = |k: &str| k == "reasoning" || k.ends_with("_call") || k.ends_with("_output");
    match obj.get("type").and_then(Value::as_str) {
        Some("session_meta") => Kind::Meta,
        Some("compacted") => Kind::Turn,
        Some("turn_context") => Kind::TurnContext,
        Some("event_msg") => match field("type") {
            Some("user_message" | "agent_message") => Kind::Message,
            Some("item_completed") => {
                let item = payload.and_then(|p| p.get("item"));
                match item.and_then(|i| i.get("type")).and_then(Value::as_str) {
                    Some("UserMessage" | "AgentMessage") => Kind::Message,
                    Some("ContextCompaction") => Kind::Turn,
                    Some("FileChange") => Kind::Patch,
                    Some("CommandExecution" | "McpToolCall") => Kind::ToolEvent,
                    _ => Kind::Other,
                }
            }
            Some("thread_name_updated") => Kind::ThreadName,
            Some(
                "task_started" | "task_complete" | "turn_started" | "turn_complete"
                | "turn_aborted" | "context_compacted",
            ) => Kind::Turn,
            Some("patch_apply_end") => Kind::Patch,
            Some("token_count") => Kind::Usage,
            _ => Kind::Other,
        },
        Some("response_item") => match (field("role"), field("type")) {
            (Some("user" | "assistant"), _) => Kind::Message,
            (_, Some(k)) if tool(k) => Kind::Tool,
            _ => Kind::Other,
        },
        _ => Kind::Other,
    }
}

/// The classifier's answer is internally consistent.
fn check_message(v: &Value) -> Result<(), TestCaseError> {
    if let Some(m) = rules::message_from_line(v) {
        prop_assert!(!m.text.is_empty());
        prop_assert_eq!(
            m.injection_prone,
            m.shape == Shape::Response && m.role == Role::User
        );
        prop_assert!(m.phase.as_deref() != Some(""));
        let _ = (m.is_injected(), m.is_real_prompt());
        let line = rules::preview_line(&m.text);
        prop_assert!(!line.contains(['\n', '\t']));
    }
    Ok(())
}

/// `classify::kind` on `line` agrees with serde_json (through the reader's own parser).
fn check_classify(line: &[u8]) -> Result<(), TestCaseError> {
    let got = classify::kind(line);
    if let Some(v) = parse_line(line) {
        prop_assert_eq!(
            got,
            expected_kind(&v),
            "line {:?}",
            String::from_utf8_lossy(line)
        );
        if rules::message_from_line(&v).is_some() {
            prop_assert_eq!(got, Kind::Message);
        }
    }
    Ok(())
}

fn scan(data: &[u8], until: Until, chunk: usize) -> ScanState {
    let mut state = ScanState::default();
    let reader = BufReader::with_capacity(chunk, data);
    state
        .scan(reader, &ScanOptions::new(until))
        .expect("reading a slice never fails");
    state
}

fn transcript(
    data: &[u8],
    cap: Option<usize>,
    chunk: usize,
) -> codex_picker::rollout::transcript::Transcript {
    let opts = TranscriptOptions {
        max_message_bytes: cap,
        ..TranscriptOptions::default()
    };
    read_transcript(BufReader::with_capacity(chunk, data), &opts).expect("slice")
}

/// The first real prompt a transcript shows.
fn transcript_prompt(t: &codex_picker::rollout::transcript::Transcript) -> Option<&str> {
    t.entries.iter().find_map(|e| match e {
        Entry::Message {
            role: Role::User,
            text,
            ..
        } if !text.trim().is_empty() => Some(text.as_str()),
        _ => None,
    })
}

/// One pass over `data`, checked against the transcript of the same bytes.
fn check_stream(data: &[u8], chunk: usize) -> Result<(), TestCaseError> {
    let state = scan(data, Until::End, chunk);
    prop_assert!(state.complete);
    prop_assert!(state.offset <= data.len() as u64);
    let t = transcript(data, None, chunk);
    prop_assert_eq!(state.counts(), t.counts(), "scan and transcript counts");
    prop_assert_eq!(
        state.first_prompt(),
        transcript_prompt(&t),
        "preview = transcript"
    );
    prop_assert_eq!(&state.meta, &t.meta);
    // Streaming (what `show --json` does) gives exactly the collected transcript.
    let mut streamed = Vec::new();
    let opts = TranscriptOptions::default();
    let reader = BufReader::with_capacity(chunk, data);
    let summary = stream_transcript(reader, &opts, state.sources(), &mut |e: &Entry| {
        streamed.push(e.clone());
        Ok(())
    })
    .expect("slice");
    prop_assert_eq!(&streamed, &t.entries);
    prop_assert_eq!(summary.skipped_lines, t.skipped_lines);
    // The indexing read (response twins left unparsed) gives the same entries.
    let opts = TranscriptOptions {
        tools: false,
        ..TranscriptOptions::default()
    };
    let full = read_transcript(BufReader::with_capacity(chunk, data), &opts).expect("slice");
    let lean = read(BufReader::with_capacity(chunk, data), &opts, Parse::Lean).expect("slice");
    prop_assert_eq!(&lean.entries, &full.entries);
    prop_assert_eq!(&lean.meta, &full.meta);
    Ok(())
}

/// The direct `session_meta` read gives what the `Value` route gives, and refuses the same lines.
fn check_meta_line(line: &[u8]) -> Result<(), TestCaseError> {
    let want = parse_line(line).map(|v| {
        let ordinal = v.get("ordinal").and_then(Value::as_u64);
        (rules::meta_from_line(&v), ordinal)
    });
    prop_assert_eq!(
        meta_line::parse(line),
        want,
        "{}",
        String::from_utf8_lossy(line)
    );
    Ok(())
}

/// The direct message read gives what the `Value` route gives, and refuses the same lines.
fn check_message_line(line: &[u8]) -> Result<(), TestCaseError> {
    let want = parse_line(line).map(|v| {
        let ordinal = v.get("ordinal").and_then(Value::as_u64);
        (rules::message_from_line(&v), ordinal)
    });
    prop_assert_eq!(
        message_line::parse(line),
        want,
        "{}",
        String::from_utf8_lossy(line)
    );
    Ok(())
}

/// Pieces of long string bodies: text, every escape, surrogates alone and paired, raw control
/// characters, bytes that are not UTF-8, stray quotes and backslashes.
const LONG_PIECES: &[&[u8]] = &[
    b"plain words ",
    b"\\n",
    b"\\\"",
    b"\\\\",
    b"\\/\\b\\f\\r\\t",
    b"\\u0041",
    b"\\u00e9",
    b"\\ud800",
    b"\\udfff",
    b"\\ud83d\\ude00",
    b"\\u12",
    b"\\x",
    b"\x01",
    b"\t",
    b"\xc3\xa9",
    b"\xff",
    b"\"",
    b"\\",
    b"\x7f",
];

// ---- properties ------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(600))]

    #[test]
    fn classifier_never_panics_on_any_json(v in json()) {
        check_message(&v)?;
    }

    #[test]
    fn classifier_on_row_shaped_json(v in message_like()) {
        check_message(&v)?;
    }

    #[test]
    fn meta_line_agrees_with_the_value_route(
        payload in json(),
        ordinal in json(),
        source in json(),
        seed in any::<u64>(),
        damage in mutated_real_line(),
    ) {
        let mut row = serde_json::json!({"type": "session_meta", "ordinal": ordinal});
        let mut payload = payload;
        if let Value::Object(map) = &mut payload {
            map.insert("source".into(), source);
        }
        row["payload"] = payload;
        check_meta_line(render_line(&row, seed, true).as_bytes())?;
        check_meta_line(&damage)?;
    }

    #[test]
    fn meta_line_with_long_hostile_values_agrees_with_the_value_route(
        pieces in prop::collection::vec(select(LONG_PIECES), 1..12),
        repeat in 1usize..200,
        key in select(&["base_instructions", "cwd", "c\\u0077d", "x", "git", "source"][..]),
        shape in 0u8..6,
        damage in prop::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 0..3),
    ) {
        let text: Vec<u8> = pieces.concat().repeat(repeat);
        let value: Vec<u8> = match shape {
            0 => [b"\"".as_slice(), &text, b"\""].concat(),
            1 => [b"{\"text\":\"".as_slice(), &text, b"\"}"].concat(),
            2 => [b"{ \"a\" : \"".as_slice(), &text, b"\" , \"b\":\"", &text, b"\" }"].concat(),
            3 => [b"[\"".as_slice(), &text, b"\", true, null, {\"k\":[\"", &text, b"\"]}, false]"].concat(),
            4 => [b"{\"text\":\"".as_slice(), &text, b"\",\"n\":-1.5e3}"].concat(),
            _ => [b"{\"text\":\"".as_slice(), &text, b"\",\"p\":{\"t\":\"m\",\"ok\":tru}}"].concat(),
        };
        let mut line = [
            b"{\"type\":\"session_meta\",\"payload\":{\"id\":\"a\",\"".as_slice(),
            key.as_bytes(),
            b"\":",
            &value,
            b",\"cwd\":\"/w\"}}",
        ]
        .concat();
        check_meta_line(&line)?;
        crate::fuzz_gen::mutate(&mut line, &damage);
        check_meta_line(&line)?;
    }

    #[test]
    fn message_line_agrees_with_the_value_route(
        v in prop_oneof![message_like(), json()],
        ordinal in json(),
        seed in any::<u64>(),
        damage in mutated_real_line(),
    ) {
        let mut row = v;
        if let Value::Object(map) = &mut row {
            if seed % 3 == 0 {
                map.insert("ordinal".into(), ordinal);
            }
        }
        check_message_line(render_line(&row, seed, true).as_bytes())?;
        check_message_line(&damage)?;
    }

    #[test]
    fn classify_agrees_with_serde_on_valid_json(
        v in prop_oneof![json(), message_like()],
        seed in any::<u64>(),
    ) {
        let line = render_line(&v, seed, true);
        let parsed: Value = serde_json::from_str(&line).expect("rendered JSON parses");
        prop_assert_eq!(&parsed, &v, "rendering is faithful: {}", line);
        check_classify(line.as_bytes())?;
        prop_assert_eq!(classify::kind(line.as_bytes()), expected_kind(&v), "{}", line);
    }

    #[test]
    fn classify_never_panics_on_bytes(
        bytes in prop_oneof![prop::collection::vec(any::<u8>(), 0..256), jsonish_bytes()],
    ) {
        check_classify(&bytes)?;
    }

    #[test]
    fn classify_on_damaged_real_lines(line in mutated_real_line()) {
        check_classify(&line)?;
    }

    #[test]
    fn scan_and_transcript_agree_on_any_stream(data in stream(), chunk in 1usize..300) {
        check_stream(&data, chunk)?;
    }

    #[test]
    fn scan_resumes_where_it_stopped(data in stream(), cut in any::<Index>()) {
        let cut = cut.index(data.len() + 1);
        // A cut inside a line whose head is itself valid JSON while the whole line is not can
        // only happen with a garbled writer; a resumed read then legitimately sees two lines.
        let start = data[..cut].iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let end = data[cut..].iter().position(|b| *b == b'\n').map_or(data.len(), |i| cut + i);
        // The reader drops a byte-order mark at the start of the file.
        let bom = usize::from(start == 0 && data.starts_with(b"\xEF\xBB\xBF")) * 3;
        let head = &data[(start + bom).min(cut)..cut];
        let whole = &data[(start + bom).min(end)..end];
        let trim = |s: &[u8]| s.strip_suffix(b"\r").unwrap_or(s).to_vec();
        prop_assume!(cut == end || parse_line(head).is_none() || trim(head) == trim(whole)
            || parse_line(whole).is_some_and(|w| parse_line(head) == Some(w)));
        let mut resumed = scan(&data[..cut], Until::FirstPrompt, 64);
        let at = resumed.offset as usize;
        prop_assert!(at <= cut);
        let opts = ScanOptions::new(Until::End);
        resumed.scan(BufReader::new(&data[at..]), &opts).expect("slice");
        let once = scan(&data, Until::End, 64);
        prop_assert_eq!(resumed.counts(), once.counts());
        prop_assert_eq!(resumed.first_prompt(), once.first_prompt());
        prop_assert_eq!(&resumed.meta, &once.meta);
        prop_assert_eq!(&resumed.thread_name, &once.thread_name);
        prop_assert_eq!(resumed.skipped_lines, once.skipped_lines);
        // A resumed pass may stop before trailing white space that one pass reads past.
        let (a, b) = (resumed.offset as usize, once.offset as usize);
        prop_assert!(a <= b && data[a..b].iter().all(u8::is_ascii_whitespace), "{} vs {}", a, b);
    }

    #[test]
    fn transcript_cap_keeps_a_prefix(data in stream(), cap in 0usize..64) {
        let whole = transcript(&data, None, 4096);
        let capped = transcript(&data, Some(cap), 4096);
        prop_assert_eq!(whole.entries.len(), capped.entries.len());
        for (w, c) in whole.entries.iter().zip(&capped.entries) {
            match (w, c) {
                (Entry::Message { text: wt, .. }, Entry::Message { text: ct, elided, .. }) => {
                    prop_assert!(ct.len() <= cap);
                    prop_assert!(wt.starts_with(ct.as_str()));
                    prop_assert_eq!(ct.len() as u64 + elided, wt.len() as u64);
                }
                _ => prop_assert_eq!(w, c),
            }
        }
    }
}

/// Text with a high share of controls, escape sequences and bidi characters.
fn hostile_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap().to_string()),
        (0x7fu32..0xa0).prop_map(|c| char::from_u32(c).unwrap().to_string()),
        select(
            &[
                "\u{1b}[31m",
                "\u{1b}]52;c;aGk=\u{7}",
                "\u{1b}]8;;x\u{1b}\\",
                "\u{202e}",
                "\u{2066}",
                "\u{2028}",
                "\t",
                "\r\n"
            ][..]
        )
        .prop_map(str::to_owned),
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..12).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(config(600))]

    #[test]
    fn sanitized_text_is_inert_and_json_exact(text in hostile_text()) {
        use codex_picker::sanitize;
        let view = sanitize::for_terminal(&text);
        prop_assert!(!sanitize::needs_neutralising(&view), "{:?}", view);
        prop_assert!(!view.contains('\t'));
        let line = sanitize::one_line(&text);
        prop_assert!(!sanitize::needs_neutralising(&line) && !line.contains('\n'));
        let json = sanitize::json_string(&text);
        prop_assert!(!sanitize::needs_neutralising(&json));
        prop_assert_eq!(serde_json::from_str::<String>(&json).unwrap(), text);
    }
}

proptest! {
    #![proptest_config(config(600))]

    /// A zstd rollout stream cut short or with flipped bytes, read through the decoder the store
    /// uses: an error or a partial read, never a panic or a hang. (Files on disk, including a
    /// `.zst` that is not zstd and one cut in half, are in the hostile store.)
    #[test]
    fn damaged_zstd_streams_never_panic(
        data in stream(),
        cut in any::<Index>(),
        flips in prop::collection::vec((any::<Index>(), any::<u8>()), 0..4),
    ) {
        let mut packed = zstd::encode_all(&data[..], 1).unwrap();
        for (at, bits) in flips {
            let i = at.index(packed.len());
            packed[i] ^= bits;
        }
        let packed = &packed[..cut.index(packed.len() + 1)];
        let decoder = || zstd::stream::read::Decoder::new(packed).map(BufReader::new);
        if let Ok(reader) = decoder() {
            let mut state = ScanState::default();
            let _ = state.scan(reader, &ScanOptions::new(Until::End));
        }
        if let Ok(reader) = decoder() {
            let _ = read_transcript(reader, &TranscriptOptions::default());
        }
    }
}

// ---- regressions found by long runs ----------------------------------------------------------

/// Found by `classify_agrees_with_serde_on_valid_json`: a `\u` escape inside a value the
/// classifier compares (`"\u0075ser"` is `"user"`) made a user message look like an uninteresting row.
#[test]
fn regression_escaped_role_is_still_a_message() {
    let line = br#"{"type":"response_item","payload":{"role":"\u0075ser","content":"hi"}}"#;
    assert_eq!(classify::kind(line), Kind::Message);
    assert!(rules::message_from_line(&parse_line(line).unwrap()).is_some());
}

/// Found by the same property: serde_json keeps the last of repeated keys, so an early
/// uninteresting `type` or `payload` must not decide the line.
#[test]
fn regression_repeated_keys_last_one_wins() {
    let lines: &[&[u8]] = &[
        br#"{"type":"turn_context","type":"event_msg","payload":{"type":"user_message","message":"hi"}}"#,
        br#"{"type":"event_msg","payload":{"type":"token_count"},"payload":{"type":"user_message","message":"hi"}}"#,
        br#"{"ty\u0070e":"event_msg","payload":{"type":"agent_message","message":"hi"}}"#,
    ];
    for line in lines {
        assert_eq!(
            classify::kind(line),
            Kind::Message,
            "{}",
            String::from_utf8_lossy(line)
        );
        assert!(rules::message_from_line(&parse_line(line).unwrap()).is_some());
    }
}

/// Found by a long run of `scan_resumes_where_it_stopped`: a file holding only a byte-order
/// mark and `-1e5`, read while only `-1` was written. The cut-off tail parsed as a number, so
/// the first pass read past it and the resumed pass saw `e5` as a line of its own; an
/// unterminated last line is now read only when it is a whole JSON object, and a tail left
/// unread is not counted twice when it is read again.
#[test]
fn regression_resume_after_a_cut_number_line() {
    let data = b"\xEF\xBB\xBF-1e5";
    let mut resumed = scan(&data[..5], Until::FirstPrompt, 64);
    assert_eq!(resumed.offset, 0, "the partial line is left for later");
    let at = resumed.offset as usize;
    let opts = ScanOptions::new(Until::End);
    resumed
        .scan(BufReader::new(&data[at..]), &opts)
        .expect("slice");
    let once = scan(data, Until::End, 64);
    assert_eq!(resumed.offset, once.offset);
    assert_eq!(resumed.skipped_lines, once.skipped_lines);
}

proptest! {
    #![proptest_config(config(600))]

    /// The preview's plain-line shortcut gives what collapsing white space word by word gives.
    #[test]
    fn preview_line_is_the_words_joined_by_one_space(
        text in prop_oneof![
            "[a-z ]{0,40}",
            "[ -~\t\n\u{a0}\u{2003}]{0,40}",
            hostile_text(),
        ]
    ) {
        let words: Vec<&str> = rules::strip_ide_wrapper(&text).split_whitespace().collect();
        prop_assert_eq!(rules::preview_line(&text), words.join(" "));
    }
}
