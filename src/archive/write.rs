//! An inspection written as SPEC 10 says: `warcinfo`, the inspection's
//! `metadata`, then per page its request/response pairs, its DOM in rendered
//! mode and its own `metadata`; `.warc.gz` as one gzip member per record.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use flate2::Compression;
use flate2::write::GzEncoder;
use serde::Serialize;
use url::Url;
use warcat::digest::{AlgorithmName, Digest, Hasher};
use warcat::header::WarcHeader;

use super::{ArchiveError, INSPECTION_URI, dom_uri};
use crate::fetch::local_write::{self, Streams};
use crate::fetch::{Capture, Exchange, Hop, LeftOut, Replayed, Wait};
use crate::inspect::{InspectedPage, Inspection, Via};
use crate::policy::Settings;

/// What to save.
pub struct SaveRequest<'a> {
    pub inspection: &'a Inspection,
    /// A diff's other side: its pages that `inspection` lacks are saved too.
    pub other: Option<&'a Inspection>,
    /// The profile whose settings the inspection used, if one.
    pub profile: Option<&'a str>,
}

/// What was saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    pub path: PathBuf,
    pub pages: usize,
    pub records: usize,
    pub bytes: u64,
    /// Rendered pages' other responses kept (SPEC 12), and those left out.
    pub resources: usize,
    pub left_out: LeftOut,
}

/// The inspection record's JSON (SPEC 10).
#[derive(Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(default)]
pub(super) struct InspectionMeta {
    pub schema: u32,
    pub start_url: String,
    pub depth: u32,
    pub limit: Option<usize>,
    pub profile: Option<String>,
    pub settings: Option<Settings>,
    pub mode: String,
    /// The crawl was stopped before it was complete.
    pub cancelled: bool,
}

/// A page record's JSON (SPEC 10, and what a reopened page needs to be the
/// page that was seen).
#[derive(Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(default)]
pub(super) struct PageMeta {
    pub level: u32,
    pub via: Option<ViaMeta>,
    pub mode: String,
    pub wait: Option<Wait>,
    pub network_idle: Option<bool>,
    pub client_redirects: Vec<String>,
    pub error: Option<String>,
    /// The URL asked for (the page's own URL is the record's target).
    pub requested: String,
    pub status: Option<u16>,
    pub redirects: Vec<Hop>,
    pub truncated: bool,
    /// How long the fetch took, as the table report shows it.
    pub elapsed_ms: u64,
    pub rendered: Option<RenderedMeta>,
}

#[derive(Serialize, serde::Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[serde(default)]
pub(super) struct ViaMeta {
    pub page: usize,
    pub index: usize,
}

/// How a rendered page was rendered, beyond SPEC 10's own keys.
#[derive(Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(default)]
pub(super) struct RenderedMeta {
    pub render_ms: u64,
    pub dialogs: usize,
    pub scripts_stopped: bool,
    pub dom_read: bool,
    pub blocked_requests: usize,
    /// The served HTML was had (the response record's body); else the
    /// page has no static side.
    pub served_html: bool,
    /// The body's size as read, when it was not the DOM's (no DOM read).
    pub bytes: Option<usize>,
    /// Rendered from a capture: what the capture answered (SPEC 12).
    pub replay: Option<Replayed>,
    /// The `WARC-Record-ID`s of the page's other responses (SPEC 12), so
    /// that a reopened page saved again keeps them; and those left out.
    pub resources: Vec<String>,
    pub left_out: LeftOut,
}

/// Writes the archive to `path` (gzip members when it ends `.gz`, a WACZ
/// package of them when it ends `.wacz`) through
/// [`local_write`]: a new file beside it renamed into place, so a failed save
/// leaves nothing half written and a planted link or device is not written
/// over; a named pipe or a character device at `path` is written into.
pub fn save(path: &Path, request: &SaveRequest<'_>) -> Result<Saved, ArchiveError> {
    let pages = pages_to_save(request);
    if !pages.iter().any(|p| p.page.capture.is_some()) {
        return Err(ArchiveError::NothingFetched);
    }
    let gzip = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    // A `.wacz` is a package holding this same WARC as gzip members (SPEC 12).
    let package = super::wacz::is_package_name(path);
    let written = local_write::write_file(path, Streams::WriteInto, |file| {
        let warc = |file: &mut dyn Write| -> io::Result<usize> {
            let mut out = RecordWriter::new(file, gzip || package);
            write_all(&mut out, request, &pages)?;
            let records = out.records;
            out.finish()?;
            Ok(records)
        };
        if package {
            super::wacz::write_package(file, request, path, warc)
        } else {
            warc(file)
        }
    })
    .map_err(|source| ArchiveError::Write {
        path: path.to_owned(),
        source: Arc::new(source),
    })?;
    let mut resources = 0;
    let mut left_out = LeftOut::default();
    for capture in pages.iter().filter_map(|p| p.page.capture.as_deref()) {
        resources += capture.resources.len();
        left_out.media += capture.left_out.media;
        left_out.over_cap += capture.left_out.over_cap;
        left_out.unread += capture.left_out.unread;
    }
    Ok(Saved {
        path: path.to_owned(),
        pages: pages.len(),
        records: written.value,
        bytes: written.bytes,
        resources,
        left_out,
    })
}

