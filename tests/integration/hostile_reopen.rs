//! Hostile archives reopened (`inspect`, `diff` FILE.warc): bodies that
//! decode to gigabytes, settings far over the limits, damage, raw bytes in a
//! target URI, a wrapped depth, redirects out of the web and page records
//! that name what is not there. Each run ends well within its bound, in a
//! modest peak of memory, with the page it can answer or a one-line message.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::hostile::{Measured, run_measured};
use crate::hostile_files::{fails_in_one_line, run_bounded};
use crate::temp_dir;
use crate::warc_files::{
    gzip_member, html_response, http_response, per_record_gzip, record, warcinfo, write,
};

/// Peak resident memory of a reopen of the bomb archives (KiB): they held
/// 3.7 and 5.4 GB when every body was decoded before the crawl.
const REOPEN_PEAK_KIB: i64 = 400 * 1024;
/// Generous for a debug build on a shared machine: the slow cases took 9 s
/// and more than 120 s.
const BOUND: Duration = Duration::from_secs(20);

const START: &str = "https://bomb.test/";

/// A body that decodes, through `Content-Encoding: gzip, gzip`, to 250 MB
/// of spaces in about a kilobyte: 250 gzip members of 1 MB each (a gzip
/// decoder reads members on), gzipped again.
fn bomb() -> Vec<u8> {
    let member = gzip_member(&vec![b' '; 1024 * 1024]);
    gzip_member(&member.repeat(250))
}

fn bomb_response(uri: &str, bomb: &[u8]) -> Vec<u8> {
    record(
        "response",
        &[
            ("WARC-Target-URI", uri),
            ("Content-Type", "application/http; msgtype=response"),
        ],
        &http_response(
            200,
            &[
                ("Content-Type", "text/html"),
                ("Content-Encoding", "gzip, gzip"),
            ],
            bomb,
        ),
    )
}

/// Our inspection record, with `extra` fields over the minimal ones.
fn inspection(extra: Value) -> Vec<u8> {
    let mut meta = json!({ "schema": 1, "start_url": START, "depth": 2, "mode": "static" });
    for (k, v) in extra.as_object().unwrap() {
        meta[k] = v.clone();
    }
    record(
        "metadata",
        &[
            ("WARC-Target-URI", "urn:follow-inspector:inspection"),
            ("Content-Type", "application/json"),
        ],
        meta.to_string().as_bytes(),
    )
}

/// The start page, linking to `count` pages `/p0`… of the archive (the
/// first N of them followed, as contact pages).
fn start_page(count: usize) -> Vec<u8> {
    let links: String = (0..count)
        .map(|i| format!("<a href=\"/p{i}\">contact {i}</a>"))
        .collect();
    html_response(START, &format!("<html><body>{links}</body></html>"))
}

