//! Every kind of capture told from its bytes, whatever its name (issue 31,
//! the one door): ARC files, plain and gzip, read as warcio reads them; a
//! WARC under any name read as one; a WARC/0.x draft read where it is laid
//! out as 1.0, refused by name where it is not.

use std::path::Path;

use serde_json::Value;

use crate::temp_dir;
use crate::warc_files::{gzip_member, html_response, warcinfo, write};
use crate::{run, stderr};

const PAGE: &str = "<html><body><a href=\"/kontakt\">Kontakt</a><a href=\"/impressum\">Impressum</a></body></html>";

/// An ARC v1 file as the Internet Archive wrote it: the `filedesc` record,
/// then one record of a URL; each a gzip member when `gzip`.
fn arc_file(url: &str, html: &str, gzip: bool) -> Vec<u8> {
    let version = b"1 0 Test Crawler\nURL IP-address Archive-date Content-type Archive-length\n";
    let filedesc = [
        format!(
            "filedesc://test.arc 0.0.0.0 20140216050221 text/plain {}\n",
            version.len()
        )
        .into_bytes(),
        version.to_vec(),
        b"\n".to_vec(),
    ]
    .concat();
    let http = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{html}",
        html.len()
    );
    let page = [
        format!(
            "{url} 93.184.216.119 20140216050221 text/html {}\n",
            http.len()
        )
        .into_bytes(),
        http.into_bytes(),
        b"\n".to_vec(),
    ]
    .concat();
    if gzip {
        [gzip_member(&filedesc), gzip_member(&page)].concat()
    } else {
        [filedesc, page].concat()
    }
}

fn corpus(path: &Path) -> (i32, Option<Value>, String) {
    let out = run(&["corpus", path.to_str().unwrap(), "--format", "json"]);
    let report = serde_json::from_slice(&out.stdout).ok();
    (out.status.code().unwrap_or(-1), report, stderr(&out))
}

fn inspect(path: &Path) -> (i32, Option<Value>, String) {
    let out = run(&["inspect", path.to_str().unwrap(), "--format", "json"]);
    let report = serde_json::from_slice(&out.stdout).ok();
    (out.status.code().unwrap_or(-1), report, stderr(&out))
}

fn page_urls(report: &Value) -> Vec<String> {
    report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["url"].as_str().unwrap().to_owned())
        .collect()
}

fn link_texts(report: &Value) -> Vec<String> {
    report["pages"][0]["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn an_arc_file_plain_or_gzip_is_a_corpus_and_opens_in_inspect() {
    let dir = temp_dir("formats-arc");
    for (name, gzip) in [
        ("crawl.arc", false),
        ("crawl.arc.gz", true),
        ("crawl.bin", true),
    ] {
        let path = write(&dir, name, &arc_file("http://firma.test/", PAGE, gzip));
        let (code, report, err) = corpus(&path);
        assert_eq!(code, 0, "{name}: {err}");
        let report = report.unwrap();
        assert_eq!(page_urls(&report), ["http://firma.test/"], "{name}");
        assert_eq!(report["archives"]["skipped"]["warcinfo"], 1, "{name}");
        let (code, report, err) = inspect(&path);
        assert_eq!(code, 0, "{name}: {err}");
        let report = report.unwrap();
        assert_eq!(report["start_url"], "http://firma.test/", "{name}");
        assert_eq!(link_texts(&report), ["Kontakt", "Impressum"], "{name}");
    }
}

#[test]
fn a_warc_under_any_name_is_read_as_a_warc() {
    let dir = temp_dir("formats-named");
    let warc = [warcinfo(), html_response("https://firma.test/", PAGE)].concat();
    let path = write(&dir, "capture.bin", &warc);
    let (code, report, err) = inspect(&path);
    assert_eq!(code, 0, "{err}");
    assert_eq!(report.unwrap()["start_url"], "https://firma.test/");
    // A folder's archives are told from their bytes too.
    write(
        &dir,
        "older.dat",
        &arc_file("http://alt.test/", PAGE, false),
    );
    let (code, report, err) = corpus(&dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        page_urls(&report.unwrap()),
        ["https://firma.test/", "http://alt.test/"]
    );
}

#[test]
fn a_warc_draft_is_read_where_it_is_laid_out_as_1_0_and_refused_by_name_where_not() {
    let dir = temp_dir("formats-draft");
    let as_1_0 = String::from_utf8(html_response("https://alt.test/", PAGE))
        .unwrap()
        .replacen("WARC/1.0", "WARC/0.17", 1);
    let path = write(&dir, "heritrix.warc", as_1_0.as_bytes());
    let (code, report, err) = corpus(&path);
    assert_eq!(code, 0, "{err}");
    assert_eq!(page_urls(&report.unwrap()), ["https://alt.test/"]);

    let draft = b"WARC/0.9 231 response http://alt.test/ 20080430204825 <urn:x> text/html\n\nHTTP/1.0 200 OK\n\n";
    let path = write(&dir, "old.warc", draft);
    for (code, _, err) in [corpus(&path), inspect(&path)] {
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("is a WARC/0.9 draft file"), "{err}");
    }
    let (_, _, err) = inspect(&path);
    assert!(err.contains("Convert the file to WARC 1.0"), "{err}");
}
