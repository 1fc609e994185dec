//! The row shapes Claude Code 2.1.332 writes into a transcript, written straight into a byte
//! buffer (as recorded from the real binary): the rows of the conversation chained by
//! `parentUuid` (user prompts, `attachment` rows, assistant rows of one content block each that
//! share `message.id` and `usage`, tool results with `toolUseResult`, `system` rows) and the rows
//! beside it (`queue-operation`, `api-request*`, `last-prompt`, `custom-title`, `mode`, ...).
//! A fork's copy of its parent is the parent's rows written again under the fork's
//! `sessionId`, its assistant rows naming the parent through `requestSessionId`, the rows a fork
//! does not copy dropped (`copying`).

use std::collections::BTreeSet;

use super::claude::ClaudePlan;
use super::gen::{escape_into, fmt_ts, Pools, Rng, INJECTED_ONLY_MARKER};
use super::shapes::{push_filler, sentence};

/// The Claude Code version the shapes mirror.
pub(crate) const VERSION: &str = "2.1.332";

/// What a session's own part did, as a correct reader reports it.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub(crate) users: u32,
    /// Messages (by `message.id`) holding text.
    pub(crate) assistants: u32,
    pub(crate) first_user: Option<String>,
    pub(crate) files: BTreeSet<String>,
    /// Each message's usage once: input, cache creation, cache read and output tokens.
    pub(crate) tokens: u64,
}

/// The usage of one model response.
#[derive(Clone, Copy)]
pub(crate) struct Usage {
    input: u64,
    creation: u64,
    read: u64,
    output: u64,
}

pub(crate) struct ClaudeWriter<'a> {
    pub(crate) buf: Vec<u8>,
    pub(crate) pools: &'a Pools,
    pub(crate) plan: &'a ClaudePlan,
    pub(crate) rng: Rng,
    pub(crate) now_ms: i64,
    /// The `sessionId` written into every row.
    pub(crate) session: String,
    /// Copying a parent into a fork: the parent's id (`requestSessionId` of assistant rows).
    pub(crate) copying: Option<String>,
    /// Writing a subagent's transcript: its agent id (rows are `isSidechain`).
    pub(crate) agent: Option<String>,
    pub(crate) last_uuid: Option<String>,
    /// Bytes of every row made, kept or not (what ends a session, the same in a copy).
    pub(crate) size: u64,
    row_start: usize,
    pub(crate) tally: Tally,
    /// The current model response: its id, its usage, whether it held text yet.
    message: Option<(String, Usage, bool)>,
    /// The `promptId` of the current prompt, on every user row until the next.
    prompt_id: String,
}

impl<'a> ClaudeWriter<'a> {
    pub(crate) fn new(plan: &'a ClaudePlan, pools: &'a Pools, buf: Vec<u8>) -> Self {
        ClaudeWriter {
            buf,
            pools,
            plan,
            rng: Rng::new(plan.created_ms as u64 ^ (plan.index as u64).rotate_left(17)),
            now_ms: plan.created_ms,
            session: plan.id.clone(),
            copying: None,
            agent: None,
            last_uuid: None,
            size: 0,
            row_start: 0,
            tally: Tally::default(),
            message: None,
            prompt_id: String::new(),
        }
    }

    pub(crate) fn raw(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    pub(crate) fn text(&mut self, s: &str) {
        escape_into(&mut self.buf, s);
    }

    pub(crate) fn ts(&mut self) -> String {
        let ts = fmt_ts(self.now_ms);
        self.now_ms += 1 + self.rng.below(900) as i64;
        ts
    }

    /// A random version-4 uuid.
    pub(crate) fn uuid(&mut self) -> String {
        let (a, b) = (self.rng.next(), self.rng.next());
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xFFFF,
            a & 0xFFF,
            0x8000 | (b >> 48) & 0x3FFF,
            b & 0xFFFF_FFFF_FFFF
        )
    }

    pub(crate) fn sentence(&mut self, words: usize) -> String {
        sentence(&mut self.rng, words)
    }

    /// `n` bytes of pre-escaped filler (prose with `\n` escapes).
    pub(crate) fn filler(&mut self, n: usize) {
        push_filler(&mut self.buf, &self.pools.filler, &mut self.rng, n);
    }

    /// A size scaled for the store (the fixed attachments of a small test store stay small).
    pub(crate) fn scaled(&self, n: usize) -> usize {
        ((n as f64 * self.plan.att_scale) as usize).max(64)
    }

