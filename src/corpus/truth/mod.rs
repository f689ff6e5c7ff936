//! Ground truth (SPEC section 11): which links of labelled corpus pages
//! should be followed, how many of them each side follows, why the others
//! are missed, and which single settings changes would find more.
//! Pages are decided again from what the run read, never read again.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::inspect::InspectedPage;
use crate::policy::{LinkDecision, MatchedIn, PageDecision, Settings, Verdict};

mod keywords;
mod suggest;
mod targets;
mod tokens;
pub use keywords::{KeywordTruth, keyword_truths};
pub use suggest::{Change, Suggestion, apply_change};

pub use targets::{Target, TargetKind, TargetProblem, Targets, TargetsError};
pub use tokens::keyword_tokens;

use super::CorpusRun;

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

    /// The keyword that decided it: the black one, or the white one it
    /// matched when ranked out or followed.
    pub fn keyword(&self) -> Option<&str> {
        match self {
            TargetWhy::Blacklisted { keyword, .. } | TargetWhy::RankedOut { keyword, .. } => {
                Some(keyword)
            }
            _ => None,
        }
    }

    fn of(link: &LinkDecision, decision: &PageDecision, subdomain_mode: bool) -> Self {
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
    pub url: Option<String>,
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
    fn of(pages: &[PageTruth], b: bool) -> Self {
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

/// A corpus run measured against the targets file.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    pub a: Metrics,
    pub b: Option<Metrics>,
    /// Found under B only, and under A only (page ids, corpus order).
    pub rescued: Vec<String>,
    pub lost: Vec<String>,
    /// Side A's missed targets on the pages where A finds none.
    pub missed: Vec<Missed>,
    /// Side B's, with B.
    pub missed_b: Option<Vec<Missed>>,
    /// Per keyword of A's (and B's) lists: targets and other links it
    /// decided on labelled pages.
    pub keywords_a: Vec<KeywordTruth>,
    pub keywords_b: Option<Vec<KeywordTruth>>,
    /// Best first, at most the number asked for.
    pub suggestions: Vec<Suggestion>,
    /// How many candidate changes were tried.
    pub candidates_tried: usize,
    /// The labelled pages read, in corpus order.
    pub pages: Vec<PageTruth>,
    /// Rows of the targets file skipped, and rows naming pages the corpus
    /// does not have (or could not read).
    pub problems: Vec<TargetProblem>,
}

impl Evaluation {
    /// The labelled page with this id.
    pub fn page(&self, id: &str) -> Option<&PageTruth> {
        self.pages.iter().find(|p| p.id == id)
    }
}

/// A labelled page as the run read it, ready to be decided again.
pub(crate) struct LabelledPage<'a> {
    pub id: &'a str,
    pub page: &'a InspectedPage,
    pub targets: &'a [Target],
}

/// How many suggestions to keep, and how to try them.
#[derive(Clone, Copy)]
pub struct Suggest<'a> {
    /// 0: none are tried.
    pub keep: usize,
    pub jobs: usize,
    /// The words a change is shown in: the ranking's last tie-break, so
    /// equal suggestions come in the order a reader sorts them.
    pub words: &'a (dyn Fn(&Change) -> String + Sync),
    /// Gets (candidates tried, candidates in all), from any thread.
    pub progress: &'a (dyn Fn(usize, usize) + Sync),
}

