//! One worker thread whose newest request wins: the picker's end ([`SingleJob`]) sends it
//! notes (state changes, every one applied, in order) and asks (work to do, of which only the
//! newest one waiting is run), never waiting for it; the thread answers each ask it runs with
//! the generation the ask was made under ([`Answered`]). A long ask can see that a newer one
//! came ([`Reply::superseded`]) and end early.
//!
//! Staleness is decided here and nowhere else: an answer older than one already taken is
//! dropped, and the job is awaiting while its newest ask has no answer yet. Answers of an older
//! ask that come before the newest one's are kept (a search's answer while the user still types,
//! a conversation read for a row the selection passed): they are not stale, only not the
//! newest.
//!
//! The thread stops when its [`SingleJob`] is dropped: it finishes at most the ask it is
//! running (which sees itself superseded, so a long one ends early), and is not waited for.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use crate::workers::wake::{self, Waker};

/// What a job's thread does with the notes and asks it is sent.
pub trait Work: Sized + Send + 'static {
    /// A change to the thread's state: every one is applied, in the order sent, before any ask
    /// sent after it runs.
    type Note: Send + 'static;
    /// Work to do: only the newest one waiting is run.
    type Ask: Send + 'static;
    /// What an ask is answered with (an ask may be answered more than once, a first part and
    /// then the whole, say).
    type Answer: Send + 'static;

    /// Apply a note.
    fn note(&mut self, note: Self::Note);

    /// Run an ask, answering through `reply`.
    fn run(&mut self, ask: Self::Ask, reply: &mut Reply<'_, Self>);

    /// How long to wait for a note or an ask before [`rest`](Work::rest) is called (`None`:
    /// wait for as long as it takes).
    fn idle(&self) -> Option<Duration> {
        None
    }

    /// Nothing came for [`idle`](Work::idle)'s while: do what was put off.
    fn rest(&mut self) {}
}

/// An answer, with the generation of the ask it answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered<A> {
    pub gen: u64,
    pub answer: A,
}

/// What the picker's end sends the thread.
enum Message<W: Work> {
    Note(W::Note),
    Ask(u64, W::Ask),
}

/// The picker's end of a job's thread.
pub struct SingleJob<W: Work> {
    tx: mpsc::Sender<Message<W>>,
    rx: Receiver<Answered<W::Answer>>,
    /// The generation of the newest ask sent.
    asked: u64,
    /// The generation of the newest answer taken.
    answered: u64,
}

impl<W: Work> SingleJob<W> {
    /// Start the thread `name` running `work`; each answer wakes the picker through `waker`.
    pub fn spawn(name: &str, work: W, waker: Waker) -> SingleJob<W> {
        let (tx, rx) = mpsc::channel();
        let (answers, answered) = wake::channel(waker);
        thread::Builder::new()
            .name(name.into())
            .spawn(move || serve(work, &rx, &answers))
            .unwrap_or_else(|e| panic!("spawn the {name} thread: {e}"));
        SingleJob::from_channels(tx, answered)
    }

    fn from_channels(
        tx: mpsc::Sender<Message<W>>,
        rx: Receiver<Answered<W::Answer>>,
    ) -> SingleJob<W> {
        SingleJob {
            tx,
            rx,
            asked: 0,
            answered: 0,
        }
    }

    /// Send a note; `false` when the thread is gone (it panicked).
    pub fn note(&self, note: W::Note) -> bool {
        self.tx.send(Message::Note(note)).is_ok()
    }

    /// Ask, under the next generation; the generation, or the ask back when the thread is gone.
    pub fn submit(&mut self, ask: W::Ask) -> Result<u64, W::Ask> {
        let gen = self.asked + 1;
        self.submit_as(gen, ask).map(|()| gen)
    }

    /// Ask under generation `gen`, numbered by the caller (a number no smaller than the last
    /// one asked); the ask back when the thread is gone.
    pub fn submit_as(&mut self, gen: u64, ask: W::Ask) -> Result<(), W::Ask> {
        match self.tx.send(Message::Ask(gen, ask)) {
            Ok(()) => {
                self.asked = self.asked.max(gen);
                Ok(())
            }
            Err(mpsc::SendError(Message::Ask(_, ask))) => Err(ask),
            Err(mpsc::SendError(Message::Note(_))) => unreachable!("an ask was sent"),
        }
    }

    /// The newest ask has not been answered yet.
    pub fn awaiting(&self) -> bool {
        self.answered < self.asked
    }

    /// The answers that have come, stale ones dropped.
    pub fn take(&mut self) -> Vec<Answered<W::Answer>> {
        let mut taken = Vec::new();
        while let Ok(answer) = self.rx.try_recv() {
            if let Some(answer) = self.fresh(answer) {
                taken.push(answer);
            }
        }
        taken
    }

