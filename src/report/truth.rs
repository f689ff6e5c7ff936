//! The `evaluation` of a corpus report (SPEC section 11): JSON and the
//! table's ground-truth section.

use std::collections::BTreeMap;
use std::io::Write;

use serde::Serialize;

use super::{TABLE_WIDTH, fit, pad};
use crate::corpus::truth::{
    Change, Evaluation, Metrics, Missed, Suggestion, TargetWhy, TuneStop, Tuning,
};
use crate::policy::Settings;

#[derive(Serialize)]
pub(super) struct JsonEvaluation<'a> {
    a: JsonMetrics,
    b: Option<JsonMetrics>,
    rescued: &'a [String],
    lost: &'a [String],
    /// The targets B follows on the rescued pages, and A on the lost ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    rescued_links: Option<Vec<JsonTargetLink<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lost_links: Option<Vec<JsonTargetLink<'a>>>,
    missed: Vec<JsonMissed<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missed_b: Option<Vec<JsonMissed<'a>>>,
    suggestions: Vec<JsonSuggestion<'a>>,
    candidates_tried: usize,
    /// The rows of the targets file that were skipped, and why.
    problems: Vec<String>,
    /// Past the first 1,000 problems: only counted.
    #[serde(skip_serializing_if = "is_zero")]
    problems_not_listed: usize,
    /// The run was cancelled: only the pages it read are measured.
    partial: bool,
}

#[derive(Serialize)]
struct JsonTargetLink<'a> {
    id: &'a str,
    url: &'a str,
    kind: &'static str,
    text: Option<&'a str>,
}

/// The targets followed under one side on `ids`, page by page.
fn followed_targets<'a>(e: &'a Evaluation, ids: &[String], b: bool) -> Vec<JsonTargetLink<'a>> {
    ids.iter()
        .filter_map(|id| e.page(id))
        .flat_map(|page| {
            page.targets.iter().filter_map(move |t| {
                let why = if b { t.b.as_ref()? } else { &t.a };
                why.is_followed().then_some(JsonTargetLink {
                    id: &page.id,
                    url: &t.target.url,
                    kind: t.target.kind.id(),
                    text: t.text.as_deref(),
                })
            })
        })
        .collect()
}

#[derive(Serialize)]
struct JsonKind {
    labelled_pages: usize,
    found: usize,
}

#[derive(Serialize)]
struct JsonMetrics {
    labelled_pages: usize,
    found: usize,
    site_recall: Option<f64>,
    by_kind: BTreeMap<&'static str, JsonKind>,
    target_links: usize,
    target_links_followed: usize,
    precision: Option<f64>,
    followed_per_page: Option<f64>,
}

#[derive(Serialize)]
struct JsonMissed<'a> {
    id: &'a str,
    url: &'a str,
    kind: &'static str,
    verdict: &'static str,
    keyword: Option<&'a str>,
    rank: Option<usize>,
    limit: usize,
    /// A ranked-out target's points below the cut-off.
    gap: Option<usize>,
    /// An off-domain target's host.
    host: Option<&'a str>,
    reason: String,
    /// The link's text on the page (absent: no such link).
    text: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonPages<'a> {
    gained: &'a [String],
    lost: &'a [String],
    /// The gained pages that count in `validated_gain`.
    validated: &'a [String],
}

#[derive(Serialize)]
struct JsonSuggestion<'a> {
    change: String,
    kind: &'static str,
    /// `pages` (the labelled pages' misses), `lexicon` or `mode`.
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    language: Option<&'a str>,
    /// A lexicon language's words, for `add_white_language`.
    #[serde(skip_serializing_if = "Option::is_none")]
    words: Option<&'a [String]>,
    pages_gained: usize,
    pages_lost: usize,
    /// Gained pages on which the change is proposed by another page too.
    validated_gain: usize,
    /// The labelled pages whose misses propose the change.
    sites_evidence: &'a [String],
    targets_gained: usize,
    non_targets_gained: usize,
    /// Keywords that change the same links on every labelled page.
    alternatives: &'a [String],
    /// `validated_gain` in words.
    validated: String,
    pages: JsonPages<'a>,
    settings: &'a Settings,
}

