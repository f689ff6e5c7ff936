//! The `corpus` report: JSON (SPEC section 9), CSV and a terminal table.

use std::collections::BTreeMap;
use std::io::Write;

use serde::Serialize;
use unicode_width::UnicodeWidthStr;

use super::diff::{JsonChange, change_lines, outcome_cell, settings_lines};
use super::escape::json_pretty;
use super::{Escaped, SCHEMA, TABLE_WIDTH, fit, pad, write_cells};
use crate::corpus::{CorpusRun, KeywordStats, PageRun, RecordProblem, SideRun, SkipKind};
use crate::policy::compare::ListName;
use crate::policy::{Settings, Verdict};

#[derive(Serialize)]
struct JsonCorpus<'a> {
    schema: u32,
    a: &'a Settings,
    b: Option<&'a Settings>,
    depth: u32,
    pages: Vec<JsonCorpusPage<'a>>,
    keywords: Vec<JsonKeyword<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    keywords_b: Option<Vec<JsonKeyword<'a>>>,
    summary: JsonSummary<'a>,
    /// A corpus of web archives: the records that were not pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    archives: Option<JsonArchives<'a>>,
    /// Measured against a targets file (SPEC 11).
    #[serde(skip_serializing_if = "Option::is_none")]
    evaluation: Option<super::truth::JsonEvaluation<'a>>,
    /// `--tune` (SPEC 11): the steps and the settings they make.
    #[serde(skip_serializing_if = "Option::is_none")]
    tuning: Option<super::truth::JsonTuning<'a>>,
}

#[derive(Serialize)]
struct JsonArchives<'a> {
    files: Vec<String>,
    records: usize,
    pages: usize,
    /// Every kind, zero or not, so the keys are stable.
    skipped: BTreeMap<&'static str, usize>,
    damaged: Vec<JsonRecordProblem>,
    /// Past the first 1,000 of each list, only counted.
    damaged_not_listed: usize,
    unreadable: Vec<JsonRecordProblem>,
    unreadable_not_listed: usize,
    /// Response records read past what was odd about them, one a record
    /// (SPEC 12).
    warnings: Vec<JsonRecordWarning<'a>>,
    warnings_not_listed: usize,
}

#[derive(Serialize)]
struct JsonRecordWarning<'a> {
    file: String,
    offset: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    target_uri: Option<&'a str>,
    kind: &'a str,
    kinds: &'a [String],
    detail: &'a str,
}

#[derive(Serialize)]
struct JsonRecordProblem {
    file: String,
    offset: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    target_uri: Option<String>,
    detail: String,
}

fn json_archives(run: &CorpusRun) -> Option<JsonArchives<'_>> {
    let stats = run.archives.as_ref()?;
    let problems = |list: &[RecordProblem]| {
        list.iter()
            .map(|p| JsonRecordProblem {
                file: p.file.display().to_string(),
                offset: p.offset,
                target_uri: p.target_uri.clone(),
                detail: p.detail.clone(),
            })
            .collect()
    };
    Some(JsonArchives {
        files: stats
            .files
            .iter()
            .map(|f| f.display().to_string())
            .collect(),
        records: stats.records,
        pages: run.pages.len(),
        skipped: SkipKind::ALL
            .iter()
            .map(|k| (k.id(), stats.skipped(*k)))
            .collect(),
        damaged: problems(&stats.damaged),
        damaged_not_listed: stats.damaged_not_listed,
        unreadable: problems(&stats.unreadable),
        unreadable_not_listed: stats.unreadable_not_listed,
        warnings: stats
            .warnings
            .iter()
            .map(|w| JsonRecordWarning {
                file: w.file.display().to_string(),
                offset: w.offset,
                target_uri: w.target_uri.as_deref(),
                kind: &w.kind,
                kinds: &w.kinds,
                detail: &w.detail,
            })
            .collect(),
        warnings_not_listed: stats.warnings_not_listed,
    })
}

#[derive(Serialize)]
struct JsonCorpusPage<'a> {
    id: &'a str,
    url: Option<&'a str>,
    links: usize,
    counts_a: Option<BTreeMap<&'static str, usize>>,
    counts_b: Option<BTreeMap<&'static str, usize>>,
    followed_a: &'a [String],
    followed_b: Option<&'a [String]>,
    changes: Vec<JsonChange<'a>>,
    lints: &'a [&'static str],
    #[serde(skip_serializing_if = "Option::is_none")]
    lints_b: Option<&'a [&'static str]>,
    error: Option<&'a str>,
    /// The page file was cut at `--max-bytes`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    truncated: bool,
}

