//! One side's judgement of the labelled pages: each target's verdict and
//! why, and the targets missed where nothing was found. The evaluation and
//! the tuning judge pages alike.

use super::outcome::{LabelledPage, Missed, PageTruth, TargetOutcome, TargetWhy};
use super::targets::Target;
use crate::policy::{LinkDecision, PageDecision, Verdict};

/// The targets missed under A (or B) on the pages where that side finds
/// none.
pub(super) fn missed_of(
    labelled: &[LabelledPage<'_>],
    pages: &[PageTruth],
    b: bool,
) -> Vec<Missed> {
    labelled
        .iter()
        .zip(pages)
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
}

/// For each target, the candidate that decides it: the first with its key
/// (a later one is a duplicate of it).
fn deciding_links<'d>(
    decision: &'d PageDecision,
    targets: &[Target],
) -> Vec<Option<&'d LinkDecision>> {
    targets
        .iter()
        .map(|target| {
            decision
                .links
                .iter()
                .find(|l| l.key.as_deref() == Some(target.key.as_str()))
        })
        .collect()
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

pub(super) fn page_truth(
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
        targets,
        followed_a: decision_a.count(Verdict::Followed),
        followed_b: b.map(|(d, _)| d.count(Verdict::Followed)),
    }
}
