//! A page's bytes read into candidates, resolved once so a settings change
//! decides again without parsing again.

use url::Url;

use super::rendered::{LinkSource, RenderedRead};
use crate::page::{self, CharsetSource};
use crate::policy::{Candidate, ResolvedLink, resolve_links};

/// A page's bytes read into candidates.
#[derive(Clone, Debug)]
pub struct ReadPage {
    pub candidates: Vec<Candidate>,
    /// The first `<base href>` as written.
    pub base_href: Option<String>,
    /// What links resolve against, for the page URL given to [`read_page`].
    pub base_url: Url,
    /// The candidates resolved against `base_url` (settings-independent, so a
    /// settings change does not parse every URL again).
    pub resolved: Vec<ResolvedLink>,
    pub canonical_url: Option<Url>,
    pub encoding: &'static str,
    pub charset_source: CharsetSource,
    /// Some bytes were not valid in `encoding` and were read as U+FFFD.
    pub replaced_bytes: bool,
    /// In rendered mode (the candidates are the DOM after scripts ran): how
    /// the DOM compares with the served HTML.
    pub rendered: Option<RenderedRead>,
}

/// Decodes and parses a page at `page_url`.
pub fn read_page(bytes: &[u8], http_charset: Option<&str>, page_url: &Url) -> ReadPage {
    let tld = page_url
        .host_str()
        .and_then(|h| h.rsplit('.').next())
        .map(str::as_bytes);
    let decoded = page::decode(bytes, http_charset, tld);
    let parsed = page::parse(&decoded.text);
    let base_url = parsed.base_url(page_url);
    ReadPage {
        resolved: resolve_links(&parsed.candidates, &base_url),
        base_url,
        base_href: parsed.base_href,
        candidates: parsed.candidates,
        canonical_url: parsed.canonical_url,
        encoding: decoded.encoding.name(),
        charset_source: decoded.source,
        replaced_bytes: decoded.had_errors,
        rendered: None,
    }
}

impl ReadPage {
    /// Resolves the base again for another page URL (a saved page that names its
    /// own URL is read before that URL is known).
    pub fn set_page_url(&mut self, page_url: &Url) {
        self.base_url = page::base_url(self.base_href.as_deref(), page_url);
        self.resolved = resolve_links(&self.candidates, &self.base_url);
    }

    /// Where the candidate `index` exists, in rendered mode when the served
    /// HTML was available.
    pub fn source(&self, index: usize) -> Option<LinkSource> {
        self.rendered
            .as_ref()?
            .source(self.candidates.get(index)?, self.resolved.get(index)?)
    }
}
