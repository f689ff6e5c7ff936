//! Saving as a WACZ package (SPEC 12): `--save-warc ticket.wacz` writes
//! the WARC a `.warc.gz` save writes, stored in a package that PyPI `wacz`
//! 0.6.0 validates, indexed as its `cdxj-indexer` indexes that WARC, and
//! reopened offline with the live run's report byte for byte (static,
//! a diff, and rendered with its DOM records when a browser is there).

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::archive_interop::tool;
use crate::archive_roundtrip::{inspect_and_save, live, offline};
use crate::fetch_crawl::site;
use crate::server::Server;
use crate::temp_dir;
use crate::warc_files::write;
use crate::{ok_stdout, parse_json, run_owned, stderr};

/// The package's entries in order: name, stored (not deflated), bytes.
pub fn entries(package: &Path) -> Vec<(String, bool, Vec<u8>)> {
    let file = std::fs::File::open(package).unwrap();
    let mut zip = zip::ZipArchive::new(file).unwrap();
    (0..zip.len())
        .map(|at| {
            let mut entry = zip.by_index(at).unwrap();
            let name = entry.name().unwrap().into_owned();
            let stored = entry.compression() == zip::CompressionMethod::Stored;
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            (name, stored, bytes)
        })
        .collect()
}

fn entry<'a>(entries: &'a [(String, bool, Vec<u8>)], name: &str) -> &'a [u8] {
    &entries.iter().find(|(n, _, _)| n == name).unwrap().2
}

fn sha256(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// A tool of the `wacz` install (its dependency `cdxj-indexer` is put
/// beside it).
fn beside(wacz: &Path, name: &str) -> PathBuf {
    wacz.with_file_name(name)
}

fn succeeds(command: &mut Command) -> String {
    let out = command.output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{command:?}: {said}");
    said
}

#[test]
fn a_depth_2_inspection_saved_as_wacz_validates_and_reopens_byte_identical() {
    let s = Server::start(site, Duration::ZERO);
    let dir = temp_dir("save-wacz");
    let package = dir.join("ticket.wacz");
    let saved = package.display().to_string();
    let live_json = inspect_and_save(&s, "2", &saved);
    let hits_before = s.all_hits().values().sum::<usize>();
    let reopened = offline("inspect", &package, &["--format", "json"]);
    assert_eq!(ok_stdout(&reopened), live_json);
    assert!(
        !stderr(&reopened).contains("warning"),
        "{}",
        stderr(&reopened)
    );
    assert_eq!(
        s.all_hits().values().sum::<usize>(),
        hits_before,
        "reopening fetched nothing"
    );

    // The files WACZ 1.1.1 names, the WARC stored; each hash in
    // datapackage.json, and its own in datapackage-digest.json.
    let entries = entries(&package);
    let names: Vec<(&str, bool)> = entries.iter().map(|(n, s, _)| (n.as_str(), *s)).collect();
    assert_eq!(
        names,
        [
            ("archive/data.warc.gz", true),
            ("indexes/index.cdxj", false),
            ("pages/pages.jsonl", false),
            ("datapackage.json", false),
            ("datapackage-digest.json", false),
        ]
    );
    let datapackage = parse_json(std::str::from_utf8(entry(&entries, "datapackage.json")).unwrap());
    assert_eq!(datapackage["profile"], "data-package");
    assert_eq!(datapackage["wacz_version"], "1.1.1");
    assert!(
        datapackage["software"]
            .as_str()
            .unwrap()
            .starts_with("follow-inspector/")
    );
    let home = format!("http://www.acme.test:{}/", s.port);
    assert_eq!(datapackage["mainPageUrl"], home.as_str());
    for resource in datapackage["resources"].as_array().unwrap() {
        let bytes = entry(&entries, resource["path"].as_str().unwrap());
        assert_eq!(resource["hash"], sha256(bytes).as_str(), "{resource}");
        assert_eq!(resource["bytes"], bytes.len(), "{resource}");
    }
    let digest =
        parse_json(std::str::from_utf8(entry(&entries, "datapackage-digest.json")).unwrap());
    assert_eq!(digest["path"], "datapackage.json");
    assert_eq!(
        digest["hash"],
        sha256(entry(&entries, "datapackage.json")).as_str()
    );

    // The pages: the header, the start page first, each page once.
    let pages: Vec<Value> = std::str::from_utf8(entry(&entries, "pages/pages.jsonl"))
        .unwrap()
        .lines()
        .map(parse_json)
        .collect();
    assert_eq!(
        pages[0],
        serde_json::json!({"format": "json-pages-1.0", "id": "pages", "title": "All Pages"})
    );
    assert_eq!(pages[1]["url"], home.as_str());
    assert_eq!(pages[1]["ts"], datapackage["mainPageDate"]);
    let report = parse_json(&live_json);
    let fetched = report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["status"].is_number())
        .count();
    assert_eq!(pages.len() - 1, fetched, "{pages:?}");

    // The WARC inside is a WARC the inspector wrote: alone, it reopens
    // with the same report.
    let warc = write(
        &dir,
        "data.warc.gz",
        entry(&entries, "archive/data.warc.gz"),
    );
    assert_eq!(
        ok_stdout(&offline("inspect", &warc, &["--format", "json"])),
        live_json
    );

    let Some(wacz) = tool("wacz") else {
        return;
    };
    let said = succeeds(Command::new(&wacz).args(["validate", "-f"]).arg(&package));
    assert!(
        said.contains("Validation succeeded, the passed WACZ is valid"),
        "{said}"
    );
    // The index is the one pywb's indexer makes of the WARC (its records
    // that replay answers with, sorted).
    let indexer = beside(&wacz, "cdxj-indexer");
    let theirs = succeeds(
        Command::new(&indexer)
            .args(["--records", "response,revisit,resource", "--sort"])
            .arg(&warc),
    );
    let ours = std::str::from_utf8(entry(&entries, "indexes/index.cdxj")).unwrap();
    assert_eq!(ours, theirs);
    assert!(ours.lines().count() >= fetched, "{ours}");
}

