//! The command line: clap definitions, and what the picker's flags say about the settings the
//! config file also holds ([`Cli::config_flags`]).

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

use crate::config::{Flags, Scope, Sort, ThemeName};
use crate::height::Height;
use crate::shell::{init::InitShell, Syntax};
use crate::store::{self, CacheSetup, Store, StoreError};

#[derive(Debug, Parser)]
#[command(
    name = "codex-picker",
    version,
    about = "Find a past OpenAI Codex CLI session and resume it",
    long_about = "Find a past OpenAI Codex CLI session and resume it.\n\nWith no command, opens the picker; Enter prints the session id, so\n  codex resume \"$(codex-picker)\"\nresumes the session you pick.\n\nThe picker reads its defaults from $XDG_CONFIG_HOME/codex-picker/config.toml\n(else ~/.config/codex-picker/config.toml): resume_args, scope, sort, show_exec,\nshow_archived, theme, height, [keys]. Its flags override the file; list, show and cache do not read it.\n\nShell integration (a key that opens the picker and resumes in the session's folder):\n  eval \"$(codex-picker init bash)\"   (zsh likewise; fish: codex-picker init fish | source)"
)]
pub struct Cli {
    #[command(flatten)]
    pub store: StoreArgs,

    #[command(flatten)]
    pub picker: PickerArgs,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Where the sessions are.
#[derive(Debug, Args, Clone, Default)]
pub struct StoreArgs {
    /// Codex home folder (default: $CODEX_HOME, else ~/.codex)
    #[arg(long, value_name = "DIR", global = true)]
    pub codex_home: Option<PathBuf>,

    /// Claude Code's config folder, whose projects/ holds its sessions (default: the config
    /// file's claude_home, else $CLAUDE_CONFIG_DIR, else ~/.claude)
    #[arg(long, value_name = "DIR", global = true)]
    pub claude_home: Option<PathBuf>,

    /// Use the built-in demo store instead of a Codex home
    #[arg(long, global = true, conflicts_with_all = ["codex_home", "claude_home"])]
    pub demo: bool,

    /// Name every skipped file and line problem on stderr
    #[arg(long, short = 'v', global = true)]
    pub verbose: bool,

    /// Include archived sessions (the picker: see --no-archived)
    #[arg(long, global = true)]
    pub archived: bool,

    /// Neither read nor write the index cache (read every file afresh)
    #[arg(long, global = true)]
    pub no_cache: bool,
}

impl StoreArgs {
    /// The store the flags name (`--demo`, `--codex-home`, else the environment's), or why
    /// there is none.
    pub fn resolve(&self) -> Result<Store, StoreError> {
        let claude_home = self.claude_home.clone().or_else(|| {
            let file = crate::config::path()?;
            crate::config::load(&file).ok()??.claude_home
        });
        store::resolve(
            self.codex_home.as_deref(),
            claude_home.as_deref(),
            self.demo,
        )
    }

    /// Where the caches are: the user's cache folder, none with `--no-cache`.
    pub fn cache_setup(&self) -> CacheSetup {
        CacheSetup::new(!self.no_cache)
    }
}

/// Options of the interactive picker.
#[derive(Debug, Args, Clone, Default)]
pub struct PickerArgs {
    /// Start with sessions of every folder, not only the current one (the same as --scope all;
    /// of --all and --scope, the last one given wins)
    #[arg(long, overrides_with = "scope")]
    pub all: bool,

    /// Start with the sessions of this folder's repository, or of every folder
    #[arg(long, value_enum, value_name = "SCOPE")]
    pub scope: Option<Scope>,

    /// Start sorted by last update, by creation or by tokens used (Ctrl+S switches)
    #[arg(long, value_enum, value_name = "ORDER")]
    pub sort: Option<Sort>,

    /// Hide non-interactive (exec, mcp, ...) sessions
    #[arg(long, overrides_with = "show_exec")]
    pub no_exec: bool,

    /// Show non-interactive sessions (the default, unless the config file says otherwise; of
    /// --no-exec and --show-exec, the last one given wins)
    #[arg(long)]
    pub show_exec: bool,

    /// Hide archived sessions in the picker (the default, unless the config file says otherwise;
    /// of --archived and --no-archived, the last one given wins)
    #[arg(long, overrides_with = "archived")]
    pub no_archived: bool,

