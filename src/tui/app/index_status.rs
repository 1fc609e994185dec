//! What the indexer has said about its progress, for the status line and the empty list: files
//! read of files found, whether the rows phase has ended, files passed over, and the content
//! phase's progress. Changed only by [`IndexStatus::apply`].

use crate::store::engine;
use crate::workers::indexer::Event;

#[derive(Debug, Clone, Default)]
pub struct IndexStatus {
    /// Files read of files found, while the rows phase runs.
    progress: Option<(usize, usize)>,
    /// The rows phase has ended: every row is known.
    finished: bool,
    /// Files or folders passed over.
    issues: usize,
    /// Sessions whose text is indexed so far, while the content phase runs.
    content_progress: Option<(usize, usize)>,
    /// The store is being read again (live changes, Ctrl+R): quietly, no progress shown.
    rerun: bool,
    /// The current run has walked the store (said how many files it found).
    walked: bool,
    /// A later run has started and not finished.
    rerun_going: bool,
}

impl IndexStatus {
    /// Take in what an event says about progress; its rows and its index are for the others.
    pub fn apply(&mut self, event: &Event) {
        let run = match event {
            Event::Run(run) => run,
            Event::Whole(_) => return,
            Event::ContentProgress { .. } if self.rerun => return,
            Event::ContentProgress { done, total } => {
                self.content_progress = Some((*done, *total));
                return;
            }
            Event::ContentReady(_) => {
                self.content_progress = None;
                return;
            }
        };
        if let engine::Event::Found { .. } = run {
            self.walked = true;
        }
        match *run {
            engine::Event::Found { .. } | engine::Event::Progress { .. } if self.rerun => {}
            engine::Event::Found { total } => self.progress = Some((0, total)),
            engine::Event::Progress { done, total } => self.progress = Some((done, total)),
            engine::Event::Issue(_) => self.issues += 1,
            engine::Event::Finished(_) => {
                self.progress = None;
                self.finished = true;
                self.rerun_going = false;
            }
            _ => {}
        }
    }

    /// A new run of the indexer starts (the store is read again): its files passed over are
    /// counted afresh; the rows phase stays ended for the list (the selection is kept).
    pub fn restart(&mut self) {
        self.issues = 0;
        self.progress = None;
        self.content_progress = None;
        self.rerun = true;
        self.walked = false;
        self.rerun_going = true;
    }

    /// An index run is going (the first one, or a later one): it may have walked the store
    /// before a change made now.
    pub fn run_going(&self) -> bool {
        !self.finished || self.rerun_going
    }

    /// A later run has not walked the store yet: the rows it sends now are its cache's, which
    /// the list has already (and which may name files gone since): they are not taken.
    pub fn rerun_before_walk(&self) -> bool {
        self.rerun && !self.walked
    }

    /// Files read of files found, while the rows phase runs.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.progress
    }

    /// The rows phase has ended.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Files or folders passed over so far.
    pub fn issues(&self) -> usize {
        self.issues
    }

    /// Sessions whose text is indexed so far, while the content phase runs.
    pub fn content_progress(&self) -> Option<(usize, usize)> {
        self.content_progress
    }
}
