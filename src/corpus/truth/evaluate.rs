//! Measuring a corpus run against the targets file (SPEC 11): the metrics
//! of each side, the missed targets, rescued and lost pages, suggestions.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use super::judge::{missed_of, page_truth};
use super::kept::KeptPage;
use super::keywords::{KeywordTruth, keyword_truths};
use super::outcome::{LabelledPage, Metrics, Missed, PageTruth};
use super::suggest::{self, Suggest, Suggestion};
use super::targets::{TargetProblem, Targets};
use super::tune::{self, Tuning};
use crate::policy::{PageDecision, Settings};

/// What [`evaluate`] reads of a corpus run.
#[derive(Clone, Copy)]
pub struct RunView<'a> {
    pub a: &'a Settings,
    pub b: Option<&'a Settings>,
    /// Pages not reached are then not unknown.
    pub cancelled: bool,
    /// Each page's id, and the page as read when it was kept (labelled).
    pub pages: &'a [(&'a str, Option<&'a KeptPage>)],
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
    /// `--tune`: the steps taken and the settings they make.
    pub tuning: Option<Tuning>,
    /// How many candidate changes were tried.
    pub candidates_tried: usize,
    /// The labelled pages read, in corpus order.
    pub pages: Vec<PageTruth>,
    /// Rows of the targets file skipped, and rows naming pages the corpus
    /// does not have (or could not read): the first
    /// [`LISTED_PROBLEMS`](super::targets::LISTED_PROBLEMS) by line; the rest
    /// are counted.
    pub problems: Vec<TargetProblem>,
    pub problems_not_listed: usize,
    /// The run was cancelled: only the pages it read are measured, and
    /// suggestions were stopped.
    pub partial: bool,
}

impl Evaluation {
    /// The labelled page with this id.
    pub fn page(&self, id: &str) -> Option<&PageTruth> {
        self.pages.iter().find(|p| p.id == id)
    }
}

/// Measures `run` against `targets`; tries SPEC 11's candidate changes of
/// side A as `suggest` says. `cancel` stops trying candidates (those tried
/// are ranked).
pub fn evaluate(
    run: RunView<'_>,
    targets: &Targets,
    suggest: Suggest<'_>,
    cancel: &AtomicBool,
) -> Evaluation {
    let mut problems = targets.problems.clone();
    let mut labelled: Vec<LabelledPage<'_>> = Vec::new();
    let mut known: HashSet<&str> = HashSet::new();
    for &(id, kept) in run.pages {
        known.insert(id);
        let Some(list) = targets.for_page(id) else {
            continue;
        };
        match kept {
            Some(page) => labelled.push(LabelledPage {
                id,
                page,
                targets: list,
                decision: &page.decision,
            }),
            None => problems.push(TargetProblem::UnreadPage {
                line: list[0].line,
                id: id.to_owned(),
            }),
        }
    }
    // A cancelled run did not get to every page: those are not unknown.
    if !run.cancelled {
        for (id, list) in &targets.pages {
            if let (false, Some(first)) = (known.contains(id.as_str()), list.first()) {
                problems.push(TargetProblem::UnknownPage {
                    line: first.line,
                    id: id.clone(),
                });
            }
        }
    }
    problems.sort_by_key(problem_line);
    // The targets' own list holds their first rows: those it left out come
    // after every one it holds, so the first of the two lists are the first.
    let mut problems_not_listed = targets.problems_not_listed;
    if problems.len() > super::targets::LISTED_PROBLEMS {
        problems_not_listed += problems.len() - super::targets::LISTED_PROBLEMS;
        problems.truncate(super::targets::LISTED_PROBLEMS);
    }
    let b_opts = run.b.map(Settings::options);
    let a_subdomain = run.a.follow_subdomain;
    let b_subdomain = run.b.is_some_and(|b| b.follow_subdomain);
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
            page_truth(l, l.decision, a_subdomain, b)
        })
        .collect();
    let keywords_a = keyword_truths(run.a, labelled.iter().map(|l| l.decision).zip(&pages));
    let keywords_b = run.b.map(|b| {
        let decided = decisions_b.iter().zip(&pages);
        keyword_truths(b, decided.filter_map(|(d, p)| Some((d.as_ref()?, p))))
    });
    let missed = |b: bool| missed_of(&labelled, &pages, b);
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
    let (suggestions, candidates_tried) = if suggest.keep > 0 && !labelled.is_empty() {
        let (mut ranked, tried) =
            suggest::suggest(run.a, &labelled, &pages, &missed_a, suggest, cancel);
        ranked.truncate(suggest.keep);
        (ranked, tried)
    } else {
        (Vec::new(), 0)
    };
    let tuning = suggest.tune.filter(|_| !labelled.is_empty()).map(|ask| {
        tune::tune(
            run.a,
            &labelled,
            ask,
            suggest,
            cancel,
            suggest.tune_progress,
        )
    });
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
        tuning,
        candidates_tried,
        pages,
        problems,
        problems_not_listed,
        partial: run.cancelled || cancel.load(std::sync::atomic::Ordering::SeqCst),
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