#[derive(Serialize)]
struct JsonKeyword<'a> {
    keyword: &'a str,
    list: ListName,
    pages: usize,
    links: usize,
    in_url: usize,
    in_text: usize,
    inside_word: usize,
}

#[derive(Serialize)]
struct JsonCause {
    because: String,
    links: usize,
    pages: usize,
    gained: usize,
    lost: usize,
}

#[derive(Serialize)]
struct JsonSummary<'a> {
    pages: usize,
    pages_failed: usize,
    links: usize,
    followed_a: usize,
    followed_b: Option<usize>,
    /// Pages where nothing is followed: the scraper finds no contact page there.
    nothing_followed_a: Vec<&'a str>,
    nothing_followed_b: Option<Vec<&'a str>>,
    changed_links: usize,
    causes: Vec<JsonCause>,
    cancelled: bool,
}

fn side_counts(side: &SideRun) -> BTreeMap<&'static str, usize> {
    Verdict::ALL
        .iter()
        .map(|v| (v.id(), side.count(*v)))
        .collect()
}

fn json_keywords(stats: &[KeywordStats]) -> Vec<JsonKeyword<'_>> {
    stats
        .iter()
        .map(|k| JsonKeyword {
            keyword: &k.keyword,
            list: k.list,
            pages: k.pages,
            links: k.used.links,
            in_url: k.used.in_url,
            in_text: k.used.in_text,
            inside_word: k.used.inside_word,
        })
        .collect()
}

fn json_page(page: &PageRun) -> JsonCorpusPage<'_> {
    let read = page.error.is_none();
    JsonCorpusPage {
        id: &page.id,
        url: page.url.as_deref(),
        links: page.a.links(),
        counts_a: read.then(|| side_counts(&page.a)),
        counts_b: page.b.as_ref().map(side_counts),
        followed_a: &page.a.followed,
        followed_b: page.b.as_ref().map(|b| b.followed.as_slice()),
        changes: page
            .changes
            .iter()
            .map(|c| JsonChange {
                index: c.index,
                url: c.url.as_deref(),
                text: &c.text,
                a: &c.a,
                b: &c.b,
                because: crate::copy::because(&c.because),
            })
            .collect(),
        lints: &page.a.lints,
        lints_b: page.b.as_ref().map(|b| b.lints.as_slice()),
        error: page.error.as_deref(),
        truncated: page.truncated,
    }
}

fn summary(run: &CorpusRun) -> JsonSummary<'_> {
    let totals = run.totals();
    JsonSummary {
        pages: run.pages.len(),
        pages_failed: totals.pages_failed,
        links: totals.links,
        followed_a: totals.followed_a,
        followed_b: totals.followed_b,
        nothing_followed_a: run.nothing_followed(false),
        nothing_followed_b: run.b.is_some().then(|| run.nothing_followed(true)),
        changed_links: totals.changed_links,
        causes: run
            .causes
            .iter()
            .map(|c| JsonCause {
                because: crate::copy::because(&c.because),
                links: c.links,
                pages: c.pages,
                gained: c.gained,
                lost: c.lost,
            })
            .collect(),
        cancelled: run.cancelled,
    }
}

