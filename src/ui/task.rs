//! Background work for the UI: fetching, crawling and reading files run on a
//! named thread and report through a channel; the UI polls once per frame.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Instant;

use anyhow::Context as _;
use url::Url;

use crate::crawl::{self, CrawlRequest, Progress};
use crate::fetch::Fetcher;
use crate::inspect::Inspection;
use crate::policy::Settings;

/// What to load.
#[derive(Clone, Debug)]
pub enum Job {
    Url(CrawlRequest),
    File {
        path: PathBuf,
        page_url: Option<Url>,
        depth: u32,
        limit_override: Option<usize>,
        settings: Settings,
    },
}

impl Job {
    pub fn describe(&self) -> String {
        match self {
            Job::Url(r) => r.start_url.to_string(),
            Job::File { path, .. } => path.display().to_string(),
        }
    }
}

enum Event {
    Progress(Progress),
    Finished(Result<Box<Inspection>, String>),
}

/// A running job. Dropping it cancels the work between requests.
pub struct Task {
    rx: Receiver<Event>,
    cancel: Arc<AtomicBool>,
    pub progress: Progress,
    pub started: Instant,
    pub label: String,
}

/// What a poll found.
pub enum Poll {
    Running,
    Finished(Result<Box<Inspection>, String>),
}

fn run_job(
    job: Job,
    fetcher: &dyn Fetcher,
    cancel: &AtomicBool,
    send: &(dyn Fn(Progress) + Sync),
) -> Result<Inspection, String> {
    match job {
        Job::Url(request) => crawl::crawl(fetcher, &request, cancel, send)
            .map_err(|e| format!("{:#}", anyhow::Error::from(e))),
        Job::File {
            path,
            page_url,
            depth,
            limit_override,
            settings,
        } => std::fs::read(&path)
            .with_context(|| format!("cannot read {}", path.display()))
            .and_then(|bytes| {
                Inspection::saved_page(&bytes, page_url, depth, limit_override, settings)
                    .with_context(|| {
                        format!(
                            "{}: enter the page's original URL in the base URL field",
                            path.display()
                        )
                    })
            })
            .map_err(|e| format!("{e:#}")),
    }
}

impl Task {
    /// Starts `job` on a named thread; `repaint` is called whenever there is news.
    pub fn spawn(
        job: Job,
        fetcher: Arc<dyn Fetcher>,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> std::io::Result<Task> {
        let (tx, rx) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let label = job.describe();
        let thread_cancel = Arc::clone(&cancel);
        std::thread::Builder::new()
            .name("follow-inspector-fetch".into())
            .spawn(move || {
                let progress_tx = tx.clone();
                let send = |p: Progress| {
                    let _ = progress_tx.send(Event::Progress(p));
                    repaint();
                };
                let result = run_job(job, fetcher.as_ref(), &thread_cancel, &send).map(Box::new);
                let _ = tx.send(Event::Finished(result));
                repaint();
            })?;
        Ok(Task {
            rx,
            cancel,
            progress: Progress::default(),
            started: Instant::now(),
            label,
        })
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelling(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }

    /// Drains the channel; never blocks.
    pub fn poll(&mut self) -> Poll {
        loop {
            match self.rx.try_recv() {
                Ok(Event::Progress(p)) => self.progress = p,
                Ok(Event::Finished(result)) => return Poll::Finished(result),
                Err(TryRecvError::Empty) => return Poll::Running,
                Err(TryRecvError::Disconnected) => {
                    return Poll::Finished(Err("the background task stopped unexpectedly".into()));
                }
            }
        }
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        self.cancel();
    }
}
