//! How the workers wake the picker's event loop: the loop sleeps in one `poll(2)` on the
//! terminal and on a [`Wakeup`]'s socket, and a worker rings it ([`Waker::wake`]) after each
//! message it sends, so an answer is taken in as soon as it is sent and nothing is looked for
//! while nothing happens.
//!
//! A [`Waker`] says which [`Source`] rang; the rings between two [`Wakeup::take`]s are one byte
//! on the socket and one set of sources. The messages themselves go through ordinary channels:
//! [`channel`] makes one whose sender rings on every send and when it is dropped (a worker that
//! ends wakes the loop to see its channel closed), and [`forward`] puts a waking channel behind
//! a receiver made elsewhere.

use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, SendError};
use std::sync::Arc;
use std::time::Duration;

/// Who rang.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The indexer sent events (or ended).
    Index,
    /// The search, transcript or store-change worker answered.
    Answer,
    /// The store changed (the watcher).
    Watch,
    /// Terminal events sent by something other than the terminal (tests).
    Input,
}

impl Source {
    fn bit(self) -> u32 {
        1 << self as u32
    }
}

/// What is shared between the loop's end and the wakers.
#[derive(Debug)]
struct Shared {
    /// The sources that rang since the last `take`.
    rang: AtomicU32,
    /// The workers' end of the socket pair (non-blocking).
    tx: UnixStream,
}

/// The loop's end: what it sleeps on.
#[derive(Debug)]
pub struct Wakeup {
    shared: Arc<Shared>,
    /// Readable while a ring is pending (non-blocking).
    rx: UnixStream,
}

/// A worker's end: rings the loop. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Waker {
    shared: Option<Arc<Shared>>,
    source: Source,
}

/// The sources that rang, as [`Wakeup::take`] returns them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rang(u32);

impl Rang {
    pub fn has(self, source: Source) -> bool {
        self.0 & source.bit() != 0
    }
}

impl Wakeup {
    pub fn new() -> io::Result<Wakeup> {
        let (rx, tx) = UnixStream::pair()?;
        rx.set_nonblocking(true)?;
        tx.set_nonblocking(true)?;
        let shared = Arc::new(Shared {
            rang: AtomicU32::new(0),
            tx,
        });
        Ok(Wakeup { shared, rx })
    }

    /// A waker that rings this loop as `source`.
    pub fn waker(&self, source: Source) -> Waker {
        Waker {
            shared: Some(Arc::clone(&self.shared)),
            source,
        }
    }

    /// Sleep until a waker rings, one of `fds` is readable, or `timeout` has passed (a ring
    /// not yet taken ends it at once); which of `fds` are readable. The rings are left for
    /// [`take`](Wakeup::take). A signal that interrupts the sleep ends it as a timeout would.
    pub fn wait_with<const N: usize>(
        &self,
        fds: [BorrowedFd<'_>; N],
        timeout: Duration,
    ) -> io::Result<[bool; N]> {
        let watch = |fd: BorrowedFd<'_>| filedescriptor::pollfd {
            fd: fd.as_raw_fd(),
            events: filedescriptor::POLLIN,
            revents: 0,
        };
        let mut polled = Vec::with_capacity(N + 1);
        polled.push(watch(self.rx.as_fd()));
        polled.extend(fds.map(watch));
        // poll(2) counts whole milliseconds: rounded up, a deadline 0.4 ms away is slept to
        // rather than looked at again and again.
        let millis = timeout.as_nanos().div_ceil(1_000_000);
        let timeout = Duration::from_millis(u64::try_from(millis).unwrap_or(u64::MAX));
        match filedescriptor::poll(&mut polled, Some(timeout)) {
            Ok(_) => {}
            Err(filedescriptor::Error::Poll(e) | filedescriptor::Error::Io(e))
                if e.kind() == io::ErrorKind::Interrupted => {}
            Err(filedescriptor::Error::Poll(e) | filedescriptor::Error::Io(e)) => return Err(e),
            Err(e) => return Err(io::Error::other(e)),
        }
        let ready = |p: &filedescriptor::pollfd| p.revents != 0;
        Ok(std::array::from_fn(|i| ready(&polled[i + 1])))
    }

    /// Sleep until a waker rings or `timeout` has passed.
    pub fn wait(&self, timeout: Duration) -> io::Result<()> {
        self.wait_with([], timeout).map(|[]| ())
    }

    /// The sources that rang since the last call; the socket is read empty first, so a ring
    /// that comes while this runs is kept (at worst it wakes the loop once for nothing).
    pub fn take(&self) -> Rang {
        let mut buf = [0u8; 64];
        loop {
            match (&self.rx).read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        Rang(self.shared.rang.swap(0, Ordering::SeqCst))
    }
}

impl Waker {
    /// A waker that rings nothing: for a worker used without an event loop.
    pub fn noop() -> Waker {
        Waker {
            shared: None,
            source: Source::Answer,
        }
    }

