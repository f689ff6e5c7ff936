//! Bad archives given to `corpus`: each gets a clear message, the run goes
//! on past damage where it can, and nothing hangs.

use std::path::Path;

use serde_json::Value;

use crate::temp_dir;
use crate::warc_files::{
    grow_sparse, gzip_member, html_response, http_response, per_record_gzip, record, warcinfo,
    write,
};
use crate::{run, stderr, stdout};

const GOOD: &str = "https://good.test/";

fn good_page() -> Vec<u8> {
    html_response(
        GOOD,
        "<html><body><a href=\"/contact\">Contact</a><a href=\"/about\">About</a></body></html>",
    )
}

/// Runs `corpus --format json` and gives (exit code, report, stderr).
fn corpus(path: &Path) -> (i32, Option<Value>, String) {
    let out = run(&["corpus", path.to_str().unwrap(), "--format", "json"]);
    let report = serde_json::from_slice(&out.stdout).ok();
    (out.status.code().unwrap_or(-1), report, stderr(&out))
}

fn page_ids(report: &Value) -> Vec<&str> {
    report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect()
}

fn damaged(report: &Value) -> Vec<(u64, String)> {
    report["archives"]["damaged"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["offset"].as_u64().unwrap(),
                d["detail"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_truncated_gzip_member_is_reported_with_its_offset_and_the_pages_before_it_kept() {
    let dir = temp_dir("bad-truncated");
    let head = per_record_gzip(&[warcinfo(), good_page()]);
    let cut = gzip_member(&html_response(
        "https://cut.test/",
        &"<p>x</p>".repeat(5000),
    ));
    let bytes = [head.clone(), cut[..cut.len() / 2].to_vec()].concat();
    let path = write(&dir, "cut.warc.gz", &bytes);
    let (code, report, err) = corpus(&path);
    assert_eq!(code, 0, "{err}");
    let report = report.unwrap();
    assert_eq!(page_ids(&report), [GOOD]);
    assert_eq!(
        damaged(&report),
        [(
            head.len() as u64,
            "the gzip member is cut short: the file ends inside it".to_owned()
        )]
    );
    assert!(
        err.contains(&format!(
            "warning: {} at offset {}: the gzip member is cut short",
            path.display(),
            head.len()
        )),
        "{err}"
    );
}

#[test]
fn a_content_length_longer_than_the_file_is_reported_and_the_next_record_read() {
    let dir = temp_dir("bad-length");
    let lying = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://lie.test/\r\n\
                  Content-Length: 900000\r\n\r\nHTTP/1.1 200 OK\r\n\r\n<p>short</p>\r\n\r\n";
    for gzipped in [false, true] {
        let records = [warcinfo(), lying.to_vec(), good_page()];
        let (bytes, name) = if gzipped {
            (per_record_gzip(&records), "lying.warc.gz")
        } else {
            // Plain, the lie is past the file's end: the rest is skipped.
            (
                [records[0].clone(), records[2].clone(), records[1].clone()].concat(),
                "lying.warc",
            )
        };
        let path = write(&dir, name, &bytes);
        let (code, report, err) = corpus(&path);
        assert_eq!(code, 0, "{err}");
        let report = report.unwrap();
        assert_eq!(page_ids(&report), [GOOD], "{name}");
        let damaged = damaged(&report);
        assert_eq!(damaged.len(), 1, "{name}: {damaged:?}");
        assert!(
            damaged[0]
                .1
                .starts_with("Content-Length 900000 is longer than what is left"),
            "{damaged:?}"
        );
        assert!(err.contains("Content-Length 900000"), "{err}");
    }
}

#[test]
fn a_record_header_line_of_ten_megabytes_is_damage_not_a_hang() {
    let dir = temp_dir("bad-header");
    let mut huge = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: ".to_vec();
    huge.resize(huge.len() + 10 * 1024 * 1024, b'u');
    huge.extend_from_slice(b"\r\nContent-Length: 0\r\n\r\n\r\n\r\n");
    let path = write(
        &dir,
        "huge.warc.gz",
        &per_record_gzip(&[warcinfo(), huge, good_page()]),
    );
    let (code, report, err) = corpus(&path);
    assert_eq!(code, 0, "{err}");
    let report = report.unwrap();
    assert_eq!(page_ids(&report), [GOOD]);
    let damaged = damaged(&report);
    assert_eq!(damaged.len(), 1);
    assert_eq!(damaged[0].1, "the record header is longer than 65536 bytes");
}

#[test]
fn a_file_that_is_not_warc_is_refused_with_exit_2() {
    let dir = temp_dir("bad-notwarc");
    let path = write(&dir, "page.warc.gz", b"<html><body>hello</body></html>");
    let (code, _, err) = corpus(&path);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "{} is not a web archive (WARC): it does not start with a WARC/1.x record",
            path.display()
        )),
        "{err}"
    );
    // In a list, too: the list names a file that is not an archive.
    let list = write(&dir, "list.txt", b"page.warc.gz\n");
    let out = run(&["corpus", &format!("@{}", list.display())]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not a web archive"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_two_gigabyte_archive_is_read_without_reading_its_hole() {
    let dir = temp_dir("bad-sparse");
    let start = per_record_gzip(&[warcinfo(), good_page()]);
    let path = write(&dir, "big.warc.gz", &start);
    let two_gb = 2 * 1024 * 1024 * 1024;
    grow_sparse(&path, two_gb);
    let (code, report, err) = corpus(&path);
    assert_eq!(code, 0, "{err}");
    let report = report.unwrap();
    assert_eq!(page_ids(&report), [GOOD]);
    assert_eq!(
        damaged(&report),
        [(start.len() as u64, "no gzip member starts here".to_owned())]
    );

    // All zeros: not WARC, at once.
    let zeros = write(&dir, "zeros.warc", b"");
    grow_sparse(&zeros, two_gb);
    let (code, _, err) = corpus(&zeros);
    assert_eq!(code, 2);
    assert!(err.contains("is not a web archive (WARC)"), "{err}");
    // Sparse files are small on disk, but not to a copy of /tmp.
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_response_whose_http_part_does_not_parse_is_skipped_and_named() {
    let dir = temp_dir("bad-http");
    let broken = record(
        "response",
        &[("WARC-Target-URI", "https://broken.test/")],
        b"<html>no status line, no header</html>",
    );
    let path = write(
        &dir,
        "http.warc.gz",
        &per_record_gzip(&[warcinfo(), broken, good_page()]),
    );
    let (code, report, err) = corpus(&path);
    assert_eq!(code, 0, "{err}");
    let report = report.unwrap();
    assert_eq!(page_ids(&report), [GOOD]);
    assert_eq!(report["archives"]["skipped"]["bad_http"], 1);
    let unreadable = &report["archives"]["unreadable"][0];
    assert_eq!(unreadable["target_uri"], "https://broken.test/");
    assert!(
        err.contains(
            "(https://broken.test/): the HTTP response in the record does not parse: no blank \
             line ends its header"
        ),
        "{err}"
    );
}

#[test]
fn a_revisit_record_is_counted_not_judged() {
    let dir = temp_dir("bad-revisit");
    let revisit = record(
        "revisit",
        &[
            ("WARC-Target-URI", GOOD),
            ("WARC-Refers-To-Target-URI", GOOD),
            (
                "WARC-Profile",
                "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",
            ),
        ],
        &http_response(200, &[("Content-Type", "text/html")], b""),
    );
    let path = write(
        &dir,
        "revisit.warc.gz",
        &per_record_gzip(&[warcinfo(), good_page(), revisit]),
    );
    let (code, report, err) = corpus(&path);
    assert_eq!(code, 0, "{err}");
    let report = report.unwrap();
    assert_eq!(page_ids(&report), [GOOD]);
    assert_eq!(report["archives"]["skipped"]["revisit"], 1);
    let out = run(&["corpus", path.to_str().unwrap()]);
    assert!(
        stdout(&out).contains("skipped: 1 warcinfo, 1 revisit"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_target_uri_that_does_not_parse_is_skipped_and_named() {
    let dir = temp_dir("bad-uri");
    let relative = html_response("/just/a/path", "<a href=\"/contact\">Contact</a>");
    let spaced = html_response("http://exa mple.test/", "<a href=\"/contact\">Contact</a>");
    let path = write(
        &dir,
        "uri.warc",
        &[warcinfo(), relative, spaced, good_page()].concat(),
    );
    let (code, report, err) = corpus(&path);
    assert_eq!(code, 0, "{err}");
    let report = report.unwrap();
    assert_eq!(page_ids(&report), [GOOD]);
    assert_eq!(report["archives"]["skipped"]["bad_target_uri"], 2);
    assert!(
        err.contains("(/just/a/path): the target URI does not parse (relative URL without a base)"),
        "{err}"
    );
    assert!(
        err.contains("(http://exa mple.test/): the target URI does not parse"),
        "{err}"
    );
}

#[test]
fn a_fifo_named_as_an_archive_is_refused_not_waited_on() {
    let dir = temp_dir("bad-fifo");
    let fifo = dir.join("pipe.warc.gz");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let (code, _, err) = corpus(&fifo);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "cannot read {}: not a regular file (a folder, a FIFO or a device)",
            fifo.display()
        )),
        "{err}"
    );
}

#[test]
fn an_archive_of_nothing_but_damage_is_read_fast_and_lists_a_thousand() {
    let dir = temp_dir("bad-dense");
    let mut bytes = b"WARC/1.0\r\n\r\n".repeat(1500);
    bytes.extend(good_page());
    let path = write(&dir, "dense.warc", &bytes);
    let (code, report, err) = corpus(&path);
    assert_eq!(code, 0, "{err}");
    let report = report.unwrap();
    assert_eq!(page_ids(&report), [GOOD]);
    assert_eq!(damaged(&report).len(), 1000);
    assert_eq!(report["archives"]["damaged_not_listed"], 500);
    let table = run(&["corpus", path.to_str().unwrap()]);
    assert!(
        stdout(&table).contains("… and 500 more records not listed"),
        "{}",
        stdout(&table)
    );
}

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

#[test]
fn other_tools_quirks_are_read_as_warcio_reads_them_and_said() {
    let dir = temp_dir("quirks");
    let page = b"<html><body><a href=\"/contact\">Contact</a></body></html>";
    // pywb: chunked kept over a body stored de-chunked.
    let not_chunked = response_record(
        "https://chunked.test/",
        &http_response(
            200,
            &[
                ("Content-Type", "text/html"),
                ("Transfer-Encoding", "chunked"),
            ],
            page,
        ),
    );
    // wabac.js: gzip kept over a body stored decoded.
    let not_gzip = response_record(
        "https://gzip.test/",
        &http_response(
            200,
            &[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
            page,
        ),
    );
    // Headless Chrome: a header name with a space; the rest of the block
    // (its Content-Type) is kept, so the script is no page.
    let spaced = response_record(
        "https://cdn.test/jquery.js",
        &http_response(
            200,
            &[
                ("X-Content Type Options", "nosniff"),
                ("Content-Type", "application/javascript"),
            ],
            b"var a = 1;",
        ),
    );
    // Heritrix: a DNS lookup is a record of its own kind, not a problem.
    let dns = record(
        "response",
        &[
            ("WARC-Target-URI", "dns:chunked.test"),
            ("Content-Type", "text/dns"),
        ],
        b"20140325121225\nchunked.test. 300 IN A 127.0.0.1\n",
    );
    let path = write(
        &dir,
        "quirks.warc",
        &[warcinfo(), dns, not_chunked, not_gzip, spaced, good_page()].concat(),
    );
    let (code, report, err) = corpus(&path);
    assert_eq!(code, 0, "{err}");
    let report = report.unwrap();
    assert_eq!(
        page_ids(&report),
        ["https://chunked.test/", "https://gzip.test/", GOOD]
    );
    let archives = &report["archives"];
    assert_eq!(archives["skipped"]["non_http"], 1);
    assert_eq!(archives["skipped"]["not_html"], 1);
    assert_eq!(archives["unreadable"], Value::Array(vec![]));
    let as_stored: Vec<&str> = archives["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["detail"].as_str().unwrap())
        .collect();
    assert_eq!(
        as_stored,
        [
            "its header says Transfer-Encoding: chunked, but the body is not chunked: read as stored",
            "its header says Content-Encoding: gzip, but the body does not decode as that: read as stored",
        ]
    );
    // Every page reads: its contact link is followed.
    for page in report["pages"].as_array().unwrap() {
        let followed = page["followed_a"].as_array().unwrap();
        assert!(
            followed
                .iter()
                .any(|u| u.as_str().unwrap().ends_with("/contact")),
            "{page}"
        );
    }
    // The table says so too, and `inspect` opens the page.
    let table = stdout(&run(&["corpus", path.to_str().unwrap()]));
    assert!(table.contains("read as stored"), "{table}");
    assert!(table.contains("  warning: "), "{table}");
    let out = run(&[
        "inspect",
        path.to_str().unwrap(),
        "--base-url",
        "https://chunked.test/",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let inspected: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        inspected
            .to_string()
            .contains("https://chunked.test/contact")
    );
}