/// Measures `run` against `targets`; tries SPEC 11's candidate changes of
/// side A as `suggest` says. `cancel` stops trying candidates (those tried
/// are ranked).
pub fn evaluate(
    run: &CorpusRun,
    targets: &Targets,
    suggest: Suggest<'_>,
    cancel: &AtomicBool,
) -> Evaluation {
    let mut problems = targets.problems.clone();
    let mut labelled: Vec<LabelledPage<'_>> = Vec::new();
    let mut known: HashSet<&str> = HashSet::new();
    for page in &run.pages {
        known.insert(&page.id);
        let Some(list) = targets.for_page(&page.id) else {
            continue;
        };
        match &page.kept {
            Some(kept) => labelled.push(LabelledPage {
                id: &page.id,
                page: kept,
                targets: list,
            }),
            None => problems.push(TargetProblem::UnreadPage {
                line: list[0].line,
                id: page.id.clone(),
            }),
        }
    }
    // A cancelled run did not get to every page: those are not unknown.
    if !run.cancelled {
        for (id, line) in targets.unknown_pages(&known) {
            problems.push(TargetProblem::UnknownPage {
                line,
                id: id.to_owned(),
            });
        }
    }
    problems.sort_by_key(problem_line);
    let b_opts = run.b.as_ref().map(Settings::options);
    let a_subdomain = run.a.follow_subdomain;
    let b_subdomain = run.b.as_ref().is_some_and(|b| b.follow_subdomain);
    let decisions_b: Vec<Option<PageDecision>> = labelled
        .iter()
        .map(|l| {
            b_opts
                .as_ref()
                .map(|opts| l.page.decided(opts, l.page.decision.limit))
        })
        .collect();
    let pages: Vec<PageTruth> = labelled
        .iter()
        .zip(&decisions_b)
        .map(|(l, b)| {
            let b = b.as_ref().map(|d| (d, b_subdomain));
            page_truth(l, &l.page.decision, a_subdomain, b)
        })
        .collect();
    let keywords_a = keyword_truths(
        &run.a,
        labelled.iter().map(|l| &l.page.decision).zip(&pages),
    );
    let keywords_b = run.b.as_ref().map(|b| {
        let decided = decisions_b.iter().zip(&pages);
        keyword_truths(b, decided.filter_map(|(d, p)| Some((d.as_ref()?, p))))
    });
    let missed = |b: bool| -> Vec<Missed> {
        labelled
            .iter()
            .zip(&pages)
            .filter(|(_, truth)| !truth.found(b))
            .flat_map(|(l, truth)| {
                truth.targets.iter().filter_map(move |t| {
                    let why = if b { t.b.clone()? } else { t.a.clone() };
                    Some(Missed {
                        id: truth.id.clone(),
                        target: t.target.clone(),
                        text: t.text.clone(),
                        why,
                        limit: l.page.decision.limit,
                    })
                })
            })
            .collect()
    };
    let with_b = run.b.is_some();
    let ids = |keep: fn(&PageTruth) -> bool| -> Vec<String> {
        pages
            .iter()
            .filter(|p| keep(p))
            .map(|p| p.id.clone())
            .collect()
    };
    let (rescued, lost) = if with_b {
        (
            ids(|p| p.found(true) && !p.found(false)),
            ids(|p| p.found(false) && !p.found(true)),
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let missed_a = missed(false);
    let (suggestions, candidates_tried) = if suggest.keep > 0 {
        suggest::suggest(&run.a, &labelled, &pages, &missed_a, suggest, cancel)
    } else {
        (Vec::new(), 0)
    };
    Evaluation {
        a: Metrics::of(&pages, false),
        b: with_b.then(|| Metrics::of(&pages, true)),
        rescued,
        lost,
        missed_b: with_b.then(|| missed(true)),
        missed: missed_a,
        keywords_a,
        keywords_b,
        suggestions,
        candidates_tried,
        pages,
        problems,
    }
}

fn problem_line(problem: &TargetProblem) -> usize {
    match problem {
        TargetProblem::NotUtf8 { line }
        | TargetProblem::MissingCell { line, .. }
        | TargetProblem::BadUrl { line, .. }
        | TargetProblem::UnknownKind { line, .. }
        | TargetProblem::Duplicate { line, .. }
        | TargetProblem::UnknownPage { line, .. }
        | TargetProblem::UnreadPage { line, .. } => *line,
    }
}

/// For each target, the candidate that decides it: the first with its key
/// that is not a duplicate (the first of all when every one is).
fn deciding_links<'d>(
    decision: &'d PageDecision,
    targets: &[Target],
) -> Vec<Option<&'d LinkDecision>> {
    let mut found: Vec<Option<&LinkDecision>> = vec![None; targets.len()];
    for link in &decision.links {
        let Some(key) = &link.key else { continue };
        for (slot, target) in found.iter_mut().zip(targets) {
            if target.key.as_str() != &**key {
                continue;
            }
            let better = match slot {
                None => true,
                Some(held) => {
                    held.verdict == Verdict::Duplicate && link.verdict != Verdict::Duplicate
                }
            };
            if better {
                *slot = Some(link);
            }
        }
    }
    found
}

/// The targets' verdicts on one decision of a page.
pub(crate) fn target_whys(
    decision: &PageDecision,
    targets: &[Target],
    subdomain_mode: bool,
) -> Vec<TargetWhy> {
    deciding_links(decision, targets)
        .into_iter()
        .map(|link| {
            link.map_or(TargetWhy::Absent, |l| {
                TargetWhy::of(l, decision, subdomain_mode)
            })
        })
        .collect()
}

fn page_truth(
    labelled: &LabelledPage<'_>,
    decision_a: &PageDecision,
    subdomain_a: bool,
    b: Option<(&PageDecision, bool)>,
) -> PageTruth {
    let links = deciding_links(decision_a, labelled.targets);
    let whys_a = target_whys(decision_a, labelled.targets, subdomain_a);
    let whys_b = b.map(|(decision, subdomain)| target_whys(decision, labelled.targets, subdomain));
    let targets = labelled
        .targets
        .iter()
        .enumerate()
        .map(|(i, target)| TargetOutcome {
            target: target.clone(),
            index: links[i].map(|l| l.index),
            text: links[i].map(|l| l.text.to_string()),
            a: whys_a[i].clone(),
            b: whys_b.as_ref().map(|w| w[i].clone()),
        })
        .collect();
    PageTruth {
        id: labelled.id.to_owned(),
        url: Some(labelled.page.url.to_string()),
        targets,
        followed_a: decision_a.count(Verdict::Followed),
        followed_b: b.map(|(d, _)| d.count(Verdict::Followed)),
    }
}

/// Keeps what [`evaluate`] needs of a page: shared, never copied.
pub(crate) type KeptPage = Arc<InspectedPage>;
