//! Fetching one page the way a careful client does: redirects followed by hand
//! (so the whole chain is recorded), timeouts, a streaming size cap, and only
//! HTML accepted.

use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use reqwest::blocking::Client;
use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION};
use url::Url;

use crate::inspect::{FetchSummary, Hop};

pub const DEFAULT_USER_AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 \
    (KHTML, like Gecko) Chrome/131.0 Safari/537.36 FollowInspector/0.1";
pub const DEFAULT_MAX_BYTES: usize = 10 * 1024 * 1024;
pub const MAX_REDIRECTS: usize = 10;

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
}

impl Default for FetchOptions {
    fn default() -> Self {
        Self {
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            max_bytes: DEFAULT_MAX_BYTES,
            resolve: Vec::new(),
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
    #[error("the connection broke after {bytes} bytes of {url}: {detail}")]
    Body {
        url: String,
        bytes: usize,
        detail: String,
    },
    #[error("browser: {detail}")]
    Browser { detail: String },
    #[error("navigation error: {url}: {error}")]
    Navigation { url: String, error: String },
    #[error("cancelled")]
    Cancelled,
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
    pub rendered: Option<crate::render::Rendered>,
}

/// Anything that can fetch a page: the HTTP client, or a fake in tests.
pub trait Fetcher: Send + Sync {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError>;

    /// Whether pages are rendered in a browser (fewer are loaded at once).
    fn renders(&self) -> bool {
        false
    }
}

/// The real fetcher, on a blocking reqwest client with rustls.
pub struct HttpFetcher {
    client: Client,
    opts: FetchOptions,
}

impl HttpFetcher {
    pub fn new(opts: FetchOptions) -> Result<Self, FetchError> {
        let mut builder = Client::builder()
            .user_agent(opts.user_agent.clone())
            .connect_timeout(opts.connect_timeout)
            .timeout(opts.timeout)
            .redirect(reqwest::redirect::Policy::none());
        for r in &opts.resolve {
            builder = builder.resolve(&r.host, r.addr);
        }
        if !opts.resolve.is_empty() {
            // Overridden hosts are local test or staging servers: no proxy.
            builder = builder.no_proxy();
        }
        let client = builder.build().map_err(|e| FetchError::Http {
            detail: error_chain(&e),
        })?;
        Ok(Self { client, opts })
    }
}

fn error_chain(err: &dyn std::error::Error) -> String {
    let mut out = err.to_string();
    let mut source = err.source();
    while let Some(e) = source {
        let text = e.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = e.source();
    }
    out
}

fn classify(err: &reqwest::Error, url: &Url, timeout: Duration) -> FetchError {
    let chain = error_chain(err);
    let lower = chain.to_lowercase();
    if err.is_timeout() || lower.contains("timed out") {
        FetchError::Timeout {
            url: url.to_string(),
            seconds: timeout.as_secs(),
        }
    } else if lower.contains("dns error") || lower.contains("failed to lookup address") {
        FetchError::Dns {
            host: url.host_str().unwrap_or_default().to_owned(),
        }
    } else if lower.contains("certificate") || lower.contains("tls") || lower.contains("handshake")
    {
        FetchError::Tls { detail: chain }
    } else if err.is_connect() {
        FetchError::Connect { detail: chain }
    } else {
        FetchError::Http { detail: chain }
    }
}

/// The `charset` parameter of a Content-Type value.
pub fn charset_param(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches(['"', '\'']).to_owned())
            .filter(|v| !v.is_empty())
    })
}

/// HTML, or no Content-Type at all (then the body is tried as HTML).
fn is_html(content_type: Option<&str>) -> bool {
    let Some(ct) = content_type else { return true };
    let essence = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    matches!(essence.as_str(), "text/html" | "application/xhtml+xml" | "")
}

fn chain_text(redirects: &[Hop], last: &Url) -> String {
    let mut parts: Vec<String> = redirects
        .iter()
        .map(|h| format!("{} ({})", h.url, h.status))
        .collect();
    parts.push(last.to_string());
    parts.join(" → ")
}

