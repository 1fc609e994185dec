//! The picker's config file: where it is, what it may hold, reading it, and merging it with the
//! command line into the picker's [`Settings`] (a flag given wins over the file, the file over
//! the defaults). Only the picker reads it; `list`, `show` and `cache` do not.
//!
//! The file is `$XDG_CONFIG_HOME/codex-picker/config.toml` when `XDG_CONFIG_HOME` is an
//! absolute path, else `$HOME/.config/codex-picker/config.toml`. A missing file is no config;
//! every other problem (unreadable, not UTF-8, not TOML, an unknown key, a value of the wrong
//! type) is one line, `<path>:<line>: <reason>`, and stops the picker before it starts. The
//! `[keys]` table is read as data, each line with its line number: what its names and keys
//! mean is the picker's to say (its key table), and a line it cannot take is an error of the
//! same shape.
//!
//! Pure but for [`path`] (the environment) and [`load`] (the file).

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::height::Height;
use crate::prices::Prices;
use crate::search::title::Recency;

/// A config file larger than this is refused (a real one is a few hundred bytes).
const MAX_BYTES: u64 = 1 << 20;

/// Which sessions the picker starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The current folder's repository (or the folder)
    #[default]
    Folder,
    /// Every folder
    All,
}

/// The order the picker's list starts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Sort {
    /// Newest update first
    #[default]
    Updated,
    /// Newest creation first
    Created,
    /// Most tokens used first
    Tokens,
}

impl From<Sort> for Recency {
    fn from(sort: Sort) -> Recency {
        match sort {
            Sort::Updated => Recency::Updated,
            Sort::Created => Recency::Created,
            Sort::Tokens => Recency::Tokens,
        }
    }
}

/// The picker's colours: for a dark or a light terminal background, or none. `NO_COLOR` in the
/// environment means none whatever is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ThemeName {
    /// Colours for a dark background
    #[default]
    Dark,
    /// Colours for a light background
    Light,
    /// No colour (bold, dim, reverse and underline only)
    None,
}

/// What the config file holds; a key left out is `None`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// Passed to `codex resume` and `codex fork` after the session id.
    pub resume_args: Option<Vec<String>>,
    pub scope: Option<Scope>,
    pub sort: Option<Sort>,
    /// Whether non-interactive (exec, mcp, ...) sessions are shown.
    pub show_exec: Option<bool>,
    /// Whether archived sessions are shown.
    pub show_archived: Option<bool>,
    pub theme: Option<ThemeName>,
    /// `full`, rows below the prompt (`20`) or a share of the terminal (`"40%"`).
    pub height: Option<Height>,
    /// Claude Code's config folder (the one holding `projects/`), as `--claude-home` gives it.
    pub claude_home: Option<PathBuf>,
    /// Passed to `claude --resume` after the session id (and to a fork's command).
    pub claude_resume_args: Option<Vec<String>>,
    /// The `[keys]` table: actions given other keys (set by [`parse`] from `keys_read`).
    #[serde(skip)]
    pub keys: Option<KeyBindings>,
    /// What tokens cost, by model (`[prices."gpt-5.5"]`: `input`, `cached_input`, `output`
    /// in US dollars per million tokens): a session's cost is shown only from these.
    pub prices: Option<Prices>,
    /// The `[keys]` table as the parser hands it over, where each line is in bytes; [`parse`]
    /// makes it [`FileConfig::keys`], where each line is a line number.
    #[serde(rename = "keys", default)]
    keys_read: Option<KeysRead>,
}

/// One line of the `[keys]` table: an action's name and the keys it gets instead of its own,
/// as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyBinding {
    /// Under `[keys.conversation]`: one of the conversation's own actions.
    pub conversation: bool,
    pub action: String,
    pub keys: Vec<String>,
    /// The line of the file the action's name is on (1-based), for an error about it.
    pub line: usize,
}

/// The `[keys]` table (with `[keys.conversation]`), in the file's order. What the names and
/// keys mean is the picker's key table's to say: it makes its keymap from these.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyBindings(pub Vec<KeyBinding>);

/// The `[keys]` table as read, in the file's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct KeysRead(Vec<BindingRead>);

/// A [`KeyBinding`] as read: where its action's name starts in the file, in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BindingRead {
    conversation: bool,
    action: String,
    keys: Vec<String>,
    at: usize,
}

