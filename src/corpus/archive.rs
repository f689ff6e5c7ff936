//! A corpus of web archives (SPEC 10): every HTML 200 `response` record is a
//! page judged against its `WARC-Target-URI`. One thread reads the records
//! and, with more than one job, hands pages in small batches through a
//! bounded channel to the workers (with one job it judges them itself), so
//! no record or body outlives its page. Pages are taken in record order:
//! kept for the report written at the end (about 2 KB a page), or handed to
//! a report streamed as the run goes and only added to the run's tally.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};

use serde::{Deserialize, Serialize};
use url::Url;

use super::{Compiled, CorpusRun, PageRun, Sides, Tally, finish_tallied, judge};
use crate::archive::{self, RecordHead, RecordKind};
use crate::fetch::{charset_param, is_html};

/// Room for the HTTP header in a response block, over the body's cap.
const HTTP_HEADER_ROOM: usize = 256 * 1024;

/// Why a record is not a page: its JSON key in `archives.skipped`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SkipKind {
    Warcinfo,
    Request,
    Metadata,
    Revisit,
    Resource,
    Conversion,
    Continuation,
    /// A `WARC-Type` the format does not name, or none.
    OtherType,
    /// A response that is not HTML (by its Content-Type).
    NotHtml,
    /// A response whose status is not 200.
    NotOk,
    /// An HTML 200 response for a URI already taken as a page.
    Duplicate,
    BadTargetUri,
    BadHttp,
    /// A record of a URI that is not http or https (a crawler's `dns:` or
    /// `whois:` lookup, a `urn:`): no web page, and no damage either.
    NonHttp,
}

impl SkipKind {
    pub const ALL: [SkipKind; 14] = [
        SkipKind::Warcinfo,
        SkipKind::Request,
        SkipKind::Metadata,
        SkipKind::Revisit,
        SkipKind::Resource,
        SkipKind::Conversion,
        SkipKind::Continuation,
        SkipKind::OtherType,
        SkipKind::NotHtml,
        SkipKind::NotOk,
        SkipKind::Duplicate,
        SkipKind::BadTargetUri,
        SkipKind::BadHttp,
        SkipKind::NonHttp,
    ];

    /// The stable key in the JSON report.
    pub fn id(self) -> &'static str {
        match self {
            SkipKind::Warcinfo => "warcinfo",
            SkipKind::Request => "request",
            SkipKind::Metadata => "metadata",
            SkipKind::Revisit => "revisit",
            SkipKind::Resource => "resource",
            SkipKind::Conversion => "conversion",
            SkipKind::Continuation => "continuation",
            SkipKind::OtherType => "other_type",
            SkipKind::NotHtml => "not_html",
            SkipKind::NotOk => "not_200",
            SkipKind::Duplicate => "duplicate",
            SkipKind::BadTargetUri => "bad_target_uri",
            SkipKind::BadHttp => "bad_http",
            SkipKind::NonHttp => "non_http",
        }
    }

    fn of_type(kind: RecordKind) -> Self {
        match kind {
            RecordKind::Warcinfo => SkipKind::Warcinfo,
            RecordKind::Request => SkipKind::Request,
            RecordKind::Metadata => SkipKind::Metadata,
            RecordKind::Revisit => SkipKind::Revisit,
            RecordKind::Resource => SkipKind::Resource,
            RecordKind::Conversion => SkipKind::Conversion,
            RecordKind::Continuation => SkipKind::Continuation,
            RecordKind::Response | RecordKind::Other | RecordKind::Missing => SkipKind::OtherType,
        }
    }
}

/// A record that could not be read (damaged) or not taken as a page (its
/// target URI or HTTP part does not parse), with where it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordProblem {
    #[serde(with = "super::partial::lossy_path")]
    pub file: PathBuf,
    pub offset: u64,
    pub target_uri: Option<String>,
    pub detail: String,
}

