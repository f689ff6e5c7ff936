//! The WACZ reader's tests, by what they hold to: the container (its ZIP,
//! entries read in place, hostile directories and names), the index and
//! its lookups, the hashes, inputs too large to hold, and a package
//! PyPI `wacz` wrote. The builders they share are here.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use sha2::{Digest, Sha256};
use url::Url;
use zip::write::SimpleFileOptions;

use super::*;

fn record(kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

fn response(uri: &str, body: &str) -> Vec<u8> {
    let block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    record("response", uri, block.as_bytes())
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn cdxj(
    url: &str,
    ts: &str,
    status: &str,
    mime: &str,
    offset: u64,
    length: u64,
    file: &str,
) -> String {
    format!(
        "{url} {ts} {{\"url\": \"{url}\", \"mime\": \"{mime}\", \"status\": \"{status}\", \"offset\": \"{offset}\", \"length\": \"{length}\", \"filename\": \"{file}\"}}\n"
    )
}

/// A file entry: its name, its bytes, and whether it is stored.
struct Put<'a>(&'a str, Vec<u8>, bool);

/// A ZIP written by the zip crate's writer.
fn zip_of(entries: &[Put<'_>]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for Put(name, bytes, stored) in entries {
        let method = if *stored {
            zip::CompressionMethod::Stored
        } else {
            zip::CompressionMethod::Deflated
        };
        let options = SimpleFileOptions::default()
            .compression_method(method)
            .compression_level((!*stored).then_some(1));
        writer.start_file(*name, options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

fn temp_with(bytes: &[u8]) -> tempfile::TempPath {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(bytes).unwrap();
    file.into_temp_path()
}

/// The good package: a stored WARC, a deflated gzip WARC, a CDXJ index,
/// pages and a datapackage.json whose hashes are right.
struct Good {
    warc_a: Vec<u8>,
    warc_b: Vec<u8>,
    /// Where `https://example.com/b` starts in `warc_b`, and its length.
    b_at: (u64, u64),
}

fn good_files() -> (Good, Vec<Put<'static>>) {
    let info = record("warcinfo", "", b"software: test\r\n");
    let home = response("https://example.com/", "<a href=/b>b</a>");
    let mut warc_a = info.clone();
    let home_at = warc_a.len() as u64;
    warc_a.extend_from_slice(&home);
    let member_a = gzip(&info);
    let member_b = gzip(&response("https://example.com/b", "<p>b</p>"));
    let mut warc_b = member_a.clone();
    warc_b.extend_from_slice(&member_b);
    let b_at = (member_a.len() as u64, member_b.len() as u64);
    let mut index = String::new();
    index += &cdxj(
        "https://example.com/",
        "20240101000000",
        "200",
        "text/html",
        home_at,
        home.len() as u64,
        "a.warc",
    );
    index += &cdxj(
        "https://example.com/b",
        "20240101000001",
        "200",
        "text/html",
        b_at.0,
        b_at.1,
        "b.warc.gz",
    );
    let pages = "{\"format\": \"json-pages-1.0\", \"id\": \"pages\", \"title\": \"All Pages\"}\n\
        {\"id\": \"1\", \"url\": \"https://example.com/\", \"title\": \"Home\", \"ts\": \"2024-01-01T00:00:00Z\"}\n\
        {\"id\": \"2\", \"url\": \"https://example.com/b\", \"ts\": \"2024-01-01T00:00:01Z\"}\n";
    let resource = |path: &str, bytes: &[u8]| {
        format!(
            "{{\"name\": \"x\", \"path\": \"{path}\", \"hash\": \"sha256:{}\", \"bytes\": {}}}",
            sha256_hex(bytes),
            bytes.len()
        )
    };
    let datapackage = format!(
        "{{\"profile\": \"data-package\", \"resources\": [{}, {}, {}, {}]}}",
        resource("archive/a.warc", &warc_a),
        resource("archive/b.warc.gz", &warc_b),
        resource("indexes/index.cdxj", index.as_bytes()),
        resource("pages/pages.jsonl", pages.as_bytes()),
    );
    let files = vec![
        Put("indexes/index.cdxj", index.into_bytes(), false),
        Put("archive/b.warc.gz", warc_b.clone(), false),
        Put("archive/a.warc", warc_a.clone(), true),
        Put("pages/pages.jsonl", pages.as_bytes().to_vec(), false),
        Put("datapackage.json", datapackage.into_bytes(), false),
    ];
    (
        Good {
            warc_a,
            warc_b,
            b_at,
        },
        files,
    )
}

fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

fn open_bytes(bytes: &[u8]) -> (tempfile::TempPath, Result<Wacz, WaczError>) {
    let path = temp_with(bytes);
    let wacz = Wacz::open(&path);
    (path, wacz)
}

mod container;
mod hashes;
mod index;
mod interop;
mod large;