/// One JSON object, pages in corpus order, then a newline.
pub fn write_corpus_json(run: &CorpusRun, mut out: impl Write) -> std::io::Result<()> {
    let report = JsonCorpus {
        schema: SCHEMA,
        a: &run.a,
        b: run.b.as_ref(),
        depth: run.depth,
        pages: run.pages.iter().map(json_page).collect(),
        keywords: json_keywords(&run.keywords_a),
        keywords_b: run.keywords_b.as_deref().map(json_keywords),
        summary: summary(run),
        archives: json_archives(run),
        evaluation: run.evaluation.as_ref().map(super::truth::json_evaluation),
        tuning: run
            .evaluation
            .as_ref()
            .and_then(|e| e.tuning.as_ref())
            .map(super::truth::json_tuning),
    };
    json_pretty(&mut out, &report)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// One CSV line per page: its counts under A (and B), changes and lints;
/// with targets, how many it has and whether each side reaches one.
pub fn write_corpus_csv(run: &CorpusRun, out: impl Write) -> Result<(), csv::Error> {
    let mut writer = csv::Writer::from_writer(out);
    let truth = run.evaluation.as_ref();
    let truth_header: &[&str] = match truth {
        Some(_) => &[
            "targets",
            "targets_followed_a",
            "targets_followed_b",
            "found_a",
            "found_b",
        ],
        None => &[],
    };
    let header = [
        "id",
        "url",
        "links",
        "followed_a",
        "ranked_out_a",
        "blacklisted_a",
        "off_domain_a",
        "followed_b",
        "ranked_out_b",
        "blacklisted_b",
        "off_domain_b",
        "changes",
        "lints",
        "error",
        "truncated",
    ];
    write_cells(&mut writer, header.iter().chain(truth_header).copied())?;
    let count = |side: Option<&SideRun>, v: Verdict| {
        side.map(|s| s.count(v).to_string()).unwrap_or_default()
    };
    for page in &run.pages {
        let read = page.error.is_none();
        let a = read.then_some(&page.a);
        let b = page.b.as_ref();
        let truth_cells = truth.map(|e| truth_cells(e, &page.id)).unwrap_or_default();
        let cells = [
            page.id.as_str(),
            page.url.as_deref().unwrap_or_default(),
            &if read {
                page.a.links().to_string()
            } else {
                String::new()
            },
            &count(a, Verdict::Followed),
            &count(a, Verdict::RankedOut),
            &count(a, Verdict::Blacklisted),
            &count(a, Verdict::OffDomain),
            &count(b, Verdict::Followed),
            &count(b, Verdict::RankedOut),
            &count(b, Verdict::Blacklisted),
            &count(b, Verdict::OffDomain),
            &page.changes.len().to_string(),
            &page.a.lints.join(" "),
            page.error.as_deref().unwrap_or_default(),
            if page.truncated { "true" } else { "" },
        ];
        write_cells(
            &mut writer,
            cells
                .iter()
                .copied()
                .chain(truth_cells.iter().map(String::as_str)),
        )?;
    }
    writer.flush()?;
    Ok(())
}

/// A page's ground-truth cells; empty for a page with no target.
fn truth_cells(e: &crate::corpus::truth::Evaluation, id: &str) -> Vec<String> {
    let Some(page) = e.page(id) else {
        return vec![String::new(); 5];
    };
    let yes_no = |found: bool| found.to_string();
    let with_b = e.b.is_some();
    vec![
        page.targets.len().to_string(),
        page.targets_followed(false).to_string(),
        if with_b {
            page.targets_followed(true).to_string()
        } else {
            String::new()
        },
        yes_no(page.found(false)),
        if with_b {
            yes_no(page.found(true))
        } else {
            String::new()
        },
    ]
}

fn keyword_table(out: &mut impl Write, title: &str, stats: &[KeywordStats]) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{title}")?;
    writeln!(
        out,
        "  {} {:<5} {:>5} {:>6} {:>6} {:>7} {:>11}",
        pad("keyword", 16),
        "list",
        "pages",
        "links",
        "in url",
        "in text",
        "inside word"
    )?;
    for k in stats {
        writeln!(
            out,
            "  {} {:<5} {:>5} {:>6} {:>6} {:>7} {:>11}",
            pad(&k.keyword, 16),
            k.list.id(),
            k.pages,
            k.used.links,
            k.used.in_url,
            k.used.in_text,
            k.used.inside_word
        )?;
    }
    Ok(())
}

