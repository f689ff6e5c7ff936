//! What a page fetch gives and how it fails: the [`Fetcher`] trait and the
//! wire types every fetcher shares (the HTTP client here, the browser in
//! `render`, an archive or a fake in tests), so the layers above know nothing
//! of how a page was had.

mod capture;
mod http;
pub mod local;
pub mod local_write;
mod once;
mod private;
pub mod replay;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use url::Url;

pub use capture::{Capture, Exchange, LeftOut};
pub use http::{HttpFetcher, charset_param, is_html, refuse_non_http_redirect};
pub use once::FetchOnce;
pub use private::PrivateNetwork;
pub use replay::{ReplaySource, Replayed, StoredAnswer};

pub const DEFAULT_USER_AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 \
    (KHTML, like Gecko) Chrome/131.0 Safari/537.36 FollowInspector/0.1";
pub const DEFAULT_MAX_BYTES: usize = 10 * 1024 * 1024;
pub const MAX_REDIRECTS: usize = 10;
/// Client-side redirects (`location`, meta refresh) a rendered page may make;
/// more is a loop (a script can make every hop's URL new).
pub const MAX_CLIENT_REDIRECTS: usize = 20;

/// How to fetch.
#[derive(Clone, Debug)]
pub struct FetchOptions {
    pub user_agent: String,
    pub connect_timeout: Duration,
    /// For one whole response, body included.
    pub timeout: Duration,
    /// The body is cut after this many (decompressed) bytes.
    pub max_bytes: usize,
    pub resolve: Vec<Resolve>,
    /// Follow redirects (and, rendered, let scripts reach) loopback,
    /// link-local and private addresses from a public page.
    pub allow_private_network: bool,
}

impl Default for FetchOptions {
    fn default() -> Self {
        Self {
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            max_bytes: DEFAULT_MAX_BYTES,
            resolve: Vec::new(),
            allow_private_network: false,
        }
    }
}

/// curl's `--resolve HOST:PORT:ADDR`: connections to HOST go to ADDR:PORT.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolve {
    pub host: String,
    pub addr: SocketAddr,
}

impl std::str::FromStr for Resolve {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let usage = || format!("`{s}` is not HOST:PORT:ADDR (e.g. acme.test:8080:127.0.0.1)");
        let (host, rest) = s.split_once(':').ok_or_else(usage)?;
        let (port, addr) = rest.split_once(':').ok_or_else(usage)?;
        let port: u16 = port.parse().map_err(|_| usage())?;
        let addr = addr.trim_start_matches('[').trim_end_matches(']');
        let ip: IpAddr = addr.parse().map_err(|_| usage())?;
        if host.is_empty() {
            return Err(usage());
        }
        Ok(Resolve {
            host: host.to_ascii_lowercase(),
            addr: SocketAddr::new(ip, port),
        })
    }
}

impl Resolve {
    /// Several mappings as one field holds them (the window's host mapping),
    /// separated by commas or white space, each parsed as `--resolve` parses it.
    pub fn parse_list(text: &str) -> Result<Vec<Resolve>, String> {
        text.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|item| !item.is_empty())
            .map(str::parse)
            .collect()
    }
}

/// How to install the browser rendered mode needs; part of the error's text,
/// since no other advice can help.
pub const BROWSER_INSTALL_HINT: &str = "rendered mode needs Chromium: apt install \
     chromium-headless-shell (or give --browser PATH / FOLLOW_INSPECTOR_BROWSER)";

