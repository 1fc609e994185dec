//! The lock-watch thread: reads the store's thread locks (`store::locks`) once a second and
//! sends them when they changed, so the picker marks a session soon after another codex opens
//! it and unmarks it when it is closed, without the event loop reading `/proc/locks` between
//! keys. Stops as soon as the picker drops its [`Watch`].

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use crate::store::locks::{self, Snapshot};
use crate::store::Store;

/// How often the locks are read.
pub(crate) const EVERY: Duration = Duration::from_secs(1);

/// The picker's end: the snapshots, and the thread's stop (dropped with it).
pub(crate) struct Watch {
    pub snapshots: Receiver<Snapshot>,
    _stop: Sender<()>,
}

/// Start the thread on `store`; the first snapshot is sent at once.
pub(crate) fn spawn(store: Store) -> Watch {
    let (tx, snapshots) = mpsc::channel();
    let (stop, stopped) = mpsc::channel::<()>();
    thread::Builder::new()
        .name("locks".into())
        .spawn(move || {
            let mut last = None;
            loop {
                let now = locks::read(&store);
                if last.as_ref() != Some(&now) {
                    if tx.send(now.clone()).is_err() {
                        break;
                    }
                    last = Some(now);
                }
                match stopped.recv_timeout(EVERY) {
                    Err(RecvTimeoutError::Timeout) => {}
                    _ => break,
                }
            }
        })
        .expect("spawn the lock-watch thread");
    Watch {
        snapshots,
        _stop: stop,
    }
}