#[test]
fn a_wacz_save_over_a_planted_link_writes_nothing() {
    let s = Server::start(site, Duration::ZERO);
    let dir = temp_dir("save-wacz-link");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let package = dir.join("ticket.wacz");
    std::os::unix::fs::symlink(&victim, &package).unwrap();
    let saved = package.display().to_string();
    let out = live(
        &s,
        "inspect",
        "http://acme.test:{P}/",
        &["--depth", "2", "--save-warc", &saved],
    );
    assert_ne!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "no temporary file left: {left:?}");
}

#[test]
fn a_rendered_capture_saved_as_wacz_indexes_its_dom_records_and_reopens_rendered() {
    let Some(_turn) = crate::rendered::browser_turn() else {
        return;
    };
    let s = Server::start(crate::rendered::site, Duration::ZERO);
    let dir = temp_dir("save-wacz-rendered");
    let package = dir.join("rendered.wacz");
    let mut args = vec![
        "inspect".to_owned(),
        format!("http://acme.test:{}/", s.port),
        "--render".into(),
        "--depth".into(),
        "2".into(),
        "--format".into(),
        "json".into(),
        "--save-warc".into(),
        package.display().to_string(),
    ];
    args.extend(s.resolve_args(&["acme.test"]));
    let live_json = ok_stdout(&run_owned(&args));
    assert_eq!(parse_json(&live_json)["pages"][0]["mode"], "rendered");
    // No browser: a path that does not exist, so reopening cannot use one.
    let reopened = offline(
        "inspect",
        &package,
        &["--format", "json", "--browser", "/nonexistent/chromium"],
    );
    assert_eq!(ok_stdout(&reopened), live_json);
    let entries = entries(&package);
    let index = std::str::from_utf8(entry(&entries, "indexes/index.cdxj")).unwrap();
    assert!(
        index.contains(" {\"url\": \"urn:dom:http://acme.test:"),
        "{index}"
    );

    let Some(wacz) = tool("wacz") else {
        return;
    };
    let said = succeeds(Command::new(&wacz).args(["validate", "-f"]).arg(&package));
    assert!(said.contains("Validation succeeded"), "{said}");
    let warc = write(
        &dir,
        "data.warc.gz",
        entry(&entries, "archive/data.warc.gz"),
    );
    let theirs = succeeds(
        Command::new(beside(&wacz, "cdxj-indexer"))
            .args(["--records", "response,revisit,resource", "--sort"])
            .arg(&warc),
    );
    assert_eq!(index, theirs);
}