impl KeysRead {
    /// The bindings, each on the line of `text` its name is on.
    fn on_lines(self, text: &str) -> KeyBindings {
        let bindings = self.0.into_iter().map(|b| KeyBinding {
            conversation: b.conversation,
            action: b.action,
            keys: b.keys,
            line: line_of(text.as_bytes(), b.at),
        });
        KeyBindings(bindings.collect())
    }
}

impl<'de> Deserialize<'de> for KeysRead {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<KeysRead, D::Error> {
        use serde::de::DeserializeSeed;
        let mut bindings = KeysTable {
            conversation: false,
        }
        .deserialize(d)?;
        // The parser hands the keys over sorted by name.
        bindings.sort_by_key(|b| b.at);
        Ok(KeysRead(bindings))
    }
}

/// `[keys]` or `[keys.conversation]`: action = key, or action = [keys].
struct KeysTable {
    conversation: bool,
}

impl<'de> serde::de::DeserializeSeed<'de> for KeysTable {
    type Value = Vec<BindingRead>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KeysTable {
    type Value = Vec<BindingRead>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a table of actions and their keys")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(name) = map.next_key::<toml::Spanned<String>>()? {
            if !self.conversation && name.get_ref() == "conversation" {
                out.extend(map.next_value_seed(KeysTable { conversation: true })?);
                continue;
            }
            let KeyList(keys) = map.next_value()?;
            out.push(BindingRead {
                conversation: self.conversation,
                at: name.span().start,
                action: name.into_inner(),
                keys,
            });
        }
        Ok(out)
    }
}

/// One key (`"ctrl-o"`) or a list of them (`["ctrl-o", "f2"]`, `[]` for none).
struct KeyList(Vec<String>);

impl<'de> Deserialize<'de> for KeyList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<KeyList, D::Error> {
        d.deserialize_any(KeyListVisitor)
    }
}

struct KeyListVisitor;

impl<'de> serde::de::Visitor<'de> for KeyListVisitor {
    type Value = KeyList;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(r#"a key ("ctrl-o") or a list of keys (["ctrl-o", "f2"])"#)
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<KeyList, E> {
        Ok(KeyList(vec![key.to_owned()]))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<KeyList, A::Error> {
        let mut keys = Vec::new();
        while let Some(key) = seq.next_element::<String>()? {
            keys.push(key);
        }
        Ok(KeyList(keys))
    }
}

/// What the command line says about the settings the file also holds: `None` (or no resume
/// arguments) where it says nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flags {
    pub scope: Option<Scope>,
    pub sort: Option<Sort>,
    pub show_exec: Option<bool>,
    pub show_archived: Option<bool>,
    /// The arguments after `--`.
    pub resume_args: Vec<String>,
    pub theme: Option<ThemeName>,
    pub height: Option<Height>,
}

/// How the picker starts, once the file and the command line are merged.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub scope: Scope,
    pub sort: Sort,
    pub show_exec: bool,
    pub show_archived: bool,
    pub resume_args: Vec<String>,
    /// Passed to `claude --resume` after the session id.
    pub claude_resume_args: Vec<String>,
    pub theme: ThemeName,
    pub prices: Prices,
    pub height: Height,
    /// The config file's `[keys]`, as written (the picker's key table takes them).
    pub keys: KeyBindings,
}

impl Default for Settings {
    /// The picker without a config file or flags: this folder, by update, exec sessions shown,
    /// archived ones hidden, no resume arguments, colours for a dark background, the whole
    /// screen.
    fn default() -> Settings {
        Settings {
            scope: Scope::Folder,
            sort: Sort::Updated,
            show_exec: true,
            show_archived: false,
            resume_args: Vec::new(),
            claude_resume_args: Vec::new(),
            theme: ThemeName::Dark,
            prices: Prices::new(),
            height: Height::Full,
            keys: KeyBindings::default(),
        }
    }
}

/// The config file's path for these values of `XDG_CONFIG_HOME` and `HOME`: under the first
/// when it is absolute (an empty or relative one is ignored, as the XDG spec says), else under
/// `$HOME/.config` when `HOME` is absolute, else none (a relative path would be looked up in
/// whatever folder the picker runs in).
pub fn path_from(xdg_config_home: Option<&OsStr>, home: Option<&OsStr>) -> Option<PathBuf> {
    let absolute = |v: Option<&OsStr>| v.map(PathBuf::from).filter(|p| p.is_absolute());
    let base = absolute(xdg_config_home).or_else(|| absolute(home).map(|h| h.join(".config")))?;
    Some(base.join("codex-picker").join("config.toml"))
}

