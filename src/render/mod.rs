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
mod last_words;
mod options;
mod page_state;
mod profile;
mod replay;
mod resources;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use url::Url;

use crate::fetch::{
    FetchError, FetchOptions, FetchedPage, Fetcher, HttpFetcher, ReplaySource, charset_param,
};
use browser::Browser;
pub use browser::KEEP_FACTOR;
pub use options::{DEFAULT_TIMEOUT, READ_GRACE, RenderOptions};

/// Environment variable with the same meaning as `--browser`.
pub const BROWSER_ENV: &str = "FOLLOW_INSPECTOR_BROWSER";
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
    served: Served,
    /// Set by the window's Cancel: the page being rendered stops at once.
    cancel: Arc<AtomicBool>,
}

/// Where a rendered page's served HTML is had when the browser no longer
/// holds it: the network, or in a replay the capture (never the network).
enum Served {
    Http(HttpFetcher),
    Capture(Arc<dyn ReplaySource>),
}

/// A served document: its body, charset and whether it was cut.
struct ServedDocument {
    body: Vec<u8>,
    charset: Option<String>,
    truncated: bool,
}

impl RenderFetcher {
    pub fn launch(
        opts: RenderOptions,
        fetch: FetchOptions,
        cancel: Arc<AtomicBool>,
    ) -> Result<Self, FetchError> {
        Ok(Self {
            browser: Browser::launch(opts, None)?,
            served: Served::Http(HttpFetcher::new(fetch)?),
            cancel,
        })
    }

    /// Renders pages from `capture` (SPEC 12): every request the browser
    /// makes is answered from it, none reaches the network.
    pub fn replaying(
        opts: RenderOptions,
        capture: Arc<dyn ReplaySource>,
        cancel: Arc<AtomicBool>,
    ) -> Result<Self, FetchError> {
        Ok(Self {
            browser: Browser::launch(opts, Some(Arc::clone(&capture)))?,
            served: Served::Capture(capture),
            cancel,
        })
    }

    /// The served HTML of `url` within `left`, when it is that URL's own document.
    fn served(&self, url: &Url, left: Duration) -> Option<ServedDocument> {
        match &self.served {
            Served::Http(plain) => plain
                .fetch_within(url, left)
                .ok()
                .filter(|served| browser::same_document(&served.final_url, url))
                .map(|served| ServedDocument {
                    body: served.body,
                    charset: served.charset,
                    truncated: served.summary.truncated,
                }),
            Served::Capture(capture) => capture
                .answer(url)
                .filter(|stored| stored.status < 300 || stored.status >= 400)
                .map(|stored| ServedDocument {
                    charset: stored
                        .headers
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
                        .and_then(|(_, v)| charset_param(v)),
                    body: stored.body,
                    truncated: false,
                }),
        }
    }
}

impl Fetcher for RenderFetcher {
    fn renders(&self) -> bool {
        true
    }

    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        if let Served::Capture(capture) = &self.served
            && let Some(missing) = capture.page_missing(url)
        {
            return Err(missing);
        }
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
            keep_for_archive(&mut page);
            return Ok(page);
        }
        // SPEC 8: else a separate plain fetch of the final URL, within the
        // page's time, and only when it is that URL's own document.
        let served = if left.is_zero() {
            None
        } else {
            self.served(&page.final_url, left)
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
            page.summary.truncated = served.truncated;
            page.body = served.body;
        }
        keep_for_archive(&mut page);
        Ok(page)
    }
}

/// Completes the page's capture once its served HTML and body are final:
/// the document response's body is the served HTML, and the DOM record
/// holds the text the verdicts come from.
fn keep_for_archive(page: &mut FetchedPage) {
    let Some(rendered) = page.rendered.clone() else {
        return;
    };
    let text = crate::page::decode(&page.body, page.charset.as_deref(), None)
        .text
        .into_owned();
    if let Some(capture) = page.capture.as_mut() {
        let capture = Arc::make_mut(capture);
        if let Some(main) = capture.exchanges.last_mut() {
            main.body_unread = rendered.served_html.is_none();
            main.body = rendered
                .served_html
                .clone()
                .map(String::into_bytes)
                .unwrap_or_default();
            // The served HTML is kept as the browser's text of it.
            main.response_headers
                .retain(|(name, _)| !name.eq_ignore_ascii_case("content-type"));
            main.response_headers.push((
                "Content-Type".to_owned(),
                "text/html; charset=utf-8".to_owned(),
            ));
        }
        capture.dom = Some(text);
        capture.rendered = Some(rendered);
    }
}
