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
        pages: run.tally.pages(),
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
        pages: run.tally.pages(),
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
    json_pretty(&mut out, &json_corpus(run, true))?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The report of [`write_corpus_json`], byte for byte, written as the run
/// goes: the settings first, each page as it is judged, the keyword table,
/// summary and archives at the end, from what the pages added up to
/// ([`crate::corpus::Tally`]): a run of 20,000 pages kept each page's ~2 KB
/// until the end.
pub struct CorpusJsonStream<W: Write> {
    out: W,
    pages: usize,
    line: Vec<u8>,
}

/// Where the pages go in the report: `"pages": ` and the array, at the top
/// level of the object (a string cannot hold it: its quotes are escaped).
const PAGES_KEY: &[u8] = b"\n  \"pages\": [";

impl<W: Write> CorpusJsonStream<W> {
    /// Writes the report's head: everything before the first page.
    pub fn start(
        a: &Settings,
        b: Option<&Settings>,
        depth: u32,
        mut out: W,
    ) -> std::io::Result<Self> {
        #[derive(Serialize)]
        struct Head<'a> {
            schema: u32,
            a: &'a Settings,
            b: Option<&'a Settings>,
            depth: u32,
            pages: [(); 0],
        }
        let head = Head {
            schema: SCHEMA,
            a,
            b,
            depth,
            pages: [],
        };
        let mut text = Vec::new();
        json_pretty(&mut text, &head)?;
        let at = memchr::memmem::find(&text, PAGES_KEY)
            .ok_or_else(|| std::io::Error::other(crate::copy::REPORT_WITHOUT_PAGES))?;
        out.write_all(&text[..at + PAGES_KEY.len()])?;
        Ok(Self {
            out,
            pages: 0,
            line: Vec::new(),
        })
    }

    /// Writes one page, as [`write_corpus_json`] writes it in the array.
    pub fn page(&mut self, page: &PageRun) -> std::io::Result<()> {
        self.line.clear();
        json_pretty(&mut self.line, &json_page(page))?;
        self.out
            .write_all(if self.pages == 0 { b"\n" } else { b",\n" })?;
        // Two levels in: a string holds no line break (it is escaped), so
        // every line break is the layout's.
        for (n, line) in self.line.split(|&b| b == b'\n').enumerate() {
            if n > 0 {
                self.out.write_all(b"\n")?;
            }
            self.out.write_all(b"    ")?;
            self.out.write_all(line)?;
        }
        self.pages += 1;
        Ok(())
    }

    /// Writes the rest of the report from the whole run (which kept no
    /// page), and the newline after it.
    pub fn finish(mut self, run: &CorpusRun) -> std::io::Result<()> {
        let mut text = Vec::new();
        json_pretty(&mut text, &json_corpus(run, false))?;
        let at = memchr::memmem::find(&text, PAGES_KEY)
            .ok_or_else(|| std::io::Error::other(crate::copy::REPORT_WITHOUT_PAGES))?;
        // `[]` when no page was written, else the array's end on its line.
        let rest = &text[at + PAGES_KEY.len() + 1..];
        self.out
            .write_all(if self.pages == 0 { b"]" } else { b"\n  ]" })?;
        self.out.write_all(rest)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}

/// The report's object; its pages only `with_pages`.
fn json_corpus(run: &CorpusRun, with_pages: bool) -> JsonCorpus<'_> {
    JsonCorpus {
        schema: SCHEMA,
        a: &run.a,
        b: run.b.as_ref(),
        depth: run.depth,
        pages: if with_pages {
            run.pages.iter().map(json_page).collect()
        } else {
            Vec::new()
        },
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
    }
}

/// One CSV line per page: its counts under A (and B), changes and lints;
/// with targets, how many it has and whether each side reaches one.
pub fn write_corpus_csv(run: &CorpusRun, out: impl Write) -> Result<(), csv::Error> {
    let mut writer = csv::Writer::from_writer(out);
    let truth = run.evaluation.as_ref();
    write_csv_header(&mut writer, truth.is_some())?;
    for page in &run.pages {
        write_csv_page(&mut writer, page, truth)?;
    }
    writer.flush()?;
    Ok(())
}

/// The CSV header; the targets' columns `with_truth`.
fn write_csv_header<W: Write>(
    writer: &mut csv::Writer<W>,
    with_truth: bool,
) -> Result<(), csv::Error> {
    let truth_header: &[&str] = if with_truth {
        &[
            "targets",
            "targets_followed_a",
            "targets_followed_b",
            "found_a",
            "found_b",
        ]
    } else {
        &[]
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
    write_cells(writer, header.iter().chain(truth_header).copied())
}

/// One page's CSV line.
fn write_csv_page<W: Write>(
    writer: &mut csv::Writer<W>,
    page: &PageRun,
    truth: Option<&crate::corpus::truth::Evaluation>,
) -> Result<(), csv::Error> {
    let count = |side: Option<&SideRun>, v: Verdict| {
        side.map(|s| s.count(v).to_string()).unwrap_or_default()
    };
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
        writer,
        cells
            .iter()
            .copied()
            .chain(truth_cells.iter().map(String::as_str)),
    )
}