fn measured(args: &[&str]) -> (Measured, Duration) {
    let owned: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let started = Instant::now();
    let m = run_measured(&owned);
    (m, started.elapsed())
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn settings_file(dir: &Path) -> PathBuf {
    let path = dir.join("b.json");
    std::fs::write(&path, r#"{"followKeywordsWhite": "page"}"#).unwrap();
    path
}

#[test]
fn bodies_that_decode_to_gigabytes_are_read_only_when_asked_and_cut() {
    let dir = temp_dir("reopen-bombs");
    let bomb = bomb();
    // Ours: 20 bodies of 250 MB each, with our inspection record.
    let mut own = vec![warcinfo(), inspection(json!({})), start_page(20)];
    own.extend((0..20).map(|i| bomb_response(&format!("{START}p{i}"), &bomb)));
    let own = write(&dir, "own.warc", &own.concat());
    // Another tool's: 300 of them.
    let mut foreign = vec![warcinfo(), start_page(300)];
    foreign.extend((0..300).map(|i| bomb_response(&format!("{START}p{i}"), &bomb)));
    let foreign = write(&dir, "foreign.warc", &foreign.concat());
    let b = settings_file(&dir);

    for archive in [&own, &foreign] {
        let inspect = ["inspect", path_str(archive), "--format", "json"];
        let diff = [
            "diff",
            path_str(archive),
            "--against-settings",
            path_str(&b),
            "--format",
            "json",
        ];
        for args in [&inspect[..], &diff[..]] {
            let (m, took) = measured(args);
            assert_eq!(m.status.code(), Some(0), "{args:?}: {}", m.stderr);
            assert!(
                m.peak_kib < REOPEN_PEAK_KIB,
                "{args:?}: peak {} KiB",
                m.peak_kib
            );
            assert!(took < BOUND, "{args:?} took {took:?}");
            // Each page the crawl read is cut at --max-bytes and says so.
            assert!(m.stderr.contains("was cut at"), "{}", m.stderr);
        }
        let (m, _) = measured(&inspect);
        assert!(m.stdout.contains("\"truncated\": true"), "{}", m.stdout);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn settings_over_the_limits_in_an_archive_are_refused_as_a_settings_file_is() {
    let dir = temp_dir("reopen-limits");
    let keywords: Vec<String> = (0..80_000).map(|i| format!("k{i}")).collect();
    let settings = json!({ "followKeywordsWhite": keywords.join(",") });
    let path = write(
        &dir,
        "keywords.warc.gz",
        &per_record_gzip(&[
            warcinfo(),
            inspection(json!({ "settings": settings })),
            start_page(1),
        ]),
    );
    let b = settings_file(&dir);
    let message = format!(
        "{}: the archive's settings: `followKeywordsWhite` has 80000 items; at most 10000 are \
         supported",
        path.display()
    );
    for args in [
        vec!["inspect", path_str(&path)],
        vec!["diff", path_str(&path), "--against-settings", path_str(&b)],
    ] {
        let started = Instant::now();
        let out = run_bounded(&args);
        assert!(
            started.elapsed() < BOUND,
            "{args:?}: {:?}",
            started.elapsed()
        );
        fails_in_one_line(&out, 2, &[&message]);
    }
}

#[test]
fn a_damaged_record_is_passed_over_with_its_offset_and_the_intact_pages_read() {
    let dir = temp_dir("reopen-cut-last");
    let head = per_record_gzip(&[warcinfo(), start_page(1)]);
    // A file still being written: its last member cut.
    let mut cut = gzip_member(&html_response(
        &format!("{START}p0"),
        &"<p>x</p>".repeat(5000),
    ));
    cut.truncate(cut.len() / 2);
    let path = write(&dir, "cut.warc.gz", &[head.clone(), cut].concat());
    let b = settings_file(&dir);
    let warning = format!(
        "warning: {} at offset {}: the gzip member is cut short",
        path.display(),
        head.len()
    );
    for args in [
        vec!["inspect", path_str(&path), "--format", "json"],
        vec![
            "diff",
            path_str(&path),
            "--against-settings",
            path_str(&b),
            "--format",
            "json",
        ],
    ] {
        let out = run_bounded(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.contains(&warning), "{err}");
        assert!(String::from_utf8_lossy(&out.stdout).contains(START));
    }
}

/// A response record whose `WARC-Target-URI` is `uri`, raw bytes and all.
fn raw_uri_response(uri: &[u8], body: &str) -> Vec<u8> {
    let block = http_response(200, &[("Content-Type", "text/html")], body.as_bytes());
    let mut out = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: ".to_vec();
    out.extend_from_slice(uri);
    out.extend_from_slice(format!("\r\nContent-Length: {}\r\n\r\n", block.len()).as_bytes());
    out.extend_from_slice(&block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

#[test]
fn target_uris_with_bytes_that_are_not_utf8_stay_two_pages() {
    let dir = temp_dir("reopen-raw-uri");
    let path = write(
        &dir,
        "latin1.warc",
        &[
            warcinfo(),
            raw_uri_response(b"https://caf.test/caf\xE9", "<a href=/contact>Contact</a>"),
            raw_uri_response(b"https://caf.test/caf\xE8", "<a href=/about>About</a>"),
        ]
        .concat(),
    );
    let out = run_bounded(&["corpus", path_str(&path), "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["https://caf.test/caf%E9", "https://caf.test/caf%E8"],
        "{report}"
    );
    // Reopened, each is its own page.
    for (url, link) in [
        ("https://caf.test/caf%E9", "/contact"),
        ("https://caf.test/caf%E8", "/about"),
    ] {
        let out = run_bounded(&[
            "inspect",
            path_str(&path),
            "--base-url",
            url,
            "--format",
            "json",
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains(link));
    }
}

#[test]
fn a_depth_that_would_wrap_is_taken_as_the_deepest_the_command_line_allows() {
    let dir = temp_dir("reopen-depth");
    let path = write(
        &dir,
        "deep.warc.gz",
        &per_record_gzip(&[
            warcinfo(),
            inspection(json!({ "depth": 4_294_967_295_u64 })),
            start_page(20),
        ]),
    );
    let out = run_bounded(&["inspect", path_str(&path), "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    // N = (5 - 1) × 3, as `--depth 5` gives it; it wrapped to 0.
    assert_eq!(report["pages"][0]["limit"], 12, "{report}");
}

#[test]
fn a_redirect_out_of_the_web_is_refused_as_a_live_fetch_refuses_it() {
    let dir = temp_dir("reopen-redirect");
    let mut records = vec![warcinfo()];
    for (i, location) in [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "data:text/html,hi",
    ]
    .iter()
    .enumerate()
    {
        records.push(record(
            "response",
            &[("WARC-Target-URI", &format!("https://r{i}.test/"))],
            &http_response(302, &[("Location", location)], b""),
        ));
    }
    records.push(html_response("file:///etc/passwd", "<p>not this</p>"));
    let path = write(&dir, "redirects.warc", &records.concat());
    for (i, scheme) in ["javascript", "file", "data"].iter().enumerate() {
        let base = format!("https://r{i}.test/");
        let out = run_bounded(&["inspect", path_str(&path), "--base-url", &base]);
        fails_in_one_line(
            &out,
            3,
            &[&format!("is a {scheme}: address, not an http(s) page")],
        );
    }
}

/// Our page record for `url`, referring to the record `refers_to`.
fn page_record(url: &str, refers_to: &str, rendered: bool) -> Vec<u8> {
    let mut meta = json!({ "level": 0, "requested": url, "mode": "static" });
    if rendered {
        meta["mode"] = json!("rendered");
        meta["rendered"] = json!({ "served_html": false, "render_ms": 1 });
    }
    record(
        "metadata",
        &[
            ("WARC-Target-URI", url),
            ("WARC-Refers-To", refers_to),
            ("Content-Type", "application/json"),
        ],
        meta.to_string().as_bytes(),
    )
}

#[test]
fn a_page_record_naming_a_missing_record_is_answered_by_its_url_or_says_so() {
    let dir = temp_dir("reopen-refers");
    // Static: the response is there, under another id.
    let path = write(
        &dir,
        "static.warc.gz",
        &per_record_gzip(&[
            warcinfo(),
            inspection(json!({})),
            start_page(1),
            page_record(START, "<urn:uuid:gone>", false),
        ]),
    );
    let out = run_bounded(&["inspect", path_str(&path), "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("/p0"));

    // Rendered: the DOM the verdicts came from is not there.
    let path = write(
        &dir,
        "rendered.warc.gz",
        &per_record_gzip(&[
            warcinfo(),
            inspection(json!({ "mode": "rendered" })),
            start_page(1),
            page_record(START, "<urn:uuid:gone>", true),
        ]),
    );
    let out = run_bounded(&["inspect", path_str(&path)]);
    fails_in_one_line(
        &out,
        3,
        &["its page record refers to its DOM record <urn:uuid:gone>, which is not in the archive"],
    );
}
