//! Renders an inspection as JSON (SPEC section 7), CSV or a terminal table.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::inspect::{InspectedPage, Inspection, LinkSource};
use crate::policy::{LinkDecision, Verdict, sibling_roots};

mod corpus;
mod diff;
mod escape;
mod json;
mod truth;

pub use corpus::{CorpusStream, csv_io, write_corpus_csv, write_corpus_json, write_corpus_table};
pub use diff::{write_diff_csv, write_diff_json, write_diff_table};
pub use escape::{Escaped, escape, is_hidden};
pub use json::write_json;

pub const SCHEMA: u32 = 1;

/// A link's report fields, as the CSV writes them.
struct LinkFields<'a> {
    index: usize,
    href: &'a str,
    url: Option<&'a str>,
    text: &'a str,
    verdict: &'static str,
    keyword: Option<&'a str>,
    matched_in: Option<&'static str>,
    /// The keyword matched inside a longer word (`tag` in `heritage`).
    inside_word: Option<bool>,
    score: Option<usize>,
    rank: Option<usize>,
    visited: bool,
    nofollow: bool,
    region: &'static str,
    /// Rendered mode: `both` or `rendered_only`.
    source: Option<&'static str>,
}

fn link_fields<'a>(page: &InspectedPage, link: &'a LinkDecision) -> LinkFields<'a> {
    LinkFields {
        index: link.index,
        href: &link.href,
        url: link.url.as_ref().map(|u| u.as_str()),
        text: &link.text,
        verdict: link.verdict.id(),
        keyword: link.keyword().map(|k| &*k.keyword),
        matched_in: link.keyword().map(|k| k.matched_in.as_str()),
        inside_word: link.keyword().map(|k| k.inside_word),
        score: link.score,
        rank: link.rank,
        visited: link.visited,
        nofollow: link.nofollow,
        region: link.region.id(),
        source: page.source(link).map(LinkSource::id),
    }
}

/// Counts of every verdict, zeros included, so scripts can index any verdict.
pub fn counts(page: &InspectedPage) -> BTreeMap<&'static str, usize> {
    Verdict::ALL
        .iter()
        .map(|v| (v.id(), page.decision.count(*v)))
        .collect()
}

/// CSV with a header row and one line per link of every page, written to `out`.
pub fn write_csv(inspection: &Inspection, out: impl Write) -> Result<(), csv::Error> {
    let mut writer = csv::Writer::from_writer(out);
    write_cells(
        &mut writer,
        [
            "page_url",
            "level",
            "index",
            "verdict",
            "score",
            "rank",
            "keyword",
            "matched_in",
            "visited",
            "url",
            "href",
            "text",
            "source",
            "region",
            "nofollow",
            "inside_word",
        ],
    )?;
    for page in &inspection.pages {
        let level = page.level.to_string();
        for link in &page.decision.links {
            let j = link_fields(page, link);
            write_cells(
                &mut writer,
                [
                    page.url.as_str(),
                    &level,
                    &j.index.to_string(),
                    j.verdict,
                    &j.score.map(|s| s.to_string()).unwrap_or_default(),
                    &j.rank.map(|r| r.to_string()).unwrap_or_default(),
                    j.keyword.unwrap_or_default(),
                    j.matched_in.unwrap_or_default(),
                    if j.visited { "true" } else { "false" },
                    j.url.unwrap_or_default(),
                    j.href,
                    j.text,
                    j.source.unwrap_or_default(),
                    j.region,
                    if j.nofollow { "true" } else { "false" },
                    match j.inside_word {
                        Some(true) => "true",
                        Some(false) => "false",
                        None => "",
                    },
                ],
            )?;
        }
        // Links scripts removed: no index, no verdict.
        for gone in page.rendered().map_or(&[][..], |r| &r.static_only) {
            write_cells(
                &mut writer,
                [
                    page.url.as_str(),
                    &level,
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    gone.url.as_ref().map_or("", |u| u.as_str()),
                    &gone.href,
                    &gone.text,
                    "static_only",
                    "",
                    "",
                    "",
                ],
            )?;
        }
    }
    writer.flush()?;
    Ok(())
}

pub(crate) const TABLE_WIDTH: usize = 100;

/// A CSV cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab
/// or carriage return first) with a `'` before it, as OWASP advises.
pub(crate) fn neutralise(cell: &str) -> Cow<'_, str> {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{cell}"))
    } else {
        Cow::Borrowed(cell)
    }
}

