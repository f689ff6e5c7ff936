//! Other tools' quirks (issue 31, item 1; SPEC 12): each record read past
//! something odd gets one warning naming all of it, in the corpus report's
//! `archives.warnings`, its table and `inspect`'s stderr; a body that ends
//! early is said to, never "cut at --max-bytes"; an archive with a damaged
//! record opens in `inspect` as it reads in `corpus`.

use std::path::Path;

use serde_json::Value;

use crate::temp_dir;
use crate::warc_files::{gzip_member, html_response, http_response, record, warcinfo, write};
use crate::{run, stderr, stdout};

const PAGE: &[u8] = b"<html><body><a href=\"/contact\">Contact</a></body></html>";

/// A response record for `uri` whose HTTP part is `block`.
fn response_record(uri: &str, block: &[u8]) -> Vec<u8> {
    record(
        "response",
        &[
            ("WARC-Target-URI", uri),
            ("Content-Type", "application/http; msgtype=response"),
        ],
        block,
    )
}

fn html(headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut all = vec![("Content-Type", "text/html")];
    all.extend_from_slice(headers);
    http_response(200, &all, body)
}

/// A page long enough that half its gzip stream decodes to something.
fn long_page() -> Vec<u8> {
    let links: String = (0..400)
        .map(|i| format!("<a href=\"/p{i}\">page {i} of a long list</a>\n"))
        .collect();
    format!("<html><body><a href=\"/contact\">Contact</a>{links}</body></html>").into_bytes()
}

/// Every quirk once, each in its own record, and a plain page: the records
/// in order, and the archive's offsets of each.
fn quirks_archive(dir: &Path) -> (std::path::PathBuf, Vec<u64>) {
    let packed = gzip_member(&long_page());
    let cut = &packed[..packed.len() / 2];
    let records = [
        warcinfo(),
        // pywb: chunked kept over a body stored de-chunked.
        response_record(
            "https://chunked.test/",
            &html(&[("Transfer-Encoding", "chunked")], PAGE),
        ),
        // wabac.js: gzip kept over a body stored decoded.
        response_record(
            "https://gzip.test/",
            &html(&[("Content-Encoding", "gzip")], PAGE),
        ),
        // A coding no decoder here has: read as stored, as warcio reads it.
        response_record(
            "https://zstd.test/",
            &html(&[("Content-Encoding", "zstd")], PAGE),
        ),
        // A header line that is no field, before the Content-Type: it is
        // skipped and named, the Content-Type kept, so the script is no page.
        response_record(
            "https://cdn.test/jquery.js",
            b"HTTP/1.1 200 OK\r\nX-Broken: ok\r\nthis line has no colon\r\n\
              Content-Type: application/javascript\r\n\r\nvar a = 1;",
        ),
        // warcio's example-trunc.warc: the body's gzip stream ends early,
        // its Content-Length past what the record holds.
        response_record(
            "https://early.test/",
            &html(
                &[
                    ("Content-Encoding", "gzip"),
                    ("Content-Length", &packed.len().to_string()),
                ],
                cut,
            ),
        ),
        html_response(
            "https://plain.test/",
            "<html><body><a href=\"/contact\">Contact</a></body></html>",
        ),
    ];
    let mut offsets = Vec::new();
    let mut at = 0u64;
    for r in &records {
        offsets.push(at);
        at += r.len() as u64;
    }
    (write(dir, "quirks.warc", &records.concat()), offsets)
}

