//! What ground truth says of one side: each target's verdict and why,
//! per page and over the labelled pages.

use std::collections::BTreeMap;

use super::kept::KeptPage;
use super::targets::{Target, TargetKind};
use crate::policy::{LinkDecision, MatchedIn, PageDecision, Verdict};

/// Why a target was or was not followed on one side: its verdict and the
/// rule that decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetWhy {
    Followed {
        rank: usize,
    },
    /// No candidate of the page has the target's key.
    Absent,
    Blacklisted {
        keyword: String,
        place: MatchPlace,
    },
    /// Eligible, but N links scored higher or came first.
    RankedOut {
        keyword: String,
        rank: usize,
        limit: usize,
        /// Points below the last followed link (0: a tie lost on document
        /// order); `None` when nothing was followed.
        gap: Option<usize>,
    },
    NoKeyword {
        text: String,
    },
    OffDomain {
        host: String,
        subdomain_mode: bool,
    },
    Asset {
        extension: String,
    },
    /// The page's own URL, a non-http(s) link or an href that does not parse.
    Other(Verdict),
}

impl TargetWhy {
    /// The report's verdict identifier, `absent` when no candidate matched.
    pub fn verdict_id(&self) -> &'static str {
        match self {
            TargetWhy::Followed { .. } => Verdict::Followed.id(),
            TargetWhy::Absent => "absent",
            TargetWhy::Blacklisted { .. } => Verdict::Blacklisted.id(),
            TargetWhy::RankedOut { .. } => Verdict::RankedOut.id(),
            TargetWhy::NoKeyword { .. } => Verdict::NoKeyword.id(),
            TargetWhy::OffDomain { .. } => Verdict::OffDomain.id(),
            TargetWhy::Asset { .. } => Verdict::Asset.id(),
            TargetWhy::Other(verdict) => verdict.id(),
        }
    }

    pub fn is_followed(&self) -> bool {
        matches!(self, TargetWhy::Followed { .. })
    }

    /// The keyword that decided a miss: the black one, or the white one a
    /// ranked-out target matched.
    pub fn keyword(&self) -> Option<&str> {
        match self {
            TargetWhy::Blacklisted { keyword, .. } | TargetWhy::RankedOut { keyword, .. } => {
                Some(keyword)
            }
            _ => None,
        }
    }

    pub(super) fn of(link: &LinkDecision, decision: &PageDecision, subdomain_mode: bool) -> Self {
        let keyword = || {
            link.keyword()
                .map(|hit| hit.keyword.to_string())
                .unwrap_or_default()
        };
        match link.verdict {
            Verdict::Followed => TargetWhy::Followed {
                rank: link.rank.unwrap_or(0),
            },
            Verdict::RankedOut => TargetWhy::RankedOut {
                keyword: keyword(),
                rank: link.rank.unwrap_or(0),
                limit: decision.limit,
                gap: decision.score_gap(link),
            },
            Verdict::Blacklisted => TargetWhy::Blacklisted {
                keyword: keyword(),
                place: MatchPlace::of(link),
            },
            Verdict::NoKeyword => TargetWhy::NoKeyword {
                text: link.text.to_string(),
            },
            Verdict::OffDomain => TargetWhy::OffDomain {
                host: link
                    .url
                    .as_ref()
                    .and_then(|u| u.host_str())
                    .unwrap_or_default()
                    .to_owned(),
                subdomain_mode,
            },
            Verdict::Asset => TargetWhy::Asset {
                extension: link.trace.asset_extension.unwrap_or_default().to_owned(),
            },
            other => TargetWhy::Other(other),
        }
    }
}

/// Where a keyword was found in a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchPlace {
    Host,
    /// The path, query or anything after the host.
    Path,
    Text,
}

impl MatchPlace {
    fn of(link: &LinkDecision) -> Self {
        let (Some(hit), Some(haystack)) = (link.keyword(), link.haystack()) else {
            return MatchPlace::Path;
        };
        if hit.matched_in == MatchedIn::Text {
            return MatchPlace::Text;
        }
        let url = haystack.url_part();
        let host_start = url.find("://").map_or(0, |at| at + 3);
        let host_end = url[host_start..]
            .find(['/', '?', '#'])
            .map_or(url.len(), |at| host_start + at);
        if hit.span.start < host_end {
            MatchPlace::Host
        } else {
            MatchPlace::Path
        }
    }
}

