//! `corpus`: one or two settings over many saved pages (SPEC section 9), or
//! over the HTML responses of web archives (SPEC 10).
//! Reads files only, never the network; pages are read on every core and
//! reported in manifest or file-name order, so the output never varies.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};
use url::Url;

use crate::error_text::error_text;
use crate::fetch::local;
use crate::inspect::{Inspection, Limits};
use crate::par;
use crate::policy::compare::{Cause, ListName, Outcome, compare_pages};
use crate::policy::{CompiledSettings, Lint, PageDecision, Settings, Verdict};

mod archive;
mod list;
pub mod partial;
mod source;
mod tally;
pub mod truth;
pub use archive::{ArchiveStats, RecordProblem, RecordWarning, SkipKind, run_archives};
pub use list::{CorpusError, CorpusPage, RowProblem, list_pages};
pub use source::{CorpusSource, check_archives, list_corpus, list_inputs, run_source};
pub use tally::Tally;

/// Every core the machine offers.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// A changed link on a corpus page, with what the report shows of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedLink {
    pub index: usize,
    pub url: Option<String>,
    pub text: String,
    pub a: Outcome,
    pub b: Outcome,
    pub because: Cause,
}

/// How one keyword decided verdicts on one side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeywordUse {
    pub links: usize,
    pub in_url: usize,
    pub in_text: usize,
    pub inside_word: usize,
}

impl KeywordUse {
    fn add(&mut self, other: &KeywordUse) {
        self.links += other.links;
        self.in_url += other.in_url;
        self.in_text += other.in_text;
        self.inside_word += other.inside_word;
    }
}

/// One side of a page: its counts, followed links, lints and keyword uses.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideRun {
    pub counts: BTreeMap<Verdict, usize>,
    pub followed: Vec<String>,
    #[serde(with = "partial::lint_ids")]
    pub lints: Vec<&'static str>,
    #[serde(with = "partial::keyword_uses")]
    pub keywords: BTreeMap<(ListName, String), KeywordUse>,
}

impl SideRun {
    fn of(inspection: &Inspection) -> Self {
        let decision = inspection.pages.first().map(|p| &p.decision);
        Self::of_decision(inspection.lints(), decision)
    }

    /// A side of its lints and its first page's decision (none: no page).
    fn of_decision(lints: &[Lint], decision: Option<&PageDecision>) -> Self {
        let mut side = Self {
            lints: lints.iter().map(|l| l.code.id()).collect(),
            ..Self::default()
        };
        let Some(decision) = decision else {
            return side;
        };
        for verdict in Verdict::ALL {
            side.counts.insert(verdict, decision.count(verdict));
        }
        let mut followed: Vec<(usize, String)> = Vec::new();
        for link in &decision.links {
            if link.verdict == Verdict::Followed
                && let (Some(rank), Some(url)) = (link.rank, &link.url)
            {
                followed.push((rank, url.to_string()));
            }
            let (Some(hit), Some(list)) = (link.keyword(), link.keyword_list()) else {
                continue;
            };
            let used = side
                .keywords
                .entry((list, hit.keyword.to_string()))
                .or_default();
            used.links += 1;
            match hit.matched_in {
                crate::policy::MatchedIn::Url => used.in_url += 1,
                crate::policy::MatchedIn::Text => used.in_text += 1,
            }
            used.inside_word += usize::from(hit.inside_word);
        }
        followed.sort();
        side.followed = followed.into_iter().map(|(_, url)| url).collect();
        side
    }

    pub fn count(&self, verdict: Verdict) -> usize {
        self.counts.get(&verdict).copied().unwrap_or(0)
    }

    pub fn links(&self) -> usize {
        self.counts.values().sum()
    }
}

/// One page of a corpus run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PageRun {
    pub id: String,
    #[serde(with = "partial::lossy_path")]
    pub path: PathBuf,
    /// The URL the page was judged against.
    pub url: Option<String>,
    pub a: SideRun,
    pub b: Option<SideRun>,
    pub changes: Vec<ChangedLink>,
    /// Why the page could not be read or has no URL.
    pub error: Option<String>,
    /// The page file was longer than the cap and read only up to it.
    pub truncated: bool,
    /// The page as read and decided under A, kept for a labelled page so
    /// that [`truth::evaluate`] can decide it again (a partial result
    /// carries it beside the page).
    #[serde(skip)]
    pub kept: Option<Arc<truth::KeptPage>>,
}

