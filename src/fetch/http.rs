//! Fetching one page the way a careful client does: redirects followed by hand
//! (so the whole chain is recorded), timeouts, a streaming size cap, and only
//! HTML accepted.

use std::error::Error as StdError;
use std::io::{BufRead as _, Read};
use std::net::ToSocketAddrs as _;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use reqwest::blocking::Client;
use reqwest::header::{
    ACCEPT, ACCEPT_ENCODING, CONTENT_ENCODING, CONTENT_TYPE, HeaderMap, HeaderName, LOCATION,
};
use url::Url;

use super::{
    Capture, Exchange, FetchError, FetchOptions, FetchSummary, FetchedPage, Fetcher, Hop,
    MAX_REDIRECTS, PrivateNetwork, chain_text,
};

/// The real fetcher, on blocking reqwest clients with rustls.
pub struct HttpFetcher {
    /// For a URL whose port no `--resolve` names.
    client: Client,
    /// For each port `--resolve` names, a client with that port's mappings
    /// only: reqwest maps a host on every port (it ignores the mapping's
    /// port), and `acme.test:18180:127.0.0.1` must not send
    /// `acme.test:18181` to 127.0.0.1.
    by_port: Vec<(u16, Client)>,
    opts: FetchOptions,
}

impl HttpFetcher {
    pub fn new(opts: FetchOptions) -> Result<Self, FetchError> {
        let client = Self::client(&opts, None)?;
        let mut by_port: Vec<(u16, Client)> = Vec::new();
        for r in &opts.resolve {
            let port = r.addr.port();
            if !by_port.iter().any(|(p, _)| *p == port) {
                by_port.push((port, Self::client(&opts, Some(port))?));
            }
        }
        Ok(Self {
            client,
            by_port,
            opts,
        })
    }

    /// A client with the `--resolve` mappings of `port`, or none.
    fn client(opts: &FetchOptions, port: Option<u16>) -> Result<Client, FetchError> {
        let mut builder = Client::builder()
            .user_agent(opts.user_agent.clone())
            .connect_timeout(opts.connect_timeout)
            .timeout(opts.timeout)
            .redirect(reqwest::redirect::Policy::none())
            // Decoded here (see `decoded`), so the wire headers survive.
            .no_gzip()
            .no_brotli()
            .no_deflate()
            .dns_resolver(Arc::new(SystemResolver));
        for r in opts.resolve.iter().filter(|r| Some(r.addr.port()) == port) {
            builder = builder.resolve(&r.host, r.addr);
        }
        if !opts.resolve.is_empty() {
            // Overridden hosts are local test or staging servers: no proxy.
            builder = builder.no_proxy();
        }
        builder.build().map_err(|e| FetchError::Http {
            detail: error_chain(&e.without_url()),
        })
    }

