//! Where a generated store's sessions are for every run the benchmark makes: the Codex store is
//! the store's folder; its Claude Code part, when it has one, is `<store>/claude` (the folder
//! holding `projects/`, given to the picker as `--claude-home`). Every run of the picker also
//! gets `CLAUDE_CONFIG_DIR=<store>/claude`, so that a store without a Claude Code part is measured
//! alone, never with the machine's own `~/.claude`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use codex_picker::store::Store;

/// The folder of the store's Claude Code part (it may not exist).
pub fn claude_home(store: &Path) -> PathBuf {
    store.join("claude")
}

/// Whether the store has a Claude Code part.
pub fn has_claude(store: &Path) -> bool {
    claude_home(store).join("projects").is_dir()
}

/// The store the benchmark's own indexer, walk and probes read: Codex's at `home`, and the
/// Claude Code part beside it when there is one.
pub fn store(home: PathBuf) -> Store {
    let claude = has_claude(&home).then(|| claude_home(&home));
    Store::codex(home).with_claude(claude)
}

/// Point a picker run at the store's Claude Code part (`--claude-home` when it has one) and
/// nowhere else.
pub fn point(cmd: &mut Command, store: &Path) {
    cmd.env("CLAUDE_CONFIG_DIR", claude_home(store));
    if has_claude(store) {
        cmd.args([OsString::from("--claude-home"), claude_home(store).into()]);
    }
}

/// The same for a shell command line: the assignment to put before the program, and its
/// arguments (quoted as the caller quotes the store).
pub fn shell(store: &Path) -> (String, String) {
    let home = claude_home(store);
    let env = format!("CLAUDE_CONFIG_DIR='{}'", home.display());
    let args = if has_claude(store) {
        format!("--claude-home '{}'", home.display())
    } else {
        String::new()
    };
    (env, args)
}
