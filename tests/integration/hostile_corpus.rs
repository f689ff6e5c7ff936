//! Hostile corpora: manifest ids that climb out of `pages/`, symlinks to
//! files elsewhere, FIFOs and huge sparse pages, bad rows. Each bad row is
//! an error on its own page, in manifest order; the others are read.

use std::path::Path;

use serde_json::Value;

use crate::hostile_files::{fails_in_one_line, mkfifo, run_bounded, sparse};
use crate::temp_dir;

const PAGE: &str = "<link rel=canonical href=\"https://acme.test/\"><a href=/contact>Contact</a>";

fn corpus_json(target: &Path, extra: &[&str]) -> (Value, String) {
    let target = target.to_string_lossy();
    let mut args = vec!["corpus", &*target, "--format", "json"];
    args.extend(extra);
    let out = run_bounded(&args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    (serde_json::from_slice(&out.stdout).expect("JSON"), err)
}

fn errors(report: &Value) -> Vec<(String, String)> {
    report["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap_or_default().to_owned(),
                p["error"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn manifest_rows_that_escape_repeat_or_lack_parts_are_per_row_errors() {
    let dir = temp_dir("manifest");
    let pages = dir.join("pages");
    std::fs::create_dir_all(&pages).expect("pages/");
    std::fs::write(pages.join("ok.html"), PAGE).expect("written");
    std::fs::write(dir.join("outside.html"), PAGE).expect("written");
    std::os::unix::fs::symlink("/etc/passwd", pages.join("pw.html")).expect("a symlink");
    mkfifo(&pages.join("fifo.html"));
    sparse(&pages.join("big.html"), 2 << 30);
    let mut manifest = b"id\toriginal_url\n".to_vec();
    for row in [
        "ok\thttps://acme.test/",
        "../outside\thttps://acme.test/",
        "/etc/passwd\thttps://acme.test/",
        "\thttps://acme.test/",
        "ok\thttps://acme.test/",
        "pw\thttps://acme.test/",
        "fifo\thttps://acme.test/",
        "big\thttps://acme.test/",
        "no-url",
    ] {
        manifest.extend(row.as_bytes());
        manifest.push(b'\n');
    }
    manifest.extend(b"\xff\xfe\thttps://acme.test/\n");
    manifest.extend(b"last\thttps://acme.test/\n");
    std::fs::write(pages.join("last.html"), PAGE).expect("written");
    let manifest_path = dir.join("manifest.tsv");
    std::fs::write(&manifest_path, manifest).expect("written");
    let (report, err) = corpus_json(&manifest_path, &["--max-bytes", "100000"]);
    let rows = errors(&report);
    let expect: [(&str, &str); 11] = [
        ("ok", ""),
        (
            "../outside",
            "manifest line 3: the id `../outside` is not a plain file name",
        ),
        (
            "/etc/passwd",
            "manifest line 4: the id `/etc/passwd` is not a plain file name",
        ),
        ("line 5", "manifest line 5: the id is empty"),
        (
            "ok",
            "manifest line 6: the id `ok` is already used by an earlier row",
        ),
        ("pw", "leads outside the corpus folder, to /etc/passwd"),
        ("fifo", "is a named pipe (FIFO), not a file"),
        ("big", ""),
        ("no-url", "manifest line 10: no original_url"),
        ("line 11", "manifest line 11: not UTF-8 text"),
        ("last", ""),
    ];
    assert_eq!(rows.len(), expect.len(), "{rows:?}");
    for ((id, error), (want_id, want)) in rows.iter().zip(expect) {
        assert_eq!(id, want_id);
        assert!(error.contains(want), "{id}: {error:?} lacks {want:?}");
        assert_eq!(error.is_empty(), want.is_empty(), "{id}: {error}");
    }
    assert_eq!(report["pages"][7]["truncated"], true);
    assert!(report["pages"][0].get("truncated").is_none());
    assert!(
        err.contains("big.html was cut at 100000 bytes (--max-bytes)"),
        "{err}"
    );
    assert_eq!(report["summary"]["pages_failed"], 8);
}

#[test]
fn a_folder_reports_symlinks_out_and_fifos_instead_of_reading_them() {
    let dir = temp_dir("folder");
    std::fs::write(dir.join("a.html"), PAGE).expect("written");
    std::os::unix::fs::symlink("/etc/passwd", dir.join("b.html")).expect("a symlink");
    mkfifo(&dir.join("c.html"));
    let (report, _) = corpus_json(&dir, &[]);
    let rows = errors(&report);
    assert_eq!(rows[0], ("a".to_owned(), String::new()));
    assert!(
        rows[1].1.contains("leads outside the corpus folder"),
        "{rows:?}"
    );
    assert!(rows[2].1.contains("named pipe"), "{rows:?}");
}

#[test]
fn a_corpus_that_cannot_be_listed_says_why_once() {
    let dir = temp_dir("unlisted");
    let missing = dir.join("missing.tsv");
    let out = run_bounded(&["corpus", &missing.to_string_lossy()]);
    fails_in_one_line(&out, 2, &["cannot read", "missing.tsv"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("missing.tsv").count(), 1, "{err}");
    assert_eq!(err.matches("No such file").count(), 1, "{err}");
    let fifo = dir.join("manifest.tsv");
    mkfifo(&fifo);
    let out = run_bounded(&["corpus", &fifo.to_string_lossy()]);
    fails_in_one_line(&out, 2, &["is a named pipe (FIFO), not a file"]);
    let big = dir.join("big.tsv");
    sparse(&big, 64 << 20);
    let out = run_bounded(&["corpus", &big.to_string_lossy()]);
    fails_in_one_line(&out, 2, &["is larger than 4194304 bytes"]);
    let no_column = dir.join("no-column.tsv");
    std::fs::write(&no_column, "id\turl\nx\thttps://acme.test/\n").expect("written");
    let out = run_bounded(&["corpus", &no_column.to_string_lossy()]);
    fails_in_one_line(&out, 2, &["has no `original_url` column"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("no-column.tsv").count(), 1, "{err}");
}
