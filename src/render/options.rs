//! How to render: the browser, the wait, the deadline, and what the page's
//! requests are sent with.

use std::path::PathBuf;
use std::time::Duration;

use crate::fetch::{FetchOptions, Resolve, Wait};

/// How long a page may take (SPEC 8's default); then the DOM is read anyway.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);

/// What a page may take past its deadline: stopping its scripts, reading its
/// DOM and the served HTML (the fallback fetch included).
pub const READ_GRACE: Duration = Duration::from_secs(2);
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
    /// A page's capture keeps its images, media and fonts too
    /// (`--capture-all`); else they are counted, not kept.
    pub capture_all: bool,
    /// A page's capture keeps what it loaded besides its document (SPEC
    /// 12): set where it may be saved (`--save-warc`, the window).
    pub keep_resources: bool,
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
            capture_all: false,
            keep_resources: true,
        }
    }
}