    fn begin(&mut self) {
        self.row_start = self.buf.len();
    }

    /// End a row; a fork's copy keeps only the rows Claude Code copies.
    fn finish(&mut self, copied: bool) {
        self.buf.push(b'\n');
        self.size += (self.buf.len() - self.row_start) as u64;
        if self.copying.is_some() && !copied {
            self.buf.truncate(self.row_start);
        }
    }

    /// The start of a row of the conversation: its parent, whether it is a subagent's. Returns
    /// the row's own uuid (the next row's parent).
    fn chained(&mut self) -> String {
        self.begin();
        let uuid = self.uuid();
        let parent = match &self.last_uuid {
            Some(p) => format!("\"{p}\""),
            None => "null".to_owned(),
        };
        let side = match &self.agent {
            Some(a) => format!("true,\"agentId\":\"{a}\""),
            None => "false".to_owned(),
        };
        self.raw(&format!("{{\"parentUuid\":{parent},\"isSidechain\":{side}"));
        self.last_uuid = Some(uuid.clone());
        uuid
    }

    /// The fields every row of the conversation ends with, and the row's end.
    fn tail(&mut self, copied: bool) {
        self.tail_fields();
        self.raw("}");
        self.finish(copied);
    }

    /// The fields every row of the conversation ends with, the row left open.
    fn tail_fields(&mut self) {
        let p = self.plan;
        let entry = if p.interactive { "cli" } else { "sdk-cli" };
        self.raw(&format!(
            ",\"userType\":\"external\",\"entrypoint\":\"{entry}\",\"cwd\":\""
        ));
        self.text(&p.cwd);
        self.raw(&format!(
            "\",\"sessionId\":\"{}\",\"version\":\"{VERSION}\",\"gitBranch\":\"{}\"",
            self.session, p.branch
        ));
    }

    /// A row beside the conversation (`mode`, `last-prompt`, `custom-title`, ...): `body` is
    /// its fields before `sessionId`.
    pub(crate) fn side(&mut self, kind: &str, body: &str) {
        self.begin();
        let sep = if body.is_empty() { "" } else { "," };
        self.raw(&format!(
            "{{\"type\":\"{kind}\"{sep}{body},\"sessionId\":\"{}\"}}",
            self.session
        ));
        self.finish(false);
    }

    /// A `queue-operation` pair: the prompt queued, then taken.
    pub(crate) fn queued(&mut self, prompt: &str) {
        self.begin();
        let ts = self.ts();
        self.raw(&format!(
            "{{\"type\":\"queue-operation\",\"operation\":\"enqueue\",\"timestamp\":\"{ts}\",\"sessionId\":\"{}\",\"content\":\"",
            self.session
        ));
        self.text(prompt);
        self.raw("\"}");
        self.finish(false);
        let ts = self.ts();
        let body = format!("\"operation\":\"dequeue\",\"timestamp\":\"{ts}\"");
        self.side("queue-operation", &body);
    }

    /// A user row whose content is `content` (already JSON); `extra` are fields after `uuid`.
    pub(crate) fn user_row(&mut self, content: &str, flags: &str, extra: &str) {
        let uuid = self.chained();
        if self.prompt_id.is_empty() {
            self.prompt_id = self.uuid();
        }
        let ts = self.ts();
        let prompt_id = self.prompt_id.clone();
        self.raw(&format!(
            ",\"promptId\":\"{prompt_id}\",\"type\":\"user\",\"message\":{{\"role\":\"user\",\"content\":{content}}}{flags},\"uuid\":\"{uuid}\",\"timestamp\":\"{ts}\"{extra}"
        ));
        self.tail(true);
    }

    /// A human prompt (counted), a plain string or (sometimes) one text block.
    pub(crate) fn prompt(&mut self, text: &str) {
        let mut content = Vec::new();
        escape_into(&mut content, text);
        let content = String::from_utf8(content).expect("utf-8");
        let content = if self.rng.chance(0.1) {
            format!("[{{\"type\":\"text\",\"text\":\"{content}\"}}]")
        } else {
            format!("\"{content}\"")
        };
        let (mode, source, origin) = if self.plan.interactive {
            ("\"auto\",\"origin\":{\"kind\":\"human\"}", "typed", "human")
        } else {
            ("\"default\"", "sdk", "sdk")
        };
        self.prompt_id = self.uuid();
        let sent = self.now_ms;
        let extra = format!(",\"permissionMode\":{mode},\"promptSource\":\"{source}\",\"sentAtMs\":{sent},\"rowSource\":\"local\",\"turnOrigin\":\"{origin}\",\"turnPosition\":{{\"promptIndex\":0,\"turnIndex\":{}}}", self.tally.users + 1);
        self.user_row(&content, "", &extra);
        self.tally.users += 1;
        if self.tally.first_user.is_none() {
            self.tally.first_user = Some(text.to_owned());
        }
    }