/// Why a fetch failed; each says it in one line.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum FetchError {
    #[error("DNS: cannot resolve {host}")]
    Dns { host: String },
    #[error("connect: {detail}")]
    Connect { detail: String },
    #[error("TLS: {detail}")]
    Tls { detail: String },
    #[error("timeout: no complete answer from {url} within {seconds} s")]
    Timeout { url: String, seconds: u64 },
    #[error("too many redirects (more than {max}): {chain}")]
    TooManyRedirects { max: usize, chain: String },
    #[error("redirect loop: {chain}")]
    RedirectLoop { chain: String },
    #[error("bad redirect from {url}: {detail}")]
    BadRedirect { url: String, detail: String },
    #[error("not HTML: {url} is {content_type}")]
    NotHtml { url: String, content_type: String },
    #[error("only http and https URLs can be fetched, not {url}")]
    Scheme { url: String },
    #[error("HTTP: {detail}")]
    Http { detail: String },
    /// The body's Content-Encoding (gzip, brotli, deflate) did not decode:
    /// the server sent garbage, not a broken connection.
    #[error(
        "the body of {url} could not be decoded after {bytes} bytes (its gzip, brotli or \
         deflate encoding is damaged): {detail}"
    )]
    BadEncoding {
        url: String,
        bytes: usize,
        detail: String,
    },
    #[error("the connection broke after {bytes} bytes of {url}: {detail}")]
    Body {
        url: String,
        bytes: usize,
        detail: String,
    },
    /// No browser where one was asked for (`path`), or none installed.
    #[error("browser: {}{BROWSER_INSTALL_HINT}", no_browser_at(path.as_ref()))]
    NoBrowser { path: Option<PathBuf> },
    #[error("browser: {detail}")]
    Browser { detail: String },
    #[error("navigation error: {url}: {error}")]
    Navigation { url: String, error: String },
    /// More client-side redirects than [`MAX_CLIENT_REDIRECTS`].
    #[error(
        "client-side redirect loop (more than {max} redirects by script or meta refresh): {chain}"
    )]
    ClientRedirectLoop { max: usize, chain: String },
    /// A redirect from a public address into a private network.
    #[error(
        "redirect into a private network refused: {url} → {to} (--allow-private-network allows it)"
    )]
    PrivateRedirect { url: String, to: String },
    #[error("cancelled")]
    Cancelled,
    /// A page a web archive does not hold (SPEC 10): never fetched instead.
    #[error("not in the archive: {url}")]
    NotInArchive { url: String },
    /// The archive's record for a page that cannot be read (its HTTP part does
    /// not parse, a revisit of a capture the archive lacks).
    #[error("the archive's record for {url} cannot be read: {detail}")]
    BadArchiveRecord { url: String, detail: String },
    /// A revisit record (the same as an earlier capture) whose earlier
    /// capture is not in the archive.
    #[error(
        "the archive has only a revisit record for {url}, and the capture it repeats is not in the archive"
    )]
    RevisitWithoutOriginal { url: String },
    /// A page that had failed when it was archived, with the error it had.
    #[error("{text}")]
    Archived { text: String },
}

fn no_browser_at(path: Option<&PathBuf>) -> String {
    path.map(|p| format!("no browser at {}; ", p.display()))
        .unwrap_or_default()
}

/// A redirect chain in one line: `a (301) → b (302) → last`.
pub fn chain_text(redirects: &[Hop], last: &Url) -> String {
    let mut parts: Vec<String> = redirects
        .iter()
        .map(|h| format!("{} ({})", h.url, h.status))
        .collect();
    parts.push(last.to_string());
    parts.join(" → ")
}

/// One redirect: the URL that answered with a redirect, and its status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Hop {
    pub status: u16,
    pub url: Url,
}

/// What happened on the wire for a fetched page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchSummary {
    pub redirects: Vec<Hop>,
    pub content_type: Option<String>,
    /// Body bytes read (after decompression).
    pub bytes: usize,
    /// The body was cut at the size cap.
    pub truncated: bool,
    pub elapsed_ms: u64,
}

/// When a rendered page's DOM is read (SPEC 8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Wait {
    /// The `load` event.
    Load,
    /// At most 2 requests open for 500 ms (Puppeteer's `networkidle2`).
    #[default]
    Networkidle2,
    /// No request open for 500 ms.
    Networkidle0,
}

