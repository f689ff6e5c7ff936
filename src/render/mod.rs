//! Rendered mode (SPEC 8): pages loaded in headless Chromium, driven over the
//! DevTools protocol on `--remote-debugging-pipe` (NUL-separated JSON on file
//! descriptors 3 and 4). A browser on a pipe exits when the pipe closes, so no
//! browser outlives the inspector, even one killed with SIGKILL.
//!
//! One browser per inspection; every page of a crawl is a new tab in it.
//! `browser` launches and drives it, `cdp` is the pipe protocol, and
//! `page_state` the pure machine that reads one tab's events.

mod browser;
mod cdp;
mod page_state;
mod profile;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use url::Url;

use crate::fetch::{FetchError, FetchOptions, FetchedPage, Fetcher, HttpFetcher, Resolve, Wait};
use browser::Browser;

/// Environment variable with the same meaning as `--browser`.
pub const BROWSER_ENV: &str = "FOLLOW_INSPECTOR_BROWSER";
/// How long a page may take (SPEC 8's default); then the DOM is read anyway.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);
/// What a page may take past its deadline: stopping its scripts, reading its
/// DOM and the served HTML (the fallback fetch included).
pub const READ_GRACE: Duration = Duration::from_secs(2);
/// The served HTML's fetch gets at least this when it stands in for the DOM.
const MIN_FALLBACK: Duration = Duration::from_secs(1);
/// Rendered pages loaded at once within a crawl level.
pub const DEFAULT_PARALLELISM: usize = 2;
/// Where Debian's package puts the real binary (the `/usr/bin` wrapper is a
/// script that does not `exec`, so stopping it would leave the browser running).
const BROWSER_PATHS: [&str; 2] = [
    "/usr/lib/chromium/chromium-headless-shell",
    "/usr/lib/chromium/headless_shell",
];
/// How to render.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    pub browser: PathBuf,
    pub wait: Wait,
    /// Per page; at the deadline the DOM is read anyway.
    pub timeout: Duration,
    pub user_agent: String,
    pub resolve: Vec<Resolve>,
    /// `--max-bytes`: the DOM is cut there, and bounds a DevTools message.
    pub max_bytes: usize,
    /// Scripts may reach private addresses (else those requests fail).
    pub allow_private_network: bool,
}

impl RenderOptions {
    /// Rendering in `browser` as `fetch` fetches (its User-Agent and
    /// `--resolve` rules), with SPEC 8's default wait and deadline.
    pub fn new(browser: PathBuf, fetch: &FetchOptions) -> Self {
        Self {
            browser,
            wait: Wait::default(),
            timeout: DEFAULT_TIMEOUT,
            user_agent: fetch.user_agent.clone(),
            resolve: fetch.resolve.clone(),
            max_bytes: fetch.max_bytes,
            allow_private_network: fetch.allow_private_network,
        }
    }
}

/// The browser to use: `explicit` (`--browser`), else `FOLLOW_INSPECTOR_BROWSER`,
/// else Debian's chromium-headless-shell.
pub fn find_browser(explicit: Option<&Path>) -> Result<PathBuf, FetchError> {
    let chosen = explicit
        .map(Path::to_path_buf)
        .or_else(|| std::env::var_os(BROWSER_ENV).map(PathBuf::from));
    match chosen {
        Some(path) if path.is_file() => Ok(path),
        Some(path) => Err(FetchError::NoBrowser { path: Some(path) }),
        None => BROWSER_PATHS
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .ok_or(FetchError::NoBrowser { path: None }),
    }
}

/// Renders every page it is asked for in one browser (a [`Fetcher`], so a
/// crawl in rendered mode is the same crawl).
pub struct RenderFetcher {
    browser: Browser,
    /// For the served HTML when the browser no longer has it.
    plain: HttpFetcher,
    /// Set by the window's Cancel: the page being rendered stops at once.
    cancel: Arc<AtomicBool>,
}

impl RenderFetcher {
    pub fn launch(
        opts: RenderOptions,
        fetch: FetchOptions,
        cancel: Arc<AtomicBool>,
    ) -> Result<Self, FetchError> {
        Ok(Self {
            browser: Browser::launch(opts)?,
            plain: HttpFetcher::new(fetch)?,
            cancel,
        })
    }
}

impl Fetcher for RenderFetcher {
    fn renders(&self) -> bool {
        true
    }

    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let started = Instant::now();
        let mut page = self.browser.render(url, &self.cancel)?;
        let Some(rendered) = page.rendered.as_mut() else {
            return Ok(page);
        };
        let left = (self.browser.timeout() + READ_GRACE).saturating_sub(started.elapsed());
        // Without its DOM the page's links are all in the served HTML.
        let left = if rendered.dom_read {
            left
        } else {
            left.max(MIN_FALLBACK)
        };
        if rendered.served_html.is_some() {
            return Ok(page);
        }
        // SPEC 8: else a separate plain fetch of the final URL, within the
        // page's time, and only when it is that URL's own document.
        let served = if left.is_zero() {
            None
        } else {
            self.plain
                .fetch_within(&page.final_url, left)
                .ok()
                .filter(|served| browser::same_document(&served.final_url, &page.final_url))
        };
        rendered.served_html = served.as_ref().map(|served| {
            crate::page::decode(&served.body, served.charset.as_deref(), None)
                .text
                .into_owned()
        });
        if !rendered.dom_read {
            let served = served.ok_or_else(|| FetchError::Browser {
                detail: format!(
                    "the page gave no DOM by the deadline (its scripts did not stop) and its \
                     HTML could not be fetched within {} s more",
                    MIN_FALLBACK.as_secs()
                ),
            })?;
            page.charset = served.charset;
            page.summary.bytes = served.body.len();
            page.summary.truncated = served.summary.truncated;
            page.body = served.body;
        }
        Ok(page)
    }
}
