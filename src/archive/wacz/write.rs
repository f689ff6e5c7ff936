//! A saved inspection as a WACZ 1.1.1 package (SPEC 12): the WARC that
//! `--save-warc x.warc.gz` writes, stored (not deflated, as WACZ wants its
//! WARCs, so a reader seeks into it), with its CDXJ index, its pages and
//! `datapackage.json` (sha256 of every file) and that file's own digest.
//!
//! The WARC is written first to an unnamed temporary file (`O_TMPFILE`:
//! nothing to plant, nothing left behind), read back for the index, and
//! the ZIP is built in a second one, since a ZIP's headers come before the
//! sizes and checksums of what they describe and the destination is not
//! seekable (it may be a pipe). The caller writes what is returned through
//! [`crate::fetch::local_write`], so a `.wacz` is replaced whole or not at all,
//! as a `.warc.gz` is.

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, Write};
use std::path::Path;
use std::time::SystemTime;

use serde::Serialize;
use sha2::{Digest, Sha256};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use super::surt::surt;
use crate::archive::{RecordHead, RecordKind, RecordReader, SaveRequest};

/// The WARC's name inside the package, and the index's `filename`.
const WARC_NAME: &str = "data.warc.gz";
const WARC_PATH: &str = "archive/data.warc.gz";
const INDEX_PATH: &str = "indexes/index.cdxj";
const PAGES_PATH: &str = "pages/pages.jsonl";
const DATAPACKAGE_PATH: &str = "datapackage.json";
const DIGEST_PATH: &str = "datapackage-digest.json";
const WACZ_VERSION: &str = "1.1.1";
/// Bytes of a response's block read for its status line and
/// `Content-Type`: our heads are a few hundred bytes, and a record's
/// header is refused past 64 KiB (`MAX_HEAD`), so an HTTP head past this
/// is not one we wrote.
const HTTP_HEAD_CAP: usize = 64 * 1024;

/// Whether `path` names a WACZ package (`.wacz`, any case).
pub fn is_package_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wacz"))
}

/// Writes the package into `out`: `write_warc` writes the WARC (gzip
/// members) and says how many records it wrote, which is returned.
/// `label` names the file in errors.
pub fn write_package(
    out: &mut dyn Write,
    request: &SaveRequest<'_>,
    label: &Path,
    write_warc: impl FnOnce(&mut dyn Write) -> io::Result<usize>,
) -> io::Result<usize> {
    let now = SystemTime::now();
    let mut warc = tempfile::tempfile()?;
    let records = {
        let mut buffered = BufWriter::with_capacity(64 * 1024, &mut warc);
        let records = write_warc(&mut buffered)?;
        buffered.flush()?;
        records
    };
    let warc_len = warc.metadata()?.len();
    let index = index_lines(&warc, warc_len, label)?;
    let pages = pages_jsonl(request);
    let mut zip_file = tempfile::tempfile()?;
    write_zip(
        &mut zip_file,
        &mut warc,
        warc_len,
        &Parts {
            index,
            pages: pages.text,
            main_page: pages.main,
        },
        now,
    )?;
    zip_file.rewind()?;
    io::copy(&mut zip_file, out)?;
    Ok(records)
}

/// What goes beside the WARC.
struct Parts {
    index: Vec<u8>,
    pages: Vec<u8>,
    main_page: Option<PageLine>,
}

