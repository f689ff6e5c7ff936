//! Loading a page: fetching, crawling or reading a file runs in the
//! background; the UI polls once per frame.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::crawl::Progress;
use crate::fetch::{FetchOptions, Fetcher, Resolve, Wait};
use crate::inspect::{Inspection, Limits};
use crate::load::{self, Fetching, LoadRequest, LoadedFrom};
use crate::policy::Settings;
use crate::render;
use crate::ui::state::{Loading, ShownError, Source};
use crate::ui::tasks::background::{Background, Status};

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
    /// Hosts sent to other addresses (the CLI's `--resolve`), fetched or
    /// rendered; or the words of a mapping that does not parse, which refuse
    /// only a target fetched over the network.
    pub resolve: Result<Vec<Resolve>, String>,
    /// For a web archive: what its own inspection record decides.
    pub from_capture: load::FromCapture,
}

/// A finished load: the inspection, where it came from and the host mappings
/// its pages were fetched with (none for a saved file).
#[derive(Debug)]
pub struct LoadedPage {
    pub inspection: Box<Inspection>,
    pub source: Source,
    pub host_mapping: Vec<Resolve>,
    /// A reopened archive judged under its own settings and depth.
    pub as_captured: bool,
}

/// A running job. Dropping it cancels the work between requests.
pub struct Task {
    work: Background<Progress, Result<LoadedPage, ShownError>>,
    loading: Loading,
}

/// What a poll found.
pub enum Poll {
    Running,
    Finished(Result<LoadedPage, ShownError>),
}

fn run_job(
    job: Job,
    fetcher: Option<Arc<dyn Fetcher>>,
    cancel: &Arc<AtomicBool>,
    send: &(dyn Fn(Progress) + Sync),
) -> Result<LoadedPage, ShownError> {
    // Whether the target is a file asks the file system: decided here, not in a frame.
    let fetched = matches!(load::Target::parse(&job.target), Ok(load::Target::Url(_)));
    let resolve = match job.resolve {
        Ok(resolve) => resolve,
        Err(e) if fetched => {
            return Err(ShownError::plain(crate::copy::bad_host_mapping(&e)));
        }
        // A saved file is read, not fetched: the mapping has nothing to do.
        Err(_) => Vec::new(),
    };
    let fetch = FetchOptions {
        resolve: resolve.clone(),
        ..FetchOptions::default()
    };
    let fetching = match (fetcher, job.browser) {
        (Some(fetcher), _) => Fetching::Given(fetcher),
        (None, Some(browser)) => Fetching::Rendered {
            browser: Some(browser),
            wait: Wait::default(),
            timeout: render::DEFAULT_TIMEOUT,
            fetch,
            capture_all: false,
            // Save for ticket… may come after the page is shown.
            keep_resources: true,
        },
        (None, None) => Fetching::Http(fetch),
    };
    let request = LoadRequest {
        target: job.target,
        base_url: Some(job.base_url).filter(|base| !base.trim().is_empty()),
        limits: Limits {
            depth: job.depth,
            limit_override: job.limit_override,
        },
        settings: job.settings,
        fetching,
        parallelism: None,
        max_bytes: crate::fetch::DEFAULT_MAX_BYTES,
        from_capture: job.from_capture,
    };
    let loaded = load::load(&request, cancel, send).map_err(|e| ShownError::of_load(&e))?;
    let as_captured = matches!(&loaded.from, LoadedFrom::Archive { info, .. }
        if info.settings.is_some() && job.from_capture.settings);
    let (source, host_mapping) = match loaded.from {
        LoadedFrom::File(path) => (Source::File(path.display().to_string()), Vec::new()),
        // An archive answers every fetch itself: no host is mapped.
        LoadedFrom::Archive { path, info } => (
            Source::Archive {
                path: path.display().to_string(),
                info,
            },
            Vec::new(),
        ),
        LoadedFrom::Url => (Source::Url, resolve),
    };
    Ok(LoadedPage {
        inspection: Box::new(loaded.inspection),
        source,
        host_mapping,
        as_captured,
    })
}

impl Task {
    /// Starts `job` on a named thread; `repaint` is called whenever there is news.
    /// `fetcher` replaces the HTTP client (tests).
    pub fn spawn(
        job: Job,
        fetcher: Option<Arc<dyn Fetcher>>,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> std::io::Result<Task> {
        let label = job.target.trim().to_owned();
        let work = Background::spawn("follow-inspector-load", repaint, move |reporter| {
            let send = |p: Progress| {
                reporter.progress(p);
            };
            // The browser (if any) is gone when this returns: the fetcher was dropped.
            run_job(job, fetcher, reporter.cancel_flag(), &send)
        })?;
        Ok(Task {
            work,
            loading: Loading {
                progress: Progress::default(),
                started: Instant::now(),
                label,
            },
        })
    }

    /// What the top bar shows of it.
    pub fn loading(&self) -> &Loading {
        &self.loading
    }

    /// Drains the progress reports; never blocks.
    pub fn poll(&mut self) -> Poll {
        let progress = &mut self.loading.progress;
        match self.work.poll(|p| *progress = p) {
            Status::Running => Poll::Running,
            Status::Finished(result) => Poll::Finished(result),
            Status::Vanished => {
                Poll::Finished(Err(ShownError::plain(crate::copy::BACKGROUND_TASK_STOPPED)))
            }
        }
    }
}
