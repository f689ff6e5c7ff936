//! `corpus` over web archives (SPEC 10): every HTML 200 response is a page
//! judged against its target URI, other records are counted by kind, and the
//! run gives the verdicts of the same pages saved as `.html` files.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

use egui_kittest::kittest::Queryable as _;

use crate::temp_dir;
use crate::ui::{app_in, run_corpus_view};
use crate::warc_files::{
    captured_page, gzip_member, html_response, http_response, per_record_gzip, record, warcinfo,
    write,
};
use crate::{repo_path, run, run_json, run_read_then_closed, stderr, stdout};

/// A home page naming its URL, with links the scraper ranks.
fn page(url: &str, name: &str) -> String {
    format!(
        "<!doctype html><html><head><title>{name}</title>\
         <link rel=\"canonical\" href=\"{url}\"></head><body>\
         <nav><a href=\"/about/\">About {name}</a><a href=\"/blog/\">Blog</a></nav>\
         <a href=\"/team\">Our team</a><a href=\"/products/\">Products</a>\
         <footer><a href=\"/contact\">Contact</a><a href=\"/impressum\">Impressum</a>\
         <a href=\"https://elsewhere.test/\">Partner</a></footer></body></html>"
    )
}

const URLS: [&str; 3] = [
    "https://alpha.test/",
    "https://beta.test/",
    "https://gamma.test/",
];

/// Records shaped like Common Crawl's (request, response, metadata per
/// page) plus one of every kind that is not a page.
fn crawl_records() -> Vec<Vec<u8>> {
    let mut records = vec![warcinfo()];
    for (i, url) in URLS.iter().enumerate() {
        records.extend(captured_page(url, &page(url, &format!("site{i}"))));
    }
    records.push(record(
        "response",
        &[("WARC-Target-URI", "https://alpha.test/missing")],
        &http_response(404, &[("Content-Type", "text/html")], b"<p>gone</p>"),
    ));
    records.push(record(
        "response",
        &[("WARC-Target-URI", "https://alpha.test/logo.png")],
        &http_response(200, &[("Content-Type", "image/png")], b"\x89PNG"),
    ));
    records.push(record(
        "revisit",
        &[
            ("WARC-Target-URI", "https://beta.test/"),
            (
                "WARC-Profile",
                "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",
            ),
        ],
        &http_response(200, &[("Content-Type", "text/html")], b""),
    ));
    records.push(record(
        "resource",
        &[("WARC-Target-URI", "urn:dom:https://alpha.test/")],
        b"<html></html>",
    ));
    // The same page captured again later: a duplicate.
    records.push(html_response(URLS[0], &page(URLS[0], "again")));
    records
}

fn corpus_json(target: &str, extra: &[&str]) -> Value {
    let mut args = vec!["corpus", target];
    args.extend(extra);
    run_json(&args)
}

fn ids(report: &Value) -> Vec<&str> {
    report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect()
}

/// The pages of `report` without their ids: what was decided.
fn verdicts(report: &Value) -> Vec<Value> {
    report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let mut p = p.clone();
            p.as_object_mut().unwrap().remove("id");
            p
        })
        .collect()
}

