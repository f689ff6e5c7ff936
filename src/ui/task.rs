//! Background work for the UI: fetching, crawling and reading files run on a
//! named thread and report through a channel; the UI polls once per frame.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Instant;

use crate::crawl::Progress;
use crate::fetch::{FetchOptions, Fetcher, Wait};
use crate::inspect::{Inspection, Limits};
use crate::load::{self, Fetching, LoadRequest, LoadedFrom};
use crate::policy::Settings;
use crate::render;
use crate::ui::status_bar::Source;

/// What to load: the top bar's fields as typed. Whether the target is a file or
/// a URL is decided on the task's thread, since it asks the file system.
#[derive(Clone, Debug)]
pub struct Job {
    pub target: String,
    /// The page URL of a saved file; empty to take it from the page.
    pub base_url: String,
    pub depth: u32,
    pub limit_override: Option<usize>,
    pub settings: Settings,
    /// Rendered mode: the browser to load URLs in.
    pub browser: Option<PathBuf>,
}

/// A finished load: the inspection and where it came from.
pub type Loaded = (Box<Inspection>, Source);

enum Event {
    Progress(Progress),
    Finished(Result<Loaded, String>),
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
    Finished(Result<Loaded, String>),
}

fn run_job(
    job: Job,
    fetcher: Option<Arc<dyn Fetcher>>,
    cancel: &Arc<AtomicBool>,
    send: &(dyn Fn(Progress) + Sync),
) -> Result<Loaded, String> {
    let fetching = match (fetcher, job.browser) {
        (Some(fetcher), _) => Fetching::Given(fetcher),
        (None, Some(browser)) => Fetching::Rendered {
            browser: Some(browser),
            wait: Wait::default(),
            timeout: render::DEFAULT_TIMEOUT,
            fetch: FetchOptions::default(),
        },
        (None, None) => Fetching::Http(FetchOptions::default()),
    };
    let request = LoadRequest {
        target: job.target,
        base_url: Some(job.base_url),
        limits: Limits {
            depth: job.depth,
            limit_override: job.limit_override,
        },
        settings: job.settings,
        fetching,
        parallelism: None,
    };
    let loaded = load::load(&request, cancel, send).map_err(|e| crate::copy::error_text(&e))?;
    let source = match loaded.from {
        LoadedFrom::File(path) => Source::File(path.display().to_string()),
        LoadedFrom::Url => Source::Url,
    };
    Ok((Box::new(loaded.inspection), source))
}

impl Task {
    /// Starts `job` on a named thread; `repaint` is called whenever there is news.
    /// `fetcher` replaces the HTTP client (tests).
    pub fn spawn(
        job: Job,
        fetcher: Option<Arc<dyn Fetcher>>,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> std::io::Result<Task> {
        let (tx, rx) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let label = job.target.trim().to_owned();
        let thread_cancel = Arc::clone(&cancel);
        std::thread::Builder::new()
            .name("follow-inspector-fetch".into())
            .spawn(move || {
                let progress_tx = tx.clone();
                let send = |p: Progress| {
                    let _ = progress_tx.send(Event::Progress(p));
                    repaint();
                };
                let result = run_job(job, fetcher, &thread_cancel, &send);
                // The browser (if any) is gone by now: the fetcher was dropped.
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
