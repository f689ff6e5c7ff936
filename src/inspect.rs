//! An inspection: pages read and decided under one set of settings. Pure glue
//! between the page reader and the policy; fetching lives in `fetch`/`crawl`.

use std::collections::HashSet;
use std::sync::Arc;

use serde::Serialize;
use url::Url;

use crate::page::{self, CharsetSource};
use crate::policy::{
    Candidate, FollowOptions, LinkDecision, Lint, LintContext, PageDecision, ResolvedLink,
    Settings, Verdict, decide_resolved, follow_limit, lint, resolve_links,
};
use crate::render::{Rendered, Wait};

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

/// Where a rendered page's link exists (SPEC 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkSource {
    /// In the served HTML and in the DOM after scripts ran.
    Both,
    /// Inserted by a script: the static view misses it.
    RenderedOnly,
}

impl LinkSource {
    pub fn id(self) -> &'static str {
        match self {
            LinkSource::Both => "both",
            LinkSource::RenderedOnly => "rendered_only",
        }
    }
}

/// A link of the served HTML that scripts removed: the scraper never sees it,
/// so it has no verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticOnlyLink {
    pub href: Arc<str>,
    pub url: Option<Arc<Url>>,
    pub text: Arc<str>,
}

/// A rendered page compared with the HTML its server sent.
#[derive(Clone, Debug)]
pub struct RenderedRead {
    pub wait: Wait,
    /// The wait condition held before the deadline.
    pub network_idle: bool,
    pub render_ms: u64,
    /// The served HTML's links by key; `None` when it could not be had.
    served_keys: Option<HashSet<Arc<str>>>,
    pub static_only: Vec<StaticOnlyLink>,
}

/// How links compare: by key, or by the href as written when it does not parse.
fn compare_key(href: &str, resolved: &ResolvedLink) -> Arc<str> {
    if resolved.url.is_ok() {
        Arc::clone(&resolved.key)
    } else {
        Arc::from(href)
    }
}

impl RenderedRead {
    /// Compares the rendered page `read` with `served_html`, the HTML its
    /// server sent for `page_url`.
    pub fn compare(
        read: &ReadPage,
        served_html: Option<&str>,
        page_url: &Url,
        rendered: &Rendered,
    ) -> Self {
        let mut out = Self {
            wait: rendered.wait,
            network_idle: rendered.network_idle,
            render_ms: rendered.render_ms,
            served_keys: None,
            static_only: Vec::new(),
        };
        let Some(html) = served_html else {
            return out;
        };
        let served = page::parse(html);
        let base = served.base_url(page_url);
        let resolved = resolve_links(&served.candidates, &base);
        let in_dom: HashSet<Arc<str>> = read
            .candidates
            .iter()
            .zip(&read.resolved)
            .map(|(c, r)| compare_key(&c.href, r))
            .collect();
        let mut keys = HashSet::new();
        for (candidate, link) in served.candidates.iter().zip(&resolved) {
            let key = compare_key(&candidate.href, link);
            if !in_dom.contains(&key) && !keys.contains(&key) {
                out.static_only.push(StaticOnlyLink {
                    href: Arc::clone(&candidate.href),
                    url: link.url.as_ref().ok().cloned(),
                    text: Arc::clone(&candidate.text),
                });
            }
            keys.insert(key);
        }
        out.served_keys = Some(keys);
        out
    }
}

impl ReadPage {
    /// Where the candidate `index` exists, in rendered mode when the served
    /// HTML was available.
    pub fn source(&self, index: usize) -> Option<LinkSource> {
        let keys = self.rendered.as_ref()?.served_keys.as_ref()?;
        let key = compare_key(&self.candidates.get(index)?.href, self.resolved.get(index)?);
        Some(if keys.contains(&key) {
            LinkSource::Both
        } else {
            LinkSource::RenderedOnly
        })
    }
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
    fn empty(page_url: Url) -> Self {
        Self {
            candidates: Vec::new(),
            base_href: None,
            base_url: page_url,
            resolved: Vec::new(),
            canonical_url: None,
            encoding: "",
            charset_source: CharsetSource::Detected,
            replaced_bytes: false,
            rendered: None,
        }
    }

    /// Resolves the base again for another page URL (a saved page that names its
    /// own URL is read before that URL is known).
    pub fn set_page_url(&mut self, page_url: &Url) {
        self.base_url = page::base_url(self.base_href.as_deref(), page_url);
        self.resolved = resolve_links(&self.candidates, &self.base_url);
    }
}

/// The link on an earlier page that led to a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Via {
    pub page: usize,
    pub link: usize,
}

/// One redirect: the URL that answered with a redirect, and its status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hop {
    pub status: u16,
    pub url: Url,
}

