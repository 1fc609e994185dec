//! What a generated Claude Code session did, in the shapes Claude Code 2.1.332 records (see
//! `claude_shapes.rs`): tool calls (`tool_use` Bash, Read, Edit, Write) and their `tool_result`
//! rows with `toolUseResult` (a failed command, an edit that did not apply), the attachments a
//! process writes when it starts, a `/rename` (`custom-title`), a `/compact` or an automatic
//! compaction (`compact_boundary` and its `isCompactSummary` row) and a background subagent
//! (its `Agent` call, its `<task-notification>` and its own transcript).

use super::claude_shapes::ClaudeWriter;
use super::gen::TOOL_ONLY_MARKER;

/// Files a generated edit changes, relative to the session's folder.
const FILES: &[&str] = &[
    "src/lib.rs",
    "src/main.rs",
    "src/cache.rs",
    "src/parser.rs",
    "tests/cli.rs",
    "README.md",
    "docs/usage.md",
    "Cargo.toml",
];

impl ClaudeWriter<'_> {
    /// The attachments a Claude Code process writes before its first request, the big ones
    /// included (the skill listing, the prompt snapshot).
    pub(crate) fn process_attachments(&mut self) {
        let cwd = self.plan.cwd.replace('"', "");
        let env = format!("{{\"type\":\"environment\",\"snapshot\":{{\"workingDirectory\":\"{cwd}\",\"isWorktree\":false,\"isGitRepo\":true,\"additionalWorkingDirectories\":[],\"platform\":\"linux\",\"shell\":\"bash\"}}}}");
        self.attachment(&env, 1_000, "system");
        self.attachment("{\"type\":\"model\",\"identity\":{\"modelId\":\"claude-opus-5-5\",\"marketingName\":\"Opus 5.5\"},\"text\":\"You are powered by the model named Opus 5.5.\"}", 200, "system");
        self.big_attachment("deferred_tools_delta", "addedLines", 600, 600);
        self.big_attachment("agent_listing_delta", "addedLines", 1_800, 1_800);
        self.big_attachment("skill_listing", "content", 6_800, 6_800);
        let status = self.sentence(12);
        let ctx = format!("{{\"type\":\"session_context\",\"context\":{{\"gitStatus\":\"Current branch: {}\\n\\nStatus:\\n{status}\"}}}}", self.plan.branch);
        self.attachment(&ctx, 700, "user");
        let date = &super::gen::fmt_ts(self.now_ms)[..10];
        self.attachment(
            &format!("{{\"type\":\"date\",\"date\":\"{date}\"}}"),
            40,
            "system",
        );
        self.attachment("{\"type\":\"remote_session_change\",\"url\":null,\"sendUserFileHint\":false,\"managedCommit\":false,\"managedPr\":false}", 500, "user");
        self.big_attachment("prompt_snapshot", "systemPrompt", 7_400, 0);
    }

    /// One tool call of the current response and its result (the call's `tool_use` row, then a
    /// user row of its `tool_result`); `out_len` is the size of a command's or a read's output.
    pub(crate) fn tool(&mut self, out_len: usize, request: &str) {
        let call = format!(
            "toolu_01{:016x}{:06x}",
            self.rng.next(),
            self.rng.below(1 << 24)
        );
        let cwd = self.plan.cwd.clone();
        let rel = FILES[self.rng.below(FILES.len() as u64) as usize];
        let path = format!("{cwd}/{rel}");
        let mut path_esc = Vec::new();
        super::gen::escape_into(&mut path_esc, &path);
        let path_esc = String::from_utf8(path_esc).expect("utf-8");
        let (input, name) = match self.rng.below(10) {
            0..=3 => (
                "{\"command\":\"cargo test 2>&1 | tail -80\",\"description\":\"Run the tests\"}"
                    .to_owned(),
                "Bash",
            ),
            4..=5 => (format!("{{\"file_path\":\"{path_esc}\"}}"), "Read"),
            6..=8 => {
                let old = self.sentence(5);
                let new = self.sentence(6);
                (format!("{{\"replace_all\":false,\"file_path\":\"{path_esc}\",\"old_string\":\"{old}\",\"new_string\":\"{new}\"}}"), "Edit")
            }
            _ => (
                format!(
                    "{{\"file_path\":\"{path_esc}\",\"content\":\"{}\\n\"}}",
                    self.sentence(8)
                ),
                "Write",
            ),
        };
        let block = format!(
            "{{\"type\":\"tool_use\",\"id\":\"{call}\",\"name\":\"{name}\",\"input\":{input}}}"
        );
        self.block(&block, false, "tool_use", request);
        let failed = self.rng.chance(0.08);
        match name {
            "Bash" => self.bash_result(&call, out_len, failed),
            "Read" => self.read_result(&call, &path_esc, out_len),
            _ => self.edit_result(&call, &path, &input, name, failed, out_len),
        }
    }

    /// The fields after a tool result's `uuid`: its `toolUseResult` (JSON) and the call's row.
    fn result_row(&mut self, call: &str, content: &str, failed: bool, result: &str) {
        let source = self.last_uuid.clone().unwrap_or_default();
        let error = if failed { "true" } else { "false" };
        let content = format!("[{{\"tool_use_id\":\"{call}\",\"type\":\"tool_result\",\"content\":{content},\"is_error\":{error}}}]");
        let extra = format!(",\"toolUseResult\":{result},\"sourceToolAssistantUUID\":\"{source}\",\"permissionDecision\":{{\"decision\":\"accept\",\"source\":\"config\",\"reasonType\":\"rule\",\"ruleSource\":\"cliArg\"}}");
        self.user_row(&content, "", &extra);
    }

    /// `n` bytes of tool output (with the tool-only marker) as a JSON string.
    fn output(&mut self, n: usize) -> String {
        let keep = std::mem::take(&mut self.buf);
        self.raw(&format!("{TOOL_ONLY_MARKER} "));
        self.filler(n);
        let out = std::mem::replace(&mut self.buf, keep);
        String::from_utf8(out).expect("ascii filler")
    }

    fn bash_result(&mut self, call: &str, n: usize, failed: bool) {
        let out = self.output(n);
        if failed {
            let text = format!("\"Exit code 101\\n{out}\"");
            let result = format!("\"Error: Exit code 101\\n{out}\"");
            self.result_row(call, &text, true, &result);
        } else {
            let result = format!("{{\"stdout\":\"{out}\",\"stderr\":\"\",\"interrupted\":false,\"isImage\":false,\"noOutputExpected\":false}}");
            self.result_row(call, &format!("\"{out}\""), false, &result);
        }
    }

    fn read_result(&mut self, call: &str, path: &str, n: usize) {
        let out = self.output(n);
        let lines = 1 + n / 60;
        let result = format!("{{\"type\":\"text\",\"file\":{{\"filePath\":\"{path}\",\"content\":\"{out}\",\"numLines\":{lines},\"startLine\":1,\"totalLines\":{lines}}}}}");
        self.result_row(call, &format!("\"{out}\""), false, &result);
    }

    /// An Edit or a Write: applied (the file counts as changed) or, when `failed`, not.
    fn edit_result(
        &mut self,
        call: &str,
        path: &str,
        input: &str,
        name: &str,
        failed: bool,
        n: usize,
    ) {
        let mut esc = Vec::new();
        super::gen::escape_into(&mut esc, path);
        let path_esc = String::from_utf8(esc).expect("utf-8");
        if failed {
            let text = "<tool_use_error>String to replace not found in file.</tool_use_error>";
            let result = "\"Error: String to replace not found in file.\"";
            self.result_row(call, &format!("\"{text}\""), true, result);
            return;
        }
        self.tally.files.insert(path.to_owned());
        let v: serde_json::Value = serde_json::from_str(input).unwrap_or_default();
        let field = |k: &str| serde_json::to_string(&v[k]).unwrap_or_else(|_| "\"\"".into());
        if name == "Write" {
            let text = format!("\"File created successfully at: {path_esc}\"");
            let result = format!("{{\"type\":\"create\",\"filePath\":\"{path_esc}\",\"content\":{},\"structuredPatch\":[],\"originalFile\":null,\"userModified\":false}}", field("content"));
            self.result_row(call, &text, false, &result);
            return;
        }
        let original = self.output(n / 2);
        let (old, new) = (field("old_string"), field("new_string"));
        let text = format!("\"The file {path_esc} has been updated successfully.\"");
        let result = format!("{{\"filePath\":\"{path_esc}\",\"oldString\":{old},\"newString\":{new},\"originalFile\":\"{original}\",\"structuredPatch\":[{{\"oldStart\":1,\"oldLines\":1,\"newStart\":1,\"newLines\":1,\"lines\":[\"-\",\"+\"]}}],\"userModified\":false,\"replaceAll\":false}}");
        self.result_row(call, &text, false, &result);
    }

    /// `/rename`: the command's rows, the `custom-title` and `agent-name` rows, the reminder
    /// the model is sent (a meta row, not a prompt).
    pub(crate) fn rename(&mut self, title: &str) {
        let args = format!("<command-name>/rename</command-name>\\n            <command-message>rename</command-message>\\n            <command-args>{title}</command-args>");
        let fields = format!(",\"content\":\"{args}\",\"level\":\"info\"");
        self.system("local_command", &fields, false);
        let fields = format!(",\"content\":\"<local-command-stdout>Session renamed to: {title}</local-command-stdout>\",\"level\":\"info\",\"commandRun\":{{\"command\":\"rename\",\"args\":\"{title}\"}}");
        self.system("local_command", &fields, false);
        self.title_rows(title);
        let reminder = format!("\"<system-reminder>\\nThe user named this session \\\"{title}\\\".\\n</system-reminder>\"");
        self.user_row(&reminder, ",\"isMeta\":true,\"rowSource\":\"local\"", "");
    }

    pub(crate) fn title_rows(&mut self, title: &str) {
        self.side("custom-title", &format!("\"customTitle\":\"{title}\""));
        self.side("agent-name", &format!("\"agentName\":\"{title}\""));
    }

    /// A compaction: `/compact` typed (its command rows, not prompts) or automatic; the
    /// boundary starts a new chain, its summary row is not a prompt.
    pub(crate) fn compaction(&mut self, manual: bool) {
        let trigger = if manual { "manual" } else { "auto" };
        let fields = format!(",\"content\":\"Conversation compacted\",\"level\":\"info\",\"compactMetadata\":{{\"trigger\":\"{trigger}\",\"preTokens\":{},\"postTokens\":2918}}", 150_000 + self.rng.below(40_000));
        self.system("compact_boundary", &fields, true);
        let summary = self.sentence(60);
        let text = format!("\"This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\\n\\n{summary}\"");
        self.user_row(
            &text,
            ",\"isVisibleInTranscriptOnly\":true,\"isCompactSummary\":true",
            "",
        );
        if manual {
            self.user_row("\"<local-command-caveat>The command below was run directly in Claude Code, not sent to you as a request.</local-command-caveat>\"", ",\"isMeta\":true", "");
            self.user_row("\"<command-name>/compact</command-name>\\n            <command-message>compact</command-message>\\n            <command-args></command-args>\"", "", "");
            self.user_row("\"<local-command-stdout>\\u001b[2mCompacted (ctrl+o to see full summary)\\u001b[22m</local-command-stdout>\"", "", "");
        }
    }

    /// A background subagent: its `Agent` call and launch result in this transcript; returns
    /// the agent id, its task and the call's id.
    pub(crate) fn agent_call(&mut self, request: &str) -> (String, String, String) {
        let agent = format!("a{:016x}", self.rng.next());
        let call = format!(
            "toolu_01{:016x}{:06x}",
            self.rng.next(),
            self.rng.below(1 << 24)
        );
        let task = format!("SUBTASK: {}", self.sentence(10));
        let block = format!("{{\"type\":\"tool_use\",\"id\":\"{call}\",\"name\":\"Agent\",\"input\":{{\"description\":\"Survey the code\",\"subagent_type\":\"general-purpose\",\"prompt\":\"{task}\"}}}}");
        self.block(&block, false, "tool_use", request);
        let text = format!("[{{\"type\":\"text\",\"text\":\"Async agent launched successfully.\\nagentId: {agent}\\nThe agent is working in the background.\"}}]");
        let result = format!("{{\"isAsync\":true,\"status\":\"async_launched\",\"agentId\":\"{agent}\",\"description\":\"Survey the code\",\"prompt\":\"{task}\"}}");
        self.result_row(&call, &text, false, &result);
        (agent, task, call)
    }

    /// The subagent's report coming back: a `<task-notification>` queued and sent (not a
    /// human prompt).
    pub(crate) fn task_notification(&mut self, agent: &str, call: &str, report: &str) {
        let note = format!("<task-notification>\n<task-id>{agent}</task-id>\n<tool-use-id>{call}</tool-use-id>\n<status>completed</status>\n<summary>Agent \"Survey the code\" finished</summary>\n<result>{report}</result>\n</task-notification>");
        self.queued(&note);
        let mut esc = Vec::new();
        super::gen::escape_into(&mut esc, &note);
        let content = format!("\"{}\"", String::from_utf8(esc).expect("utf-8"));
        self.user_row(&content, "", ",\"permissionMode\":\"default\",\"origin\":{\"kind\":\"task-notification\"},\"promptSource\":\"system\",\"rowSource\":\"recorded\",\"turnOrigin\":\"task_notification\"");
    }

    /// The subagent's own transcript (`<id>/subagents/agent-<agent>.jsonl`): its task, a few
    /// attachments, a request and its report. Written into a buffer of its own.
    pub(crate) fn subagent_transcript(&mut self, agent: &str, task: &str, report: &str) -> Vec<u8> {
        let buf = std::mem::take(&mut self.buf);
        let last = self.last_uuid.take();
        let tally = std::mem::take(&mut self.tally);
        self.agent = Some(agent.to_owned());
        self.user_row(&format!("\"{task}\""), "", ",\"rowSource\":\"recorded\"");
        self.big_attachment("deferred_tools_delta", "addedLines", 600, 600);
        self.big_attachment("skill_listing", "content", 6_800, 6_800);
        self.big_attachment("prompt_snapshot", "systemPrompt", 3_600, 0);
        let request = self.api_request(true, Some(task));
        self.response();
        self.say(report, "end_turn", &request);
        self.agent = None;
        self.tally = tally;
        self.last_uuid = last;
        std::mem::replace(&mut self.buf, buf)
    }
}
