//! The `diff` report: JSON (SPEC section 9), CSV and a terminal table.

use std::collections::BTreeMap;
use std::io::Write;

use serde::Serialize;

use super::escape::json_pretty;
use super::{Escaped, SCHEMA, TABLE_WIDTH, counts, fit, pad, write_cells};
use crate::diff::{Diff, PageDiff};
use crate::inspect::InspectedPage;
use crate::policy::compare::{LinkChange, Outcome};
use crate::policy::{STORAGE_KEYS, Settings};

#[derive(Serialize)]
struct JsonDiff<'a> {
    schema: u32,
    target: &'a str,
    a: &'a Settings,
    b: &'a Settings,
    pages: Vec<JsonDiffPage<'a>>,
    summary: JsonSummary,
}

#[derive(Serialize)]
struct JsonSummary {
    gained: usize,
    lost: usize,
    verdicts_changed: usize,
    links_changed: usize,
}

#[derive(Serialize)]
struct JsonDiffPage<'a> {
    url: &'a str,
    /// `a` or `b` when only that side's crawl reached the page.
    #[serde(skip_serializing_if = "Option::is_none")]
    only_in: Option<&'static str>,
    changes: Vec<JsonChange<'a>>,
    counts_a: Option<BTreeMap<&'static str, usize>>,
    counts_b: Option<BTreeMap<&'static str, usize>>,
}

/// A changed link, as `diff` and `corpus` both report it.
#[derive(Serialize)]
pub(super) struct JsonChange<'a> {
    pub index: usize,
    pub url: Option<&'a str>,
    pub text: &'a str,
    pub a: &'a Outcome,
    pub b: &'a Outcome,
    pub because: String,
}

fn json_change<'a>(page: Option<&'a InspectedPage>, change: &'a LinkChange) -> JsonChange<'a> {
    let link = page.and_then(|p| p.decision.links.get(change.index));
    JsonChange {
        index: change.index,
        url: link.and_then(|l| l.url.as_ref()).map(|u| u.as_str()),
        text: link.map_or("", |l| &l.text),
        a: &change.a,
        b: &change.b,
        because: crate::copy::because(&change.because),
    }
}

fn only_in(page: &PageDiff) -> Option<&'static str> {
    match (page.a, page.b) {
        (Some(_), None) => Some("a"),
        (None, Some(_)) => Some("b"),
        _ => None,
    }
}

/// One JSON object with the changed links of every page, then a newline.
pub fn write_diff_json(diff: &Diff, target: &str, mut out: impl Write) -> std::io::Result<()> {
    let summary = diff.summary();
    let report = JsonDiff {
        schema: SCHEMA,
        target,
        a: diff.a.settings(),
        b: diff.b.settings(),
        pages: diff
            .pages
            .iter()
            .map(|page| JsonDiffPage {
                url: page.url.as_str(),
                only_in: only_in(page),
                changes: page
                    .changes
                    .iter()
                    .map(|c| json_change(diff.page_a(page), c))
                    .collect(),
                counts_a: diff.page_a(page).map(counts),
                counts_b: diff.page_b(page).map(counts),
            })
            .collect(),
        summary: JsonSummary {
            gained: summary.gained,
            lost: summary.lost,
            verdicts_changed: summary.verdicts_changed,
            links_changed: summary.links_changed,
        },
    };
    json_pretty(&mut out, &report)?;
    out.write_all(b"\n")?;
    out.flush()
}

fn opt(n: Option<usize>) -> String {
    n.map(|n| n.to_string()).unwrap_or_default()
}