/// The config file's path in this process's environment (see [`path_from`]).
pub fn path() -> Option<PathBuf> {
    path_from(
        std::env::var_os("XDG_CONFIG_HOME").as_deref(),
        std::env::var_os("HOME").as_deref(),
    )
}

/// Why the config file cannot be used, in one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read (a folder, too large, not permitted, ...).
    #[error("{path}: {reason}")]
    Unreadable { path: String, reason: String },
    /// The file reads, but a line of it is wrong (not UTF-8, not TOML, an unknown key, a bad
    /// value or key binding).
    #[error("{path}:{line}: {reason}")]
    Invalid {
        path: String,
        line: usize,
        reason: String,
    },
}

/// Read and parse the config file at `path`: `Ok(None)` when there is none; any other problem
/// is a [`ConfigError`], which names the file (and the line, when it is about one).
pub fn load(path: &Path) -> Result<Option<FileConfig>, ConfigError> {
    let shown = crate::sanitize::path_line(path);
    let bytes = match read(path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(None),
        Err(reason) => {
            return Err(ConfigError::Unreadable {
                path: shown,
                reason: crate::sanitize::one_line(&reason),
            })
        }
    };
    let invalid = |line: usize, reason: String| ConfigError::Invalid {
        path: shown.clone(),
        line,
        reason,
    };
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| invalid(line_of(&bytes, e.valid_up_to()), "not UTF-8 text".into()))?;
    parse(text)
        .map(Some)
        .map_err(|(line, reason)| invalid(line, reason))
}

/// Parse the text of a config file; an error is its 1-based line and a one-line reason.
pub fn parse(text: &str) -> Result<FileConfig, (usize, String)> {
    let mut file: FileConfig = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map_or(1, |span| line_of(text.as_bytes(), span.start));
        (line, one_line(e.message()))
    })?;
    file.keys = file.keys_read.take().map(|read| read.on_lines(text));
    Ok(file)
}

/// The picker's settings: each flag given wins over the file, each key in the file over the
/// default. Resume arguments after `--` replace the file's `resume_args` when there are any.
pub fn merge(file: FileConfig, flags: Flags) -> Settings {
    let default = Settings::default();
    Settings {
        scope: flags.scope.or(file.scope).unwrap_or(default.scope),
        sort: flags.sort.or(file.sort).unwrap_or(default.sort),
        show_exec: flags
            .show_exec
            .or(file.show_exec)
            .unwrap_or(default.show_exec),
        show_archived: flags
            .show_archived
            .or(file.show_archived)
            .unwrap_or(default.show_archived),
        resume_args: if flags.resume_args.is_empty() {
            file.resume_args.unwrap_or(default.resume_args)
        } else {
            flags.resume_args
        },
        claude_resume_args: file
            .claude_resume_args
            .unwrap_or(default.claude_resume_args),
        theme: flags.theme.or(file.theme).unwrap_or(default.theme),
        prices: file.prices.unwrap_or(default.prices),
        height: flags.height.or(file.height).unwrap_or(default.height),
        keys: file.keys.unwrap_or(default.keys),
    }
}

/// The file's bytes; `None` when there is no file (nor the folder it would be in). A FIFO or a
/// device is refused before it is opened, so the picker never waits on one.
fn read(path: &Path) -> Result<Option<Vec<u8>>, String> {
    use std::io::ErrorKind;
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Ok(None)
        }
        Err(e) => return Err(e.to_string()),
    };
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!("larger than {} KiB", MAX_BYTES / 1024));
    }
    Ok(Some(bytes))
}

/// The 1-based line of byte `offset` of `bytes` (offsets past the end count as the end).
fn line_of(bytes: &[u8], offset: usize) -> usize {
    let before = &bytes[..offset.min(bytes.len())];
    1 + memchr::memchr_iter(b'\n', before).count()
}

/// A parser message on one line: its lines trimmed and joined, and safe for a terminal (it
/// may quote a key of the file).
fn one_line(message: &str) -> String {
    let joined: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    crate::sanitize::one_line(&joined.join("; "))
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
