//! An inspection: pages read and decided under one set of settings. Pure glue
//! between the page reader and the policy; fetching lives in `fetch`/`crawl`.
//! The settings and limits are private: changing them decides every page
//! again, so no caller can show verdicts of other settings.

mod read;
mod rendered;
mod tree;

use std::sync::Arc;

use serde::Serialize;
use url::Url;

use crate::fetch::{Capture, FetchError, FetchSummary, FetchedPage};
use crate::policy::{
    CompiledSettings, FollowOptions, LinkDecision, Lint, LintContext, PageDecision, Settings,
    Verdict, decide_resolved, follow_limit, lint_compiled,
};
pub use read::{ReadPage, read_page};
pub use rendered::{LinkSource, RenderedRead, StaticOnlyLink};
pub use tree::crawl_tree;

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
    /// For fetched pages.
    pub fetch: Option<FetchSummary>,
    /// What went over the wire, kept for a web archive.
    pub capture: Option<Arc<Capture>>,
    /// The page as read, or why it could not be fetched.
    pub outcome: Result<ReadPage, FetchError>,
    pub decision: PageDecision,
}

impl InspectedPage {
    /// The page as read; `None` when its fetch failed.
    pub fn read(&self) -> Option<&ReadPage> {
        self.outcome.as_ref().ok()
    }

    /// Why the page could not be fetched.
    pub fn error(&self) -> Option<&FetchError> {
        self.outcome.as_ref().err()
    }

    /// In rendered mode: how the DOM compared with the served HTML.
    pub fn rendered(&self) -> Option<&RenderedRead> {
        self.read()?.rendered.as_ref()
    }

    /// Where `link` exists, in rendered mode (`None` in static mode).
    pub fn source(&self, link: &LinkDecision) -> Option<LinkSource> {
        self.read()?.source(link.index)
    }

    fn new(url: Url, level: u32, via: Option<Via>, outcome: Result<ReadPage, FetchError>) -> Self {
        Self {
            decision: PageDecision {
                links: Vec::new(),
                page_host: url.host_str().unwrap_or_default().to_owned(),
                limit: 0,
            },
            url,
            level,
            status: None,
            via,
            fetch: None,
            capture: None,
            outcome,
        }
    }

    /// A page read from bytes, not yet decided.
    pub fn from_read(url: Url, level: u32, via: Option<Via>, read: ReadPage) -> Self {
        Self::new(url, level, via, Ok(read))
    }

    /// A fetched page, read (in rendered mode, compared with its served HTML),
    /// not yet decided.
    pub fn fetched(fetched: FetchedPage, level: u32, via: Option<Via>) -> Self {
        let mut read = read_page(
            &fetched.body,
            fetched.charset.as_deref(),
            &fetched.final_url,
        );
        if let Some(rendered) = &fetched.rendered {
            read.rendered = Some(RenderedRead::compare(
                &read.candidates,
                &read.resolved,
                rendered.served_html.as_deref(),
                &fetched.final_url,
                rendered,
            ));
        }
        let mut page = Self::from_read(fetched.final_url, level, via, read);
        page.status = Some(fetched.status);
        page.fetch = Some(fetched.summary);
        page.capture = fetched.capture;
        page
    }

    /// A page whose fetch failed.
    pub fn failed(url: Url, level: u32, via: Option<Via>, error: FetchError) -> Self {
        Self::new(url, level, via, Err(error))
    }

    /// The page's links decided under `opts`, with its own URL as the base for
    /// the same-site test (no links when the page could not be read).
    pub fn decided(&self, opts: &FollowOptions, limit: usize) -> PageDecision {
        match &self.outcome {
            Ok(read) => decide_resolved(&read.candidates, &read.resolved, &self.url, opts, limit),
            Err(_) => PageDecision {
                links: Vec::new(),
                page_host: self.url.host_str().unwrap_or_default().to_owned(),
                limit,
            },
        }
    }

    /// Decides the page's links again, keeping a crawl's visited marks (the
    /// crawl's, as it goes; the inspection decides its pages for everyone else).
    pub(crate) fn decide(&mut self, opts: &FollowOptions, limit: usize) {
        let visited: Vec<bool> = self.decision.links.iter().map(|l| l.visited).collect();
        self.decision = self.decided(opts, limit);
        // A crawl's visited marks survive where the link is still followed.
        for (link, was_visited) in self.decision.links.iter_mut().zip(visited) {
            link.visited = was_visited && link.verdict == Verdict::Followed;
        }
    }
}

/// The deepest crawl the scraper is configured with (`--depth 1..=5`).
pub const MAX_DEPTH: u32 = 5;

/// The crawl depth and the N override: what sets N on every page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub depth: u32,
    /// Replaces `follow_limit` on every page when set.
    pub limit_override: Option<usize>,
}

impl Limits {
    /// The limits of a crawl of `depth` with N as the scraper sets it.
    pub fn of_depth(depth: u32) -> Self {
        Self {
            depth,
            limit_override: None,
        }
    }

    /// N for a page at `level`: SPEC section 5's `(remaining - 1) * 3` with
    /// `remaining = depth - level + 1`, unless overridden.
    pub fn at(self, level: u32) -> usize {
        self.limit_override
            .unwrap_or_else(|| follow_limit((self.depth + 1).saturating_sub(level)))
    }
}

/// Everything the reports and the UI show.
#[derive(Clone, Debug)]
pub struct Inspection {
    pub start_url: Url,
    pub final_url: Url,
    limits: Limits,
    /// The settings and their compiled form, compiled once for every page.
    settings: CompiledSettings,
    lints: Vec<Lint>,
    pub pages: Vec<InspectedPage>,
    /// The crawl was stopped before it was complete.
    pub cancelled: bool,
}