impl PageRun {
    /// A page not judged yet: nothing counted, followed or kept.
    pub fn unjudged(id: String, path: PathBuf, url: Option<String>) -> Self {
        Self {
            id,
            path,
            url,
            a: SideRun::default(),
            b: None,
            changes: Vec::new(),
            error: None,
            truncated: false,
            kept: None,
        }
    }
}

/// A keyword's totals over the corpus on one side, in list order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeywordStats {
    pub keyword: String,
    pub list: ListName,
    /// Pages on which it decided at least one verdict.
    pub pages: usize,
    pub used: KeywordUse,
}

/// Changed links grouped by their cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CauseCount {
    pub because: Cause,
    pub links: usize,
    pub pages: usize,
    /// Links followed under B only, and under A only.
    pub gained: usize,
    pub lost: usize,
}

/// A whole corpus run.
#[derive(Clone, Debug)]
pub struct CorpusRun {
    pub a: Settings,
    pub b: Option<Settings>,
    pub depth: u32,
    pub pages: Vec<PageRun>,
    pub keywords_a: Vec<KeywordStats>,
    pub keywords_b: Option<Vec<KeywordStats>>,
    pub causes: Vec<CauseCount>,
    /// The run was cancelled: pages not read are missing.
    pub cancelled: bool,
    /// For a corpus of web archives: the records that were not pages.
    pub archives: Option<ArchiveStats>,
    /// Measured against a targets file.
    pub evaluation: Option<truth::Evaluation>,
    /// What the pages add up to: of `pages`, or of the pages a streamed
    /// report wrote and did not keep (`pages` is then empty). Made with the
    /// run; a change to `pages` afterwards does not reach it.
    pub tally: Tally,
}

impl CorpusRun {
    /// The run measured against `targets` (SPEC 11), with the suggestions
    /// `suggest` asks for; labelled pages are decided again, not read again.
    pub fn evaluate(
        &self,
        targets: &truth::Targets,
        suggest: truth::Suggest<'_>,
        cancel: &AtomicBool,
    ) -> truth::Evaluation {
        let pages: Vec<(&str, Option<&truth::KeptPage>)> = self
            .pages
            .iter()
            .map(|p| (p.id.as_str(), p.kept.as_deref()))
            .collect();
        let view = truth::RunView {
            a: &self.a,
            b: self.b.as_ref(),
            cancelled: self.cancelled,
            pages: &pages,
        };
        truth::evaluate(view, targets, suggest, cancel)
    }

    /// The pages read without error.
    pub fn read_pages(&self) -> impl Iterator<Item = &PageRun> {
        self.pages.iter().filter(|p| p.error.is_none())
    }

    /// The ids of the pages where side A (or B) follows nothing: the scraper
    /// would find no contact page there.
    pub fn nothing_followed(&self, b: bool) -> Vec<&str> {
        self.tally
            .nothing_followed(b)
            .iter()
            .map(String::as_str)
            .collect()
    }

    /// The run's totals over the pages read.
    pub fn totals(&self) -> Totals {
        self.tally.totals(self.b.is_some())
    }
}

/// What a corpus run adds up to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    pub pages_read: usize,
    pub pages_failed: usize,
    pub links: usize,
    pub followed_a: usize,
    /// With a second side.
    pub followed_b: Option<usize>,
    pub changed_links: usize,
}

/// Reads one page and decides it under A (and B).
fn run_page(page: &CorpusPage, sides: &Compiled<'_>, max_bytes: usize) -> PageRun {
    let depth = sides.sides.depth;
    let mut run = PageRun::unjudged(page.id.clone(), page.path.clone(), page.url.clone());
    if let Some(problem) = &page.problem {
        run.error = Some(problem.to_string());
        return run;
    }
    let bytes = match local::read_page(&page.path, max_bytes) {
        Ok((bytes, cut)) => {
            run.truncated = cut;
            bytes
        }
        Err(e) => {
            run.error = Some(error_text(&e));
            return run;
        }
    };
    let url = match page.url.as_deref().map(Url::parse).transpose() {
        Ok(url) => url,
        Err(e) => {
            run.error = Some(format!("original_url does not parse: {e}"));
            return run;
        }
    };
    match Inspection::saved_page(&bytes, url, Limits::of_depth(depth), sides.a.clone()) {
        Ok(inspection) => judge(&mut run, inspection, sides),
        Err(e) => run.error = Some(e.to_string()),
    }
    run
}