    /// An `attachment` row: `attachment` is its object (JSON); `rendered` bytes of filler with
    /// the injected-context marker are what the model was shown of it.
    pub(crate) fn attachment(&mut self, attachment: &str, rendered: usize, role: &str) {
        let uuid = self.chained();
        self.raw(",\"attachment\":");
        self.raw(attachment);
        let ts = self.ts();
        self.raw(&format!(
            ",\"type\":\"attachment\",\"uuid\":\"{uuid}\",\"timestamp\":\"{ts}\""
        ));
        if rendered > 0 {
            self.raw(&format!(
                ",\"rendered\":[{{\"content\":\"<system-reminder>\\n{INJECTED_ONLY_MARKER} "
            ));
            let n = self.scaled(rendered);
            self.filler(n);
            self.raw(&format!(
                "\\n</system-reminder>\"}}],\"renderedRole\":\"{role}\""
            ));
        }
        self.tail(true);
    }

    /// An attachment whose object holds `n` bytes of text in `field` (a listing, a snapshot).
    pub(crate) fn big_attachment(&mut self, kind: &str, field: &str, n: usize, rendered: usize) {
        let mut obj = format!("{{\"type\":\"{kind}\",\"{field}\":\"{INJECTED_ONLY_MARKER} ");
        let keep = std::mem::take(&mut self.buf);
        let n = self.scaled(n);
        self.filler(n);
        let text = std::mem::replace(&mut self.buf, keep);
        obj.push_str(std::str::from_utf8(&text).expect("ascii filler"));
        obj.push_str("\"}");
        self.attachment(&obj, rendered, "system");
    }

    /// What Claude Code records of an API request: sometimes its shape and blobs (the whole
    /// system prompt and the messages sent, the prompt among them), always the request row.
    pub(crate) fn api_request(&mut self, shape: bool, prompt: Option<&str>) -> String {
        let id = self.uuid();
        if shape {
            self.begin();
            let ts = self.ts();
            let hash = self.hash();
            self.raw(&format!("{{\"type\":\"api-request-shape\",\"sessionId\":\"{}\",\"shapeHash\":\"{hash}\",\"timestamp\":\"{ts}\",\"version\":\"{VERSION}\",\"shape\":{{\"system\":[{{\"type\":\"text\",\"text\":\"You are a Claude agent.\"}},{{\"type\":\"text\",\"text\":\"{INJECTED_ONLY_MARKER} ", self.session));
            let n = self.scaled(38_000);
            self.filler(n);
            self.raw("\"}]}}");
            self.finish(false);
        }
        if let Some(prompt) = prompt {
            self.begin();
            let hash = self.hash();
            self.raw(&format!("{{\"type\":\"api-request-blob\",\"sessionId\":\"{}\",\"hash\":\"{hash}\",\"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"text\",\"text\":\"<system-reminder>\\n{INJECTED_ONLY_MARKER} ", self.session));
            let n = self.scaled(1_200);
            self.filler(n);
            self.raw("\\n</system-reminder>\"},{\"type\":\"text\",\"text\":\"");
            self.text(prompt);
            self.raw("\"}]}}");
            self.finish(false);
        }
        self.begin();
        let ts = self.ts();
        let hash = self.hash();
        let tail = self.hash();
        self.raw(&format!("{{\"type\":\"api-request\",\"sessionId\":\"{}\",\"id\":\"{id}\",\"timestamp\":\"{ts}\",\"version\":\"{VERSION}\",\"querySource\":\"sdk\",\"shapeHash\":\"{hash}\",\"params\":{{\"model\":\"claude-opus-5-5\",\"max_tokens\":128000,\"thinking\":{{\"type\":\"adaptive\",\"display\":\"omitted\"}},\"output_config\":{{\"effort\":\"medium\"}}}},\"thread\":{{\"type\":\"none\"}},\"keep\":0,\"tail\":[\"{tail}\"]}}", self.session));
        self.finish(false);
        id
    }