/// A page to save, with the URL it was asked for and its place in the saved order.
struct ToSave<'a> {
    page: &'a InspectedPage,
    requested: Url,
    via: Option<Via>,
}

/// The inspection's pages in crawl order, then a diff's other side's pages
/// that were asked for by no page before.
fn pages_to_save<'a>(request: &SaveRequest<'a>) -> Vec<ToSave<'a>> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for inspection in std::iter::once(request.inspection).chain(request.other) {
        for page in &inspection.pages {
            let requested = requested_url(inspection, page);
            if seen.insert(requested.to_string()) {
                out.push(ToSave {
                    page,
                    requested,
                    via: page.via,
                });
            }
        }
    }
    out
}

/// The URL a page was fetched for: the start URL, or the followed link's.
fn requested_url(inspection: &Inspection, page: &InspectedPage) -> Url {
    page.via
        .and_then(|via| {
            let link = inspection
                .pages
                .get(via.page)?
                .decision
                .links
                .get(via.link)?;
            link.url.as_deref().cloned()
        })
        .unwrap_or_else(|| {
            if page.level == 1 {
                inspection.start_url.clone()
            } else {
                page.url.clone()
            }
        })
}

fn write_all<W: Write>(
    out: &mut RecordWriter<W>,
    request: &SaveRequest<'_>,
    pages: &[ToSave<'_>],
) -> io::Result<()> {
    let now = SystemTime::now();
    let info = format!(
        "software: follow-inspector/{}\r\nformat: WARC File Format 1.1\r\n",
        env!("CARGO_PKG_VERSION")
    );
    out.record(
        "warcinfo",
        now,
        &[("Content-Type", "application/warc-fields")],
        info.as_bytes(),
    )?;
    let inspection = request.inspection;
    let rendered = pages.iter().any(|p| p.page.rendered().is_some());
    let meta = InspectionMeta {
        schema: 1,
        start_url: inspection.start_url.to_string(),
        depth: inspection.depth(),
        limit: inspection.limit_override(),
        profile: request.profile.map(str::to_owned),
        settings: Some(inspection.settings().clone()),
        mode: mode(rendered).to_owned(),
        cancelled: inspection.cancelled,
    };
    out.record(
        "metadata",
        now,
        &[
            ("WARC-Target-URI", INSPECTION_URI),
            ("Content-Type", "application/json"),
        ],
        &json(&meta)?,
    )?;
    for page in pages {
        write_page(out, page, now)?;
    }
    Ok(())
}

fn mode(rendered: bool) -> &'static str {
    if rendered { "rendered" } else { "static" }
}

fn json(value: &impl Serialize) -> io::Result<Vec<u8>> {
    serde_json::to_vec(value).map_err(io::Error::other)
}

fn write_page<W: Write>(
    out: &mut RecordWriter<W>,
    to_save: &ToSave<'_>,
    now: SystemTime,
) -> io::Result<()> {
    let page = to_save.page;
    let empty = Capture::default();
    let capture = page.capture.as_deref().unwrap_or(&empty);
    let mut main_response = None;
    for exchange in &capture.exchanges {
        main_response = Some(write_exchange(out, exchange)?);
    }
    let mut refers_to = main_response.clone();
    let at = capture.main().map_or(now, |e| e.at);
    if let (Some(dom), Some(response)) = (&capture.dom, &main_response) {
        let target = dom_uri(&page.url);
        let mut fields = vec![
            ("WARC-Target-URI", target.as_str()),
            ("Content-Type", "text/html; charset=utf-8"),
            ("WARC-Concurrent-To", response.as_str()),
        ];
        if page.fetch.as_ref().is_some_and(|f| f.truncated) {
            fields.push(("WARC-Truncated", "length"));
        }
        refers_to = Some(out.record("resource", at, &fields, dom.as_bytes())?);
    }
    // What the page loaded besides its document, so that it replays (SPEC 12).
    let resources = capture
        .resources
        .iter()
        .map(|resource| write_exchange(out, resource))
        .collect::<io::Result<Vec<String>>>()?;
    let meta = page_meta(to_save, capture, &resources);
    let mut fields = vec![
        ("WARC-Target-URI", page.url.as_str()),
        ("Content-Type", "application/json"),
    ];
    if let Some(id) = &refers_to {
        fields.push(("WARC-Refers-To", id.as_str()));
    }
    out.record("metadata", at, &fields, &json(&meta)?)?;
    Ok(())
}