#[derive(Serialize)]
pub(super) struct JsonTuning<'a> {
    steps: Vec<JsonTuneStep<'a>>,
    settings: &'a Settings,
    /// `steps` (took every step asked for), `no_gain`, `bounds`, `cancelled`.
    stopped: &'static str,
    stopped_words: String,
    before: JsonMetrics,
    after: JsonMetrics,
    max_followed_per_page: Option<f64>,
    min_precision: Option<f64>,
    /// Site recall of settings tuned on k−1 folds, on the fold left out.
    cross_validated: Option<JsonCrossValidated>,
}

#[derive(Serialize)]
struct JsonTuneStep<'a> {
    change: String,
    kind: &'static str,
    source: &'static str,
    pages_gained: usize,
    pages_lost: usize,
    validated_gain: usize,
    sites_evidence: &'a [String],
    site_recall: Option<f64>,
    precision: Option<f64>,
    followed_per_page: Option<f64>,
}

#[derive(Serialize)]
struct JsonCrossValidated {
    folds: usize,
    labelled_pages: usize,
    found: usize,
    site_recall: Option<f64>,
    found_untuned: usize,
}

pub(super) fn json_tuning(t: &Tuning) -> JsonTuning<'_> {
    let after = t.steps.last().map_or(&t.before, |s| &s.metrics);
    JsonTuning {
        steps: t
            .steps
            .iter()
            .map(|step| {
                let s = &step.suggestion;
                JsonTuneStep {
                    change: crate::copy::change_words(&s.change),
                    kind: s.change.kind_id(),
                    source: s.source.id(),
                    pages_gained: s.pages_gained.len(),
                    pages_lost: s.pages_lost.len(),
                    validated_gain: s.validated_gain(),
                    sites_evidence: &s.sites_evidence,
                    site_recall: step.metrics.site_recall(),
                    precision: step.metrics.precision(),
                    followed_per_page: step.metrics.followed_per_page(),
                }
            })
            .collect(),
        settings: &t.settings,
        stopped: match t.stop {
            TuneStop::Steps => "steps",
            TuneStop::NoGain => "no_gain",
            TuneStop::Bounds(_) => "bounds",
            TuneStop::StartBreaksBounds => "start_breaks_bounds",
            TuneStop::Cancelled => "cancelled",
        },
        stopped_words: crate::copy::tuning_stopped(t),
        before: json_metrics(&t.before),
        after: json_metrics(after),
        max_followed_per_page: t.ask.max_followed_per_page,
        min_precision: t.ask.min_precision,
        cross_validated: t.cross_validated.map(|cv| JsonCrossValidated {
            folds: cv.folds,
            labelled_pages: cv.labelled_pages,
            found: cv.found,
            site_recall: cv.site_recall(),
            found_untuned: cv.found_untuned,
        }),
    }
}

fn json_metrics(m: &Metrics) -> JsonMetrics {
    JsonMetrics {
        labelled_pages: m.labelled_pages,
        found: m.found,
        site_recall: m.site_recall(),
        by_kind: m
            .by_kind
            .iter()
            .map(|(kind, count)| {
                (
                    kind.id(),
                    JsonKind {
                        labelled_pages: count.labelled_pages,
                        found: count.found,
                    },
                )
            })
            .collect(),
        target_links: m.target_links,
        target_links_followed: m.target_links_followed,
        precision: m.precision(),
        followed_per_page: m.followed_per_page(),
    }
}

