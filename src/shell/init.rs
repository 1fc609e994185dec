//! `codex-picker init <shell>`: the snippet a shell evaluates (bash, zsh) or sources (fish) at
//! start-up. It binds a key (Alt+R unless `CODEX_PICKER_KEY` says another) that opens the
//! picker and then, in the user's own shell, runs the picked session's `cd <folder> && codex
//! resume <id> <args>` (or puts it on the line, `CODEX_PICKER_ACCEPT=0`), and defines `cxp`,
//! the same from the prompt. The command comes from the picker's `--print-command`, quoted for
//! that shell ([`super::exact`]): nothing from a rollout reaches the shell unquoted. The picker
//! opens inline, in 40% of the terminal below the prompt (`CODEX_PICKER_HEIGHT`: another
//! height, or empty for the config file's or the whole screen); extra picker flags come from
//! `CODEX_PICKER_OPTS`. The snippets themselves are the `init.*` files beside
//! this one.

/// A shell the picker has a snippet for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InitShell {
    Bash,
    Zsh,
    Fish,
}

/// The snippet for `shell`.
pub(crate) fn snippet(shell: InitShell) -> &'static str {
    match shell {
        InitShell::Bash => include_str!("init.bash"),
        InitShell::Zsh => include_str!("init.zsh"),
        InitShell::Fish => include_str!("init.fish"),
    }
}
