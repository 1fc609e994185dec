//! How the allocator gives memory back: for the long-running picker, and once after the
//! command line is parsed.
//!
//! The binary allocates with mimalloc (`main.rs`), which by default keeps freed pages for a
//! while before handing them back to the system, to reuse them cheaply. A short command (`list`)
//! gains from that; the picker does not: building the rows and the content index frees far more
//! than the picker keeps, and with the default delay its resident set stayed near the peak of
//! the build (about 250 MB held at 30,000 sessions, against 125 MB with freed pages returned at
//! once).

/// mimalloc's `mi_option_purge_delay` (the same number in its v2 and v3 headers; the Rust
/// bindings do not name it).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// mimalloc's `mi_option_allow_thp` (its v3 header, the one the crate builds unless its `v2`
/// feature is on; an unknown option number is ignored).
const ALLOW_THP: libmimalloc_sys::mi_option_t = 43;

/// Use ordinary 4 KB pages, not transparent huge pages. With huge pages every new 2 MB of the
/// heap is cleared whole on its first touch and counts whole in the resident set: a warm `list`
/// of 10,000 sessions held 50 MB instead of 27 MB and spent most of its time clearing pages.
/// mimalloc reads its own option when it starts, before `main`: the process is told too
/// (`platform::no_huge_pages`, what mimalloc itself does when the option is off), which
/// holds for every later page fault, in memory mapped already too. Called first thing.
pub fn small_pages() {
    // SAFETY: as in `return_freed_memory_promptly`: a plain store into the option table; 0 is a
    // valid value (no huge pages).
    unsafe { libmimalloc_sys::mi_option_set(ALLOW_THP, 0) };
    crate::platform::no_huge_pages();
}

/// From now on, return freed memory to the system at once. Harmless when mimalloc is not the
/// global allocator (the option is then never read).
pub fn return_freed_memory_promptly() {
    // SAFETY: setting an option is a plain store into mimalloc's option table; any value is
    // valid for this option (0 = purge at once).
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) };
}

/// Hand back now what has been freed so far. Parsing the command line builds clap's whole
/// command tree and drops it; left as it was, that freed memory lay between the multi-megabyte
/// line buffers `show` reads a giant rollout into, and `show` of a 50 MB rollout peaked at
/// 43 MB instead of 32 MB once the picker had three more flags. Cheap: the heap is small then.
pub fn collect_freed() {
    // SAFETY: mi_collect only walks mimalloc's own heaps and releases their free pages; it may
    // be called at any time, from any thread.
    unsafe { libmimalloc_sys::mi_collect(true) };
}
