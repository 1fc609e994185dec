//! What a user installs once, printed on stdout: the shell integration (`init`), completion
//! scripts (`completions`, clap_complete) and the manual page (`man`, clap_mangen, roff). The
//! completions and the man page are generated from the one clap definition ([`Cli`]), so they
//! name every flag the program takes.

use std::io::Write;

use clap::CommandFactory;

use super::report::finish;
use crate::cli::Cli;
use crate::shell::init::{self, InitShell};

/// `codex-picker init <shell>`.
pub fn run_init(shell: InitShell, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    finish(out.write_all(init::snippet(shell).as_bytes()), err)
}

/// `codex-picker completions <shell>`.
pub fn run_completions(
    shell: clap_complete::Shell,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "codex-picker", &mut script);
    finish(out.write_all(&script), err)
}

/// `codex-picker man`: the program's page, then a page for each command (`codex-picker-list`,
/// ...), in one roff document.
pub fn run_man(out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    finish(man_page().and_then(|page| out.write_all(&page)), err)
}

fn man_page() -> std::io::Result<Vec<u8>> {
    let mut cmd = Cli::command();
    // Global flags reach the commands, and each command gets its full name (`codex-picker list`).
    cmd.build();
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut page)?;
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let title = format!("codex-picker-{}", sub.get_name());
        clap_mangen::Man::new(sub.clone())
            .title(title)
            .render(&mut page)?;
    }
    Ok(page)
}