/// Writes one CSV record with every cell [`neutralise`]d, then its control
/// characters and bidi overrides [`escape`]d (its line breaks and tabs kept:
/// CSV quoting carries them), so `cat` of the file cannot drive a terminal.
pub(crate) fn write_cells<'a, W: Write>(
    writer: &mut csv::Writer<W>,
    cells: impl IntoIterator<Item = &'a str>,
) -> Result<(), csv::Error> {
    let cells: Vec<Cow<'_, str>> = cells
        .into_iter()
        .map(|cell| match neutralise(cell) {
            Cow::Borrowed(cell) => escape(cell, true),
            Cow::Owned(cell) => Cow::Owned(escape(&cell, true).into_owned()),
        })
        .collect();
    writer.write_record(cells.iter().map(|c| c.as_bytes()))
}

/// Cuts `s` to at most `width` terminal columns (CJK characters take two),
/// marking a cut with `…`; control characters and bidi overrides are shown
/// escaped (before measuring: the escaped form is what takes the columns).
pub(crate) fn fit(s: &str, width: usize) -> String {
    let s = &*escape(s, false);
    if s.width() <= width {
        return s.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

/// `fit`, then padded with spaces to exactly `width` columns.
pub(crate) fn pad(s: &str, width: usize) -> String {
    let fitted = fit(s, width);
    let fill = width.saturating_sub(fitted.width());
    format!("{fitted}{}", " ".repeat(fill))
}

fn summary_line(page: &InspectedPage) -> String {
    let parts: Vec<String> = Verdict::ALL
        .iter()
        .rev()
        .filter_map(|v| {
            let n = page.decision.count(*v);
            (n > 0).then(|| format!("{n} {}", v.id()))
        })
        .collect();
    if parts.is_empty() {
        return "summary: no candidate links".to_owned();
    }
    let indent = "summary: ".len();
    let mut out = String::from("summary: ");
    let mut line_width = indent;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let item = if last {
            part.clone()
        } else {
            format!("{part},")
        };
        if line_width > indent && line_width + 1 + item.len() > TABLE_WIDTH {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            line_width = indent;
        } else if line_width > indent {
            out.push(' ');
            line_width += 1;
        }
        out.push_str(&item);
        line_width += item.len();
    }
    out
}

/// The lines under a page's heading: how it was reached, fetched and decoded.
fn page_details(inspection: &Inspection, page: &InspectedPage) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(via) = page.via {
        let parent = inspection.pages.get(via.page);
        let text = parent
            .and_then(|p| p.decision.links.get(via.link))
            .map(|l| format!(" “{}”", l.text))
            .unwrap_or_default();
        lines.push(format!(
            "via page {} link #{}{text}",
            via.page + 1,
            via.link
        ));
    }
    if let Some(fetch) = &page.fetch {
        for hop in &fetch.redirects {
            lines.push(format!("redirect {} from {}", hop.status, hop.url));
        }
        let status = page.status.map(|s| s.to_string()).unwrap_or_default();
        let error_page = if page.status.is_some_and(|s| s >= 400) {
            " (an error page: its links are shown as the scraper would see them)"
        } else {
            ""
        };
        let cut = if fetch.truncated {
            " (cut at the size cap)"
        } else {
            ""
        };
        // A saved file cut at the cap has a summary but no HTTP answer.
        lines.push(match page.status {
            Some(_) => format!(
                "HTTP {status}{error_page}, {} bytes{cut} in {} ms",
                fetch.bytes, fetch.elapsed_ms
            ),
            None => format!("file, {} bytes{cut}", fetch.bytes),
        });
    }
    if let Some(error) = page.error() {
        lines.push(format!("failed: {error}"));
    }
    if let Some(read) = page.read() {
        lines.push(format!(
            "charset {} ({})",
            read.encoding,
            read.charset_source.describe()
        ));
    }
    if let Some(r) = page.rendered() {
        lines.push(format!(
            "{}{}",
            crate::copy::rendered_summary(r.wait.id(), r.network_idle, r.render_ms),
            crate::copy::rendered_marks(
                r.dialogs,
                r.scripts_stopped,
                r.dom_read,
                r.blocked_requests
            )
        ));
        if let Some(replay) = &r.replay {
            lines.push(crate::copy::replay_summary(replay.answered, replay.missing));
        }
    }
    lines
}