    /// Wake the loop. Only the first ring since the loop last took them writes to the socket.
    pub fn wake(&self) {
        let Some(shared) = &self.shared else {
            return;
        };
        if shared.rang.fetch_or(self.source.bit(), Ordering::SeqCst) == 0 {
            // Full (it cannot be: one byte is pending at most) or closed: nothing to wake.
            let _ = (&shared.tx).write(&[1]);
        }
    }
}

/// A channel's sending end that wakes the loop after each message, and when dropped.
#[derive(Debug)]
pub struct Sender<T> {
    /// Always there until the sender is dropped: taken then, so that the channel is closed
    /// before the loop is woken to see it closed.
    tx: Option<mpsc::Sender<T>>,
    waker: Waker,
}

impl<T> Sender<T> {
    pub fn send(&self, message: T) -> Result<(), SendError<T>> {
        let Some(tx) = &self.tx else {
            return Err(SendError(message));
        };
        tx.send(message)?;
        self.waker.wake();
        Ok(())
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        // Close first: woken before the close, the loop could find the channel empty but open,
        // and sleep with nothing left to wake it.
        drop(self.tx.take());
        self.waker.wake();
    }
}

/// A channel whose sender wakes the loop through `waker`.
pub fn channel<T>(waker: Waker) -> (Sender<T>, Receiver<T>) {
    let (tx, rx) = mpsc::channel();
    (
        Sender {
            tx: Some(tx),
            waker,
        },
        rx,
    )
}

/// The messages of `rx`, passed on by a thread of their own through a channel that wakes the
/// loop through `waker` (for a worker that knows nothing of the loop). The thread ends when
/// `rx` closes (the loop is woken to see it) or the returned receiver is dropped (dropping
/// `rx` too, which tells its sender).
pub fn forward<T: Send + 'static>(rx: Receiver<T>, waker: Waker) -> Receiver<T> {
    let (tx, out) = channel(waker);
    std::thread::Builder::new()
        .name("wake-forward".into())
        .spawn(move || {
            for message in rx {
                if tx.send(message).is_err() {
                    return;
                }
            }
        })
        .expect("spawn the forwarding thread");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_ring_ends_the_sleep_and_says_who_rang() {
        let wakeup = Wakeup::new().unwrap();
        let waker = wakeup.waker(Source::Index);
        let ringer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            waker.wake();
            waker.wake();
        });
        let start = Instant::now();
        wakeup.wait(Duration::from_secs(10)).unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "woken by the ring"
        );
        ringer.join().unwrap();
        let rang = wakeup.take();
        assert!(rang.has(Source::Index));
        assert!(!rang.has(Source::Answer));
        // Taken: the next sleep lasts its whole timeout.
        let start = Instant::now();
        wakeup.wait(Duration::from_millis(100)).unwrap();
        assert!(start.elapsed() >= Duration::from_millis(100));
        assert_eq!(wakeup.take(), Rang::default());
    }

    #[test]
    fn a_ring_before_the_sleep_is_not_lost() {
        let wakeup = Wakeup::new().unwrap();
        wakeup.waker(Source::Answer).wake();
        let start = Instant::now();
        wakeup.wait(Duration::from_secs(10)).unwrap();
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(wakeup.take().has(Source::Answer));
    }

    #[test]
    fn a_waking_channel_rings_on_send_and_on_close() {
        let wakeup = Wakeup::new().unwrap();
        let (tx, rx) = channel(wakeup.waker(Source::Answer));
        tx.send(7).unwrap();
        assert!(wakeup.take().has(Source::Answer));
        assert_eq!(rx.try_recv(), Ok(7));
        drop(tx);
        assert!(wakeup.take().has(Source::Answer));
        assert!(rx.try_recv().is_err());
    }

    #[test]
    fn a_forwarded_receiver_gets_every_message_and_its_close() {
        let wakeup = Wakeup::new().unwrap();
        let (tx, rx) = mpsc::channel();
        let out = forward(rx, wakeup.waker(Source::Index));
        for n in 0..100 {
            tx.send(n).unwrap();
        }
        drop(tx);
        let start = Instant::now();
        let mut got = Vec::new();
        // As the loop does: take the rings, read the channel empty, sleep.
        loop {
            wakeup.take();
            match out.try_recv() {
                Ok(n) => got.push(n),
                Err(mpsc::TryRecvError::Empty) => {
                    wakeup.wait(Duration::from_secs(10)).unwrap();
                    assert!(start.elapsed() < Duration::from_secs(10), "woken");
                }
                Err(mpsc::TryRecvError::Disconnected) => break,
            }
        }
        assert_eq!(got, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn a_readable_descriptor_ends_the_sleep() {
        let wakeup = Wakeup::new().unwrap();
        let (a, mut b) = UnixStream::pair().unwrap();
        b.write_all(b"x").unwrap();
        let start = Instant::now();
        let [ready] = wakeup
            .wait_with([a.as_fd()], Duration::from_secs(10))
            .unwrap();
        assert!(ready && start.elapsed() < Duration::from_secs(5));
        assert_eq!(wakeup.take(), Rang::default());
    }
}