/// Fills `run` with the page decided under A (as `inspection_a` is) and B;
/// keeps the page when the targets label it.
fn judge(run: &mut PageRun, mut inspection_a: Inspection, sides: &Compiled<'_>) {
    run.url = Some(inspection_a.final_url.to_string());
    run.a = SideRun::of(&inspection_a);
    if let Some(b) = &sides.b {
        match inspection_a.first_page_under(b) {
            Some((decision_b, lints_b)) => {
                run.b = Some(SideRun::of_decision(&lints_b, Some(&decision_b)));
                if let Some(pa) = inspection_a.pages.first() {
                    run.changes = changed_links(&pa.decision, &decision_b, &sides.a, b);
                }
            }
            None => run.b = Some(SideRun::of_decision(&[], None)),
        }
    }
    let labelled = sides
        .sides
        .targets
        .is_some_and(|t| t.for_page(&run.id).is_some());
    if labelled && !inspection_a.pages.is_empty() {
        run.kept = Some(Arc::new(truth::KeptPage::of(
            inspection_a.pages.swap_remove(0),
        )));
    }
}

fn changed_links(
    a: &PageDecision,
    b: &PageDecision,
    sa: &CompiledSettings,
    sb: &CompiledSettings,
) -> Vec<ChangedLink> {
    compare_pages(a, b, sa.options(), sb.options())
        .into_iter()
        .map(|c| {
            let link = &a.links[c.index];
            ChangedLink {
                index: c.index,
                url: link.url.as_ref().map(|u| u.to_string()),
                text: link.text.to_string(),
                a: c.a,
                b: c.b,
                because: c.because,
            }
        })
        .collect()
}

/// Runs `a` (and `b`) over `pages` on `jobs` threads, each page read up to
/// `fetch::DEFAULT_MAX_BYTES`. `progress` gets the number of pages done;
/// `cancel` stops before the next page.
pub fn run(
    pages: &[CorpusPage],
    a: &Settings,
    b: Option<&Settings>,
    depth: u32,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &(dyn Fn(usize) + Sync),
) -> CorpusRun {
    let sides = Sides {
        a,
        b,
        depth,
        targets: None,
    };
    let max_bytes = crate::fetch::DEFAULT_MAX_BYTES;
    run_capped(pages, sides, max_bytes, jobs, cancel, progress)
}

/// The settings a corpus run decides its pages under, and the depth.
#[derive(Clone, Copy)]
pub struct Sides<'a> {
    pub a: &'a Settings,
    pub b: Option<&'a Settings>,
    pub depth: u32,
    /// The pages these label are kept for [`truth::evaluate`].
    pub targets: Option<&'a truth::Targets>,
}

/// The sides of a run with their settings compiled once, for every page.
struct Compiled<'a> {
    sides: Sides<'a>,
    a: CompiledSettings,
    b: Option<CompiledSettings>,
}

impl<'a> Compiled<'a> {
    fn new(sides: Sides<'a>) -> Self {
        Self {
            a: CompiledSettings::new(sides.a.clone()),
            b: sides.b.cloned().map(CompiledSettings::new),
            sides,
        }
    }
}

/// [`run`], each page read up to `max_bytes` (`--max-bytes`).
pub fn run_capped(
    pages: &[CorpusPage],
    sides: Sides<'_>,
    max_bytes: usize,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &(dyn Fn(usize) + Sync),
) -> CorpusRun {
    let done = AtomicUsize::new(0);
    let compiled = Compiled::new(sides);
    let runs: Vec<PageRun> =
        par::map_ordered(pages, jobs, "follow-inspector-corpus", cancel, |page| {
            let run = run_page(page, &compiled, max_bytes);
            progress(done.fetch_add(1, Ordering::SeqCst) + 1);
            run
        })
        .into_iter()
        .flatten()
        .collect();
    let cancelled = runs.len() < pages.len();
    finish_run(sides, runs, cancelled)
}

/// The run of `runs`: keyword totals and causes added.
fn finish_run(sides: Sides<'_>, runs: Vec<PageRun>, cancelled: bool) -> CorpusRun {
    let tally = Tally::of(&runs);
    finish_tallied(sides, runs, tally, cancelled)
}

/// The run of `runs` (none, when a streamed report kept none) and what
/// every page judged added up to.
fn finish_tallied(
    sides: Sides<'_>,
    runs: Vec<PageRun>,
    tally: Tally,
    cancelled: bool,
) -> CorpusRun {
    let Sides { a, b, depth, .. } = sides;
    CorpusRun {
        a: a.clone(),
        b: b.cloned(),
        depth,
        causes: tally.cause_counts(),
        keywords_a: tally.keyword_stats(a, false),
        keywords_b: b.map(|b| tally.keyword_stats(b, true)),
        pages: runs,
        cancelled,
        archives: None,
        evaluation: None,
        tally,
    }
}