fn json_missed(list: &[Missed]) -> Vec<JsonMissed<'_>> {
    list.iter()
        .map(|m| JsonMissed {
            id: &m.id,
            url: &m.target.url,
            kind: m.target.kind.id(),
            verdict: m.why.verdict_id(),
            keyword: m.why.keyword(),
            rank: match &m.why {
                TargetWhy::RankedOut { rank, .. } => Some(*rank),
                _ => None,
            },
            limit: m.limit,
            gap: match &m.why {
                TargetWhy::RankedOut { gap, .. } => *gap,
                _ => None,
            },
            host: match &m.why {
                TargetWhy::OffDomain { host, .. } => Some(host),
                _ => None,
            },
            reason: crate::copy::target_reason(&m.why),
            text: m.text.as_deref(),
        })
        .collect()
}

fn json_suggestion(s: &Suggestion) -> JsonSuggestion<'_> {
    JsonSuggestion {
        change: crate::copy::change_words(&s.change),
        kind: s.change.kind_id(),
        source: s.source.id(),
        language: s.source.language(),
        words: match &s.change {
            Change::AddWhiteLanguage { words, .. } => Some(words),
            _ => None,
        },
        pages_gained: s.pages_gained.len(),
        pages_lost: s.pages_lost.len(),
        validated_gain: s.validated_gain(),
        sites_evidence: &s.sites_evidence,
        targets_gained: s.targets_gained,
        non_targets_gained: s.non_targets_gained,
        alternatives: &s.alternatives,
        validated: crate::copy::validated_words(s),
        pages: JsonPages {
            gained: &s.pages_gained,
            lost: &s.pages_lost,
            validated: &s.pages_validated,
        },
        settings: &s.settings,
    }
}

pub(super) fn json_evaluation(e: &Evaluation) -> JsonEvaluation<'_> {
    JsonEvaluation {
        a: json_metrics(&e.a),
        b: e.b.as_ref().map(json_metrics),
        rescued: &e.rescued,
        lost: &e.lost,
        rescued_links: e.b.is_some().then(|| followed_targets(e, &e.rescued, true)),
        lost_links: e.b.is_some().then(|| followed_targets(e, &e.lost, false)),
        missed: json_missed(&e.missed),
        missed_b: e.missed_b.as_deref().map(json_missed),
        suggestions: e.suggestions.iter().map(json_suggestion).collect(),
        candidates_tried: e.candidates_tried,
        problems: e.problems.iter().map(ToString::to_string).collect(),
        problems_not_listed: e.problems_not_listed,
        partial: e.partial,
    }
}

