//! What deciding a labelled page again needs: its links as read, resolved
//! against its base URL, and how side A decided them. A corpus run keeps
//! this much of each labelled page, and a shard's partial result carries it
//! (the links, not the decision) so that a merge can suggest changes.

use serde::{Deserialize, Serialize};
use url::Url;

use crate::inspect::InspectedPage;
use crate::policy::{
    Candidate, FollowOptions, PageDecision, ResolvedLink, decide_resolved, resolve_links,
};

/// A labelled page, ready to be decided again under other settings.
#[derive(Clone, Debug)]
pub struct KeptPage {
    /// The page's own URL: the base of the same-site test.
    pub url: Url,
    /// What its links resolve against (`<base href>` applied).
    pub base_url: Url,
    pub candidates: Vec<Candidate>,
    resolved: Vec<ResolvedLink>,
    /// The links as side A decided them.
    pub decision: PageDecision,
}

/// A kept page as a partial result carries it: the decision is not carried
/// but made again, under side A, when the page is read back.
#[derive(Debug, Serialize, Deserialize)]
pub struct KeptLinks {
    pub url: Url,
    pub base_url: Url,
    pub candidates: Vec<Candidate>,
    /// The page's N.
    pub limit: usize,
}

impl KeptPage {
    /// What the run read of `page` and decided under A; a page that could
    /// not be read keeps no links.
    pub fn of(page: InspectedPage) -> Self {
        let (base_url, candidates, resolved) = match page.outcome {
            Ok(read) => (read.base_url, read.candidates, read.resolved),
            Err(_) => (page.url.clone(), Vec::new(), Vec::new()),
        };
        Self {
            url: page.url,
            base_url,
            candidates,
            resolved,
            decision: page.decision,
        }
    }

    /// The page of `links`, decided under `a` (side A's options).
    pub fn of_links(links: KeptLinks, a: &FollowOptions) -> Self {
        let resolved = resolve_links(&links.candidates, &links.base_url);
        let decision = decide_resolved(&links.candidates, &resolved, &links.url, a, links.limit);
        Self {
            url: links.url,
            base_url: links.base_url,
            candidates: links.candidates,
            resolved,
            decision,
        }
    }

    /// What a partial result carries of the page.
    pub fn links(&self) -> KeptLinks {
        KeptLinks {
            url: self.url.clone(),
            base_url: self.base_url.clone(),
            candidates: self.candidates.clone(),
            limit: self.decision.limit,
        }
    }

    /// The page's links decided under `opts`, N = `limit`.
    pub fn decided(&self, opts: &FollowOptions, limit: usize) -> PageDecision {
        decide_resolved(&self.candidates, &self.resolved, &self.url, opts, limit)
    }
}