/// A CSV error as the I/O error it is, its kind kept: `csv`'s own
/// conversion makes every error `Other`, so a closed pipe (`| head`) failed
/// the run instead of ending it.
pub fn csv_io(e: csv::Error) -> std::io::Error {
    let kind = match e.kind() {
        csv::ErrorKind::Io(io) => io.kind(),
        _ => std::io::ErrorKind::Other,
    };
    std::io::Error::new(kind, e)
}

/// A report written as the run goes, in a format that allows it (JSON, whose
/// summary comes after the pages, and CSV, which has none; the table's
/// summary comes first): the bytes of the report written at the end.
pub enum CorpusStream<W: Write> {
    Json(CorpusJsonStream<W>),
    Csv(Box<csv::Writer<W>>),
}

impl<W: Write> CorpusStream<W> {
    /// The JSON report's head, written.
    pub fn json(a: &Settings, b: Option<&Settings>, depth: u32, out: W) -> std::io::Result<Self> {
        CorpusJsonStream::start(a, b, depth, out).map(Self::Json)
    }

    /// The CSV header (a run with no targets), written.
    pub fn csv(out: W) -> std::io::Result<Self> {
        let mut writer = csv::Writer::from_writer(out);
        write_csv_header(&mut writer, false)?;
        Ok(Self::Csv(Box::new(writer)))
    }

    /// One page, judged after every page written before it.
    pub fn page(&mut self, page: &PageRun) -> std::io::Result<()> {
        match self {
            Self::Json(json) => json.page(page),
            Self::Csv(writer) => write_csv_page(writer, page, None).map_err(csv_io),
        }
    }

    /// The rest, from the run that kept no page.
    pub fn finish(self, run: &CorpusRun) -> std::io::Result<()> {
        match self {
            Self::Json(json) => json.finish(run),
            Self::Csv(mut writer) => writer.flush(),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{ChangedLink, Tally};
    use crate::policy::compare::{Cause, Outcome};

    fn page(id: &str) -> PageRun {
        let mut page = PageRun::unjudged(id.to_owned(), id.into(), Some(format!("{id}/")));
        page.a.counts.insert(Verdict::Followed, 1);
        page.a.followed = vec![format!("{id}/kontakt")];
        page.a.lints = vec!["white-empty"];
        page.b = Some(page.a.clone());
        let outcome = |verdict| Outcome {
            verdict,
            keyword: Some("kontakt".to_owned()),
            score: Some(3),
            rank: None,
        };
        page.changes = vec![ChangedLink {
            index: 4,
            url: Some(format!("{id}/x")),
            // Line breaks, controls, quotes and the report's own key.
            text: "a\nb\u{1b}[2J \"pages\": [\n  ]".to_owned(),
            a: outcome(Verdict::NoKeyword),
            b: outcome(Verdict::Followed),
            because: Cause::Ranking,
        }];
        page
    }

    fn run_of(pages: Vec<PageRun>) -> CorpusRun {
        let a = Settings::default();
        CorpusRun {
            b: Some(a.clone()),
            keywords_a: Vec::new(),
            keywords_b: Some(Vec::new()),
            depth: 3,
            tally: Tally::of(&pages),
            causes: Tally::of(&pages).cause_counts(),
            pages,
            a,
            cancelled: false,
            archives: None,
            evaluation: None,
        }
    }

    #[test]
    fn a_streamed_report_is_the_one_written_at_the_end_byte_for_byte() {
        let mut failed = page("https://c.example");
        failed.error = Some("cannot read: \"pages\"".to_owned());
        let mut cut = page("https://b.example");
        cut.truncated = true;
        for pages in [
            vec![],
            vec![page("https://a.example")],
            vec![page("https://a.example"), cut, failed],
        ] {
            let run = run_of(pages);
            let mut whole = Vec::new();
            write_corpus_json(&run, &mut whole).unwrap();
            let mut streamed = Vec::new();
            let mut stream =
                CorpusJsonStream::start(&run.a, run.b.as_ref(), run.depth, &mut streamed).unwrap();
            for page in &run.pages {
                stream.page(page).unwrap();
            }
            // A streamed run keeps no page, only what they add up to.
            let kept_none = CorpusRun {
                pages: Vec::new(),
                ..run.clone()
            };
            stream.finish(&kept_none).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&streamed),
                String::from_utf8_lossy(&whole)
            );
        }
    }
}
