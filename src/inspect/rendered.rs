//! A rendered page compared with the HTML its server sent (SPEC 8): which
//! links scripts added, and which they removed.

use std::collections::HashSet;
use std::sync::Arc;

use url::Url;

use crate::fetch::{Rendered, Replayed, Wait};
use crate::page;
use crate::policy::{Candidate, ResolvedLink, resolve_links};

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
    /// Dialogs (`alert`, `confirm`, `prompt`) dismissed.
    pub dialogs: usize,
    /// Scripts still ran at the deadline and were stopped.
    pub scripts_stopped: bool,
    /// `false`: the page never answered, its served HTML was read instead.
    pub dom_read: bool,
    /// Requests to private addresses refused.
    pub blocked_requests: usize,
    /// Rendered from a capture: what it answered (SPEC 12).
    pub replay: Option<Replayed>,
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
    /// Compares the rendered page's links (`candidates`, `resolved`) with
    /// `served_html`, the HTML its server sent for `page_url`.
    pub fn compare(
        candidates: &[Candidate],
        resolved: &[ResolvedLink],
        served_html: Option<&str>,
        page_url: &Url,
        rendered: &Rendered,
    ) -> Self {
        let mut out = Self {
            wait: rendered.wait,
            network_idle: rendered.network_idle,
            render_ms: rendered.render_ms,
            dialogs: rendered.dialogs,
            scripts_stopped: rendered.scripts_stopped,
            dom_read: rendered.dom_read,
            blocked_requests: rendered.blocked_requests,
            replay: rendered.replay.clone(),
            served_keys: None,
            static_only: Vec::new(),
        };
        let Some(html) = served_html else {
            return out;
        };
        let served = page::parse(html);
        let base = served.base_url(page_url);
        let served_resolved = resolve_links(&served.candidates, &base);
        let in_dom: HashSet<Arc<str>> = candidates
            .iter()
            .zip(resolved)
            .map(|(c, r)| compare_key(&c.href, r))
            .collect();
        let mut keys = HashSet::new();
        for (candidate, link) in served.candidates.iter().zip(&served_resolved) {
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

    /// Where a rendered link exists, when the served HTML was available.
    pub fn source(&self, candidate: &Candidate, resolved: &ResolvedLink) -> Option<LinkSource> {
        let keys = self.served_keys.as_ref()?;
        Some(if keys.contains(&compare_key(&candidate.href, resolved)) {
            LinkSource::Both
        } else {
            LinkSource::RenderedOnly
        })
    }
}
