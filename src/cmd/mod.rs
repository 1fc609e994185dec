//! The non-interactive commands: [`list`], [`show`], [`usage`] (printed by [`usage_out`]),
//! [`blame`], [`cache`] and [`setup`]
//! (`init`, `completions`, `man`), each in its own file ([`changed`]: the sessions that
//! changed a file, for `list --file` and `blame`), and what they share: messages on stderr
//! (`codex-picker: <path>: <reason>`), exit codes, a broken pipe that is no error. [`output`]
//! formats what they print.

mod blame;
mod cache;
mod changed;
mod list;
pub(crate) mod output;
mod report;
mod setup;
mod show;
pub mod show_text;
mod usage;
mod usage_out;
mod usage_rows;

pub use crate::cli::{EXIT_CANCELLED, EXIT_ERROR, EXIT_OK};
pub use blame::run_blame;
pub use cache::run_cache;
pub use list::run_list;
pub use setup::{run_completions, run_init, run_man};
pub use show::{find_target, run_show, SHOW_TEXT_CAP};
pub use usage::run_usage;
