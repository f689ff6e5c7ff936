//! A corpus run in the background (saved pages or web archives): progress as
//! (pages done, pages in all or found so far),
//! the run (or what was read before a cancel) as the result.

use std::path::PathBuf;

use crate::copy;
use crate::corpus::{self, CorpusRun};
use crate::policy::Settings;
use crate::ui::background::{Background, Status};

/// What a corpus run is asked to do.
pub struct CorpusJob {
    pub path: PathBuf,
    pub a: Settings,
    pub b: Option<Settings>,
    pub depth: u32,
}

/// A running corpus run. Dropping it stops the run before the next page.
pub struct CorpusTask {
    work: Background<(usize, usize), Result<Box<CorpusRun>, String>>,
    /// (pages done, pages in the corpus); 0 pages before they are listed.
    progress: (usize, usize),
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
        let work = Background::spawn("follow-inspector-corpus", repaint, move |reporter| {
            let source = corpus::list_corpus(&job.path).map_err(|e| format!("{e:#}"))?;
            if let corpus::CorpusSource::Pages(pages) = &source {
                reporter.progress((0, pages.len()));
            }
            // For archives, the total is the pages found so far.
            let progress = |done: usize, total: usize| {
                reporter.progress((done, total));
            };
            let sides = corpus::Sides {
                a: &job.a,
                b: job.b.as_ref(),
                depth: job.depth,
                targets: None,
            };
            Ok(Box::new(corpus::run_source(
                &source,
                sides,
                crate::fetch::DEFAULT_MAX_BYTES,
                corpus::default_jobs(),
                reporter.cancel_flag(),
                &progress,
            )))
        })?;
        Ok(Self {
            work,
            progress: (0, 0),
        })
    }

    /// Never blocks.
    pub fn poll(&mut self) -> CorpusPoll {
        let progress = &mut self.progress;
        match self.work.poll(|p| *progress = p) {
            Status::Running => CorpusPoll::Running {
                done: self.progress.0,
                total: self.progress.1,
            },
            Status::Finished(result) => CorpusPoll::Finished(result),
            Status::Vanished => CorpusPoll::Finished(Err(copy::CORPUS_THREAD_STOPPED.into())),
        }
    }

    /// Stops before the next page; the pages read so far arrive as the result.
    pub fn cancel(&self) {
        self.work.cancel();
    }
}
