//! Issue 28, High 3 and the `--resolve` case: reading on after damage costs
//! about the bytes read (20 MB of version lines took 245 s, 10 MB of gzip
//! magic 29 s), and `--resolve HOST:PORT:ADDR` maps only that port.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::hostile::{PEAK_LIMIT_KIB, run_measured};
use crate::server::{Route, Server};
use crate::temp_dir;
use crate::warc_files::{gzip_member, html_response, write};
use crate::{run, stderr};

/// Generous for a debug build on a loaded 2-core machine: 7 s and 3 s here.
const BOUND: Duration = Duration::from_secs(30);

fn page(uri: &str) -> Vec<u8> {
    html_response(
        uri,
        "<html><body><a href=\"/contact\">Contact</a></body></html>",
    )
}

/// `corpus FILE --format json` under the time and memory bounds: the report.
fn corpus_bounded(path: &Path) -> Value {
    let started = Instant::now();
    let out = run_measured(&[
        "corpus".to_owned(),
        path.to_str().unwrap().to_owned(),
        "--format".to_owned(),
        "json".to_owned(),
    ]);
    let took = started.elapsed();
    assert!(took < BOUND, "took {took:?}");
    assert!(out.peak_kib < PEAK_LIMIT_KIB, "peak {} KiB", out.peak_kib);
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

fn page_ids(report: &Value) -> Vec<&str> {
    let pages = report["pages"].as_array().unwrap();
    pages.iter().map(|p| p["id"].as_str().unwrap()).collect()
}

fn damaged_count(report: &Value) -> u64 {
    report["archives"]["damaged"].as_array().unwrap().len() as u64
        + report["archives"]["damaged_not_listed"]
            .as_u64()
            .unwrap_or(0)
}

#[test]
fn twenty_megabytes_of_version_lines_after_damage_read_in_seconds() {
    let dir = temp_dir("resync-lines");
    let lines = 20 * 1024 * 1024 / 9;
    let bytes = [
        page("https://a.test/"),
        b"WARC/1.0\n".repeat(lines),
        b"\r\n".to_vec(),
        page("https://b.test/"),
    ]
    .concat();
    let path = write(&dir, "lines.warc", &bytes);
    let report = corpus_bounded(&path);
    assert_eq!(page_ids(&report), ["https://a.test/", "https://b.test/"]);
    // Every version line is still one damaged record, as before.
    assert_eq!(damaged_count(&report), lines as u64);
    let first = &report["archives"]["damaged"][0]["detail"];
    assert_eq!(first, "the record header is longer than 65536 bytes");
    // `inspect` reads with the same reader: it passes over the damage, as
    // `corpus` does, warns of the first 1,000 damaged records and counts the
    // rest, and opens the first page.
    let started = Instant::now();
    let out = run(&["inspect", path.to_str().unwrap(), "--format", "json"]);
    assert!(started.elapsed() < BOUND);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 1001, "{err}");
    assert!(
        warnings[0].contains("the record header is longer than 65536 bytes")
            && warnings[0].contains("(passed over; the intact records are read)"),
        "{err}"
    );
    assert!(
        warnings[1000].contains(&format!("… and {} more records not listed", lines - 1000)),
        "{err}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["pages"][0]["url"], "https://a.test/");
}

#[test]
fn blocks_of_version_lines_each_ended_by_a_blank_line_read_in_seconds() {
    // Each candidate's header ends at the same blank line up to 64 KB on:
    // judged once, not re-read per candidate.
    let dir = temp_dir("resync-blocks");
    let block = [b"WARC/1.0\n".repeat(7000), b"\n".to_vec()].concat();
    let blocks = 8 * 1024 * 1024 / block.len();
    let bytes = [
        page("https://a.test/"),
        block.repeat(blocks),
        page("https://b.test/"),
    ]
    .concat();
    let path = write(&dir, "blocks.warc", &bytes);
    let report = corpus_bounded(&path);
    assert_eq!(page_ids(&report), ["https://a.test/", "https://b.test/"]);
    assert_eq!(damaged_count(&report), (blocks * 7000) as u64);
}

#[test]
fn ten_megabytes_of_gzip_magic_after_damage_read_in_seconds() {
    let dir = temp_dir("resync-magic");
    let bytes = [
        gzip_member(&page("https://a.test/")),
        [0x1f, 0x8b, 0x08].repeat(10 * 1024 * 1024 / 3),
        gzip_member(&page("https://b.test/")),
    ]
    .concat();
    let path = write(&dir, "magic.warc.gz", &bytes);
    let report = corpus_bounded(&path);
    assert_eq!(page_ids(&report), ["https://a.test/", "https://b.test/"]);
    assert_eq!(damaged_count(&report), 1);
    // With whole headers (10 bytes, no flags) the first block's type is bad.
    let header = [0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3];
    let bytes = [
        gzip_member(&page("https://a.test/")),
        header.repeat(1024 * 1024),
        gzip_member(&page("https://b.test/")),
    ]
    .concat();
    let path = write(&dir, "headers.warc.gz", &bytes);
    let report = corpus_bounded(&path);
    assert_eq!(page_ids(&report), ["https://a.test/", "https://b.test/"]);
}

/// A page, and a redirect to the same host on `other_port`.
fn two_ports_site(other_port: u16) -> HashMap<String, Route> {
    let mut routes = HashMap::new();
    routes.insert(
        "a..b/".to_owned(),
        Route::html("<html><head><title>Mapped</title></head><body><a href=/x>x</a></body></html>"),
    );
    let elsewhere = format!("http://a..b:{other_port}/");
    routes.insert("a..b/go".to_owned(), Route::redirect(302, &elsewhere));
    routes
}

#[test]
fn resolve_maps_only_the_port_it_names() {
    // `a..b`: the C library refuses a name with an empty label itself, so
    // an unmapped lookup fails without a query leaving the machine.
    let other = Server::start(|_| two_ports_site(0), Duration::ZERO);
    let other_port = other.port;
    let mapped = Server::start(|_| two_ports_site(other_port), Duration::ZERO);
    let resolve = format!("a..b:{}:127.0.0.1", mapped.port);
    let url = |port: u16| format!("http://a..b:{port}/");
    let out = run(&[
        "inspect",
        &url(mapped.port),
        "--depth",
        "1",
        "--resolve",
        &resolve,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(mapped.hits("a..b/"), 1);
    let out = run(&[
        "inspect",
        &url(other.port),
        "--depth",
        "1",
        "--resolve",
        &resolve,
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("DNS: cannot resolve a..b"), "{err}");
    // A redirect from the mapped port to another one is not sent there.
    let go = format!("http://a..b:{}/go", mapped.port);
    let out = run(&["inspect", &go, "--depth", "1", "--resolve", &resolve]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("DNS: cannot resolve a..b"), "{err}");
    assert_eq!(mapped.hits("a..b/go"), 1);
    assert!(other.all_hits().is_empty(), "the unmapped port was reached");
    let help = run(&["inspect", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("Only that port is mapped"));
}
