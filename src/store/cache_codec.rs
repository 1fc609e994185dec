//! The binary body of the rows cache: a compact little-endian encoding of each file's key and
//! [`ScanState`], several times faster to load than JSON (warm start-up reads it whole).
//!
//! Every field of [`ScanState`] and [`Meta`] is written by name in a struct literal, so a new
//! field fails to compile here until the format (and `ROWS_VERSION`) is updated.

use std::path::PathBuf;

use super::cache::Entry;
use crate::rollout::record::Meta;
use crate::rollout::summary::ScanState;
use crate::session::HistoryBase;

#[derive(Default)]
pub struct Enc(pub Vec<u8>);

impl Enc {
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len() as u32);
        self.0.extend_from_slice(b);
    }
    fn opt(&mut self, s: &Option<String>) {
        match s {
            Some(s) => {
                self.0.push(1);
                self.bytes(s.as_bytes());
            }
            None => self.0.push(0),
        }
    }

    pub fn entry(&mut self, path: &[u8], e: &Entry) {
        self.bytes(path);
        self.u64(e.size);
        self.u64(e.mtime_ms as u64);
        self.0
            .push(u8::from(e.compressed) | u8::from(e.archived) << 1);
        let s = &e.state;
        self.u64(s.offset);
        self.0.push(
            u8::from(s.complete)
                | u8::from(s.saw_message) << 1
                | u8::from(s.meta.is_some()) << 2
                | u8::from(s.pending_tail) << 3,
        );
        if let Some(m) = &s.meta {
            for f in [
                &m.id,
                &m.timestamp,
                &m.cwd,
                &m.git_branch,
                &m.source,
                &m.originator,
                &m.cli_version,
                &m.model_provider,
                &m.forked_from_id,
            ] {
                self.opt(f);
            }
            match &m.history_base {
                Some(hb) => {
                    self.0.push(1);
                    self.bytes(hb.thread_id.as_bytes());
                    self.opt(&hb.end_ordinal_exclusive.map(|n| n.to_string()));
                }
                None => self.0.push(0),
            }
        }
        for n in [
            s.event_user,
            s.event_assistant,
            s.response_user,
            s.response_assistant,
            s.skipped_lines,
        ] {
            self.u32(n);
        }
        self.opt(&s.event_prompt);
        self.opt(&s.response_prompt);
        self.opt(&s.thread_name);
    }
}

pub struct Dec<'a> {
    pub b: &'a [u8],
    pub i: usize,
}

impl<'a> Dec<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let v = self.b.get(self.i..self.i.checked_add(n)?)?;
        self.i += n;
        Some(v)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    fn string(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }
    fn opt(&mut self) -> Option<Option<String>> {
        match self.u8()? {
            0 => Some(None),
            1 => Some(Some(self.string()?)),
            _ => None,
        }
    }

    pub fn entry(&mut self) -> Option<(PathBuf, Entry)> {
        let path = path_from(self.bytes()?);
        let size = self.u64()?;
        let mtime_ms = self.u64()? as i64;
        let flags = self.u8()?;
        let offset = self.u64()?;
        let sflags = self.u8()?;
        let meta = if sflags & 4 != 0 {
            Some(Meta {
                id: self.opt()?,
                timestamp: self.opt()?,
                cwd: self.opt()?,
                git_branch: self.opt()?,
                source: self.opt()?,
                originator: self.opt()?,
                cli_version: self.opt()?,
                model_provider: self.opt()?,
                forked_from_id: self.opt()?,
                history_base: match self.u8()? {
                    0 => None,
                    1 => Some(HistoryBase {
                        thread_id: self.string()?,
                        end_ordinal_exclusive: match self.opt()? {
                            Some(n) => Some(n.parse().ok()?),
                            None => None,
                        },
                    }),
                    _ => return None,
                },
            })
        } else {
            None
        };
        let state = ScanState {
            offset,
            complete: sflags & 1 != 0,
            meta,
            event_user: self.u32()?,
            event_assistant: self.u32()?,
            response_user: self.u32()?,
            response_assistant: self.u32()?,
            skipped_lines: self.u32()?,
            event_prompt: self.opt()?,
            response_prompt: self.opt()?,
            thread_name: self.opt()?,
            saw_message: sflags & 2 != 0,
            pending_tail: sflags & 8 != 0,
        };
        let entry = Entry {
            size,
            mtime_ms,
            compressed: flags & 1 != 0,
            archived: flags & 2 != 0,
            state,
        };
        Some((path, entry))
    }
}

pub fn path_bytes(p: &std::path::Path) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        p.as_os_str().as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        p.to_string_lossy().as_bytes().to_vec()
    }
}

pub fn path_from(b: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(b))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(b).into_owned())
    }
}
