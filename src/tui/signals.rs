//! Signals sent from outside while the picker holds the terminal (`kill`, a closed terminal
//! tab, `tmux kill-pane`): SIGTERM, SIGHUP, SIGQUIT and SIGINT give the terminal back (raw mode
//! off, main screen, mouse and bracketed paste off, cursor shown) and end the picker with the
//! conventional status, 128 + the signal's number. A thread of signal-hook's waits for them, so
//! the restoring runs as ordinary code, not in a signal handler. What gives the terminal back
//! is the terminal guard's, handed in by it ([`watch`]): this file knows nothing of the
//! terminal.
//!
//! Once the terminal is given back the signals act as they would by default, except SIGINT
//! while codex runs in the foreground (resume, fork): codex gets it too and decides, and the
//! picker passes on codex's status.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

/// The picker's modes are set on the terminal.
static TERMINAL_TAKEN: AtomicBool = AtomicBool::new(false);
/// codex runs in the foreground.
static CHILD_RUNNING: AtomicBool = AtomicBool::new(false);

/// Start the thread, once; `give_back` gives the terminal back while it is taken. Best
/// effort: without the thread the signals act by default.
pub(crate) fn watch(give_back: fn()) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let Ok(mut signals) = Signals::new([SIGTERM, SIGHUP, SIGQUIT, SIGINT]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    on_signal(signal, give_back);
                }
            });
    });
}

fn on_signal(signal: i32, give_back: fn()) {
    if TERMINAL_TAKEN.load(Ordering::SeqCst) {
        give_back();
        std::process::exit(128 + signal);
    }
    if signal == SIGINT && CHILD_RUNNING.load(Ordering::SeqCst) {
        return;
    }
    // As if no handler were installed: the process ends by the signal.
    if signal_hook::low_level::emulate_default_handler(signal).is_err() {
        std::process::exit(128 + signal);
    }
}

/// The picker's modes are set (`true`) or given back.
pub(crate) fn terminal_taken(taken: bool) {
    TERMINAL_TAKEN.store(taken, Ordering::SeqCst);
}

/// codex runs in the foreground (`true`) or has ended.
pub(crate) fn child_running(running: bool) {
    CHILD_RUNNING.store(running, Ordering::SeqCst);
}
