//! Every real page of `../shared/corpus` and `../shared/homepages` (read by
//! path, never copied): the charset detection bounded as browsers bound it
//! (`page::decode::detect`, issue 32) chooses what chardetng fed the whole
//! page chooses, for each page as if nothing declared its charset, under the
//! page's own TLD. Skipped without the pages, unless
//! FOLLOW_INSPECTOR_REQUIRE_CORPUS is set.

use follow_inspector::page::decode::{CharsetSource, decode, detect, detect_unbounded};

use crate::corpus::{CorpusPage, manifest_pages};
use crate::repo_path;

/// Every page of both sets.
fn real_pages() -> Option<Vec<CorpusPage>> {
    let mut pages = manifest_pages(&crate::corpus::corpus_dir(), "the corpus")?;
    pages.extend(manifest_pages(
        &repo_path("../shared/homepages"),
        "the real homepages",
    )?);
    Some(pages)
}

#[test]
fn bounded_detection_chooses_what_the_whole_page_chooses_on_every_real_page() {
    let Some(pages) = real_pages() else {
        return;
    };
    assert!(pages.len() >= 265, "{} pages", pages.len());
    let (mut utf8, mut detected) = (0, 0);
    for page in &pages {
        let bytes =
            std::fs::read(&page.path).unwrap_or_else(|e| panic!("{}: {e}", page.path.display()));
        let host = url::Url::parse(&page.url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned));
        let tld = host
            .as_deref()
            .and_then(|h| h.rsplit('.').next())
            .map(str::as_bytes);
        let bounded = detect(&bytes, tld);
        let whole = detect_unbounded(&bytes, tld);
        assert_eq!(
            bounded,
            whole,
            "{}: {} vs {}",
            page.path.display(),
            bounded.name(),
            whole.name()
        );
        utf8 += usize::from(std::str::from_utf8(&bytes).is_ok());
        detected += usize::from(decode(&bytes, None, tld).source == CharsetSource::Detected);
    }
    eprintln!(
        "{} pages, {utf8} of them valid UTF-8, {detected} with no declared charset",
        pages.len()
    );
}
