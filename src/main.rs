//! The `codex-picker` binary: parse the command line, run, and turn the result into an exit code
//! (0 picked or listed, 130 cancelled, 2 error).

use clap::Parser;
use codex_picker::cli::{Cli, Command};
use codex_picker::cmd;

/// mimalloc: a warm `list` makes and frees hundreds of thousands of small strings, and the
/// system allocator spent a fifth of its instructions on them.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Small pages from before the runtime's first allocation: that allocation reserves mimalloc's
/// first arena, which otherwise asks for transparent huge pages, and its first touches each
/// cleared 2 MB (about 3 ms of every start, `list` and `show` included). A function in
/// `.init_array` runs while the C library starts the program, before Rust's runtime.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static SMALL_PAGES_AT_LOAD: extern "C" fn() = {
    extern "C" fn at_load() {
        codex_picker::memory::small_pages();
    }
    at_load
};

fn main() {
    // Again, for systems where the function above is not run.
    codex_picker::memory::small_pages();
    let cli = Cli::parse();
    codex_picker::memory::collect_freed();
    if cli.command.is_some() {
        codex_picker::platform::widen_stdout_pipe();
    }
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let code = match &cli.command {
        Some(Command::List(args)) => cmd::run_list(&cli.store, args, &mut out, &mut err),
        Some(Command::Usage(args)) => cmd::run_usage(&cli.store, args, &mut out, &mut err),
        Some(Command::Show(args)) => cmd::run_show(&cli.store, args, &mut out, &mut err),
        Some(Command::Blame(args)) => cmd::run_blame(&cli.store, args, &mut out, &mut err),
        Some(Command::Cache(args)) => cmd::run_cache(&cli.store, args, &mut out, &mut err),
        Some(Command::Init { shell }) => cmd::run_init(*shell, &mut out, &mut err),
        Some(Command::Completions { shell }) => cmd::run_completions(*shell, &mut out, &mut err),
        Some(Command::Man) => cmd::run_man(&mut out, &mut err),
        None => {
            drop(out);
            drop(err);
            codex_picker::tui::picker::run(&cli)
        }
    };
    std::process::exit(code);
}
