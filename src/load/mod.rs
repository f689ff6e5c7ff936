//! One path from what the user asked for to an inspection, for the CLI and
//! the window alike: the target parsed, a saved file read or a URL crawled
//! with the fetcher asked for, and every way that can fail as a typed
//! [`LoadError`], so the words chosen for it come from its kind.

mod target;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use url::Url;

use crate::archive::{self, ArchiveError, ArchiveFetcher, CaptureInfo};
use crate::crawl::{self, CrawlRequest, Progress};
use crate::fetch::local::{self, FileError};
use crate::fetch::{FetchError, FetchOnce, FetchOptions, Fetcher, HttpFetcher, Wait};
use crate::inspect::{Inspection, Limits, NoPageUrl};
use crate::policy::Settings;
use crate::render::{self, RenderFetcher, RenderOptions};
pub use target::{Target, TargetError, looks_like_a_file, parse_page_url};

/// How the pages of a URL target are had.
#[derive(Clone)]
pub enum Fetching {
    /// The HTTP client.
    Http(FetchOptions),
    /// Headless Chromium: `browser` (else the one `render::find_browser`
    /// finds), and the HTTP client for the served HTML when it must.
    Rendered {
        browser: Option<PathBuf>,
        wait: Wait,
        timeout: Duration,
        fetch: FetchOptions,
        /// A page's capture keeps its images, media and fonts too.
        capture_all: bool,
        /// A page's capture keeps what it loaded besides its document:
        /// when it may be saved (the window; `--save-warc`).
        keep_resources: bool,
    },
    /// The caller's own fetcher (tests, benchmarks).
    Given(Arc<dyn Fetcher>),
}

/// What to load.
#[derive(Clone)]
pub struct LoadRequest {
    /// A URL, a bare host name or a saved file's path, as typed.
    pub target: String,
    /// A saved file's original URL, as typed; `None` takes the page's own.
    pub base_url: Option<String>,
    pub limits: Limits,
    pub settings: Settings,
    pub fetching: Fetching,
    /// Pages fetched at once within a crawl level; `None`: the fetcher's default.
    pub parallelism: Option<usize>,
    /// Bytes of a saved page read at most, as of a fetched body
    /// (`fetch::DEFAULT_MAX_BYTES` unless asked).
    pub max_bytes: usize,
    /// For a web archive: what comes from its inspection record instead of
    /// from this request.
    pub from_capture: FromCapture,
}

/// What a reopened web archive takes from its own inspection record rather
/// than from the request (SPEC 10: all of it, unless given on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FromCapture {
    pub settings: bool,
    pub depth: bool,
    pub limit: bool,
}

impl FromCapture {
    /// Everything from the archive, as support saw it.
    pub const ALL: FromCapture = FromCapture {
        settings: true,
        depth: true,
        limit: true,
    };
}

/// Where a loaded inspection came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadedFrom {
    File(PathBuf),
    Url,
    /// A web archive reopened offline, and what its inspection record says.
    Archive {
        path: PathBuf,
        info: Box<CaptureInfo>,
    },
}

/// A loaded inspection.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub inspection: Inspection,
    pub from: LoadedFrom,
}

