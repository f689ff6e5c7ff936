//! WACZ packages (issue 31, SPEC 12) wherever a WARC goes: `inspect` (from
//! the first page of `pages.jsonl`, `--base-url` another), `diff`, `corpus`
//! (alone, in a folder, in an `@LIST`, a sharded unit). Packages are made
//! by PyPI `wacz` 0.6.0 (`wacz create`), as a user's would be; the bad ones
//! by hand. The container's own bad input (a bomb, a lying directory, a
//! 100 MB pages line) is tested beside it, in `src/archive/wacz/tests/`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::archive_interop::tool;
use crate::temp_dir;
use crate::warc_files::{http_response, per_record_gzip, record, write};
use crate::{run, run_owned, stderr};

pub(crate) const HOME: &str = "https://firma.test/";
pub(crate) const ABOUT: &str = "https://firma.test/ueber-uns";

/// A dated HTML 200 `response` (wacz create reads each record's date).
fn html_response(n: u32, uri: &str, body: &str) -> Vec<u8> {
    record(
        "response",
        &[
            ("WARC-Target-URI", uri),
            ("WARC-Date", "2026-11-30T10:00:00Z"),
            (
                "WARC-Record-ID",
                &format!("<urn:uuid:{n:0>8}-0000-4000-8000-000000000000>"),
            ),
            ("Content-Type", "application/http; msgtype=response"),
        ],
        &http_response(
            200,
            &[("Content-Type", "text/html; charset=utf-8")],
            body.as_bytes(),
        ),
    )
}

fn site_warc() -> Vec<u8> {
    let warcinfo = record(
        "warcinfo",
        &[
            ("WARC-Date", "2026-11-30T10:00:00Z"),
            (
                "WARC-Record-ID",
                "<urn:uuid:00000000-0000-4000-8000-000000000000>",
            ),
            ("Content-Type", "application/warc-fields"),
        ],
        b"software: test\r\nformat: WARC File Format 1.1\r\n",
    );
    per_record_gzip(&[
        warcinfo,
        html_response(
            1,
            HOME,
            "<html><head><title>Firma</title></head><body><a href=\"/ueber-uns\">Über uns</a>\
             <a href=\"/impressum\">Impressum</a><a href=\"/shop\">Shop</a></body></html>",
        ),
        html_response(
            2,
            ABOUT,
            "<html><head><title>Über uns</title></head><body><a href=\"/kontakt\">Kontakt</a>\
             </body></html>",
        ),
        html_response(
            3,
            "https://firma.test/impressum",
            "<html><body><a href=\"/\">Start</a></body></html>",
        ),
    ])
}

/// A package `wacz create` makes of the site's WARC and its pages list.
pub(crate) fn package(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let wacz = tool("wacz")?;
    let warc = write(dir, "site.warc.gz", &site_warc());
    let out = dir.join("site.wacz");
    // The pages as a crawler lists them (wacz's --detect-pages keeps only
    // pages some request names as its referrer, and these have none).
    let pages = write(
        dir,
        "pages.jsonl",
        format!(
            "{{\"format\": \"json-pages-1.0\", \"id\": \"pages\", \"title\": \"Pages\"}}\n\
             {{\"url\": \"{HOME}\", \"title\": \"Firma\"}}\n\
             {{\"url\": \"{ABOUT}\", \"title\": \"Über uns\"}}\n\
             {{\"url\": \"https://firma.test/impressum\"}}\n"
        )
        .as_bytes(),
    );
    let made = Command::new(wacz)
        .args(["create", "-p"])
        .arg(&pages)
        .arg("-o")
        .arg(&out)
        .arg(&warc)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    Some((warc, out))
}