fn page_meta(to_save: &ToSave<'_>, capture: &Capture, resources: &[String]) -> PageMeta {
    let page = to_save.page;
    let redirects = page
        .fetch
        .as_ref()
        .map(|f| f.redirects.clone())
        .unwrap_or_default();
    let rendered = capture.rendered.as_ref();
    PageMeta {
        level: page.level,
        via: to_save.via.map(|v| ViaMeta {
            page: v.page,
            index: v.link,
        }),
        mode: mode(rendered.is_some()).to_owned(),
        wait: rendered.map(|r| r.wait),
        network_idle: rendered.map(|r| r.network_idle),
        // Rendered hops that are not HTTP redirects were made by a script or
        // a meta refresh.
        client_redirects: if rendered.is_some() {
            redirects
                .iter()
                .filter(|h| !(300..400).contains(&h.status))
                .map(|h| h.url.to_string())
                .collect()
        } else {
            Vec::new()
        },
        error: page.error().map(ToString::to_string),
        requested: to_save.requested.to_string(),
        status: page.status,
        truncated: page.fetch.as_ref().is_some_and(|f| f.truncated),
        elapsed_ms: page.fetch.as_ref().map_or(0, |f| f.elapsed_ms),
        redirects,
        rendered: rendered.map(|r| RenderedMeta {
            render_ms: r.render_ms,
            dialogs: r.dialogs,
            scripts_stopped: r.scripts_stopped,
            dom_read: r.dom_read,
            blocked_requests: r.blocked_requests,
            served_html: r.served_html.is_some(),
            bytes: page.fetch.as_ref().map(|f| f.bytes).filter(|_| !r.dom_read),
            replay: r.replay.clone(),
            resources: resources.to_vec(),
            left_out: capture.left_out,
        }),
    }
}

/// Header fields that describe the body's wire form, kept renamed since the
/// body is stored decoded.
const WIRE_FIELDS: [&str; 3] = ["content-encoding", "transfer-encoding", "content-length"];

/// Writes one exchange's request and response records; the response's id.
fn write_exchange<W: Write>(out: &mut RecordWriter<W>, exchange: &Exchange) -> io::Result<String> {
    let mut request = format!(
        "{} {} HTTP/1.1\r\n",
        exchange.method,
        request_target(&exchange.url)
    );
    for (name, value) in &exchange.request_headers {
        push_field(&mut request, name, value);
    }
    request.push_str("\r\n");
    let url = exchange.url.as_str();
    let request_id = out.record(
        "request",
        exchange.at,
        &[
            ("WARC-Target-URI", url),
            ("Content-Type", "application/http;msgtype=request"),
        ],
        request.as_bytes(),
    )?;

    let mut head = format!("{} {}", exchange.version, exchange.status);
    if !exchange.reason.is_empty() {
        head.push(' ');
        head.push_str(&one_line(&exchange.reason));
    }
    head.push_str("\r\n");
    for (name, value) in &exchange.response_headers {
        if WIRE_FIELDS.contains(&name.to_ascii_lowercase().as_str()) {
            push_field(&mut head, &format!("X-Archive-Orig-{name}"), value);
        } else {
            push_field(&mut head, name, value);
        }
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", exchange.body.len()));
    let mut block = head.into_bytes();
    block.extend_from_slice(&exchange.body);
    let payload = sha1(&exchange.body);
    let ip = exchange.ip.map(|ip| ip.to_string());
    let mut fields = vec![
        ("WARC-Target-URI", url),
        ("Content-Type", "application/http;msgtype=response"),
        ("WARC-Concurrent-To", request_id.as_str()),
        ("WARC-Payload-Digest", payload.as_str()),
    ];
    if let Some(ip) = &ip {
        fields.push(("WARC-IP-Address", ip.as_str()));
    }
    if exchange.body_unread {
        fields.push(("WARC-Truncated", "unspecified"));
    } else if exchange.truncated {
        fields.push(("WARC-Truncated", "length"));
    }
    out.record("response", exchange.at, &fields, &block)
}

/// Appends `name: value` and its line end; a line break inside either (a
/// browser joins repeated values with one) would end the head early.
fn push_field(head: &mut String, name: &str, value: &str) {
    head.push_str(&one_line(name));
    head.push_str(": ");
    head.push_str(&one_line(value));
    head.push_str("\r\n");
}

fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// The request line's target: the path and query.
fn request_target(url: &Url) -> String {
    match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    }
}

/// `sha1:` + base32, as Common Crawl and wget write digests.
fn sha1(bytes: &[u8]) -> String {
    let mut hasher = Hasher::new(AlgorithmName::Sha1);
    hasher.update(bytes);
    Digest::new(AlgorithmName::Sha1, hasher.finish()).to_string()
}

