//! `--tune N` (SPEC 11, "Suggestions that generalise" 5): the best
//! validated change applied up to N times within the bounds, the corpus
//! decided again after each; and the honest figure, the site recall of
//! settings tuned on k−1 folds of the pages measured on the fold left out.

use std::sync::atomic::{AtomicBool, Ordering};

use super::ask::{TuneAsk, TuneProgress};
use super::judge::{missed_of, page_truth};
use super::outcome::{LabelledPage, Metrics, PageTruth};
use super::suggest::{self, Change, Suggest, Suggestion};
use crate::policy::{PageDecision, Settings};

/// Folds of the cross-validated figure.
pub const FOLDS: usize = 5;

/// One change applied.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneStep {
    /// The suggestion as it was ranked at this step (gains against the
    /// settings before it).
    pub suggestion: Suggestion,
    /// The metrics after it, over the pages tuned on.
    pub metrics: Metrics,
}

/// Why the tuning stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TuneStop {
    /// It took every step asked for.
    Steps,
    /// No change gains a validated page more than it loses.
    NoGain,
    /// Changes gain, but each breaks a bound; the best of them.
    Bounds(Change),
    /// The settings tuned from break a bound already, and no change that
    /// gains brings them within it.
    StartBreaksBounds,
    Cancelled,
}

/// The cross-validated figure: each fold's pages measured under settings
/// tuned on the other folds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrossValidated {
    pub folds: usize,
    pub labelled_pages: usize,
    /// Found under the settings tuned without them.
    pub found: usize,
    /// Found under the settings before tuning (the same pages).
    pub found_untuned: usize,
}

impl CrossValidated {
    pub fn site_recall(&self) -> Option<f64> {
        (self.labelled_pages > 0).then(|| self.found as f64 / self.labelled_pages as f64)
    }
}

/// A tuning's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    pub ask: TuneAsk,
    /// The settings tuned from (side A).
    pub start: Settings,
    pub steps: Vec<TuneStep>,
    /// The settings after the last step.
    pub settings: Settings,
    pub stop: TuneStop,
    /// The metrics before the first step.
    pub before: Metrics,
    /// `None` with fewer labelled pages than folds.
    pub cross_validated: Option<CrossValidated>,
}

