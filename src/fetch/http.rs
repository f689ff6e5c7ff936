//! Fetching one page the way a careful client does: redirects followed by hand
//! (so the whole chain is recorded), timeouts, a streaming size cap, and only
//! HTML accepted.

use std::error::Error as StdError;
use std::io::Read;
use std::net::ToSocketAddrs as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::blocking::Client;
use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION};
use url::Url;

use super::{
    FetchError, FetchOptions, FetchSummary, FetchedPage, Fetcher, Hop, MAX_REDIRECTS,
    PrivateNetwork, chain_text,
};

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
            .redirect(reqwest::redirect::Policy::none())
            .dns_resolver(Arc::new(SystemResolver));
        for r in &opts.resolve {
            builder = builder.resolve(&r.host, r.addr);
        }
        if !opts.resolve.is_empty() {
            // Overridden hosts are local test or staging servers: no proxy.
            builder = builder.no_proxy();
        }
        let client = builder.build().map_err(|e| FetchError::Http {
            detail: error_chain(&e.without_url()),
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

/// A host name the system resolver could not resolve. The resolver is ours so
/// that a failed lookup is told from other connection errors by its type.
#[derive(Debug, thiserror::Error)]
#[error("cannot resolve {host}: {source}")]
struct LookupFailed {
    host: String,
    source: std::io::Error,
}

/// The system's resolver (getaddrinfo, on a blocking thread as reqwest's own
/// does), failing with [`LookupFailed`].
struct SystemResolver;

impl reqwest::dns::Resolve for SystemResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let lookup = host.clone();
            let found =
                tokio::task::spawn_blocking(move || (lookup.as_str(), 0).to_socket_addrs()).await;
            match found {
                Ok(Ok(addrs)) => Ok(Box::new(addrs) as reqwest::dns::Addrs),
                Ok(Err(source)) => Err(Box::new(LookupFailed { host, source }) as _),
                Err(join) => Err(Box::new(join) as _),
            }
        })
    }
}

/// Every error in `err`'s chain, the errors an `io::Error` wraps included
/// (its `source()` skips the one it wraps, and rustls's hide two deep).
fn causes<'a>(err: &'a (dyn StdError + 'static)) -> Vec<&'a (dyn StdError + 'static)> {
    let mut out = Vec::new();
    let mut next = Some(err);
    while let Some(e) = next {
        out.push(e);
        next = match e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(wrapped) => Some(wrapped as &(dyn StdError + 'static)),
            None => e.source(),
        };
    }
    out
}

/// Sorts a reqwest error by the types in its chain, never by its text (whose
/// URL may contain any word).
fn classify(err: reqwest::Error, url: &Url, timeout: Duration) -> FetchError {
    let err = err.without_url();
    let chain = causes(&err);
    if err.is_timeout() {
        FetchError::Timeout {
            url: url.to_string(),
            seconds: timeout.as_secs(),
        }
    } else if chain.iter().any(|e| e.is::<LookupFailed>()) {
        FetchError::Dns {
            host: url.host_str().unwrap_or_default().to_owned(),
        }
    } else if chain.iter().any(|e| e.is::<rustls::Error>()) || handshake_cut(&err, &chain, url) {
        FetchError::Tls {
            detail: error_chain(&err),
        }
    } else if err.is_connect() {
        FetchError::Connect {
            detail: error_chain(&err),
        }
    } else {
        FetchError::Http {
            detail: error_chain(&err),
        }
    }
}

/// The server closed the connection during the TLS handshake: the only read
/// while connecting, so an end of stream then is the handshake's (a server
/// that does not speak TLS on that port, or refuses the client's hello).
fn handshake_cut(err: &reqwest::Error, chain: &[&(dyn StdError + 'static)], url: &Url) -> bool {
    err.is_connect()
        && url.scheme() == "https"
        && chain.iter().any(|e| {
            e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::UnexpectedEof)
        })
}

/// Whether a body read failed by the timeout.
fn timed_out(err: &std::io::Error) -> bool {
    causes(err).iter().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut)
            || e.downcast_ref::<reqwest::Error>()
                .is_some_and(reqwest::Error::is_timeout)
    })
}