    /// The client for a request to `url`: its port's mappings only.
    fn client_for(&self, url: &Url) -> &Client {
        let port = url.port_or_known_default();
        self.by_port
            .iter()
            .find(|(p, _)| Some(*p) == port)
            .map_or(&self.client, |(_, client)| client)
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

/// Whether a body read failed in the decompressor rather than on the wire:
/// every error the connection gives is wrapped in [`WireError`].
fn undecodable(err: &std::io::Error) -> bool {
    !causes(err).iter().any(|e| e.is::<WireError>())
}

/// An error of the connection itself, told from the decoder's by its type.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct WireError(#[source] std::io::Error);

/// The response body as it comes off the wire, its errors marked as such.
struct Wire(reqwest::blocking::Response);

impl Read for Wire {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0
            .read(buf)
            .map_err(|e| std::io::Error::new(e.kind(), WireError(e)))
    }
}

/// What the client asks for and decodes itself.
const ACCEPTED_ENCODINGS: &str = "gzip, deflate, br";

/// The body decoded as its `Content-Encoding` says, the last coding applied
/// undone first; a coding we do not know is left as it came.
fn decoded(wire: Wire, content_encoding: Option<&str>) -> Box<dyn Read> {
    let mut wire = std::io::BufReader::new(wire);
    // An empty body is empty whatever it says it is encoded with (as
    // reqwest's decoder had it); a failed read is met again below.
    if wire.fill_buf().is_ok_and(<[u8]>::is_empty) {
        return Box::new(wire);
    }
    let mut body: Box<dyn Read> = Box::new(wire);
    let codings: Vec<String> = content_encoding
        .unwrap_or_default()
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .filter(|c| !c.is_empty() && c != "identity")
        .collect();
    for coding in codings.iter().rev() {
        body = match coding.as_str() {
            "gzip" | "x-gzip" => Box::new(flate2::read::MultiGzDecoder::new(body)),
            "deflate" => Box::new(flate2::read::ZlibDecoder::new(body)),
            "br" => Box::new(brotli_decompressor::Decompressor::new(body, 64 * 1024)),
            _ => return body,
        };
    }
    body
}

/// A redirect's body is kept up to this much, for the archive.
const REDIRECT_BODY_MAX: usize = 64 * 1024;

/// A Location for a message: a `data:` one can be megabytes long.
/// A redirect is followed to an http(s) page only: a `Location` of
/// `javascript:`, `file:` or `data:` is refused, by a live fetch and by an
/// archive answering for one alike.
pub fn refuse_non_http_redirect(
    current: &Url,
    location: &str,
    next: &Url,
) -> Result<(), FetchError> {
    if matches!(next.scheme(), "http" | "https") {
        return Ok(());
    }
    Err(FetchError::BadRedirect {
        url: current.to_string(),
        detail: format!(
            "Location `{}` is a {}: address, not an http(s) page",
            shorten(location),
            next.scheme()
        ),
    })
}

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

/// What the client sends as `Accept`.
const ACCEPT_HTML: &str = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8";

fn header_text(headers: &HeaderMap, name: HeaderName) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
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
        let mut capture = Capture::default();
        let mut current = url.clone();
        loop {
            // A shorter budget than the client's covers the whole chain;
            // else each response gets the client's own, as always.
            let left = if timeout < self.opts.timeout {
                timeout.saturating_sub(started.elapsed())
            } else {
                self.opts.timeout
            };
            let at = SystemTime::now();
            let response = self
                .client_for(&current)
                .get(current.as_str())
                .header(ACCEPT, ACCEPT_HTML)
                .header(ACCEPT_ENCODING, ACCEPTED_ENCODINGS)
                .timeout(left)
                .send()
                .map_err(|e| classify(e, &current, timeout))?;
            let status = response.status();
            let mut exchange = self.exchange(&current, &response, at);
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
                refuse_non_http_redirect(&current, location, &next)?;
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
                // A redirect's body is kept when it says it is short; a long
                // or unannounced one is not waited for.
                let short = response
                    .content_length()
                    .is_some_and(|n| n <= REDIRECT_BODY_MAX as u64);
                let encoding = header_text(response.headers(), CONTENT_ENCODING);
                let read = short
                    .then(|| {
                        let body = decoded(Wire(response), encoding.as_deref());
                        read_capped(body, REDIRECT_BODY_MAX, timeout, started, &current).ok()
                    })
                    .flatten();
                match read {
                    Some((body, truncated)) => {
                        (exchange.body, exchange.truncated) = (body, truncated)
                    }
                    None => exchange.body_unread = true,
                }
                capture.exchanges.push(exchange);
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
            let encoding = header_text(response.headers(), CONTENT_ENCODING);
            let decoded_body = decoded(Wire(response), encoding.as_deref());
            let (body, truncated) = read_capped(
                decoded_body,
                self.opts.max_bytes,
                timeout,
                started,
                &current,
            )?;
            exchange.body.clone_from(&body);
            exchange.truncated = truncated;
            capture.exchanges.push(exchange);
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
                capture: Some(Arc::new(capture)),
                rendered: None,
            });
        }
    }
}

impl HttpFetcher {
    /// The request as sent and the response's head as received; the body
    /// is added once read.
    fn exchange(
        &self,
        url: &Url,
        response: &reqwest::blocking::Response,
        at: SystemTime,
    ) -> Exchange {
        let host = match (url.host_str(), url.port()) {
            (Some(host), Some(port)) => format!("{host}:{port}"),
            (Some(host), None) => host.to_owned(),
            (None, _) => String::new(),
        };
        let request_headers = [
            ("Host", host.as_str()),
            ("User-Agent", self.opts.user_agent.as_str()),
            ("Accept", ACCEPT_HTML),
            ("Accept-Encoding", ACCEPTED_ENCODINGS),
        ]
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .to_vec();
        let status = response.status();
        Exchange {
            url: url.clone(),
            method: "GET".to_owned(),
            request_headers,
            version: format!("{:?}", response.version()),
            status: status.as_u16(),
            reason: status.canonical_reason().unwrap_or_default().to_owned(),
            response_headers: response
                .headers()
                .iter()
                .map(|(name, value)| {
                    (
                        title_case(name.as_str()),
                        String::from_utf8_lossy(value.as_bytes()).into_owned(),
                    )
                })
                .collect(),
            body: Vec::new(),
            truncated: false,
            body_unread: false,
            ip: response.remote_addr().map(|addr| addr.ip()),
            at,
        }
    }
}

/// A header name as servers write it (`content-type` → `Content-Type`): the
/// HTTP client hands names over lowercased.
fn title_case(name: &str) -> String {
    name.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// Reads at most `max_bytes` of the (decompressed) body, in chunks, so a hostile
/// body never makes us allocate more; also enforces the whole-response timeout.
fn read_capped(
    mut response: impl Read,
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
    fn header_names_are_title_cased() {
        assert_eq!(title_case("content-encoding"), "Content-Encoding");
        assert_eq!(title_case("x-powered-by"), "X-Powered-By");
        assert_eq!(title_case("etag"), "Etag");
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