/// A WARC date: UTC to the second.
fn warc_date(at: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(at).to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Writes records one after another, each its own gzip member when
/// compressed (warcat's encoder ends a gzip file with an empty member and
/// cannot end an empty block, so members are made here with flate2).
struct RecordWriter<W: Write> {
    out: W,
    gzip: bool,
    records: usize,
}

impl<W: Write> RecordWriter<W> {
    fn new(out: W, gzip: bool) -> Self {
        Self {
            out,
            gzip,
            records: 0,
        }
    }

    /// Writes one record; its `WARC-Record-ID`.
    fn record(
        &mut self,
        kind: &str,
        at: SystemTime,
        fields: &[(&str, &str)],
        block: &[u8],
    ) -> io::Result<String> {
        let mut header = WarcHeader::new(block.len() as u64, kind);
        header.fields.insert("WARC-Date".to_owned(), warc_date(at));
        for (name, value) in fields {
            header
                .fields
                .insert((*name).to_owned(), (*value).to_owned());
        }
        header
            .fields
            .insert("WARC-Block-Digest".to_owned(), sha1(block));
        header.validate().map_err(io::Error::other)?;
        let id = header
            .fields
            .get("WARC-Record-ID")
            .cloned()
            .unwrap_or_default();
        let mut record = Vec::with_capacity(block.len() + 1024);
        header.serialize(&mut record)?;
        record.extend_from_slice(block);
        record.extend_from_slice(b"\r\n\r\n");
        if self.gzip {
            let mut member = GzEncoder::new(&mut self.out, Compression::default());
            member.write_all(&record)?;
            member.finish()?;
        } else {
            self.out.write_all(&record)?;
        }
        self.records += 1;
        Ok(id)
    }

    fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::{RecordReader, parse_response};

    fn exchange(version: &str, headers: &[(&str, &str)], body: &str) -> Exchange {
        Exchange {
            url: Url::parse("https://acme.test/").unwrap(),
            method: "GET".to_owned(),
            request_headers: vec![("Host".to_owned(), "acme.test".to_owned())],
            version: version.to_owned(),
            status: 200,
            reason: "OK".to_owned(),
            response_headers: headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
            body: body.as_bytes().to_vec(),
            truncated: false,
            body_unread: false,
            ip: None,
            at: SystemTime::now(),
        }
    }

    /// The response record written for `exchange`, read back.
    fn written(exchange: &Exchange) -> crate::archive::HttpResponse {
        let path = std::env::temp_dir().join(format!(
            "follow-inspector-write-{}-{}.warc",
            std::process::id(),
            exchange.version.replace('/', "")
        ));
        let mut out = RecordWriter::new(Vec::new(), false);
        write_exchange(&mut out, exchange).unwrap();
        std::fs::write(&path, out.finish().unwrap()).unwrap();
        let mut reader = RecordReader::open(&path).unwrap();
        let wanted = |_: &crate::archive::RecordHead| true;
        let request = reader.next_record(&wanted, 1 << 20).unwrap().unwrap();
        assert_eq!(request.head.kind(), crate::archive::RecordKind::Request);
        let response = reader.next_record(&wanted, 1 << 20).unwrap().unwrap();
        std::fs::remove_file(&path).unwrap();
        parse_response(response.block.clone(), 1 << 20).unwrap()
    }

    #[test]
    fn an_h2_response_with_a_line_break_in_a_header_reads_back_whole() {
        let read = written(&exchange(
            "HTTP/2.0",
            &[
                ("Set-Cookie", "a=1\nb=2"),
                ("Content-Encoding", "gzip"),
                ("Content-Type", "text/html; charset=utf-8"),
            ],
            "<a href=/x>x</a>",
        ));
        assert_eq!(read.status, 200);
        assert_eq!(read.header("Set-Cookie"), Some("a=1 b=2"));
        assert_eq!(read.header("X-Archive-Orig-Content-Encoding"), Some("gzip"));
        assert_eq!(read.header("Content-Encoding"), None);
        assert_eq!(
            read.header("Content-Type"),
            Some("text/html; charset=utf-8")
        );
        assert_eq!(read.body, b"<a href=/x>x</a>");
    }

    #[test]
    fn a_status_line_without_a_reason_has_no_trailing_space() {
        let mut answer = exchange("HTTP/1.1", &[], "");
        answer.reason.clear();
        let mut out = RecordWriter::new(Vec::new(), false);
        write_exchange(&mut out, &answer).unwrap();
        let text = String::from_utf8(out.finish().unwrap()).unwrap();
        assert!(
            text.contains("\r\n\r\nHTTP/1.1 200\r\nContent-Length: 0\r\n\r\n"),
            "{text}"
        );
    }
}
