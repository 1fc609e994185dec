//! The background threads and the messages they exchange with the picker: the [`indexer`]
//! (rollout files to session rows, then the content index), [`search`] (ranked matches of a
//! query), [`conversation_reader`] (the selected session's conversation), [`changes`] (codex's
//! own archive, unarchive and delete, run for the user), [`watch`] (ticks when the store
//! changes, so it is read again) and [`locks`] (which sessions another codex has open). Each
//! stops when its channel closes. The search, the conversation reader and the changes are each
//! a [`job`]: the newest request wins, and its answers carry the generation it was asked under.
//! Each answer also rings the picker's event loop ([`wake`]), which sleeps until one comes.

pub(crate) mod changes;
pub mod conversation_reader;
pub mod indexer;
pub mod job;
pub(crate) mod locks;
pub mod search;
pub mod wake;
pub(crate) mod watch;
