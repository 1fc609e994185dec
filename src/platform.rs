//! What the program asks of Linux in particular, in one place, and what it does elsewhere.
//! Every call here is best effort: a refusal changes speed or memory, never a result.
//!
//! | what | on Linux | on macOS (and other Unix) |
//! |---|---|---|
//! | [`no_huge_pages`]: the process's memory in 4 KB pages (`PR_SET_THP_DISABLE`) | asked, for every later page fault too | not asked: mimalloc's own option (set in `memory`) keeps its heap on small pages |
//! | the same before the runtime starts (`main.rs`'s `.init_array` entry) | yes | no such section: `main` asks first thing |
//! | [`lower_thread_priority`]: the indexing threads at nice 10 | per thread | not done: `setpriority` there renices the whole process, picker included |
//! | [`widen_stdout_pipe`]: a 1 MiB pipe for `list --json` (`F_SETPIPE_SZ`) | asked | the system's pipe size |
//!
//! The one other Linux-only reading, who holds a session's lock (`/proc/locks`), lives with
//! the locks in `store::locks`; elsewhere the picker says that the system does not tell.

/// Ask the kernel for ordinary 4 KB pages for this process from now on, in memory mapped
/// already too.
pub fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE only sets a flag of this process's memory map; a
    // failure (an old kernel) leaves huge pages on, which is harmless.
    unsafe {
        let _ = libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// Lower this thread's scheduling priority (nice 10). On a machine with few cores the readers
/// would otherwise keep the event loop and the terminal itself waiting for a core, and the
/// first rows would be drawn late.
pub fn lower_thread_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no preconditions; setpriority on our own thread id only changes its
    // scheduling weight, and a failure (an unusual sandbox) is harmless.
    unsafe {
        let tid = libc::gettid();
        let _ = libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10);
    }
}

/// Ask for a 1 MiB pipe when standard output is one: `list --json` writes megabytes, and with
/// the default 64 KiB pipe each block waits for the reader to wake and drain it.
pub fn widen_stdout_pipe() {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let fd = std::io::stdout().as_raw_fd();
        // SAFETY: fstat and fcntl only read and set kernel state of our own descriptor; `stat`
        // is a plain C struct, valid when zeroed, and fstat fills it.
        unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstat(fd, &mut st) == 0 && st.st_mode & libc::S_IFMT == libc::S_IFIFO {
                libc::fcntl(fd, libc::F_SETPIPE_SZ, 1 << 20);
            }
        }
    }
}
