//! What a generated session did, in codex's own record shapes (copied from sessions recorded
//! from codex 0.171, `tests/fixtures/codex-rich`): `token_count` events with codex's running
//! total after each model response, applied patches (the `apply_patch` custom tool call with
//! paths relative to the turn's folder, codex's `FileChange` item with absolute paths, the
//! call's output), plans (`update_plan`), compactions (a `compacted` row and a
//! `ContextCompaction` item) and images sent with a prompt (`local_image` blocks).
//! Every version writes patches, plans and compactions: the paginated ones (0.160 and 0.171)
//! as recorded from 0.171, the older ones in the records codex persisted before paginated
//! mode (`../shared/spec/codex-store.md` 2.4): a `patch_apply_end` event with the changed
//! files in place of the `FileChange` item, a `context_compacted` event in place of the
//! `ContextCompaction` item. Images are written in 0.171 sessions only.

use std::collections::BTreeSet;

use super::shapes::Writer;

/// Files a generated patch changes, relative to the session's folder.
const FILES: &[&str] = &[
    "src/lib.rs",
    "src/main.rs",
    "src/cache.rs",
    "src/parser.rs",
    "src/search/query.rs",
    "tests/cli.rs",
    "README.md",
    "docs/usage.md",
    "Cargo.toml",
    "scripts/release.sh",
];

/// What a session did, as far as the generator's expectations check it.
#[derive(Debug, Default)]
pub(crate) struct Work {
    /// Codex's running total: input, cached input, output, reasoning, total.
    pub(crate) tokens: [u64; 5],
    pub(crate) counted: bool,
    /// Every absolute path an applied patch changed.
    pub(crate) files: BTreeSet<String>,
}

