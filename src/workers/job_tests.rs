//! The job's rules on a probe: the newest ask wins, notes are all applied first, stale answers
//! are dropped, a long ask sees a newer one, and the thread ends with its job.

use super::*;
use std::sync::mpsc::Sender;

const WAIT: Duration = Duration::from_secs(10);

/// Ask 0 runs until it is superseded and answers nothing; ask 1 waits for the gate; every
/// other ask is answered at once. Each answer is the ask and the notes applied so far.
struct Probe {
    notes: Vec<u32>,
    started: Sender<u32>,
    gate: Receiver<()>,
    /// Rest is due once (then `rested` hears of it).
    idle: bool,
    rested: Sender<()>,
}

impl Work for Probe {
    type Note = u32;
    type Ask = u32;
    type Answer = (u32, Vec<u32>);

    fn note(&mut self, note: u32) {
        self.notes.push(note);
    }

    fn run(&mut self, ask: u32, reply: &mut Reply<'_, Self>) {
        let _ = self.started.send(ask);
        match ask {
            0 => {
                while !reply.superseded() {
                    thread::sleep(Duration::from_millis(1));
                }
            }
            _ => {
                if ask == 1 {
                    let _ = self.gate.recv();
                }
                reply.send((ask, self.notes.clone()));
            }
        }
    }

    fn idle(&self) -> Option<Duration> {
        self.idle.then_some(Duration::from_millis(10))
    }

    fn rest(&mut self) {
        self.idle = false;
        let _ = self.rested.send(());
    }
}

struct Ends {
    started: Receiver<u32>,
    gate: Sender<()>,
    rested: Receiver<()>,
}

fn probe(idle: bool) -> (SingleJob<Probe>, Ends) {
    let (started, started_rx) = mpsc::channel();
    let (gate_tx, gate) = mpsc::channel();
    let (rested, rested_rx) = mpsc::channel();
    let work = Probe {
        notes: Vec::new(),
        started,
        gate,
        idle,
        rested,
    };
    let ends = Ends {
        started: started_rx,
        gate: gate_tx,
        rested: rested_rx,
    };
    (SingleJob::spawn("job-probe", work, Waker::noop()), ends)
}

#[test]
fn the_newest_ask_wins_and_every_note_comes_first() {
    let (mut job, ends) = probe(false);
    assert_eq!(job.submit(1), Ok(1));
    assert_eq!(ends.started.recv_timeout(WAIT), Ok(1));
    // Asked while the thread is busy: only the newest runs, after every note.
    job.note(7);
    job.submit(2).unwrap();
    job.submit(3).unwrap();
    job.note(8);
    assert_eq!(job.submit(4), Ok(4));
    assert!(job.awaiting());
    ends.gate.send(()).unwrap();
    let first = job.recv_timeout(WAIT).expect("the busy ask's answer");
    assert_eq!(
        first,
        Answered {
            gen: 1,
            answer: (1, vec![])
        }
    );
    assert!(
        job.awaiting(),
        "an older ask's answer is taken, the newest still awaited"
    );
    let newest = job.recv_timeout(WAIT).expect("the newest ask's answer");
    assert_eq!(
        newest,
        Answered {
            gen: 4,
            answer: (4, vec![7, 8])
        }
    );
    assert!(!job.awaiting());
    assert!(job.recv_timeout(Duration::from_millis(100)).is_none());
    assert_eq!(
        ends.started.try_iter().collect::<Vec<_>>(),
        [4],
        "2 and 3 never ran"
    );
}

#[test]
fn an_answer_older_than_one_taken_is_dropped() {
    let (mut job, hand) = ByHand::<Probe>::job(Waker::noop());
    for ask in [5, 6, 7] {
        job.submit(ask).unwrap();
    }
    let asked: Vec<_> = std::iter::from_fn(|| hand.asked()).collect();
    assert_eq!(asked, [(1, 5), (2, 6), (3, 7)]);
    hand.answer(2, (6, vec![]));
    hand.answer(1, (5, vec![]));
    let gens: Vec<u64> = job.take().iter().map(|a| a.gen).collect();
    assert_eq!(gens, [2], "the late answer to ask 1 is stale");
    assert!(job.awaiting());
    hand.answer(3, (7, vec![]));
    hand.answer(3, (7, vec![1]));
    let gens: Vec<u64> = job.take().iter().map(|a| a.gen).collect();
    assert_eq!(gens, [3, 3], "an ask may be answered more than once");
    assert!(!job.awaiting());
}

#[test]
fn asks_numbered_by_the_caller_carry_their_numbers() {
    let (mut job, hand) = ByHand::<Probe>::job(Waker::noop());
    job.submit_as(40, 2).unwrap();
    assert_eq!(hand.asked(), Some((40, 2)));
    assert_eq!(job.submit(3), Ok(41));
    hand.answer(40, (2, vec![]));
    assert_eq!(job.take().len(), 1);
    assert!(job.awaiting());
}

#[test]
fn a_long_ask_ends_when_a_newer_one_comes() {
    let (mut job, ends) = probe(false);
    job.submit(0).unwrap();
    assert_eq!(ends.started.recv_timeout(WAIT), Ok(0));
    job.submit(2).unwrap();
    let answer = job.recv_timeout(WAIT).expect("the newer ask's answer");
    assert_eq!(answer.gen, 2, "the long ask gave up and answered nothing");
}

#[test]
fn the_thread_ends_with_its_job_even_mid_ask() {
    let (mut job, ends) = probe(false);
    job.submit(0).unwrap();
    assert_eq!(ends.started.recv_timeout(WAIT), Ok(0));
    drop(job);
    // The work (and its end of `started`) is dropped when the thread returns.
    assert_eq!(
        ends.started.recv_timeout(WAIT),
        Err(mpsc::RecvTimeoutError::Disconnected)
    );
}

#[test]
fn a_submit_to_a_thread_that_is_gone_gives_the_ask_back() {
    let (mut job, hand) = ByHand::<Probe>::job(Waker::noop());
    drop(hand);
    assert_eq!(job.submit(9), Err(9));
    assert!(!job.awaiting());
}

#[test]
fn work_put_off_is_done_once_nothing_comes() {
    let (job, ends) = probe(true);
    assert_eq!(ends.rested.recv_timeout(WAIT), Ok(()));
    drop(job);
}
