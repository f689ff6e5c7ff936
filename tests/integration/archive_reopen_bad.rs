//! Bad archives given to `inspect FILE.warc.gz` (SPEC 10): each stops with a
//! clear message and exit code, or answers the page it can; nothing hangs.

use std::path::Path;

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
        "<html><body><a href=\"/contact\">Contact</a><a href=\"/blog\">Blog</a></body></html>",
    )
}

/// `inspect ARCHIVE [--base-url URL] --format json`: (exit code, stdout, stderr).
fn reopen(path: &Path, base: Option<&str>) -> (i32, String, String) {
    let mut args = vec!["inspect", path.to_str().unwrap(), "--format", "json"];
    if let Some(base) = base {
        args.extend(["--base-url", base]);
    }
    let out = run(&args);
    (out.status.code().unwrap_or(-1), stdout(&out), stderr(&out))
}

#[test]
fn an_archive_of_another_tool_reopens_at_its_first_html_page() {
    let dir = temp_dir("reopen-foreign");
    let path = write(
        &dir,
        "foreign.warc.gz",
        &per_record_gzip(&[warcinfo(), good_page()]),
    );
    let (code, out, err) = reopen(&path, None);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["start_url"], GOOD);
    assert_eq!(report["pages"][0]["links"][0]["verdict"], "followed");
    assert_eq!(report["pages"][0]["links"][1]["verdict"], "blacklisted");
    assert!(err.contains("offline"), "{err}");
}

#[test]
fn damage_is_passed_over_with_its_offset_and_what_is_wrong() {
    let dir = temp_dir("reopen-damage");
    let head = per_record_gzip(&[warcinfo(), good_page()]);
    let mut cut = gzip_member(&html_response(
        "https://cut.test/",
        &"<p>x</p>".repeat(5000),
    ));
    cut.truncate(cut.len() / 2);
    let truncated = write(&dir, "cut.warc.gz", &[head.clone(), cut].concat());

    let mut lying = record(
        "response",
        &[("WARC-Target-URI", "https://lying.test/")],
        b"HTTP/1.1 200 OK\r\n\r\n",
    );
    let text = String::from_utf8(lying.clone()).unwrap();
    lying = text
        .replace("Content-Length: 19", "Content-Length: 999999")
        .into_bytes();
    let long = write(
        &dir,
        "long.warc",
        &[warcinfo(), good_page(), lying].concat(),
    );

    let mut huge = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: ".to_vec();
    huge.resize(huge.len() + 10 * 1024 * 1024, b'u');
    huge.extend_from_slice(b"\r\nContent-Length: 0\r\n\r\n\r\n\r\n");
    let header = write(
        &dir,
        "header.warc.gz",
        &per_record_gzip(&[warcinfo(), good_page(), huge]),
    );

    for (path, offset, detail) in [
        (&truncated, head.len(), "the gzip member is cut short"),
        (
            &long,
            warcinfo().len() + good_page().len(),
            "is longer than what is left of the file",
        ),
        (&header, head.len(), "the record header is longer than"),
    ] {
        // The intact page opens; the damaged record is a warning, as in a
        // corpus run.
        let (code, out, err) = reopen(path, None);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(GOOD), "{out}");
        assert!(
            err.contains(&format!("warning: {} at offset {offset}: ", path.display())),
            "{}: {err}",
            path.display()
        );
        assert!(err.contains(detail), "{err}");
    }
}

#[test]
fn a_file_that_is_not_warc_and_a_sparse_two_gigabytes_are_refused_or_read_at_once() {
    let dir = temp_dir("reopen-notwarc");
    let html = write(&dir, "page.warc.gz", b"<html><body>hello</body></html>");
    let (code, _, err) = reopen(&html, None);
    assert_eq!(code, 2);
    assert!(err.contains("is not a web archive (WARC)"), "{err}");
    assert!(
        err.contains("Open a WARC (.warc, .warc.gz), an ARC"),
        "{err}"
    );

    let zeros = write(&dir, "zeros.warc", b"");
    grow_sparse(&zeros, 2 * 1024 * 1024 * 1024);
    let (code, _, err) = reopen(&zeros, None);
    assert_eq!(code, 2);
    assert!(err.contains("is not a web archive (WARC)"), "{err}");

    // Good records, then a 2 GB hole: the hole is damage, named by offset.
    let start = per_record_gzip(&[warcinfo(), good_page()]);
    let sparse = write(&dir, "sparse.warc.gz", &start);
    grow_sparse(&sparse, 2 * 1024 * 1024 * 1024);
    let (code, _, err) = reopen(&sparse, None);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("at offset {}: ", start.len())),
        "{err}"
    );
    // Sparse files are small on disk, but not to a copy of /tmp.
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unreadable_records_are_page_errors_that_say_why() {
    let dir = temp_dir("reopen-unreadable");
    let broken = record(
        "response",
        &[("WARC-Target-URI", "https://broken.test/")],
        b"this is not an HTTP response",
    );
    let revisit = record(
        "revisit",
        &[
            ("WARC-Target-URI", "https://again.test/"),
            ("WARC-Refers-To-Target-URI", "https://gone.test/"),
        ],
        &http_response(200, &[], b""),
    );
    let bad_uri = record(
        "response",
        &[("WARC-Target-URI", "not a uri")],
        &http_response(200, &[("Content-Type", "text/html")], b"<a href=/x>x</a>"),
    );
    let path = write(
        &dir,
        "mixed.warc.gz",
        &per_record_gzip(&[warcinfo(), broken, revisit, bad_uri, good_page()]),
    );
    // The good page is the first one to open.
    let (code, out, err) = reopen(&path, None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(GOOD));

    for (url, detail) in [
        (
            "https://broken.test/",
            "the HTTP response in the record does not parse",
        ),
        (
            "https://again.test/",
            "the archive has only a revisit record for https://again.test/, and the capture it repeats is not in the archive",
        ),
        (
            "https://missing.test/",
            "not in the archive: https://missing.test/",
        ),
    ] {
        let (code, _, err) = reopen(&path, Some(url));
        assert_eq!(code, 3, "{url}: {err}");
        assert!(err.contains(detail), "{url}: {err}");
    }

    // Only records it cannot use: nothing to open.
    let none = write(
        &dir,
        "none.warc.gz",
        &per_record_gzip(&[
            warcinfo(),
            record("response", &[("WARC-Target-URI", "not a uri")], b"x"),
        ]),
    );
    let (code, _, err) = reopen(&none, None);
    assert_eq!(code, 2);
    assert!(err.contains("holds no page to open"), "{err}");
}