/// What the archives of a corpus held besides its pages.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveStats {
    /// Not in a partial result: its run plan names every file.
    #[serde(skip)]
    pub files: Vec<PathBuf>,
    /// Records read, pages and skipped ones (damaged ones not counted).
    pub records: usize,
    pub skipped: BTreeMap<SkipKind, usize>,
    /// The first [`LISTED_PROBLEMS`] damaged records; the rest are counted.
    pub damaged: Vec<RecordProblem>,
    pub damaged_not_listed: usize,
    /// Response records skipped as `bad_target_uri` or `bad_http` (the
    /// first [`LISTED_PROBLEMS`]; the rest are counted).
    pub unreadable: Vec<RecordProblem>,
    pub unreadable_not_listed: usize,
    /// Response records read past what was odd about them (SPEC 12): one
    /// warning a record, naming every quirk (the first [`LISTED_PROBLEMS`];
    /// the rest are counted).
    #[serde(default)]
    pub warnings: Vec<RecordWarning>,
    #[serde(default)]
    pub warnings_not_listed: usize,
    /// A partial result written before warnings were typed listed only the
    /// bodies read as stored: still merged, as warnings.
    #[serde(default, skip_serializing, rename = "read_as_stored")]
    pub old_read_as_stored: Vec<RecordProblem>,
    #[serde(default, skip_serializing, rename = "read_as_stored_not_listed")]
    pub old_read_as_stored_not_listed: usize,
}

/// A response record read past what was odd about it, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordWarning {
    #[serde(with = "super::partial::lossy_path")]
    pub file: PathBuf,
    pub offset: u64,
    pub target_uri: Option<String>,
    /// The stable id of its first quirk ([`archive::ReadQuirk::id`]).
    pub kind: String,
    /// Every quirk's id, in the order met.
    #[serde(default)]
    pub kinds: Vec<String>,
    /// Every quirk in words.
    pub detail: String,
}

impl RecordWarning {
    fn of(problem: RecordProblem, quirks: &[archive::ReadQuirk]) -> Option<Self> {
        let kinds: Vec<String> = quirks.iter().map(|q| q.id().to_owned()).collect();
        let detail: Vec<String> = quirks.iter().map(ToString::to_string).collect();
        Some(RecordWarning {
            file: problem.file,
            offset: problem.offset,
            target_uri: problem.target_uri,
            kind: kinds.first()?.clone(),
            kinds,
            detail: detail.join("; "),
        })
    }

    /// A body read as stored, as a partial result of an earlier version
    /// listed it: its kind told by its words.
    fn of_old(problem: RecordProblem) -> Self {
        let kind = if problem.detail.contains("Transfer-Encoding: chunked") {
            archive::ReadQuirk::NotChunked.id()
        } else {
            "not_encoded"
        };
        RecordWarning {
            file: problem.file,
            offset: problem.offset,
            target_uri: problem.target_uri,
            kind: kind.to_owned(),
            kinds: vec![kind.to_owned()],
            detail: problem.detail,
        }
    }
}

/// Problems listed at most, of each kind: a hostile archive can be all
/// damage, and memory must not grow with it.
pub const LISTED_PROBLEMS: usize = 1000;

impl ArchiveStats {
    pub fn skipped(&self, kind: SkipKind) -> usize {
        self.skipped.get(&kind).copied().unwrap_or(0)
    }

    fn skip(&mut self, kind: SkipKind) {
        *self.skipped.entry(kind).or_default() += 1;
    }

    fn note_damaged(&mut self, problem: RecordProblem) {
        if self.damaged.len() < LISTED_PROBLEMS {
            self.damaged.push(problem);
        } else {
            self.damaged_not_listed += 1;
        }
    }

    fn note_unreadable(&mut self, problem: RecordProblem) {
        if self.unreadable.len() < LISTED_PROBLEMS {
            self.unreadable.push(problem);
        } else {
            self.unreadable_not_listed += 1;
        }
    }

    fn note_warning(&mut self, warning: RecordWarning) {
        if self.warnings.len() < LISTED_PROBLEMS {
            self.warnings.push(warning);
        } else {
            self.warnings_not_listed += 1;
        }
    }

