//! The HTTP message in a `response` record's block: status line, header
//! fields and body, with the wire form undone (`Transfer-Encoding: chunked`,
//! `Content-Encoding` gzip, deflate, br) as other tools store it.

/// A parsed HTTP response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// Decoded: chunks joined, content encoding undone.
    pub body: Vec<u8>,
    /// The body was longer than the cap and was cut.
    pub truncated: bool,
}

impl HttpResponse {
    /// A header field's value; names compare without case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why a response block is not an HTTP response we can read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the HTTP response in the record does not parse: {detail}")]
pub struct BadHttp {
    pub detail: String,
}

/// Parses a response block, keeping at most `max_body` bytes of the body.
pub fn parse_response(block: &[u8], max_body: usize) -> Result<HttpResponse, BadHttp> {
    let bad = |detail: &str| BadHttp {
        detail: detail.to_owned(),
    };
    let end = block
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of the header"))?;
    let head = String::from_utf8_lossy(&block[..end]);
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/") {
        return Err(bad("no HTTP status line"));
    }
    let status = parts
        .next()
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| bad("no status code"))?;
    let headers = lines
        .filter_map(|line| {
            let (name, value) = line.split_once(':')?;
            Some((name.trim().to_owned(), value.trim().to_owned()))
        })
        .collect();
    let body = &block[end + 4..];
    let truncated = body.len() > max_body;
    Ok(HttpResponse {
        status,
        headers,
        body: body[..body.len().min(max_body)].to_vec(),
        truncated,
    })
}