/// One CSV line per changed link.
pub fn write_diff_csv(diff: &Diff, out: impl Write) -> Result<(), csv::Error> {
    let mut writer = csv::Writer::from_writer(out);
    write_cells(
        &mut writer,
        [
            "page_url",
            "index",
            "url",
            "text",
            "a_verdict",
            "a_keyword",
            "a_score",
            "a_rank",
            "b_verdict",
            "b_keyword",
            "b_score",
            "b_rank",
            "because",
        ],
    )?;
    for page in &diff.pages {
        for change in &page.changes {
            let j = json_change(diff.page_a(page), change);
            write_cells(
                &mut writer,
                [
                    page.url.as_str(),
                    &j.index.to_string(),
                    j.url.unwrap_or_default(),
                    j.text,
                    j.a.verdict.id(),
                    j.a.keyword.as_deref().unwrap_or_default(),
                    &opt(j.a.score),
                    &opt(j.a.rank),
                    j.b.verdict.id(),
                    j.b.keyword.as_deref().unwrap_or_default(),
                    &opt(j.b.score),
                    &opt(j.b.rank),
                    &j.because,
                ],
            )?;
        }
    }
    writer.flush()?;
    Ok(())
}

/// The storage keys whose values differ between A and B, with both values.
pub(super) fn settings_lines(a: &Settings, b: &Settings) -> Vec<String> {
    let (va, vb) = (
        serde_json::to_value(a).unwrap_or_default(),
        serde_json::to_value(b).unwrap_or_default(),
    );
    let differing: Vec<String> = STORAGE_KEYS
        .iter()
        .filter(|key| va[**key] != vb[**key])
        .map(|key| format!("{key}: a = {}, b = {}", va[*key], vb[*key]))
        .collect();
    if differing.is_empty() {
        vec!["a and b have the same settings".to_owned()]
    } else {
        differing
    }
}

pub(super) fn outcome_cell(o: &Outcome) -> String {
    match o.rank {
        Some(rank) => format!("{} #{rank}", o.verdict.id()),
        None => o.verdict.id().to_owned(),
    }
}

/// Changed links as table lines: verdicts, cause, URL and text.
pub(super) fn change_lines(
    changes: impl Iterator<Item = (usize, Option<String>, String, String, String, String)>,
) -> Vec<String> {
    changes
        .map(|(index, url, text, a, b, because)| {
            let shown = match (url, text.is_empty()) {
                (Some(url), true) => url,
                (Some(url), false) => format!("{url}  “{text}”"),
                (None, _) => text,
            };
            let head = format!("{index:>4}  {} → {}", pad(&a, 16), pad(&b, 16));
            format!(
                "{head}  {}\n{:>6}{}",
                fit(&shown, TABLE_WIDTH - 44),
                "",
                fit(&format!("because {because}"), TABLE_WIDTH - 6)
            )
        })
        .collect()
}

/// The changed links of every page, under the settings that differ.
pub fn write_diff_table(diff: &Diff, out: impl Write) -> std::io::Result<()> {
    let mut out = Escaped::new(out);
    for line in settings_lines(diff.a.settings(), diff.b.settings()) {
        writeln!(out, "{}", fit(&line, TABLE_WIDTH))?;
    }
    writeln!(
        out,
        "in all: {}",
        crate::copy::change_summary(&diff.summary())
    )?;
    for (number, page) in diff.pages.iter().enumerate() {
        writeln!(out)?;
        let summary = crate::policy::compare::summarize(&page.changes);
        let state = match only_in(page) {
            Some("a") => "reached by a's crawl only".to_owned(),
            Some(_) => "reached by b's crawl only".to_owned(),
            None => crate::copy::change_summary(&summary),
        };
        writeln!(
            out,
            "page {number}: {}  ({state})",
            fit(page.url.as_str(), 60)
        )?;
        let page_a = diff.page_a(page);
        let rows = page.changes.iter().map(|c| {
            let j = json_change(page_a, c);
            (
                c.index,
                j.url.map(str::to_owned),
                j.text.to_owned(),
                outcome_cell(&c.a),
                outcome_cell(&c.b),
                j.because,
            )
        });
        for line in change_lines(rows) {
            writeln!(out, "{line}")?;
        }
    }
    out.flush()
}
