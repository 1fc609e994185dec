//! Search: everything that decides which sessions a query finds and in what order, with no UI
//! and no thread of its own (the picker's search thread is `workers::search`, its side of the
//! answers `tui::app::searches`).
//!
//! - [`title`]: the fuzzy match over a row's title, folder, branch and id (fzf's syntax);
//! - [`fulltext`]: the content index of every conversation and its search;
//! - [`filter`]: the filters typed into a query (`dir:`, `branch:`, `date:`);
//! - [`one_box`]: the picker's one box, titles and conversations merged into one ranked list.

pub mod filter;
pub mod fulltext;
pub(crate) mod one_box;
pub mod title;