/// Whether a body read failed in the decompressor, by the types in the
/// chain: reqwest's decode error, or flate2's (gzip and deflate bodies).
fn undecodable(err: &std::io::Error) -> bool {
    causes(err).iter().any(|e| {
        e.is::<flate2::DecompressError>()
            || e.downcast_ref::<reqwest::Error>()
                .is_some_and(reqwest::Error::is_decode)
    })
}

/// A Location for a message: a `data:` one can be megabytes long.
fn shorten(location: &str) -> String {
    const MAX: usize = 80;
    match location.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &location[..at]),
        None => location.to_owned(),
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
pub fn is_html(content_type: Option<&str>) -> bool {
    let Some(ct) = content_type else { return true };
    let essence = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    matches!(essence.as_str(), "text/html" | "application/xhtml+xml" | "")
}

impl Fetcher for HttpFetcher {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        self.fetch_within(url, self.opts.timeout)
    }
}

impl HttpFetcher {
    /// [`Fetcher::fetch`] with the whole fetch bounded by `timeout` (and by
    /// the client's own): rendered mode's fallback fetch gets what is left
    /// of the page's deadline.
    pub fn fetch_within(&self, url: &Url, timeout: Duration) -> Result<FetchedPage, FetchError> {
        let timeout = timeout.min(self.opts.timeout);
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::Scheme {
                url: url.to_string(),
            });
        }
        let started = Instant::now();
        let private =
            PrivateNetwork::for_start(url, &self.opts.resolve, self.opts.allow_private_network);
        let mut redirects: Vec<Hop> = Vec::new();
        let mut current = url.clone();
        loop {
            // A shorter budget than the client's covers the whole chain;
            // else each response gets the client's own, as always.
            let left = if timeout < self.opts.timeout {
                timeout.saturating_sub(started.elapsed())
            } else {
                self.opts.timeout
            };
            let response = self
                .client
                .get(current.as_str())
                .header(ACCEPT, "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")
                .timeout(left)
                .send()
                .map_err(|e| classify(e, &current, timeout))?;
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
                // reqwest would refuse it as a "builder error", naming no redirect.
                if !matches!(next.scheme(), "http" | "https") {
                    return Err(FetchError::BadRedirect {
                        url: current.to_string(),
                        detail: format!(
                            "Location `{}` is a {}: address, not an http(s) page",
                            shorten(location),
                            next.scheme()
                        ),
                    });
                }
                if !private.allows(&next) {
                    return Err(FetchError::PrivateRedirect {
                        url: current.to_string(),
                        to: next.to_string(),
                    });
                }
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
            let (body, truncated) =
                read_capped(response, self.opts.max_bytes, timeout, started, &current)?;
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
                capture: None,
                rendered: None,
            });
        }
    }
}

/// Reads at most `max_bytes` of the (decompressed) body, in chunks, so a hostile
/// body never makes us allocate more; also enforces the whole-response timeout.
fn read_capped(
    mut response: reqwest::blocking::Response,
    max_bytes: usize,
    timeout: Duration,
    started: Instant,
    url: &Url,
) -> Result<(Vec<u8>, bool), FetchError> {
    let mut body = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        if started.elapsed() > timeout {
            return Err(FetchError::Timeout {
                url: url.to_string(),
                seconds: timeout.as_secs(),
            });
        }
        let room = max_bytes.saturating_sub(body.len());
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
                return Err(if timed_out(&e) {
                    FetchError::Timeout {
                        url: url.to_string(),
                        seconds: timeout.as_secs(),
                    }
                } else if undecodable(&e) {
                    FetchError::BadEncoding {
                        url: url.to_string(),
                        bytes: body.len(),
                        detail: error_chain(&e),
                    }
                } else {
                    FetchError::Body {
                        url: url.to_string(),
                        bytes: body.len(),
                        detail: error_chain(&e),
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
