//! Loading a page: fetching, crawling or reading a file runs in the
//! background; the UI polls once per frame.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context as _;

use crate::copy;
use crate::crawl::{self, CrawlRequest, DEFAULT_PARALLELISM, Progress};
use crate::fetch::{FetchOptions, Fetcher, HttpFetcher};
use crate::inspect::Inspection;
use crate::policy::Settings;
use crate::render::{self, RenderFetcher, RenderOptions};
use crate::target::{Target, parse_page_url};
use crate::ui::background::{Background, Status};
use crate::ui::state::{Loading, Source};

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

/// A running job. Dropping it cancels the work between requests.
pub struct Task {
    work: Background<Progress, Result<Loaded, String>>,
    loading: Loading,
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
) -> anyhow::Result<Loaded> {
    match Target::parse(&job.target)? {
        Target::File(path) => {
            let page_url = match job.base_url.trim() {
                "" => None,
                base => Some(parse_page_url(base).context("base URL")?),
            };
            let bytes =
                std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            let inspection = Inspection::saved_page(
                &bytes,
                page_url,
                job.depth,
                job.limit_override,
                job.settings,
            )
            .with_context(|| {
                format!(
                    "{}: enter the page's original URL in the base URL field",
                    path.display()
                )
            })?;
            Ok((
                Box::new(inspection),
                Source::File(path.display().to_string()),
            ))
        }
        Target::Url(start_url) => {
            let fetcher: Arc<dyn Fetcher> = match (fetcher, job.browser) {
                (Some(fetcher), _) => fetcher,
                (None, Some(browser)) => {
                    let fetch = FetchOptions::default();
                    let render = RenderOptions::new(browser, &fetch);
                    Arc::new(RenderFetcher::launch(render, fetch, Arc::clone(cancel))?)
                }
                (None, None) => Arc::new(HttpFetcher::new(FetchOptions::default())?),
            };
            let parallelism = if fetcher.renders() {
                render::DEFAULT_PARALLELISM
            } else {
                DEFAULT_PARALLELISM
            };
            let request = CrawlRequest {
                start_url,
                depth: job.depth,
                limit_override: job.limit_override,
                settings: job.settings,
                parallelism,
            };
            let inspection = crawl::crawl(fetcher.as_ref(), &request, cancel, send)?;
            Ok((Box::new(inspection), Source::Url))
        }
    }
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
        let work = Background::spawn("follow-inspector-fetch", repaint, move |reporter| {
            let send = |p: Progress| {
                reporter.progress(p);
            };
            // The browser (if any) is gone when this returns: the fetcher was dropped.
            run_job(job, fetcher, reporter.cancel_flag(), &send).map_err(|e| format!("{e:#}"))
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
            Status::Vanished => Poll::Finished(Err(copy::BACKGROUND_TASK_STOPPED.into())),
        }
    }
}