fn corpus_json(path: &Path) -> Value {
    let out = run(&["corpus", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn each_odd_record_gets_one_warning_naming_what_was_odd() {
    let dir = temp_dir("quirks-warnings");
    let (path, offsets) = quirks_archive(&dir);
    let report = corpus_json(&path);
    let ids: Vec<&str> = report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "https://chunked.test/",
            "https://gzip.test/",
            "https://zstd.test/",
            "https://early.test/",
            "https://plain.test/",
        ]
    );
    let archives = &report["archives"];
    assert_eq!(archives["skipped"]["not_html"], 1);
    assert!(archives.get("read_as_stored").is_none());
    let warnings = archives["warnings"].as_array().unwrap();
    let seen: Vec<(u64, &str, &str)> = warnings
        .iter()
        .map(|w| {
            (
                w["offset"].as_u64().unwrap(),
                w["target_uri"].as_str().unwrap(),
                w["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (offsets[1], "https://chunked.test/", "not_chunked"),
            (offsets[2], "https://gzip.test/", "not_encoded"),
            (offsets[3], "https://zstd.test/", "unknown_coding"),
            (
                offsets[4],
                "https://cdn.test/jquery.js",
                "header_line_skipped"
            ),
            (offsets[5], "https://early.test/", "early_end"),
        ]
    );
    assert_eq!(archives["warnings_not_listed"], 0);
    let detail = |n: usize| warnings[n]["detail"].as_str().unwrap();
    assert_eq!(
        detail(2),
        "its header says Content-Encoding: zstd, which the inspector cannot undo: read as stored"
    );
    assert_eq!(
        detail(3),
        "its HTTP header line \"this line has no colon\" is not a field: skipped, the rest kept"
    );
    assert!(
        detail(4).starts_with("the record ended before its body: its Content-Length says "),
        "{}",
        detail(4)
    );
    // Every page reads: its contact link is followed; the early one is not
    // marked cut at --max-bytes.
    for page in report["pages"].as_array().unwrap() {
        let followed = page["followed_a"].as_array().unwrap();
        assert!(
            followed
                .iter()
                .any(|u| u.as_str().unwrap().ends_with("/contact")),
            "{page}"
        );
        assert!(page.get("truncated").is_none(), "{page}");
    }
    // The table names each, one line a record, and nothing says --max-bytes.
    let table = run(&["corpus", path.to_str().unwrap()]);
    let text = stdout(&table);
    assert!(text.contains("5 records read past something odd"), "{text}");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("warning: "))
        .collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(
        lines[4].contains(&format!(
            "{} at offset {} (https://early.test/): the record ended before its body",
            path.display(),
            offsets[5]
        )),
        "{text}"
    );
    assert!(
        !stderr(&table).contains("--max-bytes"),
        "{}",
        stderr(&table)
    );
}

#[test]
fn inspect_names_the_odd_records_its_crawl_read_and_an_early_end_is_no_cut() {
    let dir = temp_dir("quirks-inspect");
    let (path, offsets) = quirks_archive(&dir);
    let out = run(&[
        "inspect",
        path.to_str().unwrap(),
        "--base-url",
        "https://early.test/",
        "--format",
        "json",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "warning: {} at offset {} (https://early.test/): the record ended before its body: \
             its Content-Length says ",
            path.display(),
            offsets[5]
        )),
        "{err}"
    );
    assert!(!err.contains("--max-bytes"), "{err}");
    // Only the records the crawl read: the chunked page was not asked for.
    assert!(!err.contains("chunked.test"), "{err}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report.to_string().contains("https://early.test/contact"));
    // The JSON report stays the live run's: no key of its own for this.
    assert!(!report.to_string().contains("the record ended"));
    // `diff` reads the same records for both sides and names each once.
    let b = dir.join("b.json");
    std::fs::write(&b, r#"{"followKeywordsWhite": "page"}"#).unwrap();
    let out = run(&[
        "diff",
        path.to_str().unwrap(),
        "--base-url",
        "https://early.test/",
        "--against-settings",
        b.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        err.matches("(https://early.test/): the record ended")
            .count(),
        1,
        "{err}"
    );
    // A page read as stored is named the same way.
    let out = run(&[
        "inspect",
        path.to_str().unwrap(),
        "--base-url",
        "https://chunked.test/",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "warning: {} at offset {} (https://chunked.test/): its header says \
             Transfer-Encoding: chunked, but the body is not chunked: read as stored",
            path.display(),
            offsets[1]
        )),
        "{err}"
    );
}

#[test]
fn inspect_opens_an_archive_with_a_record_whose_length_is_short_as_corpus_reads_it() {
    // As warcio.js's example-bad-length.warc: a Content-Length two bytes
    // short of its block; the bytes left over are damage, the next record
    // is found, and both pages open.
    let dir = temp_dir("quirks-short-length");
    let first = html_response(
        "https://first.test/",
        "<html><body><a href=\"/contact\">Contact</a></body></html>",
    );
    let block_len = http_response(
        200,
        &[("Content-Type", "text/html; charset=utf-8")],
        b"<html><body><a href=\"/contact\">Contact</a></body></html>",
    )
    .len();
    let cut = String::from_utf8(first)
        .unwrap()
        .replacen(
            &format!("Content-Length: {block_len}\r\n"),
            &format!("Content-Length: {}\r\n", block_len - 2),
            1,
        )
        .into_bytes();
    let second = html_response(
        "https://second.test/",
        "<html><body><a href=\"/about\">About</a></body></html>",
    );
    let bytes = [warcinfo(), cut, second].concat();
    let path = write(&dir, "short.warc", &bytes);
    let report = corpus_json(&path);
    let damaged = report["archives"]["damaged"].as_array().unwrap();
    assert_eq!(damaged.len(), 1, "{report}");
    let offset = damaged[0]["offset"].as_u64().unwrap();
    for start in ["https://first.test/", "https://second.test/"] {
        let out = run(&[
            "inspect",
            path.to_str().unwrap(),
            "--base-url",
            start,
            "--format",
            "json",
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert!(
            err.contains(&format!("warning: {} at offset {offset}: ", path.display()))
                && err.contains("(passed over; the intact records are read)"),
            "{err}"
        );
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["pages"][0]["url"], start);
    }
}