/// The table's ground-truth section: scoreboard, per-side details, rescued
/// and lost pages, missed targets, suggestions.
pub(super) fn write_truth_table(e: &Evaluation, out: &mut impl Write) -> std::io::Result<()> {
    let wide = TABLE_WIDTH * 4;
    writeln!(out)?;
    let targets: usize = e.pages.iter().map(|p| p.targets.len()).sum();
    writeln!(
        out,
        "{}",
        crate::copy::truth_heading(e.pages.len(), targets)
    )?;
    if e.partial {
        writeln!(out, "  {}", crate::copy::PARTIAL_EVALUATION)?;
    }
    writeln!(out, "  {}", fit(&crate::copy::scoreboard(e), wide))?;
    writeln!(out, "  {}", crate::copy::metrics_details("a", &e.a))?;
    if let Some(b) = &e.b {
        writeln!(out, "  {}", crate::copy::metrics_details("b", b))?;
        for (ids, rescued) in [(&e.rescued, true), (&e.lost, false)] {
            let line = crate::copy::rescued_line(rescued, ids);
            writeln!(out, "  {}", fit(&line, wide))?;
            for link in followed_targets(e, ids, rescued) {
                writeln!(
                    out,
                    "    {} {:<7} {}",
                    pad(link.id, 8),
                    link.kind,
                    fit(link.url, TABLE_WIDTH - 20)
                )?;
            }
        }
    }
    for problem in &e.problems {
        let line = crate::copy::skipped_target_row(problem);
        writeln!(out, "  {}", fit(&line, wide))?;
    }
    if e.problems_not_listed > 0 {
        let line = crate::copy::target_rows_not_listed(e.problems_not_listed);
        writeln!(out, "  {line}")?;
    }
    missed_table(out, "a", &e.missed)?;
    if let Some(missed) = &e.missed_b {
        missed_table(out, "b", missed)?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        crate::copy::suggestions_heading(e.suggestions.len(), e.candidates_tried)
    )?;
    let [gained, valid, lost, targets, other, sites, change] = crate::copy::SUGGESTION_COLUMNS;
    writeln!(
        out,
        "  {:>6} {:>5} {:>6} {:>8} {:>6} {:>8}  {change}",
        gained, valid, lost, targets, other, sites
    )?;
    for s in &e.suggestions {
        let mut words = crate::copy::change_words(&s.change);
        if !s.alternatives.is_empty() {
            words = format!(
                "{words} {}",
                crate::copy::alternatives_words(&s.alternatives)
            );
        }
        writeln!(
            out,
            "  {:>6} {:>5} {:>6} {:>8} {:>6} {:>8}  {}",
            s.pages_gained.len(),
            s.validated_gain(),
            s.pages_lost.len(),
            s.targets_gained,
            s.non_targets_gained,
            s.sites_evidence.len(),
            fit(&words, TABLE_WIDTH - 48)
        )?;
    }
    if let Some(t) = &e.tuning {
        write_tuning_table(t, out)?;
    }
    Ok(())
}

/// The steps `--tune` took, and the honest figure.
fn write_tuning_table(t: &Tuning, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{}", crate::copy::tuning_heading(t))?;
    let [step, gained, valid, lost, recall, precision, per_site] = crate::copy::TUNING_COLUMNS;
    writeln!(
        out,
        "  {step:>4} {gained:>6} {valid:>5} {lost:>6} {recall:>6} {precision:>9} {per_site:>8}  {}",
        crate::copy::SUGGESTION_COLUMNS[6]
    )?;
    let percent = |r: Option<f64>| crate::copy::percent_or_dash(r, 1);
    let per = crate::copy::per_site_or_dash;
    writeln!(
        out,
        "  {:>4} {:>6} {:>5} {:>6} {:>6} {:>9} {:>8}  {}",
        0,
        "",
        "",
        "",
        percent(t.before.site_recall()),
        percent(t.before.precision()),
        per(t.before.followed_per_page()),
        crate::copy::TUNING_START
    )?;
    for (i, step) in t.steps.iter().enumerate() {
        let s = &step.suggestion;
        writeln!(
            out,
            "  {:>4} {:>6} {:>5} {:>6} {:>6} {:>9} {:>8}  {}",
            i + 1,
            s.pages_gained.len(),
            s.validated_gain(),
            s.pages_lost.len(),
            percent(step.metrics.site_recall()),
            percent(step.metrics.precision()),
            per(step.metrics.followed_per_page()),
            fit(&crate::copy::change_words(&s.change), TABLE_WIDTH - 50)
        )?;
    }
    writeln!(out, "  {}", crate::copy::tuning_stopped(t))?;
    writeln!(out, "  {}", crate::copy::cross_validated_line(t))?;
    Ok(())
}

fn missed_table(out: &mut impl Write, side: &str, missed: &[Missed]) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{}", crate::copy::missed_heading(side, missed.len()))?;
    let id_width = missed
        .iter()
        .map(|m| m.id.len())
        .max()
        .unwrap_or(2)
        .clamp(2, 24);
    for m in missed {
        writeln!(
            out,
            "  {} {:<7} {}  {}",
            pad(&m.id, id_width),
            m.target.kind.id(),
            pad(&fit(&m.target.url, 56), 56),
            fit(&crate::copy::target_reason(&m.why), 70)
        )?;
    }
    Ok(())
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