    /// Warnings in all, listed or not.
    pub fn warning_count(&self) -> usize {
        self.warnings.len() + self.warnings_not_listed
    }

    /// Adds the stats of the archive read after these (a shard's), keeping
    /// the first problems of the two in that order.
    pub fn absorb(&mut self, later: ArchiveStats) {
        self.records += later.records;
        for (kind, count) in later.skipped {
            *self.skipped.entry(kind).or_default() += count;
        }
        for problem in later.damaged {
            self.note_damaged(problem);
        }
        self.damaged_not_listed += later.damaged_not_listed;
        for problem in later.unreadable {
            self.note_unreadable(problem);
        }
        self.unreadable_not_listed += later.unreadable_not_listed;
        for warning in later.warnings {
            self.note_warning(warning);
        }
        self.warnings_not_listed += later.warnings_not_listed;
        for problem in later.old_read_as_stored {
            self.note_warning(RecordWarning::of_old(problem));
        }
        self.warnings_not_listed += later.old_read_as_stored_not_listed;
    }

    /// A page of a later archive whose URI an earlier one had: skipped as a
    /// duplicate when shards are merged.
    pub fn count_duplicate(&mut self) {
        self.skip(SkipKind::Duplicate);
    }

    /// Damaged records in all, listed or not.
    pub fn damaged_count(&self) -> usize {
        self.damaged.len() + self.damaged_not_listed
    }

    /// Problems in all, damaged, unreadable and warned about, listed or not.
    pub fn problem_count(&self) -> usize {
        self.damaged_count()
            + self.unreadable.len()
            + self.unreadable_not_listed
            + self.warning_count()
    }
}

/// One HTML response taken as a page, in record order.
struct ArchivePage {
    at: usize,
    file: PathBuf,
    url: Url,
    /// The body as it lies in its record's block.
    html: archive::Body,
    charset: Option<String>,
    truncated: bool,
}

/// What one record is to the corpus, and what was odd about it.
enum Taken {
    Page(ArchivePage, Option<RecordWarning>),
    Skipped(SkipKind, Option<RecordWarning>),
    Unreadable(SkipKind, RecordProblem),
}

