//! The interactive picker: [`picker`] runs the event loop, [`terminal`] owns the terminal,
//! [`keys`] maps keys to actions, [`app`] is the picker's pure state, [`ui`] draws it;
//! [`clipboard`] and [`launch`] are the two ways a pick leaves the picker besides stdout.

pub mod app;
pub mod clipboard;
pub mod keys;
pub mod launch;
pub mod picker;
pub mod terminal;
pub mod ui;