fn json(args: &[&str]) -> (i32, Value, String) {
    let out = run(args);
    let report = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
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

#[test]
fn inspect_reads_a_package_as_its_warc_from_its_first_page_or_the_one_asked_for() {
    let dir = temp_dir("wacz-inspect");
    let Some((warc, wacz)) = package(&dir) else {
        return;
    };
    let (warc, wacz) = (warc.to_str().unwrap(), wacz.to_str().unwrap());
    let (code, from_package, err) = json(&["inspect", wacz, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("the package names 3 pages"), "{err}");
    let (_, from_warc, _) = json(&["inspect", warc, "--format", "json"]);
    assert_eq!(from_package, from_warc, "the package reads as its WARC");
    assert_eq!(from_package["start_url"], HOME);
    assert_eq!(page_urls(&from_package)[0], HOME);

    let (code, other, err) = json(&["inspect", wacz, "--base-url", ABOUT, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(other["start_url"], ABOUT);

    let b = write(&dir, "b.json", br#"{"followKeywordsWhite": "impressum"}"#);
    let out = run(&[
        "diff",
        wacz,
        "--against-settings",
        b.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_package_is_a_corpus_alone_in_a_folder_in_a_list_and_a_shard_unit() {
    let dir = temp_dir("wacz-corpus");
    let Some((warc, wacz)) = package(&dir) else {
        return;
    };
    let (code, of_warc, err) = json(&["corpus", warc.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let want = page_urls(&of_warc);
    assert_eq!(want, [HOME, ABOUT, "https://firma.test/impressum"]);

    let (code, of_package, err) = json(&["corpus", wacz.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(page_urls(&of_package), want);
    assert_eq!(of_package["archives"]["warnings"], Value::Array(Vec::new()));

    let folder = dir.join("inbox");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(&wacz, folder.join("ticket-4711.wacz")).unwrap();
    let (code, of_folder, err) = json(&["corpus", folder.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(page_urls(&of_folder), want);

    let list = write(&dir, "list.txt", b"site.wacz\n");
    let at_list = format!("@{}", list.display());
    let (code, of_list, err) = json(&["corpus", &at_list, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(page_urls(&of_list), want);

    let units = run_owned(&["corpus".into(), at_list.clone(), "--list-units".into()]);
    assert!(
        String::from_utf8_lossy(&units.stdout).contains("site.wacz"),
        "{}",
        stderr(&units)
    );
    let shard = run(&["corpus", &at_list, "--format", "partial", "--shard", "0/1"]);
    assert!(shard.status.success(), "{}", stderr(&shard));
}

#[test]
fn a_package_whose_files_do_not_match_its_datapackage_says_which() {
    let dir = temp_dir("wacz-hash");
    let Some((_, wacz)) = package(&dir) else {
        return;
    };
    // The pages file edited, its size kept: its sha256 no longer matches.
    let edited = dir.join("edited.wacz");
    rewrite_entry(&wacz, &edited, "pages/pages.jsonl", |text| {
        text.replace("Firma", "FIRMA")
    });
    let out = run(&["inspect", edited.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("pages/pages.jsonl: its sha256 is") && err.contains("datapackage.json lists"),
        "{err}"
    );
    let (code, report, err) = json(&["corpus", edited.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let kinds: Vec<&str> = report["archives"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["package_hash_mismatch"]);
}

#[test]
fn a_bad_package_is_refused_in_words() {
    let dir = temp_dir("wacz-bad");
    let climbs = zip_with(
        &dir,
        "climbs.wacz",
        &[("../../etc/evil.warc", &site_warc())],
    );
    let no_warc = zip_with(&dir, "empty.wacz", &[("pages/pages.jsonl", b"{}\n")]);
    let cut = dir.join("cut.wacz");
    let whole = std::fs::read(zip_with(
        &dir,
        "whole.wacz",
        &[("archive/a.warc.gz", &site_warc())],
    ))
    .unwrap();
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    for (path, words) in [
        (&climbs, "has an unsafe name"),
        (&no_warc, "holds no WARC"),
        (&cut, "is not a readable ZIP (WACZ) package"),
    ] {
        for command in ["inspect", "corpus"] {
            let out = run(&[command, path.to_str().unwrap()]);
            assert_eq!(out.status.code(), Some(2), "{command} {}", path.display());
            let err = stderr(&out);
            assert!(err.contains(words), "{command} {}: {err}", path.display());
        }
    }
    // A package without pages.jsonl or index still reads: its records.
    let (code, report, err) = json(&[
        "corpus",
        dir.join("whole.wacz").to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(page_urls(&report).len(), 3);
    let out = run(&["inspect", dir.join("whole.wacz").to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A ZIP of stored entries, written by Python's zipfile (no name checks).
fn zip_with(dir: &Path, name: &str, entries: &[(&str, &[u8])]) -> PathBuf {
    let path = dir.join(name);
    let mut script = String::from("import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1], 'w')\n");
    for (at, (entry, _)) in entries.iter().enumerate() {
        script.push_str(&format!(
            "z.writestr(zipfile.ZipInfo({entry:?}), open(sys.argv[{}], 'rb').read())\n",
            at + 2
        ));
    }
    script.push_str("z.close()\n");
    let mut args = vec![path.to_string_lossy().into_owned()];
    for (at, (_, bytes)) in entries.iter().enumerate() {
        let part = dir.join(format!("{name}.{at}.part"));
        std::fs::write(&part, bytes).unwrap();
        args.push(part.to_string_lossy().into_owned());
    }
    let made = Command::new("python3")
        .arg("-c")
        .arg(&script)
        .args(&args)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    path
}

/// A copy of a package with one entry's text changed, the rest as it was.
fn rewrite_entry(from: &Path, to: &Path, entry: &str, change: impl Fn(&str) -> String) {
    let script = "import sys, zipfile\n\
        src = zipfile.ZipFile(sys.argv[1]); dst = zipfile.ZipFile(sys.argv[2], 'w')\n\
        for info in src.infolist():\n\
        \x20   data = src.read(info)\n\
        \x20   if info.filename == sys.argv[3]: data = open(sys.argv[4], 'rb').read()\n\
        \x20   dst.writestr(info, data)\n\
        dst.close()\n";
    let text = Command::new("unzip")
        .arg("-p")
        .arg(from)
        .arg(entry)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let text = if text.is_empty() {
        python_read(from, entry)
    } else {
        text
    };
    let changed = to.with_extension("part");
    std::fs::File::create(&changed)
        .unwrap()
        .write_all(change(&text).as_bytes())
        .unwrap();
    let made = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(from)
        .arg(to)
        .arg(entry)
        .arg(&changed)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
}

fn python_read(from: &Path, entry: &str) -> String {
    let out = Command::new("python3")
        .arg("-c")
        .arg("import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())")
        .arg(from)
        .arg(entry)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}
