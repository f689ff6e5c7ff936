//! What went over the wire for one page, kept so that the page can be saved
//! in a web archive (SPEC 10) exactly as it was seen: every HTTP hop's
//! request and response, and in rendered mode the DOM the verdicts came from.

use std::net::IpAddr;
use std::time::SystemTime;

use url::Url;

use super::Rendered;

/// One HTTP request and its response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exchange {
    pub url: Url,
    pub method: String,
    /// The request's header fields as sent, in order.
    pub request_headers: Vec<(String, String)>,
    /// `HTTP/1.1`, `HTTP/2.0`, …
    pub version: String,
    pub status: u16,
    pub reason: String,
    /// The response's header fields as received, in order (the wire form's
    /// `Content-Encoding` and `Transfer-Encoding` included).
    pub response_headers: Vec<(String, String)>,
    /// The body as decoded (after gzip, brotli or deflate).
    pub body: Vec<u8>,
    /// The body was cut at the size cap.
    pub truncated: bool,
    /// The body was not had at all (a redirect's long body, a document the
    /// browser no longer held): the archive says so rather than store it as empty.
    pub body_unread: bool,
    pub ip: Option<IpAddr>,
    /// When the response began.
    pub at: SystemTime,
}

/// Everything one page fetch saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capture {
    /// In order: each redirect, then the page's own response (none when the
    /// page failed before a response).
    pub exchanges: Vec<Exchange>,
    /// In rendered mode, the text the verdicts came from: the `outerHTML`
    /// read from the DOM (or the served HTML when no DOM could be read).
    pub dom: Option<String>,
    /// In rendered mode, how the page was rendered.
    pub rendered: Option<Rendered>,
    /// In rendered mode, the other responses the browser received for the
    /// page (scripts, stylesheets, frames, XHR and fetch calls), in the
    /// order they finished, so that the capture replays (SPEC 12).
    pub resources: Vec<Exchange>,
    /// What of the page's other responses was not kept.
    pub left_out: LeftOut,
}

/// The responses of a rendered page that its capture does not keep, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct LeftOut {
    /// Images, media and fonts (links never come from them), unless asked for.
    pub media: usize,
    /// Past the page's cap on bytes kept.
    pub over_cap: usize,
    /// Bodies the browser no longer held, or did not give in time.
    pub unread: usize,
}

impl LeftOut {
    pub fn total(&self) -> usize {
        self.media + self.over_cap + self.unread
    }
}

impl Capture {
    /// The response the page's body came from.
    pub fn main(&self) -> Option<&Exchange> {
        self.exchanges.last()
    }
}
