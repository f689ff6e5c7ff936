//! A corpus run on a named background thread: progress and cancellation
//! through atomics, the result through a channel the frame polls.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};

use crate::corpus::{self, CorpusRun};
use crate::policy::Settings;

/// What a corpus run is asked to do.
pub struct CorpusJob {
    pub path: PathBuf,
    pub a: Settings,
    pub b: Option<Settings>,
    pub depth: u32,
}

pub struct CorpusTask {
    done: Arc<AtomicUsize>,
    /// Pages in the corpus, once listed (0 before).
    total: Arc<AtomicUsize>,
    cancel: Arc<AtomicBool>,
    rx: Receiver<Result<Box<CorpusRun>, String>>,
}

pub enum CorpusPoll {
    Running { done: usize, total: usize },
    Finished(Result<Box<CorpusRun>, String>),
}

impl CorpusTask {
    /// Starts the run; `repaint` wakes the window on progress and at the end.
    pub fn spawn(
        job: CorpusJob,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> std::io::Result<Self> {
        let done = Arc::new(AtomicUsize::new(0));
        let total = Arc::new(AtomicUsize::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let (thread_done, thread_total, thread_cancel) =
            (Arc::clone(&done), Arc::clone(&total), Arc::clone(&cancel));
        std::thread::Builder::new()
            .name("follow-inspector-corpus".into())
            .spawn(move || {
                let result = corpus::list_pages(&job.path)
                    .map_err(|e| format!("{e:#}"))
                    .map(|pages| {
                        thread_total.store(pages.len(), Ordering::SeqCst);
                        let progress = |n: usize| {
                            thread_done.store(n, Ordering::SeqCst);
                            repaint();
                        };
                        Box::new(corpus::run(
                            &pages,
                            &job.a,
                            job.b.as_ref(),
                            job.depth,
                            corpus::default_jobs(),
                            &thread_cancel,
                            &progress,
                        ))
                    });
                let _ = tx.send(result);
                repaint();
            })?;
        Ok(Self {
            done,
            total,
            cancel,
            rx,
        })
    }

    /// Never blocks.
    pub fn poll(&self) -> CorpusPoll {
        match self.rx.try_recv() {
            Ok(result) => CorpusPoll::Finished(result),
            Err(TryRecvError::Empty) => CorpusPoll::Running {
                done: self.done.load(Ordering::SeqCst),
                total: self.total.load(Ordering::SeqCst),
            },
            Err(TryRecvError::Disconnected) => {
                CorpusPoll::Finished(Err("the corpus thread stopped unexpectedly".into()))
            }
        }
    }

    /// Stops before the next page; the pages read so far arrive as the result.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }
}
