//! Every real page of `../shared/corpus` and `../shared/homepages` (read by
//! path, never copied): the charset detection bounded as browsers bound it
//! (`page::decode::detect`, issue 32) chooses what chardetng fed the whole
//! page chooses, for each page as if nothing declared its charset, under the
//! page's own TLD; and the reader's fast path (`page/fast.rs`) reads each
//! page it accepts exactly as html5ever's tree reads it. Skipped without the
//! pages, unless FOLLOW_INSPECTOR_REQUIRE_CORPUS is set.

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

/// The reader's fast path (`page::parse_fast`) reads every real page it
/// accepts exactly as html5ever's tree does: the same links in the same
/// order, each with the same text, region and nofollow, the same base and
/// canonical URL. It must accept nineteen in twenty, or it buys little: it
/// accepted 248 of the 265 when it was written, 260 once it followed the
/// adoption agency's moves and asked html5ever for a doctype's quirks mode.
#[test]
fn the_fast_path_reads_every_real_page_it_accepts_as_html5ever_does() {
    let Some(pages) = real_pages() else {
        return;
    };
    let mut refused = std::collections::BTreeMap::new();
    for page in &pages {
        let bytes =
            std::fs::read(&page.path).unwrap_or_else(|e| panic!("{}: {e}", page.path.display()));
        let html = decode(&bytes, None, None).text;
        let slow = follow_inspector::page::parse_with_html5ever(&html);
        match follow_inspector::page::parse_fast(&html) {
            Ok(fast) => {
                if fast != slow {
                    let first = fast
                        .candidates
                        .iter()
                        .zip(&slow.candidates)
                        .position(|(f, s)| f != s);
                    panic!(
                        "{}: fast path reads {} links, html5ever {}; first difference at {first:?}: {:?} vs {:?}; base {:?} vs {:?}; canonical {:?} vs {:?}",
                        page.path.display(),
                        fast.candidates.len(),
                        slow.candidates.len(),
                        first.map(|i| &fast.candidates[i]),
                        first.map(|i| &slow.candidates[i]),
                        fast.base_href,
                        slow.base_href,
                        fast.canonical_url,
                        slow.canonical_url,
                    );
                }
            }
            Err(why) => *refused.entry(format!("{why:?}")).or_insert(0) += 1,
        }
    }
    let left: usize = refused.values().sum();
    eprintln!(
        "fast path: {} of {} pages, left to html5ever: {refused:?}",
        pages.len() - left,
        pages.len()
    );
    assert!(left * 20 <= pages.len(), "{left} of {} left", pages.len());
}