#[test]
fn an_archive_gives_the_verdicts_of_the_same_pages_saved_as_files() {
    let dir = temp_dir("verdicts");
    let archive = write(&dir, "crawl.warc.gz", &per_record_gzip(&crawl_records()));
    let pages = dir.join("pages");
    std::fs::create_dir_all(&pages).unwrap();
    for (i, url) in URLS.iter().enumerate() {
        write(
            &pages,
            &format!("{i}.html"),
            page(url, &format!("site{i}")).as_bytes(),
        );
    }
    let from_archive = corpus_json(archive.to_str().unwrap(), &[]);
    let from_files = corpus_json(pages.to_str().unwrap(), &[]);
    assert_eq!(ids(&from_archive), URLS);
    assert_eq!(verdicts(&from_archive), verdicts(&from_files));
    assert_eq!(from_archive["keywords"], from_files["keywords"]);
    assert_eq!(
        from_archive["summary"]["followed_a"],
        from_files["summary"]["followed_a"]
    );
    assert!(from_archive["summary"]["followed_a"].as_u64().unwrap() > 0);
    let archives = &from_archive["archives"];
    assert_eq!(archives["records"], 15);
    assert_eq!(archives["pages"], 3);
    let skipped = &archives["skipped"];
    for (kind, n) in [
        ("warcinfo", 1),
        ("request", 3),
        ("metadata", 3),
        ("revisit", 1),
        ("resource", 1),
        ("not_html", 1),
        ("not_200", 1),
        ("duplicate", 1),
        ("bad_http", 0),
        ("bad_target_uri", 0),
        ("other_type", 0),
    ] {
        assert_eq!(skipped[kind], n, "{kind}");
    }
    assert_eq!(archives["damaged"], Value::Array(vec![]));
    // A folder of pages has no archives key.
    assert!(from_files.get("archives").is_none());
}

#[test]
fn plain_whole_file_gzip_a_folder_of_archives_and_a_list_read_alike() {
    let dir = temp_dir("forms");
    let records = crawl_records();
    let plain = write(&dir, "crawl.warc", &records.concat());
    // One gzip member for the whole file, as the `warc` crate's writer makes.
    let whole = write(&dir, "whole.gz.bin", &gzip_member(&records.concat()));
    let expected = corpus_json(plain.to_str().unwrap(), &[]);
    assert_eq!(ids(&expected), URLS);
    // Told by its content, not its name.
    let whole_report = corpus_json(whole.to_str().unwrap(), &[]);
    assert_eq!(verdicts(&whole_report), verdicts(&expected));

    // A folder: the archives in file-name order; the second's pages follow
    // the first's, and its copy of alpha is a duplicate.
    let folder = dir.join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let delta = "https://delta.test/";
    write(
        &folder,
        "b.warc",
        &[warcinfo(), html_response(delta, &page(delta, "d"))].concat(),
    );
    write(&folder, "a.warc.gz", &per_record_gzip(&records));
    write(&folder, "notes.txt", b"not an archive");
    let report = corpus_json(folder.to_str().unwrap(), &[]);
    assert_eq!(ids(&report), [URLS[0], URLS[1], URLS[2], delta]);

    // @LIST: relative to the list's folder; blank lines and comments skipped.
    let list = write(
        &dir,
        "archives.txt",
        b"# the crawl of Tuesday\n\nfolder/b.warc\n  crawl.warc  \n",
    );
    let report = corpus_json(&format!("@{}", list.display()), &[]);
    assert_eq!(ids(&report), [delta, URLS[0], URLS[1], URLS[2]]);
    assert_eq!(report["archives"]["files"].as_array().unwrap().len(), 2);
}

