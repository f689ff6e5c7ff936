//! The HTTP message in a `response` record's block: status line, header
//! fields and body, with the wire form undone (`Transfer-Encoding: chunked`,
//! `Content-Encoding` gzip, deflate, br) as other tools store it.
//!
//! Header fields are read line by line (`fields.rs`); the body is decoded
//! here, not by warcat's codec pipeline: that one undoes several content codings in the
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
    pub body: Body,
    /// The body was longer than the cap and was cut.
    pub truncated: bool,
    /// Everything odd about the block that was read past (SPEC 12), in the
    /// order met: one warning per record names them all.
    pub quirks: Vec<ReadQuirk>,
}

/// A response's decoded body. An uncoded body (most pages) is left where it
/// lay in its record's block, past the HTTP header, rather than moved to the
/// block's front: that move copied every page once more, 1.7% of a corpus
/// run's instructions on real homepages.
#[derive(Clone, Default)]
pub struct Body {
    buf: Vec<u8>,
    start: usize,
}

impl Body {
    /// The body as a vector of its own (moved to the front if it is not).
    pub fn into_vec(mut self) -> Vec<u8> {
        self.buf.drain(..self.start);
        self.buf
    }

    fn truncate(&mut self, len: usize) {
        self.buf.truncate(self.start.saturating_add(len));
    }
}

impl From<Vec<u8>> for Body {
    fn from(buf: Vec<u8>) -> Self {
        Self { buf, start: 0 }
    }
}

impl std::ops::Deref for Body {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or_default()
    }
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Body").field(&&**self).finish()
    }
}

impl PartialEq for Body {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Body {}

impl PartialEq<[u8]> for Body {
    fn eq(&self, other: &[u8]) -> bool {
        **self == *other
    }
}

impl PartialEq<&[u8]> for Body {
    fn eq(&self, other: &&[u8]) -> bool {
        **self == **other
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for Body {
    fn eq(&self, other: &&[u8; N]) -> bool {
        **self == other[..]
    }
}

impl PartialEq<Vec<u8>> for Body {
    fn eq(&self, other: &Vec<u8>) -> bool {
        **self == other[..]
    }
}

/// Something odd about a response block that is read anyway, as warcio
/// reads it: pywb and Chrome-based recorders keep `Transfer-Encoding:
/// chunked` over a body they stored de-chunked, wabac.js keeps
/// `Content-Encoding: gzip` over a body stored decoded, headless Chrome
/// writes a header name with a space.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadQuirk {
    #[error(
        "its header says Transfer-Encoding: chunked, but the body is not chunked: read as stored"
    )]
    NotChunked,
    #[error(
        "its header says Content-Encoding: {coding}, but the body does not decode as that: read as stored"
    )]
    NotEncoded { coding: String },
    /// A coding no decoder here undoes (`compress`, `zstd`): warcio too
    /// gives such a body as stored.
    #[error(
        "its header says Content-Encoding: {coding}, which the inspector cannot undo: read as stored"
    )]
    UnknownCoding { coding: String },
    /// HTTP header lines that are not fields; the first is shown (cut to
    /// [`SHOWN_LINE`] characters).
    #[error("{}", skipped_lines(*count, line))]
    HeaderLinesSkipped { count: usize, line: String },
    #[error("the record ended before its body: {0}")]
    EarlyEnd(EarlyEnd),
}

/// How a body ended before its header or its coding said it would.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EarlyEnd {
    #[error("its last chunk is missing")]
    BeforeLastChunk,
    #[error("a chunk of {claimed} bytes holds {got}")]
    InsideChunk { claimed: u64, got: u64 },
    #[error("its {coding} stream stops after {got} bytes decoded")]
    InsideCoding { coding: String, got: u64 },
    #[error("its Content-Length says {claimed} bytes, the record holds {got}")]
    ShortOfLength { claimed: u64, got: u64 },
}

/// Characters of a skipped header line shown in its warning.
pub const SHOWN_LINE: usize = 80;

fn skipped_lines(count: usize, line: &str) -> String {
    if count == 1 {
        format!("its HTTP header line {line:?} is not a field: skipped, the rest kept")
    } else {
        format!(
            "{count} lines of its HTTP header are not fields (the first: {line:?}): skipped, the rest kept"
        )
    }
}

impl ReadQuirk {
    /// The stable id of its kind, in the corpus report's `archives.warnings`.
    pub fn id(&self) -> &'static str {
        match self {
            ReadQuirk::NotChunked => "not_chunked",
            ReadQuirk::NotEncoded { .. } => "not_encoded",
            ReadQuirk::UnknownCoding { .. } => "unknown_coding",
            ReadQuirk::HeaderLinesSkipped { .. } => "header_line_skipped",
            ReadQuirk::EarlyEnd(_) => "early_end",
        }
    }
}