impl Fetcher for HttpFetcher {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::Scheme {
                url: url.to_string(),
            });
        }
        let started = Instant::now();
        let mut redirects: Vec<Hop> = Vec::new();
        let mut current = url.clone();
        loop {
            let response = self
                .client
                .get(current.as_str())
                .header(ACCEPT, "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")
                .send()
                .map_err(|e| classify(&e, &current, self.opts.timeout))?;
            let status = response.status();
            if status.is_redirection()
                && let Some(location) = response.headers().get(LOCATION)
            {
                let location = location.to_str().map_err(|e| FetchError::BadRedirect {
                    url: current.to_string(),
                    detail: e.to_string(),
                })?;
                let next = current
                    .join(location)
                    .map_err(|e| FetchError::BadRedirect {
                        url: current.to_string(),
                        detail: format!("Location `{location}`: {e}"),
                    })?;
                redirects.push(Hop {
                    status: status.as_u16(),
                    url: current.clone(),
                });
                if redirects.iter().any(|h| h.url == next) {
                    return Err(FetchError::RedirectLoop {
                        chain: chain_text(&redirects, &next),
                    });
                }
                if redirects.len() > MAX_REDIRECTS {
                    return Err(FetchError::TooManyRedirects {
                        max: MAX_REDIRECTS,
                        chain: chain_text(&redirects, &next),
                    });
                }
                current = next;
                continue;
            }
            let content_type = response
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            if !is_html(content_type.as_deref()) {
                return Err(FetchError::NotHtml {
                    url: current.to_string(),
                    content_type: content_type.unwrap_or_default(),
                });
            }
            let (body, truncated) = read_capped(response, &self.opts, started, &current)?;
            return Ok(FetchedPage {
                status: status.as_u16(),
                charset: content_type.as_deref().and_then(charset_param),
                summary: FetchSummary {
                    redirects,
                    content_type,
                    bytes: body.len(),
                    truncated,
                    elapsed_ms: started.elapsed().as_millis() as u64,
                },
                final_url: current,
                body,
                rendered: None,
            });
        }
    }
}

/// Reads at most `max_bytes` of the (decompressed) body, in chunks, so a hostile
/// body never makes us allocate more; also enforces the whole-response timeout.
fn read_capped(
    mut response: reqwest::blocking::Response,
    opts: &FetchOptions,
    started: Instant,
    url: &Url,
) -> Result<(Vec<u8>, bool), FetchError> {
    let mut body = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        if started.elapsed() > opts.timeout {
            return Err(FetchError::Timeout {
                url: url.to_string(),
                seconds: opts.timeout.as_secs(),
            });
        }
        let room = opts.max_bytes.saturating_sub(body.len());
        if room == 0 {
            // One more byte tells a body of exactly the cap from a longer one.
            let mut probe = [0u8; 1];
            let more = response.read(&mut probe).unwrap_or(0) > 0;
            return Ok((body, more));
        }
        let want = room.min(chunk.len());
        let n = match response.read(&mut chunk[..want]) {
            Ok(n) => n,
            Err(e) => {
                let text = error_chain(&e);
                return Err(if text.to_lowercase().contains("timed out") {
                    FetchError::Timeout {
                        url: url.to_string(),
                        seconds: opts.timeout.as_secs(),
                    }
                } else {
                    FetchError::Body {
                        url: url.to_string(),
                        bytes: body.len(),
                        detail: text,
                    }
                });
            }
        };
        if n == 0 {
            return Ok((body, false));
        }
        body.extend_from_slice(&chunk[..n]);
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
    fn charset_parameter() {
        assert_eq!(
            charset_param("text/html; charset=GBK").as_deref(),
            Some("GBK")
        );
        assert_eq!(
            charset_param("text/html;Charset=\"utf-8\"").as_deref(),
            Some("utf-8")
        );
        assert_eq!(charset_param("text/html"), None);
    }

    #[test]
    fn html_content_types() {
        assert!(is_html(None));
        assert!(is_html(Some("text/html; charset=utf-8")));
        assert!(is_html(Some("application/xhtml+xml")));
        assert!(!is_html(Some("application/pdf")));
        assert!(!is_html(Some("application/json")));
        assert!(!is_html(Some("image/png")));
    }
}