/// Runs the sides over every HTML 200 response of `files`, in file and
/// record order; `progress` gets (pages done, pages found so far). With
/// `each` (a report streamed as the run goes), every page is handed to it
/// once judged, in record order, then added to the run's tally and not kept.
pub fn run_archives(
    files: &[PathBuf],
    sides: Sides<'_>,
    max_bytes: usize,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
    each: Each<'_>,
) -> CorpusRun {
    let (found, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let results: Mutex<InOrder> = Mutex::new(InOrder::default());
    let compiled = Compiled::new(sides);
    let work = |page: ArchivePage| {
        let run = judge_page(&page, &compiled);
        if let Ok(mut results) = results.lock() {
            results.add(page.at, run, each);
        }
        progress(
            done.fetch_add(1, Ordering::SeqCst) + 1,
            found.load(Ordering::SeqCst),
        );
    };
    // Pages travel in batches: one page at a time, the reader (an eighth of
    // the work) found the channel full at every page and each page cost a
    // futex wake and a context switch on both threads, 3-4% of a run's
    // cycles on real homepages (perf, one job).
    let (sender, receiver) = mpsc::sync_channel::<Vec<ArchivePage>>(jobs.max(1));
    let receiver = Mutex::new(receiver);
    let worker = || {
        loop {
            // The lock is held only while waiting for the next batch.
            let next = receiver.lock().ok().and_then(|r| r.recv().ok());
            let Some(batch) = next else { break };
            for page in batch {
                if !cancel.load(Ordering::SeqCst) {
                    work(page);
                }
            }
        }
    };
    let mut stats = ArchiveStats {
        files: files.to_vec(),
        ..ArchiveStats::default()
    };
    // One job is one thread: the reader judges each page as it reads it.
    // A worker beside it would overlap the reading (an eighth of the work)
    // for 1.2 cores, and a second job would then add only 1.5x, not 2x, on
    // two cores (wall time at 20,000 real pages: 17.1-18.4 s one job,
    // 11.1-12.0 s two).
    let workers = if jobs > 1 { jobs } else { 0 };
    std::thread::scope(|scope| {
        let started = (0..workers)
            .filter(|n| {
                std::thread::Builder::new()
                    .name(format!("follow-inspector-corpus-{n}"))
                    .spawn_scoped(scope, worker)
                    .is_ok()
            })
            .count();
        // This thread reads; with one job or no worker to spare, it judges
        // too.
        let sender = (started > 0).then_some(sender);
        let mut batch = Batch::default();
        let mut deliver = |page: ArchivePage| {
            found.fetch_add(1, Ordering::SeqCst);
            match &sender {
                Some(sender) => {
                    if let Some(full) = batch.add(page) {
                        let _ = sender.send(full);
                    }
                }
                None => work(page),
            }
        };
        read_archives(files, max_bytes, cancel, &mut stats, &mut deliver);
        if let Some(sender) = &sender {
            let _ = sender.send(batch.take());
        }
        // Dropping the sender ends the workers once the channel is empty.
    });
    let (runs, tally) = results.into_inner().unwrap_or_default().finish(each);
    let cancelled = cancel.load(Ordering::SeqCst);
    let mut run = finish_tallied(sides, runs, tally, cancelled);
    run.archives = Some(stats);
    run
}

/// Who is handed each page as it is judged (a streamed report), if anyone.
type Each<'a> = Option<&'a (dyn Fn(&PageRun) + Sync)>;

/// The judged pages in record order: each is added to the tally (and handed
/// on, or kept) as soon as every page before it is judged.
#[derive(Default)]
struct InOrder {
    next: usize,
    waiting: BTreeMap<usize, PageRun>,
    kept: Vec<PageRun>,
    tally: Tally,
}

impl InOrder {
    fn add(&mut self, at: usize, run: PageRun, each: Each<'_>) {
        self.waiting.insert(at, run);
        while let Some(run) = self.waiting.remove(&self.next) {
            self.take(run, each);
            self.next += 1;
        }
    }

    fn take(&mut self, run: PageRun, each: Each<'_>) {
        self.tally.add(&run);
        match each {
            Some(each) => each(&run),
            None => self.kept.push(run),
        }
    }

    /// Every page, those after a gap too (a cancelled run judges no more).
    fn finish(mut self, each: Each<'_>) -> (Vec<PageRun>, Tally) {
        for run in std::mem::take(&mut self.waiting).into_values() {
            self.take(run, each);
        }
        (self.kept, self.tally)
    }
}

/// Pages gathered for one trip through the channel: at most
/// [`Batch::PAGES`] pages or [`Batch::BYTES`] of HTML, so the channel
/// (two batches a worker) holds a few megabytes however large the pages.
#[derive(Default)]
struct Batch {
    pages: Vec<ArchivePage>,
    bytes: usize,
}

impl Batch {
    const PAGES: usize = 8;
    const BYTES: usize = 512 * 1024;

    /// Adds a page; the batch to send when it is full.
    fn add(&mut self, page: ArchivePage) -> Option<Vec<ArchivePage>> {
        self.bytes += page.html.len();
        self.pages.push(page);
        (self.pages.len() >= Self::PAGES || self.bytes >= Self::BYTES).then(|| self.take())
    }

    fn take(&mut self) -> Vec<ArchivePage> {
        self.bytes = 0;
        std::mem::take(&mut self.pages)
    }
}

/// Reads every record of every file, counting what is not a page.
fn read_archives(
    files: &[PathBuf],
    max_bytes: usize,
    cancel: &AtomicBool,
    stats: &mut ArchiveStats,
    deliver: &mut dyn FnMut(ArchivePage),
) {
    let mut seen: HashSet<String> = HashSet::new();
    let mut at = 0;
    for file in files {
        let parts = match archive::open_capture(file) {
            Ok(capture) => {
                let package = capture
                    .package
                    .iter()
                    .flat_map(|p| p.warnings.iter().cloned());
                for warning in package.chain(capture.check_warc_hashes()) {
                    let kind = warning.id().to_owned();
                    stats.note_warning(RecordWarning {
                        file: file.clone(),
                        offset: 0,
                        target_uri: None,
                        kinds: vec![kind.clone()],
                        kind,
                        detail: warning.to_string(),
                    });
                }
                capture.parts
            }
            Err(e) => {
                stats.note_damaged(RecordProblem {
                    file: file.clone(),
                    offset: 0,
                    target_uri: None,
                    detail: format!("{e:#}"),
                });
                continue;
            }
        };
        for part in &parts {
            if !read_part(part, max_bytes, cancel, stats, &mut seen, &mut at, deliver) {
                return;
            }
        }
    }
}

/// Reads every record of one part (a WARC file, or one inside a package);
/// false when the run was cancelled.
fn read_part(
    part: &archive::Part,
    max_bytes: usize,
    cancel: &AtomicBool,
    stats: &mut ArchiveStats,
    seen: &mut HashSet<String>,
    at: &mut usize,
    deliver: &mut dyn FnMut(ArchivePage),
) -> bool {
    let wants = |head: &RecordHead| head.kind() == RecordKind::Response;
    let max_block = max_bytes.saturating_add(HTTP_HEADER_ROOM);
    let file = part.label().to_owned();
    let mut reader = match part.reader() {
        Ok(reader) => reader,
        Err(e) => {
            stats.note_damaged(RecordProblem {
                file,
                offset: 0,
                target_uri: None,
                detail: format!("{e:#}"),
            });
            return true;
        }
    };
    while let Some(next) = reader.next_record(&wants, max_block) {
        if cancel.load(Ordering::SeqCst) {
            return false;
        }
        let record = match next {
            Ok(record) => record,
            Err(damaged) => {
                stats.note_damaged(RecordProblem {
                    file: file.clone(),
                    offset: damaged.offset,
                    target_uri: None,
                    detail: damaged.detail,
                });
                continue;
            }
        };
        stats.records += 1;
        match take(&file, record, max_bytes, seen, *at) {
            Taken::Page(page, warning) => {
                *at += 1;
                if let Some(warning) = warning {
                    stats.note_warning(warning);
                }
                deliver(page);
            }
            Taken::Skipped(kind, warning) => {
                stats.skip(kind);
                if let Some(warning) = warning {
                    stats.note_warning(warning);
                }
            }
            Taken::Unreadable(kind, problem) => {
                stats.skip(kind);
                stats.note_unreadable(problem);
            }
        }
    }
    true
}

/// Whether a record is a page, and if not why.
fn take(
    file: &Path,
    record: archive::Record,
    max_bytes: usize,
    seen: &mut HashSet<String>,
    at: usize,
) -> Taken {
    let head = &record.head;
    if head.kind() != RecordKind::Response {
        return Taken::Skipped(SkipKind::of_type(head.kind()), None);
    }
    let target = head.field("WARC-Target-URI").unwrap_or_default();
    let problem = |detail: String| RecordProblem {
        file: file.to_owned(),
        offset: head.offset,
        target_uri: Some(target.to_owned()),
        detail,
    };
    let url = match archive::parse_target_uri(target) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => url,
        Ok(_) => return Taken::Skipped(SkipKind::NonHttp, None),
        Err(e) => {
            let detail = format!("the target URI does not parse ({e})");
            return Taken::Unreadable(SkipKind::BadTargetUri, problem(detail));
        }
    };
    let mut response = match archive::parse_response(record.block, max_bytes) {
        Ok(response) => response,
        Err(e) => return Taken::Unreadable(SkipKind::BadHttp, problem(e.to_string())),
    };
    if record.block_cut || head.field("WARC-Truncated").is_some() {
        response.mark_record_cut();
    }
    // Every response read is warned about, a page or not: a skipped header
    // line can be what made a script no page.
    let warning = RecordWarning::of(problem(String::new()), &response.quirks);
    if response.status != 200 {
        return Taken::Skipped(SkipKind::NotOk, warning);
    }
    let content_type = response.header("Content-Type");
    // As for a live fetch: no Content-Type at all is tried as HTML.
    if !is_html(content_type) {
        return Taken::Skipped(SkipKind::NotHtml, warning);
    }
    if !seen.insert(url.to_string()) {
        return Taken::Skipped(SkipKind::Duplicate, warning);
    }
    Taken::Page(
        ArchivePage {
            at,
            file: file.to_owned(),
            charset: content_type.and_then(charset_param),
            truncated: response.truncated,
            html: response.body,
            url,
        },
        warning,
    )
}