impl HttpResponse {
    /// A header field's value; names compare without case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the body ended before its header or coding said: what a
    /// capture cut on purpose (`WARC-Truncated`) or at the cap does too.
    pub fn ended_early(&self) -> bool {
        self.quirks
            .iter()
            .any(|q| matches!(q, ReadQuirk::EarlyEnd(_)))
    }

    /// The record was cut, by the capture or at the cap: an early end of its
    /// body is that cut, marked `truncated`, not a quirk of the writer's.
    pub fn mark_record_cut(&mut self) {
        self.truncated = true;
        self.quirks.retain(|q| !matches!(q, ReadQuirk::EarlyEnd(_)));
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
    /// The header lines that are not fields, named in the record's warning.
    skipped: Option<ReadQuirk>,
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
    let (headers, skipped) = header_fields(rest);
    Ok(Head {
        status: status_code(line)?,
        headers,
        body_at: head_end,
        skipped: skipped.first.map(|line| ReadQuirk::HeaderLinesSkipped {
            count: skipped.count,
            line: shown_line(line),
        }),
    })
}

/// A skipped line as its warning shows it: at most [`SHOWN_LINE`]
/// characters, an ellipsis where it was cut.
fn shown_line(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let mut shown: String = text.chars().take(SHOWN_LINE).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    shown
}

/// The codings a decoder here undoes.
fn can_undo(coding: &str) -> bool {
    matches!(coding, "gzip" | "x-gzip" | "deflate" | "br")
}

/// Parses a response block, keeping at most `max_body` bytes of the body.
/// What is odd about it is read past as warcio reads it, and named in
/// [`HttpResponse::quirks`].
pub fn parse_response(block: Vec<u8>, max_body: usize) -> Result<HttpResponse, BadHttp> {
    let Head {
        status,
        headers,
        body_at,
        skipped,
    } = split_head(&block)?;
    let mut quirks: Vec<ReadQuirk> = skipped.into_iter().collect();
    let mut transfer = codings(&headers, "Transfer-Encoding");
    let raw = &block[body_at..];
    let wire = if transfer.last().map(String::as_str) == Some("chunked") {
        transfer.pop();
        let (joined, end) = dechunk(raw);
        match end {
            ChunksEnd::Whole => {}
            ChunksEnd::NotChunked => quirks.push(ReadQuirk::NotChunked),
            ChunksEnd::Early(early) => quirks.push(ReadQuirk::EarlyEnd(early)),
        }
        Cow::Owned(joined)
    } else {
        if let Some(short) = short_of_length(&headers, status, raw.len(), max_body) {
            quirks.push(short);
        }
        Cow::Borrowed(raw)
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
    let stored = |wire: &[u8]| wire[..wire.len().min(max_body.saturating_add(1))].to_vec();
    let mut decoded = Vec::new();
    let mut in_place = None;
    if applied.is_empty() {
        // Most bodies: the block's own bytes, left where they are, not
        // copied into a new buffer grown through a reader (which copied a
        // real page's body four or five times).
        let mut body = match wire {
            Cow::Owned(joined) => Body::from(joined),
            Cow::Borrowed(_) => Body {
                buf: block,
                start: body_at,
            },
        };
        body.truncate(max_body.saturating_add(1));
        in_place = Some(body);
    } else if let Some(unknown) = applied.iter().find(|c| !can_undo(c)) {
        quirks.push(ReadQuirk::UnknownCoding {
            coding: unknown.clone(),
        });
        decoded = stored(&wire);
    } else if let Some(whole) = gzip_whole(&applied, &wire, max_body) {
        decoded = whole;
    } else {
        let mut body: Box<dyn Read + '_> = Box::new(&wire[..]);
        for coding in applied.iter().rev() {
            body = decoder(coding, body);
        }
        let cap = u64::try_from(max_body)
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        match body.take(cap).read_to_end(&mut decoded) {
            Ok(_) => {}
            // A body that ends inside its compressed stream: what decoded is
            // the page, its end missing (cut by the capture, `WARC-Truncated`,
            // or a Content-Length short of the block, as warcio's
            // example-trunc.warc has it).
            // One early end is named: a short Content-Length already said it.
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !decoded.is_empty() => {
                if !quirks.iter().any(|q| matches!(q, ReadQuirk::EarlyEnd(_))) {
                    quirks.push(ReadQuirk::EarlyEnd(EarlyEnd::InsideCoding {
                        coding: applied.join(", "),
                        got: decoded.len() as u64,
                    }));
                }
            }
            // Not one byte decodes: the body was stored decoded under its
            // header's coding (warcio reads it as stored).
            Err(_) if decoded.is_empty() => {
                decoded = stored(&wire);
                quirks.push(ReadQuirk::NotEncoded {
                    coding: applied.join(", "),
                });
            }
            Err(e) => {
                return Err(bad(format!(
                    "its body does not decode as {} ({e})",
                    applied.join(", ")
                )));
            }
        }
    }
    let mut body = in_place.unwrap_or_else(|| Body::from(decoded));
    let truncated = body.len() > max_body;
    body.truncate(max_body);
    Ok(HttpResponse {
        status,
        headers,
        body,
        truncated,
        quirks,
    })
}

/// A body that is one whole gzip member, inflated at once by libdeflate
/// into a buffer of the size its trailer gives: half the instructions of
/// flate2's stream (`records/member.rs`), on the 12% of real homepages
/// stored gzip-coded. Anything else, or a member libdeflate refuses
/// (damaged, cut, followed by more bytes, a header CRC it would not
/// check, larger than the cap), is `None`: the stream reads it and says
/// what is wrong in the same words as before.
fn gzip_whole(applied: &[String], wire: &[u8], max_body: usize) -> Option<Vec<u8>> {
    if !matches!(applied, [c] if c == "gzip" || c == "x-gzip") {
        return None;
    }
    if wire.len() < 18
        || wire
            .get(3)
            .is_some_and(|flags| flags & super::records::FHCRC != 0)
    {
        return None;
    }
    let trailer: [u8; 4] = wire.get(wire.len() - 4..)?.try_into().ok()?;
    let size = usize::try_from(u32::from_le_bytes(trailer)).ok()?;
    if size == 0 || size > max_body.saturating_add(1) {
        return None;
    }
    // Room of a power of two, as a body grown through a reader had: exact
    // sizes spread over many of the allocator's size classes and raised a
    // two-job run's peak memory (`records.rs`).
    let mut out = Vec::with_capacity(size.next_power_of_two());
    out.resize(size, 0);
    let (taken, len) = super::records::Decompressor::new()?
        .gzip(wire, &mut out)
        .ok()?;
    (taken == wire.len() && len == size).then_some(out)
}

/// A body shorter than its `Content-Length` says, when it was not cut at
/// the cap: a status that has no body (1xx, 204, 304) is not asked for one.
fn short_of_length(
    headers: &[(String, String)],
    status: u16,
    got: usize,
    max_body: usize,
) -> Option<ReadQuirk> {
    if (100..200).contains(&status) || status == 204 || status == 304 || got > max_body {
        return None;
    }
    let claimed: u64 = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))?
        .1
        .trim()
        .parse()
        .ok()?;
    let got = got as u64;
    (got < claimed).then_some(ReadQuirk::EarlyEnd(EarlyEnd::ShortOfLength {
        claimed,
        got,
    }))
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
/// The reader that undoes one content coding, one of [`can_undo`]'s; any
/// other passes the bytes as they are.
fn decoder<'a>(coding: &str, input: Box<dyn Read + 'a>) -> Box<dyn Read + 'a> {
    match coding {
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
        _ => input,
    }
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