/// A table that reads in a 100-column terminal: per page a header, one line per
/// link (verdict, score/rank, keyword, URL), counts per verdict, then the lints.
pub fn write_table(inspection: &Inspection, out: impl Write) -> std::io::Result<()> {
    let mut out = Escaped::new(out);
    writeln!(out, "start  {}", inspection.start_url)?;
    if inspection.final_url != inspection.start_url {
        writeln!(out, "final  {}", inspection.final_url)?;
    }
    writeln!(
        out,
        "depth  {}{}",
        inspection.depth(),
        match inspection.limit_override() {
            Some(n) => format!("  (limit overridden: N = {n} on every page)"),
            None => String::new(),
        }
    )?;
    if inspection.cancelled {
        writeln!(
            out,
            "the crawl was cancelled: the pages below are what it had"
        )?;
    }
    // Pages count from 1, as the window's "Page 1 of 3" does: one ticket can
    // hold both, and a support reply names the same page either way.
    for (number, page) in (1..).zip(&inspection.pages) {
        writeln!(out)?;
        writeln!(
            out,
            "page {number}: {} (level {}, N = {})",
            fit(page.url.as_str(), 70),
            page.level,
            page.decision.limit,
        )?;
        for line in page_details(inspection, page) {
            writeln!(out, "  {}", fit(&line, TABLE_WIDTH - 2))?;
        }
        if page.read().is_none() {
            continue;
        }
        if !page.decision.links.is_empty() {
            writeln!(
                out,
                "{:>4}  {:<11} {:>5} {:>4}  {:<14} {:<6} url / text",
                "#", "verdict", "score", "rank", "keyword", "region"
            )?;
        }
        for link in &page.decision.links {
            let keyword = link
                .keyword()
                .map(|k| format!("{} ({})", k.keyword, k.matched_in.as_str()))
                .unwrap_or_default();
            let target = link
                .url
                .as_ref()
                .map(|u| u.to_string())
                .unwrap_or_else(|| format!("{:?} (does not parse)", link.href));
            let shown = if link.text.is_empty() {
                target
            } else {
                format!("{target}  “{}”", link.text)
            };
            let mut marks = String::new();
            match (link.visited, page.source(link)) {
                (true, _) => marks.push_str(" visited"),
                (false, Some(LinkSource::RenderedOnly)) => marks.push_str(" +script"),
                _ => {}
            }
            if link.nofollow {
                marks.push_str(" nofollow");
            }
            if link.keyword().is_some_and(|k| k.inside_word) {
                marks.push_str(" in-word");
            }
            writeln!(
                out,
                "{:>4}  {:<11} {:>5} {:>4}  {} {:<6} {}{marks}",
                link.index,
                link.verdict.id(),
                link.score.map(|s| s.to_string()).unwrap_or_default(),
                link.rank.map(|r| r.to_string()).unwrap_or_default(),
                pad(&keyword, 14),
                link.region.id(),
                fit(&shown, TABLE_WIDTH - 52 - marks.len()),
            )?;
        }
        writeln!(out, "{}", summary_line(page))?;
        let suggestions = sibling_roots(&page.decision.page_host, &page.decision.links);
        if !suggestions.is_empty() {
            writeln!(out, "{}", crate::copy::allow_suggestions_line(&suggestions))?;
        }
        if let Some(r) = page.rendered().filter(|r| !r.static_only.is_empty()) {
            writeln!(
                out,
                "removed by scripts (in the served HTML only, no verdict): {}",
                r.static_only.len()
            )?;
            for gone in &r.static_only {
                let target = gone
                    .url
                    .as_ref()
                    .map_or_else(|| gone.href.to_string(), |u| u.to_string());
                let shown = if gone.text.is_empty() {
                    target
                } else {
                    format!("{target}  “{}”", gone.text)
                };
                writeln!(out, "  - {}", fit(&shown, TABLE_WIDTH - 4))?;
            }
        }
    }
    writeln!(out)?;
    if inspection.lints().is_empty() {
        writeln!(out, "lints: none")?;
    } else {
        writeln!(out, "lints:")?;
        for lint in inspection.lints() {
            writeln!(
                out,
                "  [{}] {}",
                lint.code.id(),
                crate::copy::lint_message(lint)
            )?;
        }
    }
    out.flush()
}
