//! Paths as the bytes the store's files and caches hold them in, and back: a leaf the walk and
//! the caches share.

use std::path::{Path, PathBuf};

/// A path's bytes as [`Path::as_os_str`] encodes them.
pub fn path_bytes(p: &Path) -> &[u8] {
    p.as_os_str().as_encoded_bytes()
}

/// A path from its bytes as [`Path::as_os_str`] gives them (cache files store paths so).
pub fn path_from(b: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(OsStr::from_bytes(b))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(b).into_owned())
    }
}