fn write_zip(
    into: &mut File,
    warc: &mut File,
    warc_len: u64,
    parts: &Parts,
    now: SystemTime,
) -> io::Result<()> {
    let mut zip = ZipWriter::new(BufWriter::with_capacity(64 * 1024, into));
    let options = SimpleFileOptions::default().last_modified_time(zip_time(now));
    let deflated = options.compression_method(CompressionMethod::Deflated);
    // ZIP64 only when the WARC needs it: some readers still lack it.
    let stored = options
        .compression_method(CompressionMethod::Stored)
        .large_file(warc_len >= u64::from(u32::MAX));
    let mut resources = Vec::new();

    zip.start_file(WARC_PATH, stored).map_err(io::Error::from)?;
    warc.rewind()?;
    let mut hashing = Hashing::new(warc);
    let copied = io::copy(&mut hashing, &mut zip)?;
    resources.push(Resource::new(WARC_PATH, hashing.hex(), copied));

    for (path, bytes) in [(INDEX_PATH, &parts.index), (PAGES_PATH, &parts.pages)] {
        zip.start_file(path, deflated).map_err(io::Error::from)?;
        zip.write_all(bytes)?;
        resources.push(Resource::new(path, sha256_hex(bytes), bytes.len() as u64));
    }

    let datapackage = DataPackage {
        profile: "data-package",
        resources,
        created: utc_seconds(now),
        wacz_version: WACZ_VERSION,
        software: concat!("follow-inspector/", env!("CARGO_PKG_VERSION")),
        main_page_url: parts.main_page.as_ref().map(|p| p.url.clone()),
        main_page_date: parts.main_page.as_ref().map(|p| p.ts.clone()),
    };
    let datapackage = serde_json::to_vec_pretty(&datapackage).map_err(io::Error::other)?;
    zip.start_file(DATAPACKAGE_PATH, deflated)
        .map_err(io::Error::from)?;
    zip.write_all(&datapackage)?;

    let digest = serde_json::to_vec_pretty(&PackageDigest {
        path: DATAPACKAGE_PATH,
        hash: format!("sha256:{}", sha256_hex(&datapackage)),
    })
    .map_err(io::Error::other)?;
    zip.start_file(DIGEST_PATH, deflated)
        .map_err(io::Error::from)?;
    zip.write_all(&digest)?;

    let mut buffered = zip.finish().map_err(io::Error::from)?;
    buffered.flush()
}

/// `datapackage.json` (WACZ 1.1.1): each file's `sha256:` and size, as
/// `wacz validate` checks them; `mainPageUrl` and `mainPageDate` name the
/// start page.
#[derive(Serialize)]
struct DataPackage {
    profile: &'static str,
    resources: Vec<Resource>,
    created: String,
    wacz_version: &'static str,
    software: &'static str,
    #[serde(rename = "mainPageUrl", skip_serializing_if = "Option::is_none")]
    main_page_url: Option<String>,
    #[serde(rename = "mainPageDate", skip_serializing_if = "Option::is_none")]
    main_page_date: Option<String>,
}

#[derive(Serialize)]
struct Resource {
    name: String,
    path: &'static str,
    hash: String,
    bytes: u64,
}

impl Resource {
    fn new(path: &'static str, hex: String, bytes: u64) -> Self {
        Self {
            // As py-wacz names them: the file's name, lower case.
            name: path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase(),
            path,
            hash: format!("sha256:{hex}"),
            bytes,
        }
    }
}

#[derive(Serialize)]
struct PackageDigest {
    path: &'static str,
    hash: String,
}

/// A `pages.jsonl` line.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
struct PageLine {
    url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    ts: String,
    id: String,
}

struct PagesFile {
    text: Vec<u8>,
    /// The first page: where the inspection started.
    main: Option<PageLine>,
}

/// `pages/pages.jsonl`: its header, then each page of the inspection (a
/// diff's other side after it) whose response the archive holds, once,
/// named by the URL of that response and dated by it. A page failed before
/// any response is not in the archive, so not listed. A page's title is
/// its `<title>` as the verdicts read it (the DOM, when rendered).
fn pages_jsonl(request: &SaveRequest<'_>) -> PagesFile {
    let header = serde_json::json!({
        "format": "json-pages-1.0",
        "id": "pages",
        "title": "All Pages",
    });
    let mut text = header.to_string().into_bytes();
    text.push(b'\n');
    let mut seen = std::collections::HashSet::new();
    let mut main = None;
    let captures = std::iter::once(request.inspection)
        .chain(request.other)
        .flat_map(|inspection| &inspection.pages)
        .filter_map(|page| page.capture.as_deref());
    for capture in captures {
        let Some(exchange) = capture.main() else {
            continue;
        };
        let url = exchange.url.to_string();
        if !seen.insert(url.clone()) {
            continue;
        }
        let ts = utc_seconds(exchange.at);
        let title = match &capture.dom {
            Some(dom) => title_of(dom),
            None => title_of(&crate::page::decode(&exchange.body, None, None).text),
        };
        let line = PageLine {
            id: page_id(&url, &ts),
            url,
            title,
            ts,
        };
        // A page line is a small struct of strings: it serializes.
        if let Ok(json) = serde_json::to_vec(&line) {
            text.extend_from_slice(&json);
            text.push(b'\n');
        }
        main.get_or_insert(line);
    }
    PagesFile { text, main }
}