/// Why a load failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LoadError {
    /// The typed target or base URL names neither a page nor a file.
    #[error(transparent)]
    Target(#[from] TargetError),
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: Arc<std::io::Error>,
    },
    /// A saved page without a base URL that names no URL of its own.
    #[error("{}", path.display())]
    NoPageUrl {
        path: PathBuf,
        #[source]
        source: NoPageUrl,
    },
    /// A saved page's path names something that is not a readable file (a
    /// FIFO, a device, a folder, a symlink loop).
    #[error(transparent)]
    File(FileError),
    #[error(transparent)]
    Fetch(#[from] FetchError),
    #[error(transparent)]
    Archive(#[from] ArchiveError),
}

impl From<FileError> for LoadError {
    fn from(err: FileError) -> Self {
        match err {
            FileError::Io { path, source } => LoadError::Read { path, source },
            other => LoadError::File(other),
        }
    }
}

/// Loads the request's target: a saved file is read, a URL crawled. `cancel`
/// stops a crawl between requests (and a rendered page at once); `progress`
/// hears of every fetch.
pub fn load(
    request: &LoadRequest,
    cancel: &Arc<AtomicBool>,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Loaded, LoadError> {
    match Target::parse(&request.target)? {
        Target::File(path) if archive::kind::is_archive_file(&path) => {
            let archive = open_archive(&path, request, cancel)?;
            let inspection = archive.crawl(&archive.request.settings, cancel, progress)?;
            Ok(Loaded {
                inspection,
                from: archive.from,
            })
        }
        Target::File(path) => read_file(&path, request),
        Target::Url(url) => {
            let fetcher = open_fetcher(&request.fetching, cancel)?;
            let inspection = crawl_url(
                url,
                request,
                &request.settings,
                fetcher.as_ref(),
                cancel,
                progress,
            )?;
            Ok(Loaded {
                inspection,
                from: LoadedFrom::Url,
            })
        }
    }
}

/// Loads the target as [`load`] does, and decides it under `b` too: a file
/// is read once, a crawl fetches each URL once for both sides.
pub fn load_both(
    request: &LoadRequest,
    b: &Settings,
    cancel: &Arc<AtomicBool>,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<(Loaded, Inspection), LoadError> {
    match Target::parse(&request.target)? {
        Target::File(path) if archive::kind::is_archive_file(&path) => {
            let archive = open_archive(&path, request, cancel)?;
            let a = archive.crawl(&archive.request.settings, cancel, progress)?;
            let other = archive.crawl(b, cancel, progress)?;
            Ok((
                Loaded {
                    inspection: a,
                    from: archive.from,
                },
                other,
            ))
        }
        Target::File(path) => {
            let a = read_file(&path, request)?;
            let other = a.inspection.judged_under(b);
            Ok((a, other))
        }
        Target::Url(url) => {
            let fetcher = open_fetcher(&request.fetching, cancel)?;
            let once = FetchOnce::new(fetcher.as_ref());
            let a = crawl_url(
                url.clone(),
                request,
                &request.settings,
                &once,
                cancel,
                progress,
            )?;
            let other = crawl_url(url, request, b, &once, cancel, progress)?;
            Ok((
                Loaded {
                    inspection: a,
                    from: LoadedFrom::Url,
                },
                other,
            ))
        }
    }
}

/// A web archive opened to be crawled as the live site was.
struct OpenedArchive {
    /// The archive as a fetcher, or in rendered mode a browser answered
    /// from it (SPEC 12).
    fetcher: Arc<dyn Fetcher>,
    start_url: Url,
    /// The request with what the archive's inspection record supplies.
    request: LoadRequest,
    from: LoadedFrom,
}

impl OpenedArchive {
    /// The archive crawled from its start URL under `settings`, as the live
    /// site was.
    fn crawl(
        &self,
        settings: &Settings,
        cancel: &AtomicBool,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<Inspection, LoadError> {
        crawl_url(
            self.start_url.clone(),
            &self.request,
            settings,
            self.fetcher.as_ref(),
            cancel,
            progress,
        )
    }
}

/// Opens an archive: the start URL is the base URL when one is given, else
/// the inspection record's, else the archive's first HTML page; settings
/// and limits come from the record where `from_capture` says so. Asked to
/// render, the pages are rendered again from the archive in a browser with
/// no way to the network (SPEC 12): without a browser that is an error,
/// never a quiet read of the stored pages.
fn open_archive(
    path: &Path,
    request: &LoadRequest,
    cancel: &Arc<AtomicBool>,
) -> Result<OpenedArchive, LoadError> {
    let archive = Arc::new(ArchiveFetcher::open(path, request.max_bytes)?);
    let info = archive.info().clone();
    let fetcher: Arc<dyn Fetcher> = match render_options(&request.fetching)? {
        Some((render, _)) => Arc::new(RenderFetcher::replaying(
            render,
            archive,
            Arc::clone(cancel),
        )?),
        None => archive,
    };
    let start_url = match request.base_url.as_deref() {
        Some(base) => parse_page_url(base)?,
        None => info
            .start_url
            .clone()
            .ok_or_else(|| ArchiveError::NothingToOpen {
                path: path.to_owned(),
            })?,
    };
    let mut request = request.clone();
    let keep = request.from_capture;
    if keep.settings
        && let Some(settings) = &info.settings
    {
        request.settings = settings.clone();
    }
    if keep.depth
        && let Some(depth) = info.depth
    {
        request.limits.depth = depth;
    }
    if keep.limit && info.depth.is_some() {
        request.limits.limit_override = info.limit;
    }
    Ok(OpenedArchive {
        fetcher,
        start_url,
        request,
        from: LoadedFrom::Archive {
            path: path.to_owned(),
            info: Box::new(info),
        },
    })
}

fn read_file(path: &Path, request: &LoadRequest) -> Result<Loaded, LoadError> {
    let page_url = request
        .base_url
        .as_deref()
        .map(parse_page_url)
        .transpose()?;
    let (bytes, truncated) = local::read_page(path, request.max_bytes)?;
    let mut inspection =
        Inspection::saved_page(&bytes, page_url, request.limits, request.settings.clone())
            .map_err(|source| LoadError::NoPageUrl {
                path: path.to_owned(),
                source,
            })?;
    if truncated {
        inspection.mark_cut(bytes.len());
    }
    Ok(Loaded {
        inspection,
        from: LoadedFrom::File(path.to_owned()),
    })
}

fn crawl_url(
    start_url: Url,
    request: &LoadRequest,
    settings: &Settings,
    fetcher: &dyn Fetcher,
    cancel: &AtomicBool,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Inspection, LoadError> {
    let parallelism = request.parallelism.unwrap_or(if fetcher.renders() {
        render::DEFAULT_PARALLELISM
    } else {
        crawl::DEFAULT_PARALLELISM
    });
    let crawl_request = CrawlRequest {
        start_url,
        limits: request.limits,
        settings: settings.clone(),
        parallelism,
    };
    Ok(crawl::crawl(fetcher, &crawl_request, cancel, progress)?)
}

/// The fetcher `fetching` asks for; a browser is launched only now, for a URL.
fn open_fetcher(
    fetching: &Fetching,
    cancel: &Arc<AtomicBool>,
) -> Result<Arc<dyn Fetcher>, FetchError> {
    if let Some((render, fetch)) = render_options(fetching)? {
        return Ok(Arc::new(RenderFetcher::launch(
            render,
            fetch.clone(),
            Arc::clone(cancel),
        )?));
    }
    Ok(match fetching {
        Fetching::Given(fetcher) => Arc::clone(fetcher),
        // A browser was asked for and launched above.
        Fetching::Http(opts) | Fetching::Rendered { fetch: opts, .. } => {
            Arc::new(HttpFetcher::new(opts.clone())?)
        }
    })
}

/// How to render, when `fetching` asks for a browser (found now: without
/// one this is the error, with the install hint), and the HTTP client's
/// options beside it.
fn render_options(
    fetching: &Fetching,
) -> Result<Option<(RenderOptions, &FetchOptions)>, FetchError> {
    let Fetching::Rendered {
        browser,
        wait,
        timeout,
        fetch,
        capture_all,
        keep_resources,
    } = fetching
    else {
        return Ok(None);
    };
    let browser = render::find_browser(browser.as_deref())?;
    let render = RenderOptions {
        wait: *wait,
        timeout: *timeout,
        capture_all: *capture_all,
        keep_resources: *keep_resources,
        ..RenderOptions::new(browser, fetch)
    };
    Ok(Some((render, fetch)))
}