    fn hash(&mut self) -> String {
        let (a, b) = (self.rng.next(), self.rng.next());
        format!("{a:016x}{b:016x}{a:016x}{b:016x}")
    }

    /// Start a model response: a new `message.id` and its usage (counted once).
    pub(crate) fn response(&mut self) {
        let id = format!(
            "msg_01{:016x}{:06x}",
            self.rng.next(),
            self.rng.below(1 << 24)
        );
        let usage = Usage {
            input: 1 + self.rng.below(40),
            creation: self.rng.below(4_000),
            read: 8_000 + self.rng.below(60_000),
            output: 20 + self.rng.below(1_500),
        };
        self.tally.tokens += usage.input + usage.creation + usage.read + usage.output;
        self.message = Some((id, usage, false));
    }

    /// One content block (JSON) of the current response, in a row of its own.
    pub(crate) fn block(&mut self, block: &str, is_text: bool, stop: &str, request: &str) {
        let Some((id, u, texted)) = self.message.clone() else {
            return;
        };
        if is_text && !texted {
            self.tally.assistants += 1;
            self.message = Some((id.clone(), u, true));
        }
        let uuid = self.chained();
        self.raw(&format!(",\"message\":{{\"id\":\"{id}\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-opus-5-5\",\"content\":["));
        self.raw(block);
        self.raw(&format!("],\"stop_reason\":\"{stop}\",\"stop_sequence\":null,\"usage\":{{\"input_tokens\":{},\"cache_creation_input_tokens\":{},\"cache_read_input_tokens\":{},\"output_tokens\":{},\"service_tier\":\"standard\",\"cache_creation\":{{\"ephemeral_1h_input_tokens\":0,\"ephemeral_5m_input_tokens\":{}}}}}}}", u.input, u.creation, u.read, u.output, u.creation));
        let ts = self.ts();
        self.raw(&format!(",\"requestRef\":\"{request}\",\"requestedModel\":\"claude-opus-5-5\",\"type\":\"assistant\",\"uuid\":\"{uuid}\",\"timestamp\":\"{ts}\",\"effort\":\"medium\",\"madeBy\":\"model\""));
        if let Some(parent) = self.copying.clone() {
            self.tail_with_request(&parent);
        } else {
            self.tail(true);
        }
    }

    /// The tail of an assistant row copied into a fork (`requestSessionId` last, as recorded).
    fn tail_with_request(&mut self, parent: &str) {
        self.tail_fields();
        self.raw(&format!(",\"requestSessionId\":\"{parent}\"}}"));
        self.finish(true);
    }

    /// A text block of the current response.
    pub(crate) fn say(&mut self, text: &str, stop: &str, request: &str) {
        let mut block = String::from("{\"type\":\"text\",\"text\":\"");
        let mut esc = Vec::new();
        escape_into(&mut esc, text);
        block.push_str(std::str::from_utf8(&esc).expect("utf-8"));
        block.push_str("\"}");
        self.block(&block, true, stop, request);
    }

    /// A thinking block of the current response.
    pub(crate) fn think(&mut self, request: &str) {
        let n = 8 + self.rng.below(40) as usize;
        let thought = self.sentence(n);
        let block = format!(
            "{{\"type\":\"thinking\",\"thinking\":\"{thought}\",\"signature\":\"EqQBCkYIBxgCKkD{:016x}\"}}",
            self.rng.next()
        );
        self.block(&block, false, "tool_use", request);
    }

    /// A `system` row (`turn_duration`, `local_command`, `compact_boundary`): `fields` go
    /// after `subtype`; `parent` overrides the chain (`null` for a compaction).
    pub(crate) fn system(&mut self, subtype: &str, fields: &str, parent_null: bool) {
        let logical = self.last_uuid.clone();
        if parent_null {
            self.last_uuid = None;
        }
        let uuid = self.chained();
        if let (true, Some(l)) = (parent_null, logical) {
            self.raw(&format!(",\"logicalParentUuid\":\"{l}\""));
        }
        let ts = self.ts();
        self.raw(&format!(",\"type\":\"system\",\"subtype\":\"{subtype}\"{fields},\"timestamp\":\"{ts}\",\"uuid\":\"{uuid}\",\"isMeta\":false"));
        self.tail(false);
    }
}
