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
    let _ = (block, max_body);
    Err(BadHttp {
        detail: "not yet".into(),
    })
}