/// The pages of `labelled` decided under `settings`, judged.
fn judged(
    settings: &Settings,
    labelled: &[LabelledPage<'_>],
) -> (Vec<PageDecision>, Vec<PageTruth>) {
    let opts = settings.options();
    let decisions: Vec<PageDecision> = labelled
        .iter()
        .map(|l| l.page.decided(&opts, l.page.decision.limit))
        .collect();
    let truths = labelled
        .iter()
        .zip(&decisions)
        .map(|(l, d)| page_truth(l, d, settings.follow_subdomain, None))
        .collect();
    (decisions, truths)
}

fn within(ask: &TuneAsk, m: &Metrics) -> bool {
    let per_page = m.followed_per_page().unwrap_or(0.0);
    let precision = m.precision().unwrap_or(1.0);
    ask.max_followed_per_page
        .is_none_or(|max| per_page <= max + 1e-9)
        && ask.min_precision.is_none_or(|min| precision + 1e-9 >= min)
}

/// Tunes `start` on `labelled`: up to `ask.steps` times, the best-ranked
/// suggestion with `validated_gain − pages_lost > 0` whose result keeps the
/// bounds. `step` is told each step begun (1-based).
fn tune_on(
    start: &Settings,
    labelled: &[LabelledPage<'_>],
    ask: &TuneAsk,
    suggest: Suggest<'_>,
    cancel: &AtomicBool,
    step: &dyn Fn(usize),
) -> (Vec<TuneStep>, Settings, TuneStop, Metrics) {
    let mut settings = start.clone();
    let (mut decisions, mut truths) = judged(&settings, labelled);
    let before = Metrics::of(&truths, false);
    let mut steps = Vec::new();
    // SPEC 11 5. asks only that each step's result keep the bounds: settings
    // that break one already may still take a step that brings them within
    // it (a keyword that adds a target raises precision).
    let mut stop = TuneStop::Steps;
    while steps.len() < ask.steps {
        if cancel.load(Ordering::SeqCst) {
            stop = TuneStop::Cancelled;
            break;
        }
        step(steps.len() + 1);
        let current: Vec<LabelledPage<'_>> = labelled
            .iter()
            .zip(&decisions)
            .map(|(l, decision)| LabelledPage { decision, ..*l })
            .collect();
        let missed = missed_of(&current, &truths, false);
        let (ranked, _) = suggest::suggest(&settings, &current, &truths, &missed, suggest, cancel);
        if cancel.load(Ordering::SeqCst) {
            stop = TuneStop::Cancelled;
            break;
        }
        let mut blocked = None;
        let mut chosen = None;
        for s in ranked.into_iter().filter(|s| s.validated_net() > 0) {
            let (d, t) = judged(&s.settings, labelled);
            let metrics = Metrics::of(&t, false);
            if within(ask, &metrics) {
                chosen = Some((s, d, t, metrics));
                break;
            }
            blocked.get_or_insert(s.change);
        }
        let Some((s, d, t, metrics)) = chosen else {
            stop = if steps.is_empty() && !within(ask, &before) {
                TuneStop::StartBreaksBounds
            } else {
                blocked.map_or(TuneStop::NoGain, TuneStop::Bounds)
            };
            break;
        };
        settings = s.settings.clone();
        decisions = d;
        truths = t;
        steps.push(TuneStep {
            suggestion: s,
            metrics,
        });
    }
    (steps, settings, stop, before)
}

/// SPEC 11 5. and issue 33's honest figure.
pub(super) fn tune(
    start: &Settings,
    labelled: &[LabelledPage<'_>],
    ask: TuneAsk,
    suggest: Suggest<'_>,
    cancel: &AtomicBool,
    progress: &(dyn Fn(TuneProgress) + Sync),
) -> Tuning {
    let quiet = Suggest {
        progress: &|_, _| {},
        ..suggest
    };
    let (steps, settings, stop, before) = tune_on(start, labelled, &ask, quiet, cancel, &|step| {
        progress(TuneProgress::Step {
            step,
            of: ask.steps,
        })
    });
    let cross_validated = (labelled.len() >= FOLDS && stop != TuneStop::Cancelled)
        .then(|| cross_validate(start, labelled, &ask, quiet, cancel, progress))
        .flatten();
    Tuning {
        ask,
        start: start.clone(),
        steps,
        settings,
        stop,
        before,
        cross_validated,
    }
}

/// Deterministic folds: labelled page i (in corpus order) is in fold
/// i mod k. `None` when cancelled.
fn cross_validate(
    start: &Settings,
    labelled: &[LabelledPage<'_>],
    ask: &TuneAsk,
    suggest: Suggest<'_>,
    cancel: &AtomicBool,
    progress: &(dyn Fn(TuneProgress) + Sync),
) -> Option<CrossValidated> {
    let mut out = CrossValidated {
        folds: FOLDS,
        labelled_pages: 0,
        found: 0,
        found_untuned: 0,
    };
    for fold in 0..FOLDS {
        let (held, trained): (Vec<_>, Vec<_>) = labelled
            .iter()
            .enumerate()
            .partition(|(i, _)| i % FOLDS == fold);
        let trained: Vec<LabelledPage<'_>> = trained.into_iter().map(|(_, l)| *l).collect();
        let held: Vec<LabelledPage<'_>> = held.into_iter().map(|(_, l)| *l).collect();
        let (_, tuned, stop, _) = tune_on(start, &trained, ask, suggest, cancel, &|step| {
            progress(TuneProgress::Fold {
                fold: fold + 1,
                folds: FOLDS,
                step,
            })
        });
        if stop == TuneStop::Cancelled {
            return None;
        }
        let (_, after) = judged(&tuned, &held);
        let (_, untuned) = judged(start, &held);
        out.labelled_pages += held.len();
        out.found += after.iter().filter(|p| p.found(false)).count();
        out.found_untuned += untuned.iter().filter(|p| p.found(false)).count();
    }
    Some(out)
}