fn judge_page(page: &ArchivePage, sides: &Compiled<'_>) -> PageRun {
    let mut run = PageRun::unjudged(
        page.url.to_string(),
        page.file.clone(),
        Some(page.url.to_string()),
    );
    run.truncated = page.truncated;
    let read = crate::inspect::read_page(&page.html, page.charset.as_deref(), &page.url);
    let inspection = crate::inspect::Inspection::single_page(
        read,
        page.url.clone(),
        crate::inspect::Limits::of_depth(sides.sides.depth),
        sides.a.clone(),
    );
    judge(&mut run, inspection, sides);
    run
}

#[cfg(test)]
mod tests {
    use super::*;

    fn damaged(file: &str, count: usize) -> ArchiveStats {
        let mut stats = ArchiveStats::default();
        for offset in 0..count as u64 {
            stats.note_damaged(RecordProblem {
                file: PathBuf::from(file),
                offset,
                target_uri: None,
                detail: "bad gzip member".to_owned(),
            });
        }
        stats.records = count;
        stats.skip(SkipKind::Request);
        stats
    }

    #[test]
    fn absorbed_stats_add_up_and_list_the_first_problems_in_order() {
        let mut all = damaged("a.warc.gz", LISTED_PROBLEMS - 2);
        all.absorb(damaged("b.warc.gz", LISTED_PROBLEMS + 5));
        assert_eq!(all.records, 2 * LISTED_PROBLEMS + 3);
        assert_eq!(all.skipped(SkipKind::Request), 2);
        assert_eq!(all.damaged.len(), LISTED_PROBLEMS);
        assert_eq!(all.damaged_count(), 2 * LISTED_PROBLEMS + 3);
        let last = &all.damaged[LISTED_PROBLEMS - 1];
        assert_eq!((last.file.to_str(), last.offset), (Some("b.warc.gz"), 1));
    }