/// What happened on the wire for a fetched page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchSummary {
    pub redirects: Vec<Hop>,
    pub content_type: Option<String>,
    /// Body bytes read (after decompression).
    pub bytes: usize,
    /// The body was cut at the size cap.
    pub truncated: bool,
    pub elapsed_ms: u64,
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
    /// For fetched pages.
    pub fetch: Option<FetchSummary>,
    /// The page as read; `None` when its fetch failed.
    pub read: Option<ReadPage>,
    /// Why the page could not be fetched.
    pub error: Option<String>,
    pub decision: PageDecision,
}

impl InspectedPage {
    /// In rendered mode: how the DOM compared with the served HTML.
    pub fn rendered(&self) -> Option<&RenderedRead> {
        self.read.as_ref()?.rendered.as_ref()
    }

    /// Where `link` exists, in rendered mode (`None` in static mode).
    pub fn source(&self, link: &LinkDecision) -> Option<LinkSource> {
        self.read.as_ref()?.source(link.index)
    }

    /// A page read from bytes, not yet decided (see [`Inspection::reclassify`]).
    pub fn read(url: Url, level: u32, via: Option<Via>, read: ReadPage) -> Self {
        Self {
            url,
            level,
            status: None,
            via,
            fetch: None,
            read: Some(read),
            error: None,
            decision: PageDecision {
                links: Vec::new(),
                page_host: String::new(),
                limit: 0,
            },
        }
    }

    /// A page whose fetch failed.
    pub fn failed(url: Url, level: u32, via: Option<Via>, error: String) -> Self {
        Self {
            read: None,
            error: Some(error),
            ..Self::read(url.clone(), level, via, ReadPage::empty(url))
        }
    }

    /// The page's links decided under `opts`, with its own URL as the base for
    /// the same-site test (no links when the page could not be read).
    pub fn decided(&self, opts: &FollowOptions, limit: usize) -> PageDecision {
        match &self.read {
            Some(read) => decide_resolved(&read.candidates, &read.resolved, &self.url, opts, limit),
            None => PageDecision {
                links: Vec::new(),
                page_host: self.url.host_str().unwrap_or_default().to_owned(),
                limit,
            },
        }
    }

    /// Decides the page's links again, keeping a crawl's visited marks.
    pub fn decide(&mut self, opts: &FollowOptions, limit: usize) {
        let visited: Vec<bool> = self.decision.links.iter().map(|l| l.visited).collect();
        self.decision = self.decided(opts, limit);
        // A crawl's visited marks survive where the link is still followed.
        for (link, was_visited) in self.decision.links.iter_mut().zip(visited) {
            link.visited = was_visited && link.verdict == Verdict::Followed;
        }
    }
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
    /// The crawl was stopped before it was complete.
    pub cancelled: bool,
}

/// A saved page with no URL given and none in the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the page has no <link rel=canonical> or og:url, so its original URL is unknown")]
pub struct NoPageUrl;

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
            pages: vec![InspectedPage::read(page_url, 1, None, read)],
            cancelled: false,
        };
        inspection.reclassify();
        inspection
    }

    /// A saved page, judged against `page_url`, or else the URL the page names
    /// (`<link rel=canonical>` / `og:url`). Its followed links are not fetched.
    pub fn saved_page(
        bytes: &[u8],
        page_url: Option<Url>,
        depth: u32,
        limit_override: Option<usize>,
        settings: Settings,
    ) -> Result<Self, NoPageUrl> {
        // Read first: a page that names its own URL is read before the URL is known.
        let provisional = page_url
            .clone()
            .or_else(|| Url::parse("http://unknown.invalid/").ok());
        let mut read = read_page(bytes, None, provisional.as_ref().ok_or(NoPageUrl)?);
        let page_url = match page_url {
            Some(url) => url,
            None => {
                let url = read.canonical_url.clone().ok_or(NoPageUrl)?;
                read.set_page_url(&url);
                url
            }
        };
        Ok(Self::single_page(
            read,
            page_url,
            depth,
            limit_override,
            settings,
        ))
    }

    /// Decides every page again under the current settings and limits, without
    /// reading anything again; lints follow.
    pub fn reclassify(&mut self) {
        let opts = self.settings.options();
        for page in &mut self.pages {
            page.decide(
                &opts,
                page_limit(self.depth, page.level, self.limit_override),
            );
        }
        self.relint();
    }

    /// Every page decided again under `settings`, with the shown limits
    /// (what the window's Compare shows beside the current settings).
    pub fn decide_under(&self, settings: &Settings) -> Vec<PageDecision> {
        let opts = settings.options();
        self.pages
            .iter()
            .map(|page| {
                page.decided(
                    &opts,
                    page_limit(self.depth, page.level, self.limit_override),
                )
            })
            .collect()
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