/// Per page counts, the pages that follow nothing, the keyword tables, the
/// changed links and the causes.
pub fn write_corpus_table(run: &CorpusRun, out: impl Write) -> std::io::Result<()> {
    let mut out = Escaped::new(out);
    if let Some(b) = &run.b {
        for line in settings_lines(&run.a, b) {
            writeln!(out, "{}", fit(&line, TABLE_WIDTH))?;
        }
    }
    let compare = run.b.is_some();
    writeln!(
        out,
        "{} pages, depth {} (N = {})",
        run.pages.len(),
        run.depth,
        crate::policy::follow_limit(run.depth)
    )?;
    if let Some(stats) = &run.archives {
        writeln!(
            out,
            "{}",
            fit(
                &crate::copy::archive_summary(stats, run.pages.len()),
                TABLE_WIDTH * 4
            )
        )?;
        for problem in &stats.damaged {
            writeln!(out, "  damaged: {}", crate::copy::record_problem(problem))?;
        }
        for problem in &stats.unreadable {
            writeln!(out, "  skipped: {}", crate::copy::record_problem(problem))?;
        }
        for warning in &stats.warnings {
            writeln!(out, "  {}", crate::copy::record_warning_line(warning))?;
        }
        let not_listed =
            stats.damaged_not_listed + stats.unreadable_not_listed + stats.warnings_not_listed;
        if not_listed > 0 {
            writeln!(out, "  {}", crate::copy::problems_not_listed(not_listed))?;
        }
    }
    if run.cancelled {
        writeln!(
            out,
            "the run was cancelled: the pages below are what it read"
        )?;
    }
    writeln!(out)?;
    let followed_header = if compare {
        "followed a→b"
    } else {
        "followed"
    };
    // Ids are short in a manifest, file names in a folder.
    let id_width = run
        .pages
        .iter()
        .map(|p| p.id.width())
        .max()
        .unwrap_or(0)
        .clamp(2, 24);
    writeln!(
        out,
        "{} {:>6} {:>13} {:>7} {:>7} {:>7}  lints / url",
        pad("id", id_width),
        "links",
        followed_header,
        "ranked",
        "black",
        "offdom"
    )?;
    for page in &run.pages {
        if let Some(error) = &page.error {
            writeln!(
                out,
                "{} {}",
                pad(&page.id, id_width),
                fit(&format!("error: {error}"), TABLE_WIDTH - id_width - 1)
            )?;
            continue;
        }
        let followed = match &page.b {
            Some(b) => format!(
                "{}→{}",
                page.a.count(Verdict::Followed),
                b.count(Verdict::Followed)
            ),
            None => page.a.count(Verdict::Followed).to_string(),
        };
        let lints = page.a.lints.join(" ");
        let tail = match (lints.is_empty(), page.url.as_deref()) {
            (true, url) => url.unwrap_or_default().to_owned(),
            (false, url) => format!("[{lints}] {}", url.unwrap_or_default()),
        };
        let tail = if page.truncated {
            format!("(truncated) {tail}")
        } else {
            tail
        };
        writeln!(
            out,
            "{} {:>6} {:>13} {:>7} {:>7} {:>7}  {}",
            pad(&page.id, id_width),
            page.a.links(),
            followed,
            page.a.count(Verdict::RankedOut),
            page.a.count(Verdict::Blacklisted),
            page.a.count(Verdict::OffDomain),
            fit(&tail, TABLE_WIDTH.saturating_sub(46 + id_width).max(30))
        )?;
    }
    let nothing = run.nothing_followed(false);
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        fit(
            &format!(
                "nothing followed under a ({} pages): {}",
                nothing.len(),
                nothing.join(" ")
            ),
            TABLE_WIDTH * 4
        )
    )?;
    if compare {
        let nothing = run.nothing_followed(true);
        writeln!(
            out,
            "{}",
            fit(
                &format!(
                    "nothing followed under b ({} pages): {}",
                    nothing.len(),
                    nothing.join(" ")
                ),
                TABLE_WIDTH * 4
            )
        )?;
    }
    keyword_table(&mut out, "keywords of a", &run.keywords_a)?;
    if let Some(stats) = &run.keywords_b {
        keyword_table(&mut out, "keywords of b", stats)?;
    }
    if let Some(evaluation) = &run.evaluation {
        super::truth::write_truth_table(evaluation, &mut out)?;
    }
    if compare {
        writeln!(out)?;
        writeln!(out, "changed links by cause:")?;
        if run.causes.is_empty() {
            writeln!(out, "  none")?;
        }
        for cause in &run.causes {
            writeln!(
                out,
                "  {:>5} links on {:>3} pages (+{} −{} followed)  {}",
                cause.links,
                cause.pages,
                cause.gained,
                cause.lost,
                crate::copy::because(&cause.because)
            )?;
        }
        for page in run.pages.iter().filter(|p| !p.changes.is_empty()) {
            writeln!(out)?;
            writeln!(
                out,
                "page {}: {}",
                page.id,
                fit(page.url.as_deref().unwrap_or_default(), 80)
            )?;
            let rows = page.changes.iter().map(|c| {
                (
                    c.index,
                    c.url.clone(),
                    c.text.clone(),
                    outcome_cell(&c.a),
                    outcome_cell(&c.b),
                    crate::copy::because(&c.because),
                )
            });
            for line in change_lines(rows) {
                writeln!(out, "{line}")?;
            }
        }
    }
    out.flush()
}
