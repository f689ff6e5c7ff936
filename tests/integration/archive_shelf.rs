//! The whole shelf (issue 31): every capture of `../shared/archives` (44
//! files other tools wrote, listed with who wrote them in `MANIFEST.tsv`;
//! third-party test data, read by path, never copied) read by the inspector
//! and by warcio 1.8.1. Wherever warcio reads a file, `corpus` finds the same
//! pages by `WARC-Target-URI` (an HTML 200 `response`, the first per URI, as
//! SPEC 10 takes pages) and exits 0, and `inspect` opens a file that holds a
//! page; where warcio fails, the inspector ends with a clear message or the
//! damage reported, never a panic or a hang.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::archive_interop::tool;
use crate::{parse_json, repo_path};

/// Formats warcio reads that the inspector does not read yet: each is
/// refused with its kind named, never taken for pages. The list only
/// shrinks: ARC and the WARC/0.17 draft left it in issue 31.
const NOT_READ_YET: [&str; 0] = [];

/// Longer than any file of the shelf takes (under a second each); a read
/// that runs past it has hung.
const HANG_SECONDS: &str = "120";

fn shelf_dir() -> PathBuf {
    std::env::var_os("FOLLOW_INSPECTOR_ARCHIVES")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_path("../shared/archives"))
}

/// The shelf's file names, in `MANIFEST.tsv` order; `None` (skipped) when it
/// is not there, unless CI requires it.
fn shelf() -> Option<Vec<String>> {
    let text = crate::corpus::read_shared(&shelf_dir().join("MANIFEST.tsv"), "the archive shelf")?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let column = header
        .iter()
        .position(|c| *c == "file")
        .expect("MANIFEST.tsv has a file column");
    Some(
        lines
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.split('\t').nth(column).expect("a file name").to_owned())
            .collect(),
    )
}

/// One file of the shelf; `None` (skipped) when the shelf is not there,
/// unless CI requires it.
pub fn shelf_file(name: &str) -> Option<PathBuf> {
    shelf()?;
    let path = shelf_dir().join(name);
    assert!(path.is_file(), "{} is on the shelf", path.display());
    Some(path)
}

/// A command run under `timeout`: exit 124 is a hang.
fn bounded(program: &Path, args: &[&str]) -> Output {
    let out = Command::new("timeout")
        .arg(HANG_SECONDS)
        .arg(program)
        .args(args)
        .output()
        .expect("timeout runs");
    assert_ne!(
        out.status.code(),
        Some(124),
        "{} {args:?} hung",
        program.display()
    );
    out
}

fn inspector(args: &[&str]) -> Output {
    let out = bounded(Path::new(env!("CARGO_BIN_EXE_follow-inspector")), args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("panicked"),
        "follow-inspector {args:?} panicked:\n{err}"
    );
    out
}

/// A target URI as a page's URL: brackets stripped as warcio strips them,
/// parsed as the inspector parses it; only http and https are pages.
fn page_url(target: &str) -> Option<String> {
    let url = url::Url::parse(target.trim().trim_start_matches('<').trim_end_matches('>')).ok()?;
    matches!(url.scheme(), "http" | "https").then(|| url.to_string())
}

/// What warcio reads of a file: whether it read it all, and its pages.
struct Warcio {
    read_all: bool,
    pages: BTreeSet<String>,
}

fn warcio_pages(warcio: &Path, file: &Path) -> Warcio {
    let fields = "warc-type,warc-target-uri,http:status,http:content-type";
    let out = bounded(warcio, &["index", "-f", fields, &file.to_string_lossy()]);
    let err = String::from_utf8_lossy(&out.stderr);
    let read_all = out.status.success() && !err.contains("Traceback");
    let mut pages = BTreeSet::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(entry) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let text = |key: &str| entry[key].as_str();
        if text("warc-type") != Some("response") || text("http:status") != Some("200") {
            continue;
        }
        if !follow_inspector::fetch::is_html(text("http:content-type")) {
            continue;
        }
        if let Some(url) = text("warc-target-uri").and_then(page_url) {
            pages.insert(url);
        }
    }
    Warcio { read_all, pages }
}

#[test]
fn every_capture_on_the_shelf_reads_as_warcio_reads_it() {
    let Some(files) = shelf() else { return };
    let Some(warcio) = tool("warcio") else { return };
    let mut wrong = Vec::new();
    for name in &files {
        let file = shelf_dir().join(name);
        let path = file.to_string_lossy().into_owned();
        let theirs = warcio_pages(&warcio, &file);
        let corpus = inspector(&["corpus", &path, "--format", "json"]);
        let inspect = inspector(&["inspect", &path, "--format", "json"]);
        let corpus_err = String::from_utf8_lossy(&corpus.stderr).into_owned();
        if NOT_READ_YET.contains(&name.as_str()) {
            if corpus.status.success() || corpus_err.trim().is_empty() {
                wrong.push(format!("{name}: not read yet, but not refused with words"));
            }
            continue;
        }
        if !theirs.read_all {
            // warcio fails on it: the report (with its damage), or a
            // clear message.
            if corpus.status.success() {
                parse_json(&String::from_utf8_lossy(&corpus.stdout));
            } else if corpus_err.trim().is_empty() {
                wrong.push(format!("{name}: corpus failed without a word"));
            }
            if !inspect.status.success() && inspect.stderr.is_empty() {
                wrong.push(format!("{name}: inspect failed without a word"));
            }
            continue;
        }
        if !corpus.status.success() {
            wrong.push(format!(
                "{name}: corpus exits {:?}: {corpus_err}",
                corpus.status
            ));
            continue;
        }
        let report = parse_json(&String::from_utf8_lossy(&corpus.stdout));
        let ours: BTreeSet<String> = report["pages"]
            .as_array()
            .expect("pages")
            .iter()
            .filter_map(|p| p["url"].as_str().map(str::to_owned))
            .collect();
        if ours != theirs.pages {
            let lost: Vec<_> = theirs.pages.difference(&ours).collect();
            let extra: Vec<_> = ours.difference(&theirs.pages).collect();
            wrong.push(format!(
                "{name}: corpus finds {} pages, warcio {}; lost {lost:?}, extra {extra:?}",
                ours.len(),
                theirs.pages.len()
            ));
        }
        if !theirs.pages.is_empty() && !inspect.status.success() {
            wrong.push(format!(
                "{name}: inspect exits {:?}: {}",
                inspect.status,
                String::from_utf8_lossy(&inspect.stderr)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} files read otherwise than warcio reads them:\n{}",
        wrong.len(),
        files.len(),
        wrong.join("\n")
    );
}