    #[test]
    fn an_older_partial_results_read_as_stored_merges_as_warnings() {
        let old = serde_json::json!({
            "records": 2,
            "skipped": {},
            "damaged": [],
            "damaged_not_listed": 0,
            "unreadable": [],
            "unreadable_not_listed": 0,
            "read_as_stored": [{
                "file": "pywb.warc.gz",
                "offset": 412,
                "target_uri": "https://www.iana.org/",
                "detail": "its header says Transfer-Encoding: chunked, but the body is not chunked: read as stored"
            }],
            "read_as_stored_not_listed": 3
        });
        let old: ArchiveStats = serde_json::from_value(old).unwrap();
        let mut merged = ArchiveStats::default();
        merged.absorb(old);
        assert_eq!(merged.warning_count(), 4);
        let warning = &merged.warnings[0];
        assert_eq!(
            (warning.kind.as_str(), warning.offset),
            ("not_chunked", 412)
        );
        assert!(warning.detail.contains("not chunked"));
        // Written again, only the new key is there.
        let again = serde_json::to_value(&merged).unwrap();
        assert!(again.get("read_as_stored").is_none());
        assert_eq!(again["warnings"][0]["kind"], "not_chunked");
        assert_eq!(again["warnings_not_listed"], 3);
    }
}