/// The text of a page's first `<title>`, its white space collapsed and
/// its character references undone; looked for in the first 256 KiB (a
/// title comes in the head).
fn title_of(html: &str) -> Option<String> {
    let mut end = html.len().min(256 * 1024);
    while !html.is_char_boundary(end) {
        end -= 1;
    }
    let head = &html[..end];
    let lower = head.to_ascii_lowercase();
    let open = lower.find("<title")?;
    let start = open + lower[open..].find('>')? + 1;
    let close = start + lower[start..].find("</title")?;
    let text = unescape(&head[start..close]);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}

/// The character references a title uses: numeric ones and the five of XML.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(semi) = rest[..rest.len().min(12)].find(';') else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let name = &rest[1..semi];
        let named = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" | "#39" => Some('\''),
            "nbsp" => Some(' '),
            _ => name
                .strip_prefix("#x")
                .or_else(|| name.strip_prefix("#X"))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match named {
            Some(c) => {
                out.push(c);
                rest = &rest[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A page's `id`: the same page and time give the same id, so saving the
/// same inspection twice writes the same pages.
fn page_id(url: &str, ts: &str) -> String {
    sha256_hex(format!("{ts} {url}").as_bytes())[..32].to_owned()
}

/// The CDXJ lines of the WARC: one per `response`, `revisit` and
/// `resource` record, as `cdxj-indexer` (py-wacz's and pywb's indexer)
/// writes them, sorted. Its default also indexes `metadata` records; ours
/// carry the page's own URL, and a replay tool asked for the page must
/// find its response, so they are left out (as `--records
/// response,revisit,resource` does).
fn index_lines(warc: &File, len: u64, label: &Path) -> io::Result<Vec<u8>> {
    // A second handle on the same file, so the same read position: it is
    // read from its start.
    let mut input = warc.try_clone()?;
    input.rewind()?;
    let mut reader =
        RecordReader::open_input(Box::new(input), len, label).map_err(io::Error::other)?;
    let wanted = |head: &RecordHead| indexed(head.kind());
    let mut lines: Vec<String> = Vec::new();
    // Each record is its own gzip member, written back to back: it ends
    // where the next begins. One record's head is kept until then.
    let mut waiting: Option<(RecordHead, Vec<u8>)> = None;
    while let Some(record) = reader.next_record(&wanted, HTTP_HEAD_CAP) {
        // Our own WARC, just written: damage in it is a failed save.
        let record = record.map_err(io::Error::other)?;
        if let Some((head, block)) = waiting.take() {
            lines.push(cdxj_line(&head, &block, record.head.offset - head.offset));
        }
        if indexed(record.head.kind()) {
            waiting = Some((record.head, record.block));
        }
    }
    if let Some((head, block)) = waiting {
        lines.push(cdxj_line(&head, &block, len - head.offset));
    }
    lines.sort();
    Ok(lines.concat().into_bytes())
}

fn indexed(kind: RecordKind) -> bool {
    matches!(
        kind,
        RecordKind::Response | RecordKind::Revisit | RecordKind::Resource
    )
}

/// One CDXJ line (with its newline): `SURT TIMESTAMP {json}`, the JSON as
/// Python's `json.dumps` writes it (`", "` and `": "`, non-ASCII escaped),
/// numbers as strings, and a field with no value left out, as
/// `cdxj-indexer` does.
fn cdxj_line(head: &RecordHead, block: &[u8], length: u64) -> String {
    let url = head.field("WARC-Target-URI").unwrap_or_default().trim();
    let kind = head.kind();
    let http = match kind {
        RecordKind::Response | RecordKind::Revisit => HttpHead::of(block),
        _ => HttpHead::default(),
    };
    let mime = match kind {
        RecordKind::Revisit => Some("warc/revisit".to_owned()),
        RecordKind::Response => http.content_type.as_deref().map(mime_of),
        _ => head.field("Content-Type").map(mime_of),
    };
    // warcio computes a missing payload digest; a resource's payload is
    // its block, whose digest we write.
    let digest = head.field("WARC-Payload-Digest").or(match kind {
        RecordKind::Resource => head.field("WARC-Block-Digest"),
        _ => None,
    });
    let offset = head.offset.to_string();
    let length = length.to_string();
    let fields = [
        ("url", Some(url)),
        ("mime", mime.as_deref()),
        ("status", http.status.as_deref()),
        ("digest", digest.map(str::trim)),
        ("length", Some(length.as_str())),
        ("offset", Some(offset.as_str())),
        ("filename", Some(WARC_NAME)),
    ];
    let json: Vec<String> = fields
        .iter()
        .filter_map(|(name, value)| {
            let value = value.filter(|v| !v.is_empty())?;
            Some(format!("\"{name}\": {}", py_json_string(value)))
        })
        .collect();
    format!(
        "{} {} {{{}}}\n",
        surt(url),
        timestamp(head.field("WARC-Date").unwrap_or_default()),
        json.join(", ")
    )
}

/// A `Content-Type`'s media type, as `cdxj-indexer` cuts it: before the
/// first `;` or white space.
fn mime_of(value: &str) -> String {
    let value = value.trim();
    value
        .split(|c: char| c == ';' || c.is_whitespace())
        .next()
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// A `WARC-Date` as 14 digits (`2026-12-01T15:37:24Z` is `20261201153724`).
fn timestamp(warc_date: &str) -> String {
    let digits: String = warc_date
        .chars()
        .filter(char::is_ascii_digit)
        .take(14)
        .collect();
    format!("{digits:0<14}")
}

/// What the index takes from an HTTP head: the status code and the
/// first `Content-Type`.
#[derive(Default)]
struct HttpHead {
    status: Option<String>,
    content_type: Option<String>,
}

impl HttpHead {
    fn of(block: &[u8]) -> Self {
        let end = memchr::memmem::find(block, b"\r\n\r\n").unwrap_or(block.len());
        let text = String::from_utf8_lossy(&block[..end]);
        let mut lines = text.lines();
        let status = lines
            .next()
            .and_then(|line| line.split_whitespace().nth(1))
            .map(str::to_owned);
        let content_type = lines.find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.trim()
                .eq_ignore_ascii_case("content-type")
                .then(|| value.trim().to_owned())
        });
        Self {
            status,
            content_type,
        }
    }
}

/// A JSON string as Python's `json.dumps` writes it (`ensure_ascii`):
/// every character outside ` `..=`~` as `\uXXXX` (UTF-16 pairs past
/// U+FFFF) but for the short escapes.
fn py_json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if !(' '..='~').contains(&c) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// UTC to the second, `Z`: a `WARC-Date`, and `created` as py-wacz writes it.
fn utc_seconds(at: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(at).to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A ZIP entry's time (local time in the format; UTC here, as py-wacz
/// writes it); 1980-01-01 where the format cannot hold it.
fn zip_time(at: SystemTime) -> zip::DateTime {
    use chrono::{Datelike as _, Timelike as _};
    let at = chrono::DateTime::<chrono::Utc>::from(at);
    let part = |n: u32| u8::try_from(n).unwrap_or(0);
    u16::try_from(at.year())
        .ok()
        .and_then(|year| {
            zip::DateTime::from_date_and_time(
                year,
                part(at.month()),
                part(at.day()),
                part(at.hour()),
                part(at.minute()),
                part(at.second()),
            )
            .ok()
        })
        .unwrap_or_default()
}

/// A reader that hashes what passes.
struct Hashing<R> {
    inner: R,
    hasher: Sha256,
}

impl<R: Read> Hashing<R> {
    fn new(inner: R) -> Self {
        Self {
            inner,
            hasher: Sha256::new(),
        }
    }

    fn hex(self) -> String {
        hex(&self.hasher.finalize())
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(fields: &[(&str, &str)], offset: u64) -> RecordHead {
        RecordHead {
            offset,
            version: "WARC/1.1".to_owned(),
            fields: fields
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
        }
    }

    /// The lines `cdxj-indexer` 1.5.0 wrote for the same two records (a
    /// warcio-written WARC, `--records response,revisit,resource`), with
    /// its file name changed to ours.
    #[test]
    fn a_response_and_a_dom_record_index_as_cdxj_indexer_writes_them() {
        let response = head(
            &[
                ("WARC-Type", "response"),
                (
                    "WARC-Target-URI",
                    "http://www.acme.test:8080/About/?b=1&a=2",
                ),
                ("WARC-Date", "2026-11-30T10:00:00Z"),
                (
                    "WARC-Payload-Digest",
                    "sha1:JEXJR23VJNMISKZO2PJJFAYRPVKZAOS5",
                ),
                ("Content-Type", "application/http; msgtype=response"),
            ],
            0,
        );
        let block =
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html>hi</html>";
        assert_eq!(
            cdxj_line(&response, block, 348),
            "test,acme:8080)/about?a=2&b=1 20261130100000 {\"url\": \
             \"http://www.acme.test:8080/About/?b=1&a=2\", \"mime\": \"text/html\", \
             \"status\": \"200\", \"digest\": \"sha1:JEXJR23VJNMISKZO2PJJFAYRPVKZAOS5\", \
             \"length\": \"348\", \"offset\": \"0\", \"filename\": \"data.warc.gz\"}\n"
        );
        // A DOM record has no HTTP status; its digest is its block's.
        let dom = head(
            &[
                ("WARC-Type", "resource"),
                ("WARC-Target-URI", "urn:dom:http://acme.test:8080/About/"),
                ("WARC-Date", "2026-11-30T10:00:01Z"),
                ("WARC-Block-Digest", "sha1:Y7KU36MCOE3OL4M2HIKJPTVMJOXSFO26"),
                ("Content-Type", "text/html; charset=utf-8"),
            ],
            348,
        );
        assert_eq!(
            cdxj_line(&dom, b"<html>dom</html>", 279),
            "urn:dom:http://acme.test:8080/about 20261130100001 {\"url\": \
             \"urn:dom:http://acme.test:8080/About/\", \"mime\": \"text/html\", \
             \"digest\": \"sha1:Y7KU36MCOE3OL4M2HIKJPTVMJOXSFO26\", \"length\": \"279\", \
             \"offset\": \"348\", \"filename\": \"data.warc.gz\"}\n"
        );
    }

    #[test]
    fn json_strings_escape_as_python_does() {
        assert_eq!(py_json_string("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(
            py_json_string("Über 😀\u{1}"),
            r#""\u00dcber \ud83d\ude00\u0001""#
        );
        assert_eq!(py_json_string("~\u{7f}"), r#""~\u007f""#);
    }

    #[test]
    fn a_title_is_the_first_title_element_with_references_undone() {
        assert_eq!(
            title_of("<HTML><head><Title>\n  Acme &amp; Co &#8211; Home </title>").as_deref(),
            Some("Acme & Co – Home")
        );
        assert_eq!(title_of("<title></title>"), None);
        assert_eq!(title_of("<p>no title"), None);
        assert_eq!(
            title_of("<title>京东(JD.COM)&#x2d;正品</title>").as_deref(),
            Some("京东(JD.COM)-正品")
        );
        assert_eq!(unescape("a & b &unknown; &#xZZ;"), "a & b &unknown; &#xZZ;");
    }

    #[test]
    fn a_page_id_is_the_same_for_the_same_page_and_time() {
        let id = page_id("https://acme.test/", "2026-12-01T10:00:00Z");
        assert_eq!(id.len(), 32);
        assert_eq!(id, page_id("https://acme.test/", "2026-12-01T10:00:00Z"));
        assert_ne!(id, page_id("https://acme.test/", "2026-12-01T10:00:01Z"));
    }

    #[test]
    fn a_package_is_named_by_its_extension_in_any_case() {
        assert!(is_package_name(Path::new("ticket.wacz")));
        assert!(is_package_name(Path::new("/tmp/T.WACZ")));
        assert!(!is_package_name(Path::new("ticket.warc.gz")));
        assert!(!is_package_name(Path::new("wacz")));
    }
}