/// How a chunked body ended.
enum ChunksEnd {
    /// At its last, empty chunk.
    Whole,
    /// A chunk size line is not hexadecimal: the rest is taken as stored.
    NotChunked,
    /// Before its last chunk, inside a chunk or between two (a cut capture).
    Early(EarlyEnd),
}

/// Joins a chunked body's chunks; a body that ends before its last (empty)
/// chunk gives what it holds. Where a chunk size line is not hexadecimal
/// the rest is taken as stored, not chunked, as warcio's
/// `ChunkedDataReader` takes it. Never longer than `raw`.
fn dechunk(mut raw: &[u8]) -> (Vec<u8>, ChunksEnd) {
    let mut joined = Vec::with_capacity(raw.len());
    loop {
        let Some(line_end) = memchr::memchr(b'\n', raw) else {
            if joined.is_empty() && !raw.is_empty() {
                return (raw.to_vec(), ChunksEnd::NotChunked);
            }
            return (joined, ChunksEnd::Early(EarlyEnd::BeforeLastChunk));
        };
        let line = std::str::from_utf8(&raw[..line_end]).unwrap_or_default();
        let size_text = line.split(';').next().unwrap_or_default().trim();
        let Ok(size) = usize::from_str_radix(size_text, 16) else {
            joined.extend_from_slice(raw);
            return (joined, ChunksEnd::NotChunked);
        };
        raw = &raw[line_end + 1..];
        if size == 0 {
            return (joined, ChunksEnd::Whole);
        }
        if size > raw.len() {
            joined.extend_from_slice(raw);
            let early = EarlyEnd::InsideChunk {
                claimed: size as u64,
                got: raw.len() as u64,
            };
            return (joined, ChunksEnd::Early(early));
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