/// A saved page with no URL given and none in the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the page has no <link rel=canonical> or og:url, so its original URL is unknown")]
pub struct NoPageUrl;

impl Inspection {
    /// The pages decided under `settings` and `limits`, and linted: each page
    /// decided once and linted once. Settings compiled once for many
    /// inspections (a corpus run's pages) are given as [`CompiledSettings`].
    pub fn new(
        start_url: Url,
        final_url: Url,
        limits: Limits,
        settings: impl Into<CompiledSettings>,
        pages: Vec<InspectedPage>,
        cancelled: bool,
    ) -> Self {
        let mut inspection = Self::undecided(
            start_url,
            final_url,
            limits,
            settings.into(),
            pages,
            cancelled,
        );
        inspection.reclassify();
        inspection
    }

    /// The pages as given, not decided or linted yet.
    fn undecided(
        start_url: Url,
        final_url: Url,
        limits: Limits,
        settings: CompiledSettings,
        pages: Vec<InspectedPage>,
        cancelled: bool,
    ) -> Self {
        Self {
            start_url,
            final_url,
            limits,
            settings,
            lints: Vec::new(),
            pages,
            cancelled,
        }
    }

    /// A crawl's pages, each already decided under `settings` and `limits` as
    /// the crawl went (which links to fetch next depends on them): only linted.
    pub(crate) fn from_decided_pages(
        start_url: Url,
        final_url: Url,
        limits: Limits,
        settings: Settings,
        pages: Vec<InspectedPage>,
        cancelled: bool,
    ) -> Self {
        let mut inspection = Self::undecided(
            start_url,
            final_url,
            limits,
            CompiledSettings::new(settings),
            pages,
            cancelled,
        );
        inspection.relint();
        inspection
    }

    /// A saved page, judged against `page_url`, or else the URL the page names
    /// (`<link rel=canonical>` / `og:url`). Its followed links are not fetched.
    pub fn saved_page(
        bytes: &[u8],
        page_url: Option<Url>,
        limits: Limits,
        settings: impl Into<CompiledSettings>,
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
        Ok(Self::single_page(read, page_url, limits, settings))
    }

    /// One page, read and not fetched further, decided.
    pub fn single_page(
        read: ReadPage,
        page_url: Url,
        limits: Limits,
        settings: impl Into<CompiledSettings>,
    ) -> Self {
        let page = InspectedPage::from_read(page_url.clone(), 1, None, read);
        Self::new(
            page_url.clone(),
            page_url,
            limits,
            settings,
            vec![page],
            false,
        )
    }

    /// Marks a saved page read only up to the size cap, as a fetched body
    /// cut there is: `bytes` read, the rest missing.
    pub fn mark_cut(&mut self, bytes: usize) {
        if let Some(page) = self.pages.first_mut() {
            page.fetch = Some(FetchSummary {
                redirects: Vec::new(),
                content_type: None,
                bytes,
                truncated: true,
                elapsed_ms: 0,
            });
        }
    }

    pub fn settings(&self) -> &Settings {
        self.settings.settings()
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    pub fn depth(&self) -> u32 {
        self.limits.depth
    }

    pub fn limit_override(&self) -> Option<usize> {
        self.limits.limit_override
    }

    /// The lints of the settings on the start page.
    pub fn lints(&self) -> &[Lint] {
        &self.lints
    }

    /// Decides every page again under `settings` and `limits`, when they
    /// differ from the current ones (nothing is read again).
    pub fn rejudge(&mut self, settings: Settings, limits: Limits) {
        if settings != *self.settings.settings() || limits != self.limits {
            self.settings = CompiledSettings::new(settings);
            self.limits = limits;
            self.reclassify();
        }
    }

    /// The same pages decided under `settings`: the other side of a diff.
    pub fn judged_under(&self, settings: impl Into<CompiledSettings>) -> Self {
        let settings = settings.into();
        let mut other = self.clone();
        if settings.settings() != self.settings.settings() {
            other.settings = settings;
            other.reclassify();
        }
        other
    }

    /// The first page's decision and the lints under `settings`, without
    /// copying the pages (a corpus run's other side).
    pub fn first_page_under(
        &self,
        settings: &CompiledSettings,
    ) -> Option<(PageDecision, Vec<Lint>)> {
        let page = self.pages.first()?;
        let decision = page.decided(settings.options(), self.limits.at(page.level));
        let lints = self.lints_of(settings, &decision.links);
        Some((decision, lints))
    }

    /// Decides every page again under the current settings and limits, without
    /// reading anything again; lints follow.
    pub fn reclassify(&mut self) {
        let opts = self.settings.options();
        for page in &mut self.pages {
            page.decide(opts, self.limits.at(page.level));
        }
        self.relint();
    }

    /// Every page decided again under `settings`, with the shown limits
    /// (what the window's Compare shows beside the current settings).
    pub fn decide_under(&self, settings: &Settings) -> Vec<PageDecision> {
        let opts = settings.options();
        self.pages
            .iter()
            .map(|page| page.decided(&opts, self.limits.at(page.level)))
            .collect()
    }

    fn relint(&mut self) {
        let links = self
            .pages
            .first()
            .map(|p| p.decision.links.as_slice())
            .unwrap_or_default();
        self.lints = self.lints_of(&self.settings, links);
    }

    /// The lints of `settings` on the start page, whose decided links are `links`.
    fn lints_of(&self, settings: &CompiledSettings, links: &[LinkDecision]) -> Vec<Lint> {
        let fetched = self.pages.first().is_some_and(|p| p.status.is_some());
        lint_compiled(
            settings,
            LintContext {
                page_url: Some(&self.final_url),
                start_url: fetched.then_some(&self.start_url),
                links,
            },
        )
    }
}
