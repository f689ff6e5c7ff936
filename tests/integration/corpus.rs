//! Every page of `../shared/corpus`: no panic, valid JSON, the same output twice.
//! The corpus lives outside the repo: without it these tests say they were skipped,
//! unless FOLLOW_INSPECTOR_REQUIRE_CORPUS is set (CI sets it), when they fail.

use std::path::{Path, PathBuf};
use std::thread;

use serde_json::Value;

use crate::{repo_path, run, stderr};

/// A page of a set laid out as a corpus (`manifest.tsv` + `pages/ID.html`).
pub struct CorpusPage {
    pub id: String,
    pub url: String,
    pub path: PathBuf,
}

pub fn corpus_dir() -> PathBuf {
    std::env::var_os("FOLLOW_INSPECTOR_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_path("../shared/corpus"))
}

/// The corpus manifest, when the corpus is present (see the module's docs).
pub fn manifest() -> Option<PathBuf> {
    corpus().map(|_| corpus_dir().join("manifest.tsv"))
}

fn corpus() -> Option<Vec<CorpusPage>> {
    manifest_pages(&corpus_dir(), "the corpus")
}

/// A third-party file read by path (`../shared`): `None`, said as skipped,
/// when it is unreadable, unless FOLLOW_INSPECTOR_REQUIRE_CORPUS is set (CI),
/// when the test fails naming `what`.
pub fn read_shared(path: &Path, what: &str) -> Option<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) => {
            assert!(
                std::env::var_os("FOLLOW_INSPECTOR_REQUIRE_CORPUS").is_none(),
                "{what} is required but {} is unreadable: {e}",
                path.display()
            );
            eprintln!("SKIPPED: {what} is not at {} ({e})", path.display());
            None
        }
    }
}

/// The pages of the set laid out as a corpus in `dir`, in manifest order
/// (see [`read_shared`] for when it is absent).
pub fn manifest_pages(dir: &Path, what: &str) -> Option<Vec<CorpusPage>> {
    let manifest = read_shared(&dir.join("manifest.tsv"), what)?;
    let pages = manifest
        .lines()
        .skip(1)
        .filter_map(|line| {
            let mut cols = line.split('\t');
            let id = cols.next()?.to_owned();
            let url = cols.next()?.to_owned();
            let path = dir.join("pages").join(format!("{id}.html"));
            Some(CorpusPage { id, url, path })
        })
        .collect();
    Some(pages)
}

fn inspect(page: &CorpusPage, format: &str) -> Vec<u8> {
    let out = run(&[
        "inspect",
        page.path.to_str().unwrap(),
        "--base-url",
        &page.url,
        "--depth",
        "3",
        "--format",
        format,
    ]);
    assert!(
        out.status.success(),
        "page {} failed: {}",
        page.id,
        stderr(&out)
    );
    out.stdout
}

fn check(page: &CorpusPage) {
    let first = inspect(page, "json");
    let report: Value = serde_json::from_slice(&first)
        .unwrap_or_else(|e| panic!("page {}: invalid JSON: {e}", page.id));
    let links = report["pages"][0]["links"].as_array().unwrap();
    for (i, link) in links.iter().enumerate() {
        assert_eq!(link["index"], i, "page {}", page.id);
        assert!(
            link["verdict"].as_str().is_some(),
            "page {} link {i}",
            page.id
        );
    }
    let followed = report["pages"][0]["counts"]["followed"].as_u64().unwrap();
    assert!(followed <= 6, "page {}", page.id);
    assert_eq!(
        first,
        inspect(page, "json"),
        "page {}: output differs",
        page.id
    );
    assert!(!inspect(page, "table").is_empty());
}

#[test]
fn every_corpus_page_inspects_deterministically() {
    let Some(pages) = corpus() else { return };
    assert_eq!(pages.len(), 80);
    let (left, right) = pages.split_at(pages.len() / 2);
    thread::scope(|s| {
        for half in [left, right] {
            s.spawn(move || half.iter().for_each(check));
        }
    });
}