    /// Ignore the config file (the picker's settings are its flags and the defaults)
    #[arg(long)]
    pub no_config: bool,

    /// Run `codex resume <id>` in the session's folder instead of printing the id
    #[arg(long)]
    pub exec: bool,

    /// On Enter print `cd <cwd> && codex resume <id>` instead of the id
    #[arg(long)]
    pub print_command: bool,

    /// The shell whose syntax the printed and copied resume command is quoted in
    #[arg(long, value_enum, value_name = "SHELL", default_value_t)]
    pub shell: Syntax,

    /// Colours for a dark or a light terminal background, or none (NO_COLOR means none)
    #[arg(long, value_enum, value_name = "THEME")]
    pub theme: Option<ThemeName>,

    /// Draw the picker in this many rows below the prompt instead of the whole screen: a number
    /// of rows (at least 3) or a percentage of the terminal's height (40%); `full` for the
    /// whole screen (the default, unless the config file's `height` says otherwise)
    #[arg(long, value_name = "HEIGHT", overrides_with = "height")]
    pub height: Option<Height>,

    /// Start with this query
    #[arg(long, short = 'q', value_name = "QUERY")]
    pub query: Option<String>,

    /// Start in content search (matches inside every conversation)
    #[arg(long)]
    pub content: bool,

    /// Arguments for `codex resume` (and `codex fork`), after `--`: used by --exec, Ctrl+O,
    /// Alt+F and the copied resume command, e.g. `codex-picker --exec -- --model o3` (they
    /// replace the config file's resume_args)
    #[arg(last = true, value_name = "CODEX_ARGS", allow_hyphen_values = true)]
    pub codex_args: Vec<String>,
}

impl Cli {
    /// What the picker's flags say about the settings the config file also holds (the
    /// clap overrides have already kept the last of two opposite flags).
    pub fn config_flags(&self) -> Flags {
        let p = &self.picker;
        let given = |yes: bool, no: bool| match (yes, no) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        };
        Flags {
            scope: if p.all { Some(Scope::All) } else { p.scope },
            sort: p.sort,
            show_exec: given(p.show_exec, p.no_exec),
            show_archived: given(self.store.archived, p.no_archived),
            resume_args: p.codex_args.clone(),
            theme: p.theme,
            height: p.height,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every session, newest first
    List(ListArgs),
    /// What your sessions used: tokens (and cost, at the prices in the config file) by day,
    /// week, month, folder, model or session; with --limits, codex's rate limits
    #[command(
        long_about = "What your sessions used: tokens (and cost, at the prices in the config file) by day, week, month, folder, model or session; with --limits, codex's rate limits.\n\nTokens are dated by the record that reports them, so a session that ran over midnight counts on both days (days in the local time zone: TZ). A fork counts what it added; archived sessions count. Cost is given only where the config file's [prices.\"<model>\"] price every token.\n\nFILTER: the picker's box filters: dir:api, branch:fix, file:main.rs, date:<2w, source:claude."
    )]
    Usage(UsageArgs),
    /// Print the whole conversation of one session
    Show(ShowArgs),
    /// The sessions that changed a file, newest first; with FILE:LINE, the session whose patch
    /// added that line's text
    Blame(BlameArgs),
    /// Manage the index cache kept in the user's cache folder
    Cache(CacheArgs),
    /// Print the shell integration to load at start-up: a key (Alt+R) and a `cxp` function that
    /// open the picker and resume the session in its folder
    #[command(
        long_about = "Print the shell integration to load at start-up: a key (Alt+R) and a `cxp` function that open the picker and resume the session in its folder.\n\nbash (~/.bashrc):              eval \"$(codex-picker init bash)\"\nzsh (~/.zshrc):                eval \"$(codex-picker init zsh)\"\nfish (~/.config/fish/config.fish): codex-picker init fish | source\n\nThe snippet's first lines say how to choose another key (CODEX_PICKER_KEY), put the command on the line instead of running it (CODEX_PICKER_ACCEPT=0), draw the picker in another height below the prompt than 40% (CODEX_PICKER_HEIGHT; empty: the config file's height, else the whole screen) and pass more picker flags (CODEX_PICKER_OPTS)."
    )]
    Init {
        #[arg(value_enum)]
        shell: InitShell,
    },
    /// Print a completion script for a shell
    #[command(
        long_about = "Print a completion script for a shell.\n\nbash:       codex-picker completions bash > ~/.local/share/bash-completion/completions/codex-picker\nzsh:        codex-picker completions zsh > ~/.zfunc/_codex-picker   (with fpath+=(~/.zfunc) before compinit)\nfish:       codex-picker completions fish > ~/.config/fish/completions/codex-picker.fish\nelvish:     codex-picker completions elvish >> ~/.config/elvish/rc.elv\npowershell: codex-picker completions powershell >> $PROFILE"
    )]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff; `codex-picker man | man -l -` reads it)
    Man,
}

