//! Building WARC bytes for tests: records, gzip members, HTTP responses.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// One WARC/1.1 record: the version line, `WARC-Type`, the fields given (in
/// order), `Content-Length`, the block and the two CRLFs that end it.
pub fn record(kind: &str, fields: &[(&str, &str)], block: &[u8]) -> Vec<u8> {
    let mut out = format!("WARC/1.1\r\nWARC-Type: {kind}\r\n").into_bytes();
    for (name, value) in fields {
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// `bytes` as one gzip member.
pub fn gzip_member(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("gzip in memory");
    encoder.finish().expect("gzip in memory")
}

/// An HTTP/1.1 response: status line, the headers given, a blank line, the body.
pub fn http_response(status: u16, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} Status\r\n").into_bytes();
    for (name, value) in headers {
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
    out
}

/// A `response` record for `uri`: an HTML 200 with `body`.
pub fn html_response(uri: &str, body: &str) -> Vec<u8> {
    record(
        "response",
        &[
            ("WARC-Target-URI", uri),
            ("Content-Type", "application/http; msgtype=response"),
        ],
        &http_response(
            200,
            &[("Content-Type", "text/html; charset=utf-8")],
            body.as_bytes(),
        ),
    )
}

/// One page as Common Crawl captures it: the `request`, the HTML 200
/// `response` and a `metadata` record, for `url` (`https://HOST/`).
pub fn captured_page(url: &str, html: &str) -> Vec<Vec<u8>> {
    let host = url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .expect("a page URL with a host");
    let get = format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n");
    vec![
        record("request", &[("WARC-Target-URI", url)], get.as_bytes()),
        html_response(url, html),
        record(
            "metadata",
            &[("WARC-Target-URI", url)],
            b"fetchTimeMs: 12\r\n",
        ),
    ]
}

/// A `warcinfo` record.
pub fn warcinfo() -> Vec<u8> {
    record(
        "warcinfo",
        &[("Content-Type", "application/warc-fields")],
        b"software: test\r\nformat: WARC File Format 1.1\r\n",
    )
}

/// Each record as its own gzip member, concatenated.
pub fn per_record_gzip(records: &[Vec<u8>]) -> Vec<u8> {
    records.iter().flat_map(|r| gzip_member(r)).collect()
}

/// Writes `bytes` to `dir/name` and gives the path.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("a test file");
    path
}

/// Makes `path` `len` bytes long, the added part a hole (a sparse file).
pub fn grow_sparse(path: &Path, len: u64) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(len))
        .expect("a sparse file");
}
