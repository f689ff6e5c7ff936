//! An inspection: pages read and decided under one set of settings. Pure glue
//! between the page reader and the policy; fetching lives in `fetch`/`crawl`.

use serde::Serialize;
use url::Url;

use crate::page::{self, CharsetSource};
use crate::policy::{
    Candidate, Lint, LintContext, PageDecision, Settings, Verdict, decide_page, follow_limit, lint,
};

/// A page's bytes read into candidates.
#[derive(Clone, Debug)]
pub struct ReadPage {
    pub candidates: Vec<Candidate>,
    /// The first `<base href>` as written.
    pub base_href: Option<String>,
    /// What links resolve against, for the page URL given to [`read_page`].
    pub base_url: Url,
    pub canonical_url: Option<Url>,
    pub encoding: &'static str,
    pub charset_source: CharsetSource,
}

/// Decodes and parses a page at `page_url`.
pub fn read_page(bytes: &[u8], http_charset: Option<&str>, page_url: &Url) -> ReadPage {
    let tld = page_url
        .host_str()
        .and_then(|h| h.rsplit('.').next())
        .map(str::as_bytes);
    let decoded = page::decode(bytes, http_charset, tld);
    let parsed = page::parse(&decoded.text);
    ReadPage {
        base_url: parsed.base_url(page_url),
        base_href: parsed.base_href,
        candidates: parsed.candidates,
        canonical_url: parsed.canonical_url,
        encoding: decoded.encoding.name(),
        charset_source: decoded.source,
    }
}

impl ReadPage {
    /// Resolves the base again for another page URL (a saved page that names its
    /// own URL is read before that URL is known).
    pub fn set_page_url(&mut self, page_url: &Url) {
        self.base_url = page::base_url(self.base_href.as_deref(), page_url);
    }
}

/// The link on an earlier page that led to a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Via {
    pub page: usize,
    pub link: usize,
}

/// One page of an inspection, decided.
#[derive(Clone, Debug)]
pub struct InspectedPage {
    /// The URL the page was scanned against (after redirects).
    pub url: Url,
    /// 1 for the start page, 2 for pages it links to, …
    pub level: u32,
    /// The HTTP status, for fetched pages.
    pub status: Option<u16>,
    pub via: Option<Via>,
    pub read: ReadPage,
    pub decision: PageDecision,
}

/// Everything the reports and the UI show.
#[derive(Clone, Debug)]
pub struct Inspection {
    pub start_url: Url,
    pub final_url: Url,
    pub depth: u32,
    /// Replaces `follow_limit` on every page when set.
    pub limit_override: Option<usize>,
    pub settings: Settings,
    pub lints: Vec<Lint>,
    pub pages: Vec<InspectedPage>,
}

/// N for a page at `level` of a crawl of `depth`: SPEC section 5's
/// `(remaining - 1) * 3` with `remaining = depth - level + 1`, unless overridden.
pub fn page_limit(depth: u32, level: u32, limit_override: Option<usize>) -> usize {
    limit_override.unwrap_or_else(|| follow_limit((depth + 1).saturating_sub(level)))
}

impl Inspection {
    /// An inspection of one page that is not fetched further (a saved file).
    pub fn single_page(
        read: ReadPage,
        page_url: Url,
        depth: u32,
        limit_override: Option<usize>,
        settings: Settings,
    ) -> Self {
        let mut inspection = Self {
            start_url: page_url.clone(),
            final_url: page_url.clone(),
            depth,
            limit_override,
            settings,
            lints: Vec::new(),
            pages: vec![InspectedPage {
                url: page_url,
                level: 1,
                status: None,
                via: None,
                decision: PageDecision {
                    links: Vec::new(),
                    limit: 0,
                },
                read,
            }],
        };
        inspection.reclassify();
        inspection
    }

    /// Decides every page again under the current settings and limits, without
    /// reading anything again; lints follow.
    pub fn reclassify(&mut self) {
        let opts = self.settings.options();
        for page in &mut self.pages {
            let limit = page_limit(self.depth, page.level, self.limit_override);
            let visited: Vec<bool> = page.decision.links.iter().map(|l| l.visited).collect();
            page.decision = decide_page(
                &page.read.candidates,
                &page.url,
                &page.read.base_url,
                &opts,
                limit,
            );
            // A crawl's visited marks survive where the link is still followed.
            for (link, was_visited) in page.decision.links.iter_mut().zip(visited) {
                link.visited = was_visited && link.verdict == Verdict::Followed;
            }
        }
        self.relint();
    }

    pub fn relint(&mut self) {
        let links = self
            .pages
            .first()
            .map(|p| p.decision.links.as_slice())
            .unwrap_or_default();
        let fetched = self.pages.first().is_some_and(|p| p.status.is_some());
        self.lints = lint(
            &self.settings,
            LintContext {
                page_url: Some(&self.final_url),
                start_url: fetched.then_some(&self.start_url),
                links,
            },
        );
    }
}