impl Wait {
    pub fn id(self) -> &'static str {
        match self {
            Wait::Load => "load",
            Wait::Networkidle2 => "networkidle2",
            Wait::Networkidle0 => "networkidle0",
        }
    }
}

/// What rendering adds to a fetched page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// The served HTML of the final document, for the static side of the
    /// comparison; `None` when the browser no longer had it.
    pub served_html: Option<String>,
    /// The wait condition held before the deadline.
    pub network_idle: bool,
    pub wait: Wait,
    pub render_ms: u64,
    /// `alert`, `confirm` and `prompt` dialogs dismissed.
    pub dialogs: usize,
    /// The page's scripts still ran at the deadline and were stopped.
    pub scripts_stopped: bool,
    /// `false` when the page never answered after its scripts were told to
    /// stop: `body` is then the served HTML (read with the HTTP client).
    pub dom_read: bool,
    /// Requests to private addresses refused (see [`PrivateNetwork`]).
    pub blocked_requests: usize,
    /// Set when the page was rendered from a capture (SPEC 12).
    pub replay: Option<Replayed>,
}

impl Default for Rendered {
    /// A page rendered without incident: the DOM read, nothing stopped.
    fn default() -> Self {
        Self {
            served_html: None,
            network_idle: true,
            wait: Wait::default(),
            render_ms: 0,
            dialogs: 0,
            scripts_stopped: false,
            dom_read: true,
            blocked_requests: 0,
            replay: None,
        }
    }
}

/// A fetched page.
#[derive(Clone, Debug)]
pub struct FetchedPage {
    pub final_url: Url,
    pub status: u16,
    /// The `charset` parameter of the Content-Type, if any.
    pub charset: Option<String>,
    pub body: Vec<u8>,
    pub summary: FetchSummary,
    /// Set in rendered mode: `body` is then the DOM after scripts ran.
    pub rendered: Option<Rendered>,
    /// What went over the wire, for a web archive.
    pub capture: Option<Arc<Capture>>,
}

/// Anything that can fetch a page: the HTTP client, a browser, or a fake in tests.
pub trait Fetcher: Send + Sync {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError>;

    /// Whether pages are rendered in a browser (fewer are loaded at once).
    fn renders(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_parses_curl_syntax() {
        let r: Resolve = "ACME.test:8080:127.0.0.1".parse().unwrap();
        assert_eq!(r.host, "acme.test");
        assert_eq!(r.addr, "127.0.0.1:8080".parse().unwrap());
        let v6: Resolve = "acme.test:443:[::1]".parse().unwrap();
        assert_eq!(v6.addr, "[::1]:443".parse().unwrap());
        for bad in [
            "acme.test",
            "acme.test:x:127.0.0.1",
            ":80:127.0.0.1",
            "a:80:nohost",
        ] {
            assert!(bad.parse::<Resolve>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_list_of_mappings_splits_on_commas_and_spaces() {
        let list = Resolve::parse_list(" acme.test:80:127.0.0.1, shop.test:443:[::1]\n").unwrap();
        let hosts: Vec<&str> = list.iter().map(|r| r.host.as_str()).collect();
        assert_eq!(hosts, ["acme.test", "shop.test"]);
        assert_eq!(Resolve::parse_list("  "), Ok(Vec::new()));
        let err = Resolve::parse_list("acme.test:80:127.0.0.1 acme.test").unwrap_err();
        assert!(
            err.starts_with("`acme.test` is not HOST:PORT:ADDR"),
            "{err}"
        );
    }

    #[test]
    fn no_browser_says_how_to_install_one() {
        let none = FetchError::NoBrowser { path: None };
        assert_eq!(none.to_string(), format!("browser: {BROWSER_INSTALL_HINT}"));
        let missing = FetchError::NoBrowser {
            path: Some(PathBuf::from("/opt/chrome")),
        };
        assert_eq!(
            missing.to_string(),
            format!("browser: no browser at /opt/chrome; {BROWSER_INSTALL_HINT}")
        );
    }
}