#[derive(Debug, Args)]
pub struct CacheArgs {
    #[command(subcommand)]
    pub action: CacheAction,
}

#[derive(Debug, Subcommand)]
pub enum CacheAction {
    /// Remove every cache file of codex-picker and print what was removed
    Clear,
    /// Print where the cache files of this store are
    Path,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// One JSON object per line
    #[arg(long)]
    pub json: bool,

    /// Only sessions whose cwd is this folder (or below it)
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,

    /// At most N sessions
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Sessions with a message holding every word of QUERY (user and assistant messages, not
    /// tool output or injected context), best first, the first 100 unless --limit says more
    /// (at most 500). "Quoted words" must stand together; dir:, branch: and date: filter
    /// (date:today, date:<2w, date:>2026-10-01, date:2026-11)
    #[arg(long, value_name = "QUERY")]
    pub content: Option<String>,

    /// Only the sessions that changed FILE (a path relative to the current folder, or
    /// absolute; a folder: any file in it), newest first, with the change and when
    #[arg(long, value_name = "FILE", conflicts_with = "content")]
    pub file: Option<PathBuf>,

    /// Only the sessions of this agent
    #[arg(long, value_enum, value_name = "SOURCE")]
    pub source: Option<crate::sources::Source>,
}

#[derive(Debug, Args)]
pub struct UsageArgs {
    /// What to sum by
    #[arg(long, value_enum, default_value = "day")]
    pub by: crate::usage::period::By,

    /// From this day on (YYYY-MM-DD, today, yesterday, or back from today: 7d, 2w, 3m, 1y)
    #[arg(long, value_name = "DAY")]
    pub since: Option<String>,

    /// Up to this day, included (as --since)
    #[arg(long, value_name = "DAY")]
    pub until: Option<String>,

    /// One JSON object per group
    #[arg(long)]
    pub json: bool,

    /// Codex's rate limits instead: the newest reading of each, when it resets, and how far
    /// the windows before it went
    #[arg(long)]
    pub limits: bool,

    /// Only the sessions of this agent
    #[arg(long, value_enum, value_name = "SOURCE")]
    pub source: Option<crate::sources::Source>,

    /// Filters, as in the picker's box (dir:, branch:, file:, date:, source:)
    #[arg(value_name = "FILTER")]
    pub filters: Vec<String>,
}

#[derive(Debug, Args)]
pub struct BlameArgs {
    /// A file (relative to the current folder, or absolute), and after a colon a line number:
    /// the newest session whose applied patch added that line's current text
    #[arg(value_name = "FILE[:LINE]")]
    pub target: PathBuf,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// A session id (or a unique prefix of one), or a rollout file path (any bytes)
    #[arg(value_name = "ID|PATH")]
    pub target: std::ffi::OsString,

    /// One {role, text, shape, phase} JSON object per message
    #[arg(long)]
    pub json: bool,

    /// The conversation as a Markdown document: a metadata header, then each message under a
    /// numbered heading (whole, as --json)
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,

    /// Also show tool calls, tool outputs and reasoning summaries
    #[arg(long)]
    pub tools: bool,

    /// Print giant messages whole (the text view otherwise cuts a message past 64 KiB; --json
    /// and --markdown always print them whole)
    #[arg(long)]
    pub full: bool,
}

/// Exit codes: a session was picked (or listed), an error, cancelled.
pub const EXIT_OK: i32 = 0;
pub const EXIT_ERROR: i32 = 2;
pub const EXIT_CANCELLED: i32 = 130;