    /// Wait up to `timeout` for the next answer that is not stale.
    pub fn recv_timeout(&mut self, timeout: Duration) -> Option<Answered<W::Answer>> {
        let until = Instant::now().checked_add(timeout);
        loop {
            let answer = match until {
                Some(until) => {
                    let left = until.saturating_duration_since(Instant::now());
                    self.rx.recv_timeout(left).ok()?
                }
                None => self.rx.recv().ok()?,
            };
            if let Some(answer) = self.fresh(answer) {
                return Some(answer);
            }
        }
    }

    /// `answer`, unless an answer to a newer ask has been taken already.
    fn fresh(&mut self, answer: Answered<W::Answer>) -> Option<Answered<W::Answer>> {
        if answer.gen < self.answered {
            return None;
        }
        self.answered = answer.gen;
        Some(answer)
    }
}

/// The thread's end while it runs an ask: answers it, and looks for newer asks.
pub struct Reply<'a, W: Work> {
    gen: u64,
    rx: &'a Receiver<Message<W>>,
    tx: &'a wake::Sender<Answered<W::Answer>>,
    /// What came while the ask ran, applied once it is done.
    inbox: &'a mut Inbox<W>,
}

impl<W: Work> Reply<'_, W> {
    /// Answer the ask; `false` when nobody takes answers any more (the job was dropped).
    pub fn send(&mut self, answer: W::Answer) -> bool {
        let sent = self
            .tx
            .send(Answered {
                gen: self.gen,
                answer,
            })
            .is_ok();
        self.inbox.closed |= !sent;
        sent
    }

    /// A newer ask is waiting, or the job was dropped: what this one does next is not wanted.
    pub fn superseded(&mut self) -> bool {
        self.inbox.fill(self.rx);
        self.inbox.ask.is_some() || self.inbox.closed
    }
}

/// What the thread has been sent and not yet dealt with.
struct Inbox<W: Work> {
    notes: VecDeque<W::Note>,
    /// The newest ask waiting.
    ask: Option<(u64, W::Ask)>,
    /// The picker's end is gone.
    closed: bool,
}

impl<W: Work> Inbox<W> {
    fn put(&mut self, message: Message<W>) {
        match message {
            Message::Note(note) => self.notes.push_back(note),
            Message::Ask(gen, ask) => self.ask = Some((gen, ask)),
        }
    }

    /// Take in whatever is waiting, without waiting.
    fn fill(&mut self, rx: &Receiver<Message<W>>) {
        loop {
            match rx.try_recv() {
                Ok(message) => self.put(message),
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.closed = true;
                    return;
                }
            }
        }
    }

    /// Wait for something to be sent (or for `idle`'s while, then `false`).
    fn wait(&mut self, rx: &Receiver<Message<W>>, idle: Option<Duration>) -> bool {
        let message = match idle {
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(idle) => rx.recv_timeout(idle),
        };
        match message {
            Ok(message) => self.put(message),
            Err(RecvTimeoutError::Timeout) => return false,
            Err(RecvTimeoutError::Disconnected) => self.closed = true,
        }
        true
    }
}

/// The thread: apply the notes, run the newest ask, until the picker's end is dropped.
fn serve<W: Work>(mut work: W, rx: &Receiver<Message<W>>, tx: &wake::Sender<Answered<W::Answer>>) {
    let mut inbox = Inbox {
        notes: VecDeque::new(),
        ask: None,
        closed: false,
    };
    while !inbox.closed {
        if inbox.notes.is_empty() && inbox.ask.is_none() && !inbox.wait(rx, work.idle()) {
            work.rest();
            continue;
        }
        inbox.fill(rx);
        if inbox.closed {
            return;
        }
        while let Some(note) = inbox.notes.pop_front() {
            work.note(note);
        }
        if let Some((gen, ask)) = inbox.ask.take() {
            let mut reply = Reply {
                gen,
                rx,
                tx,
                inbox: &mut inbox,
            };
            work.run(ask, &mut reply);
        }
    }
}

/// A job with no thread: the test plays the thread's part.
#[cfg(test)]
pub(crate) struct ByHand<W: Work> {
    rx: Receiver<Message<W>>,
    tx: wake::Sender<Answered<W::Answer>>,
}

#[cfg(test)]
impl<W: Work> ByHand<W> {
    /// A job whose asks the test takes and answers itself; answers wake through `waker`.
    pub(crate) fn job(waker: Waker) -> (SingleJob<W>, ByHand<W>) {
        let (tx, rx) = mpsc::channel();
        let (answers, answered) = wake::channel(waker);
        (
            SingleJob::from_channels(tx, answered),
            ByHand { rx, tx: answers },
        )
    }

    /// The next ask sent, with its generation (notes are skipped).
    pub(crate) fn asked(&self) -> Option<(u64, W::Ask)> {
        self.rx.try_iter().find_map(|message| match message {
            Message::Ask(gen, ask) => Some((gen, ask)),
            Message::Note(_) => None,
        })
    }

    /// Answer under generation `gen`.
    pub(crate) fn answer(&self, gen: u64, answer: W::Answer) {
        let _ = self.tx.send(Answered { gen, answer });
    }
}

#[cfg(test)]
#[path = "job_tests.rs"]
mod tests;