#[test]
fn a_browser_capture_with_chunked_gzip_bodies_is_decoded() {
    let dir = temp_dir("pywb");
    let url = "https://chunky.test/";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(page(url, "chunky").as_bytes()).unwrap();
    let packed = gz.finish().unwrap();
    let mut chunked = Vec::new();
    for chunk in packed.chunks(100) {
        chunked.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        chunked.extend_from_slice(chunk);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let block = http_response(
        200,
        &[
            ("Content-Type", "text/html"),
            ("Content-Encoding", "gzip"),
            ("Transfer-Encoding", "chunked"),
        ],
        &chunked,
    );
    let archive = write(
        &dir,
        "capture.warc.gz",
        &per_record_gzip(&[
            warcinfo(),
            record("response", &[("WARC-Target-URI", url)], &block),
        ]),
    );
    let report = corpus_json(archive.to_str().unwrap(), &[]);
    assert_eq!(ids(&report), [url]);
    let followed = report["pages"][0]["followed_a"].as_array().unwrap();
    assert!(
        followed.iter().any(|u| u == "https://chunky.test/contact"),
        "{followed:?}"
    );
}

fn tuned() -> String {
    repo_path("tests/fixtures/settings-tuned.json")
        .display()
        .to_string()
}

#[test]
fn two_settings_give_byte_identical_output_across_runs_and_jobs() {
    let dir = temp_dir("identical");
    let archive = write(&dir, "crawl.warc.gz", &per_record_gzip(&crawl_records()));
    let target = archive.to_str().unwrap();
    let tuned = tuned();
    for format in ["json", "table", "csv"] {
        let outputs: Vec<Vec<u8>> = ["1", "2", "2"]
            .iter()
            .map(|jobs| {
                let out = run(&[
                    "corpus",
                    target,
                    "--against-settings",
                    &tuned,
                    "--jobs",
                    jobs,
                    "--format",
                    format,
                ]);
                assert!(out.status.success(), "{}", stderr(&out));
                out.stdout
            })
            .collect();
        assert_eq!(outputs[0], outputs[1], "{format}: --jobs 1 and 2");
        assert_eq!(outputs[1], outputs[2], "{format}: two runs");
    }
    let report = corpus_json(target, &["--against-settings", &tuned]);
    assert!(report["summary"]["changed_links"].as_u64().unwrap() > 0);
    assert!(!report["summary"]["causes"].as_array().unwrap().is_empty());
}

#[test]
fn the_table_says_what_was_skipped() {
    let dir = temp_dir("table");
    let archive = write(&dir, "crawl.warc.gz", &per_record_gzip(&crawl_records()));
    let out = run(&["corpus", archive.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert!(
        table.contains(
            "3 of 15 records are pages (1 archive); skipped: 1 warcinfo, 3 request, 3 metadata, \
             1 revisit, 1 resource, 1 not HTML, 1 not status 200, 1 duplicate URI"
        ),
        "{table}"
    );
    assert!(table.contains("https://alpha.test/"), "{table}");
}

#[test]
fn the_corpus_view_runs_an_archive_typed_in_its_field() {
    let dir = temp_dir("view");
    let mut records = crawl_records();
    // A damaged record: the view lists it.
    records.push(b"not a record\r\n\r\n".to_vec());
    records.push(record("metadata", &[("WARC-Target-URI", URLS[2])], b"x"));
    let archive: PathBuf = write(&dir, "crawl.warc", &records.concat());
    let mut harness = app_in(temp_dir("archive-corpus-view"), None);
    run_corpus_view(&mut harness, &archive);
    harness.get_by_label("Archive…");
    let run = harness.state().corpus_run().expect("the run finished");
    assert_eq!(run.pages.len(), 3);
    harness.get_by_label_contains("3 pages read");
    harness.get_by_label_contains("3 of 16 records are pages (1 archive); skipped: 1 warcinfo");
    harness.get_by_label_contains("; 1 damaged record");
    harness.get_by_label_contains(&format!(
        "✖ damaged: {} at offset",
        Path::new(&archive).display()
    ));
    // The page's id and its URL: both the target URI.
    assert_eq!(harness.query_all_by_label("https://beta.test/").count(), 2);
}

/// A report streamed into a pipe closed after its first bytes (`| head`):
/// the run ends, and quietly, in each format that streams.
#[test]
fn a_streamed_report_into_a_closed_pipe_ends_the_run_quietly() {
    let dir = temp_dir("archive-corpus-closed-pipe");
    // More report than the pipe and the 1 MiB before it hold, in either
    // format (a CSV line of ~420 bytes, two long URLs).
    let long = "a-path-long-enough-to-make-the-report-outgrow-its-buffer/".repeat(3);
    let mut records = vec![warcinfo()];
    for n in 0..4000 {
        let url = format!("https://site{n}.example/{long}");
        records.push(html_response(&url, &page(&url, "Contact")));
    }
    let archive = write(&dir, "many.warc", &records.concat());
    let archive = archive.display().to_string();
    for format in ["json", "csv"] {
        let done = run_read_then_closed(&["corpus", &archive, "--format", format], 64);
        let err = stderr(&done);
        assert_eq!(done.status.code(), Some(0), "{format}: {err}");
        assert_eq!(err, "", "{format}");
    }
}
