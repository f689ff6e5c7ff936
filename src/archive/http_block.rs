//! The HTTP message in a `response` record's block: status line, header
//! fields and body, with the wire form undone (`Transfer-Encoding: chunked`,
//! `Content-Encoding` gzip, deflate, br) as other tools store it.
//!
//! Header fields are parsed by warcat's grammar; the body is decoded here,
//! not by its codec pipeline: that one undoes several content codings in the
//! order they were applied instead of the reverse, and has no cap on what it
//! inflates.

use std::borrow::Cow;
use std::io::Read;

use super::fields::{first_line, header_fields};

/// Content and transfer codings undone at most, together.
const MAX_CODINGS: usize = 4;

/// A parsed HTTP response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// Decoded: chunks joined, content encoding undone.
    pub body: Vec<u8>,
    /// The body was longer than the cap and was cut.
    pub truncated: bool,
    /// A coding its header names that the body does not have: the body is
    /// kept as stored (SPEC 12), and a warning says so.
    pub stored_as_is: Option<StoredAsIs>,
}

/// A body read as it was stored because its header names a coding the
/// stored bytes do not have, as warcio reads it: pywb and Chrome-based
/// recorders keep `Transfer-Encoding: chunked` over a body they stored
/// de-chunked, wabac.js keeps `Content-Encoding: gzip` over a body stored
/// decoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoredAsIs {
    #[error(
        "its header says Transfer-Encoding: chunked, but the body is not chunked: read as stored"
    )]
    NotChunked,
    #[error(
        "its header says Content-Encoding: {0}, but the body does not decode as that: read as stored"
    )]
    NotEncoded(String),
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

fn bad(detail: impl Into<String>) -> BadHttp {
    BadHttp {
        detail: detail.into(),
    }
}

/// A response block's status and header fields, its body not decoded: what
/// an archive's index keeps of every response.
pub fn parse_head(block: &[u8]) -> Result<(u16, Vec<(String, String)>), BadHttp> {
    let head = split_head(block)?;
    Ok((head.status, head.headers))
}

/// Whether a response's body is stored with a content or transfer coding
/// (the inspector writes bodies decoded, so one of its own never is).
pub fn is_coded(headers: &[(String, String)]) -> bool {
    !codings(headers, "Transfer-Encoding").is_empty()
        || !codings(headers, "Content-Encoding").is_empty()
}

/// The codings a header field lists, in order, `identity` left out.
fn codings(headers: &[(String, String)], name: &str) -> Vec<String> {
    headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .flat_map(|(_, v)| v.split(','))
        .map(|c| c.trim().to_ascii_lowercase())
        .filter(|c| !c.is_empty() && c != "identity")
        .collect()
}

/// A response's status line and header fields, and where its body starts.
struct Head {
    status: u16,
    headers: Vec<(String, String)>,
    body_at: usize,
}

fn split_head(block: &[u8]) -> Result<Head, BadHttp> {
    let head_end = head_end(block).ok_or_else(|| {
        let line = block.split(|b| *b == b'\n').next().unwrap_or_default();
        let shown: String = String::from_utf8_lossy(line).chars().take(40).collect();
        if block.is_empty() {
            bad("the record's block is empty")
        } else {
            bad(format!(
                "no blank line ends its header (it starts with {shown:?})"
            ))
        }
    })?;
    let (line, rest) = first_line(&block[..head_end]);
    Ok(Head {
        status: status_code(line)?,
        headers: header_fields(rest),
        body_at: head_end,
    })
}

/// Parses a response block, keeping at most `max_body` bytes of the body.
pub fn parse_response(block: &[u8], max_body: usize) -> Result<HttpResponse, BadHttp> {
    let Head {
        status,
        headers,
        body_at: head_end,
    } = split_head(block)?;
    let mut transfer = codings(&headers, "Transfer-Encoding");
    let raw = &block[head_end..];
    let mut stored_as_is = None;
    let (wire, mut truncated) = if transfer.last().map(String::as_str) == Some("chunked") {
        transfer.pop();
        let (joined, cut, chunked) = dechunk(raw);
        if !chunked {
            stored_as_is = Some(StoredAsIs::NotChunked);
        }
        (Cow::Owned(joined), cut)
    } else {
        (Cow::Borrowed(raw), false)
    };
    // Codings are listed in the order they were applied: undone last first.
    let mut applied = transfer;
    applied.extend(codings(&headers, "Content-Encoding"));
    // Each is a decoder inside the last: a long list is an attack, not a page.
    if applied.len() > MAX_CODINGS {
        return Err(bad(format!(
            "{} content codings are stacked (at most {MAX_CODINGS} are undone)",
            applied.len()
        )));
    }
    let mut body: Box<dyn Read + '_> = Box::new(&wire[..]);
    for coding in applied.iter().rev() {
        body = decoder(coding, body)?;
    }
    let mut decoded = Vec::new();
    let cap = u64::try_from(max_body)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    match body.take(cap).read_to_end(&mut decoded) {
        Ok(_) => {}
        // A body cut by the capture (`WARC-Truncated`) ends inside its
        // compressed stream: what decoded is the page, cut.
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !decoded.is_empty() => {
            truncated = true;
        }
        // Not one byte decodes: the body was stored decoded under its
        // header's coding (warcio reads it as stored).
        Err(_) if decoded.is_empty() => {
            decoded = wire[..wire.len().min(max_body.saturating_add(1))].to_vec();
            stored_as_is = Some(StoredAsIs::NotEncoded(applied.join(", ")));
        }
        Err(e) => {
            return Err(bad(format!(
                "its body does not decode as {} ({e})",
                applied.join(", ")
            )));
        }
    }
    if decoded.len() > max_body {
        decoded.truncate(max_body);
        truncated = true;
    }
    Ok(HttpResponse {
        status,
        headers,
        body: decoded,
        truncated,
        stored_as_is,
    })
}

