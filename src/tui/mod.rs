//! The interactive picker: [`picker`] sets it up (store, terminal, workers), [`event_loop`] runs
//! it on any ratatui backend (sleeping until a key, from [`input`], or a worker's message),
//! [`dispatch`] carries messages between the app and the workers,
//! [`terminal`] owns the terminal ([`signals`] gives it back when the picker is killed),
//! [`action`] is what the user can ask for, [`keys`] maps keys to actions, [`app`] is the
//! picker's pure state, [`render`] makes rollout text into the pane's styled lines (Markdown,
//! code), [`ui`] draws it all; [`clipboard`] and [`launch`] (codex resume and fork) are the ways
//! a pick leaves the picker besides stdout.

pub mod action;
pub mod app;
pub(crate) mod clipboard;
pub mod dispatch;
pub mod event_loop;
pub(crate) mod input;
pub mod keys;
pub(crate) mod launch;
pub mod numbers;
pub mod picker;
pub mod render;
pub(crate) mod signals;
pub(crate) mod terminal;
pub(crate) mod tty_backend;
pub mod ui;
