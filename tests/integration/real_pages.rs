//! Every real page of `../shared/corpus` and `../shared/homepages` (read by
//! path, never copied): the charset detection bounded as browsers bound it
//! (`page::decode::detect`, issue 32) chooses what chardetng fed the whole
//! page chooses, for each page as if nothing declared its charset, under the
//! page's own TLD. Skipped without the pages, unless
//! FOLLOW_INSPECTOR_REQUIRE_CORPUS is set.

use std::path::PathBuf;

use follow_inspector::page::decode::{CharsetSource, decode, detect, detect_unbounded};

use crate::repo_path;

/// A real page: its set, its id, the URL it was saved from, its bytes.
type RealPage = (String, String, String, Vec<u8>);

/// Every page of both sets.
fn real_pages() -> Option<Vec<RealPage>> {
    let mut pages = Vec::new();
    for set in ["corpus", "homepages"] {
        let dir: PathBuf = repo_path(&format!("../shared/{set}"));
        let manifest = match std::fs::read_to_string(dir.join("manifest.tsv")) {
            Ok(text) => text,
            Err(e) => {
                assert!(
                    std::env::var_os("FOLLOW_INSPECTOR_REQUIRE_CORPUS").is_none(),
                    "the real pages are required but {} is unreadable: {e}",
                    dir.display()
                );
                eprintln!("SKIPPED: no pages at {} ({e})", dir.display());
                return None;
            }
        };
        for line in manifest.lines().skip(1) {
            let mut cols = line.split('\t');
            let (Some(id), Some(url)) = (cols.next(), cols.next()) else {
                continue;
            };
            let path = dir.join("pages").join(format!("{id}.html"));
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            pages.push((set.to_owned(), id.to_owned(), url.to_owned(), bytes));
        }
    }
    Some(pages)
}

#[test]
fn bounded_detection_chooses_what_the_whole_page_chooses_on_every_real_page() {
    let Some(pages) = real_pages() else {
        return;
    };
    assert!(pages.len() >= 265, "{} pages", pages.len());
    let (mut utf8, mut detected) = (0, 0);
    for (set, id, url, bytes) in &pages {
        let host = url::Url::parse(url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned));
        let tld = host
            .as_deref()
            .and_then(|h| h.rsplit('.').next())
            .map(str::as_bytes);
        let bounded = detect(bytes, tld);
        let whole = detect_unbounded(bytes, tld);
        assert_eq!(
            bounded,
            whole,
            "{set}/{id}: {} vs {}",
            bounded.name(),
            whole.name()
        );
        utf8 += usize::from(std::str::from_utf8(bytes).is_ok());
        detected += usize::from(decode(bytes, None, tld).source == CharsetSource::Detected);
    }
    eprintln!(
        "{} pages, {utf8} of them valid UTF-8, {detected} with no declared charset",
        pages.len()
    );
}
