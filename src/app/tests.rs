//! One test per action on App.