/// One target of a labelled page, judged under A (and B).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetOutcome {
    pub target: Target,
    /// The candidate that carries its key (the first that is not a
    /// duplicate), when the page has one.
    pub index: Option<usize>,
    /// That candidate's text.
    pub text: Option<String>,
    pub a: TargetWhy,
    pub b: Option<TargetWhy>,
}

impl TargetOutcome {
    /// Followed under A, or with `b` under B.
    pub fn followed(&self, b: bool) -> bool {
        match b {
            true => self.b.as_ref().is_some_and(TargetWhy::is_followed),
            false => self.a.is_followed(),
        }
    }
}

/// A labelled page, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageTruth {
    pub id: String,
    pub targets: Vec<TargetOutcome>,
    /// Links followed on the page under A (and B).
    pub followed_a: usize,
    pub followed_b: Option<usize>,
}

impl PageTruth {
    /// At least one target is followed under A (or, with `b`, under B).
    pub fn found(&self, b: bool) -> bool {
        self.targets.iter().any(|t| t.followed(b))
    }

    /// The targets followed under A (or B).
    pub fn targets_followed(&self, b: bool) -> usize {
        self.targets.iter().filter(|t| t.followed(b)).count()
    }

    /// Whether the link with `key` is one of the page's targets.
    pub fn is_target(&self, key: &str) -> bool {
        self.targets.iter().any(|t| t.target.key == key)
    }
}

/// Labelled pages and how many were found, for one kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindCount {
    pub labelled_pages: usize,
    pub found: usize,
}

/// SPEC 11's metrics for one side, over the labelled pages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    pub labelled_pages: usize,
    pub found: usize,
    /// Every kind, zero or not.
    pub by_kind: BTreeMap<TargetKind, KindCount>,
    pub target_links: usize,
    pub target_links_followed: usize,
    /// Links followed on labelled pages.
    pub followed_links: usize,
}

impl Metrics {
    pub(super) fn of(pages: &[PageTruth], b: bool) -> Self {
        let mut metrics = Metrics {
            by_kind: TargetKind::ALL
                .iter()
                .map(|k| (*k, KindCount::default()))
                .collect(),
            ..Metrics::default()
        };
        for page in pages {
            metrics.labelled_pages += 1;
            metrics.found += usize::from(page.found(b));
            metrics.target_links += page.targets.len();
            metrics.target_links_followed += page.targets_followed(b);
            metrics.followed_links += if b {
                page.followed_b.unwrap_or(0)
            } else {
                page.followed_a
            };
            for (kind, count) in &mut metrics.by_kind {
                let of_kind = page.targets.iter().filter(|t| t.target.kind == *kind);
                let mut of_kind = of_kind.peekable();
                if of_kind.peek().is_none() {
                    continue;
                }
                count.labelled_pages += 1;
                count.found += usize::from(of_kind.any(|t| t.followed(b)));
            }
        }
        metrics
    }

    /// found / labelled pages; `None` when nothing is labelled.
    pub fn site_recall(&self) -> Option<f64> {
        ratio(self.found, self.labelled_pages)
    }

    /// Followed targets / followed links on labelled pages; `None` when
    /// nothing was followed there.
    pub fn precision(&self) -> Option<f64> {
        ratio(self.target_links_followed, self.followed_links)
    }

    pub fn followed_per_page(&self) -> Option<f64> {
        ratio(self.followed_links, self.labelled_pages)
    }
}

fn ratio(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// A target missed on a page where nothing was found, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missed {
    pub id: String,
    pub target: Target,
    /// The candidate's text, when the page has the link.
    pub text: Option<String>,
    pub why: TargetWhy,
    /// The page's N.
    pub limit: usize,
}

/// A labelled page as the run read it, ready to be decided again.
#[derive(Clone, Copy)]
pub(crate) struct LabelledPage<'a> {
    pub id: &'a str,
    pub page: &'a KeptPage,
    pub targets: &'a [Target],
    /// The page decided under the settings measured: side A's decision as
    /// the run made it, or a tuning step's.
    pub decision: &'a PageDecision,
}