/// The code of a status line `HTTP/1.x NNN [reason]`.
fn status_code(line: &[u8]) -> Result<u16, BadHttp> {
    let text = String::from_utf8_lossy(line);
    let mut words = text.split(' ');
    let version = words.next().unwrap_or_default();
    if !version.to_ascii_uppercase().starts_with("HTTP/") {
        return Err(
            if text.trim_end().to_ascii_uppercase().ends_with(" HTTP/1.1")
                || text.trim_end().to_ascii_uppercase().ends_with(" HTTP/1.0")
            {
                bad("it is a request, not a response")
            } else {
                let shown: String = text.chars().take(40).collect();
                bad(format!("the status line is malformed: {shown:?}"))
            },
        );
    }
    let code = words.next().unwrap_or_default();
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_digit()) {
        let shown: String = text.chars().take(40).collect();
        return Err(bad(format!("the status line is malformed: {shown:?}")));
    }
    code.parse()
        .map_err(|_| bad("the status code does not parse"))
}

/// The reader that undoes one content coding.
fn decoder<'a>(coding: &str, input: Box<dyn Read + 'a>) -> Result<Box<dyn Read + 'a>, BadHttp> {
    Ok(match coding {
        "gzip" | "x-gzip" => Box::new(flate2::read::MultiGzDecoder::new(input)),
        // "deflate" is meant as zlib, but servers also send raw deflate.
        "deflate" => {
            let mut input = std::io::BufReader::new(input);
            let start = std::io::BufRead::fill_buf(&mut input).unwrap_or_default();
            if is_zlib_header(start) {
                Box::new(flate2::bufread::ZlibDecoder::new(input))
            } else {
                Box::new(flate2::bufread::DeflateDecoder::new(input))
            }
        }
        "br" => Box::new(brotli_decompressor::Decompressor::new(input, 16 * 1024)),
        other => {
            return Err(bad(format!(
                "its encoding {other:?} is not one we can undo"
            )));
        }
    })
}

/// A zlib stream starts with a method byte of 8 and a check sum of 31.
fn is_zlib_header(start: &[u8]) -> bool {
    match start {
        [cmf, flg, ..] => cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

/// Where the header's blank line ends.
fn head_end(block: &[u8]) -> Option<usize> {
    let crlf = memchr::memmem::find(block, b"\r\n\r\n").map(|at| at + 4);
    let lf = memchr::memmem::find(block, b"\n\n").map(|at| at + 2);
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Joins a chunked body's chunks; a body that ends before its last (empty)
/// chunk, inside a chunk or between two, is a cut capture: it gives what it
/// holds, marked cut (the second value). Where a chunk size line is not
/// hexadecimal the rest is taken as stored, not chunked, as warcio's
/// `ChunkedDataReader` takes it (the third value is then false). Never
/// longer than `raw`.
fn dechunk(mut raw: &[u8]) -> (Vec<u8>, bool, bool) {
    let mut joined = Vec::with_capacity(raw.len());
    loop {
        let Some(line_end) = memchr::memchr(b'\n', raw) else {
            if joined.is_empty() && !raw.is_empty() {
                return (raw.to_vec(), false, false);
            }
            return (joined, true, true);
        };
        let line = std::str::from_utf8(&raw[..line_end]).unwrap_or_default();
        let size_text = line.split(';').next().unwrap_or_default().trim();
        let Ok(size) = usize::from_str_radix(size_text, 16) else {
            joined.extend_from_slice(raw);
            return (joined, false, false);
        };
        raw = &raw[line_end + 1..];
        if size == 0 {
            return (joined, false, true);
        }
        if size > raw.len() {
            joined.extend_from_slice(raw);
            return (joined, true, true);
        }
        joined.extend_from_slice(&raw[..size]);
        raw = &raw[size..];
        raw = raw
            .strip_prefix(b"\r\n")
            .or_else(|| raw.strip_prefix(b"\n"))
            .unwrap_or(raw);
    }
}

#[cfg(test)]
#[path = "http_block_tests.rs"]
mod tests;