impl Writer<'_> {
    fn cwd(&self) -> String {
        format!("/home/dev/work/proj{}", self.plan.index % 37)
    }

    /// A `token_count` event after a model response: the running total and the response's own.
    pub(crate) fn token_count(&mut self) {
        let input = 6_000 + self.rng.below(30_000);
        let cached = input * self.rng.below(90) / 100;
        let output = 50 + self.rng.below(1_500);
        let reasoning = output * self.rng.below(60) / 100;
        let last = [input, cached, output, reasoning, input + output];
        for (t, l) in self.work.tokens.iter_mut().zip(last) {
            *t += l;
        }
        self.work.counted = true;
        let usage = |t: [u64; 5], paginated: bool| {
            let write = if paginated {
                ",\"cache_write_input_tokens\":0"
            } else {
                ""
            };
            format!(
                "{{\"input_tokens\":{},\"cached_input_tokens\":{}{write},\"output_tokens\":{},\"reasoning_output_tokens\":{},\"total_tokens\":{}}}",
                t[0], t[1], t[2], t[3], t[4]
            )
        };
        let paginated = self.plan.version.paginated();
        let (total, last) = (usage(self.work.tokens, paginated), usage(last, paginated));
        self.open("event_msg");
        self.raw(&format!("{{\"type\":\"token_count\",\"info\":{{\"total_token_usage\":{total},\"last_token_usage\":{last},\"model_context_window\":258400}},\"rate_limits\":{{\"limit_id\":\"codex\",\"limit_name\":null,\"primary\":null,\"secondary\":null,\"credits\":null,\"plan_type\":null}}}}"));
        self.end();
    }

    /// An applied patch of one to three files, as this session's codex records it.
    pub(crate) fn patch(&mut self) {
        let call = format!("call_patch_{}", self.ordinal);
        let cwd = self.cwd();
        let n = 1 + self.rng.below(3) as usize;
        let mut input = String::from("*** Begin Patch\n");
        let mut changes = Vec::new();
        let mut summary = String::new();
        let mut seen = BTreeSet::new();
        for _ in 0..n {
            let rel = FILES[self.rng.below(FILES.len() as u64) as usize];
            if !seen.insert(rel) {
                continue;
            }
            let old = self.sentence(6);
            let new = self.sentence(7);
            let abs = format!("{cwd}/{rel}");
            let (letter, change) = match self.rng.below(20) {
                0 => {
                    input.push_str(&format!("*** Add File: {rel}\n+{new}\n"));
                    (
                        "A",
                        format!("{{\"type\":\"add\",\"content\":\"{new}\\n\"}}"),
                    )
                }
                1 => {
                    input.push_str(&format!("*** Delete File: {rel}\n"));
                    (
                        "D",
                        format!("{{\"type\":\"delete\",\"content\":\"{old}\\n\"}}"),
                    )
                }
                _ => {
                    input.push_str(&format!("*** Update File: {rel}\n@@\n-{old}\n+{new}\n"));
                    ("M", format!("{{\"type\":\"update\",\"unified_diff\":\"@@ -1 +1 @@\\n-{old}\\n+{new}\\n\",\"move_path\":null}}"))
                }
            };
            summary.push_str(&format!("{letter} {rel}\\n"));
            changes.push(format!("\"{abs}\":{change}"));
            self.work.files.insert(abs);
        }
        input.push_str("*** End Patch\n");
        self.open("response_item");
        self.raw(&format!(
            "{{\"type\":\"custom_tool_call\",\"id\":\"ctc_{call}\",\"status\":\"completed\",\"call_id\":\"{call}\",\"name\":\"apply_patch\",\"input\":\""
        ));
        self.text(&input);
        self.raw("\"}");
        self.end();
        let stdout = format!("Success. Updated the following files:\\n{summary}");
        self.open("event_msg");
        if self.plan.version.paginated() {
            self.raw(&format!(
                "{{\"type\":\"item_completed\",\"thread_id\":\"{}\",\"item\":{{\"type\":\"FileChange\",\"id\":\"{call}\",\"changes\":{{{}}},\"status\":\"completed\",\"stdout\":\"{stdout}\",\"stderr\":\"\"}}}}",
                self.plan.id,
                changes.join(",")
            ));
        } else {
            self.raw(&format!(
                "{{\"type\":\"patch_apply_end\",\"call_id\":\"{call}\",\"turn_id\":\"turn_{}\",\"stdout\":\"{stdout}\",\"stderr\":\"\",\"success\":true,\"changes\":{{{}}}}}",
                self.ordinal,
                changes.join(",")
            ));
        }
        self.end();
        self.open("response_item");
        self.raw(&format!("{{\"type\":\"custom_tool_call_output\",\"call_id\":\"{call}\",\"output\":\"Exit code: 0\\nWall time: 0 seconds\\nOutput:\\nSuccess. Updated the following files:\\n{summary}\"}}"));
        self.end();
    }

    /// An `update_plan` call and its output.
    pub(crate) fn plan_update(&mut self, done: usize) {
        let call = format!("call_plan_{}", self.ordinal);
        let steps: Vec<String> = (0..3)
            .map(|i| {
                let status = match i.cmp(&done) {
                    std::cmp::Ordering::Less => "completed",
                    std::cmp::Ordering::Equal => "in_progress",
                    std::cmp::Ordering::Greater => "pending",
                };
                let step = self.sentence(4);
                format!("{{\\\"step\\\": \\\"{step}\\\", \\\"status\\\": \\\"{status}\\\"}}")
            })
            .collect();
        self.open("response_item");
        self.raw(&format!("{{\"type\":\"function_call\",\"status\":\"completed\",\"id\":\"fc_{call}\",\"name\":\"update_plan\",\"arguments\":\"{{\\\"explanation\\\": \\\"Keeping track of the work.\\\", \\\"plan\\\": [{}]}}\",\"call_id\":\"{call}\"}}", steps.join(", ")));
        self.end();
        self.open("response_item");
        self.raw(&format!(
            "{{\"type\":\"function_call_output\",\"call_id\":\"{call}\",\"output\":\"Plan updated\"}}"
        ));
        self.end();
    }

    /// The context compacted at the start of a turn: codex's summary and its item.
    pub(crate) fn compaction(&mut self) {
        let summary = self.sentence(40);
        self.open("compacted");
        self.raw("{\"message\":\"Another language model started to solve this problem and produced a summary of its thinking process.\\n## Summary\\n");
        self.text(&summary);
        self.raw("\",\"replacement_history\":[]}");
        self.end();
        self.open("event_msg");
        if self.plan.version.paginated() {
            self.raw(&format!(
                "{{\"type\":\"item_completed\",\"thread_id\":\"{}\",\"item\":{{\"type\":\"ContextCompaction\",\"id\":\"cc{}\"}}}}",
                self.plan.id, self.ordinal
            ));
        } else {
            self.raw("{\"type\":\"context_compacted\"}");
        }
        self.end();
    }

    /// The `local_image` blocks of a prompt sent with images (0.171's `UserMessage` item).
    pub(crate) fn image_blocks(&self, n: usize) -> String {
        (0..n)
            .map(|i| {
                format!(
                    "{{\"type\":\"local_image\",\"path\":\"{}/screenshot-{i}.png\"}},",
                    self.cwd()
                )
            })
            .collect()
    }
}
