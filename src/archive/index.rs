//! An archive indexed for reopening: its responses (status and headers) by
//! URL and by record id, its DOM records, its page records by the URL asked
//! for, and what its inspection record says. Bodies stay in the file, found
//! by offset, and are read and decoded when the crawl asks for their URL:
//! decoding them all first held 5.4 GB for a 19 KB archive of 20 gzip bombs.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use url::Url;

use super::http_block::{is_coded, parse_head};
use super::kind::FileKind;
use super::package::open_capture;
use super::parts::{PackageInfo, Part};
use super::write::{InspectionMeta, PageMeta};
use super::{
    ArchiveError, BadHttp, Damaged, INSPECTION_URI, ReadQuirk, RecordHead, RecordKind,
    parse_response,
};
use crate::fetch::is_html;
use crate::inspect::MAX_DEPTH;
use crate::policy::{Settings, over_limits};

/// A body of our own capture is kept whole up to this (it was cut at the
/// live run's `--max-bytes` when written, and stored decoded, so it is no
/// larger than its record); other tools' bodies, and any body stored with a
/// coding (never one of ours), are cut at the reopening run's `--max-bytes`,
/// as a live fetch would cut them.
const OWN_BODY_CAP: usize = 256 * 1024 * 1024;
/// Room for a response's HTTP head beside its body.
const HEAD_ROOM: usize = 1024 * 1024;
/// What of a record's block the index reads: a response's HTTP head, and a
/// page or inspection record whole (an inspection record of 10,000-item
/// lists is about 1 MB; one far over the limits still parses, to be refused
/// by its counts rather than as unreadable JSON).
const INDEX_BLOCK: usize = 32 * 1024 * 1024;
/// Damaged records listed at most, as a corpus run lists them; the rest are
/// counted.
pub const LISTED_DAMAGED: usize = 1000;

/// What an archive's inspection record says of the run that wrote it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureInfo {
    pub start_url: Option<Url>,
    pub depth: Option<u32>,
    pub limit: Option<usize>,
    pub profile: Option<String>,
    pub settings: Option<Settings>,
    /// `static` or `rendered`.
    pub mode: Option<String>,
    /// The crawl that wrote it was stopped before it was complete.
    pub cancelled: bool,
    /// The `WARC-Date` of the start page's response (else of the first record).
    pub captured: Option<String>,
    /// The first [`LISTED_DAMAGED`] records that could not be read; the
    /// intact ones were.
    pub damaged: Vec<Damaged>,
    pub damaged_not_listed: usize,
    /// The records the crawl read that were odd (SPEC 12), filled as it
    /// reads them: the archive is opened, and this cloned, before.
    pub read_warnings: ReadWarnings,
    /// A WACZ package's pages and what was odd about it.
    pub package: Option<PackageInfo>,
}

/// A record read past what was odd about it, and what was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadWarning {
    /// Where the record, or the gzip member that holds it, starts.
    pub offset: u64,
    pub url: Url,
    pub quirks: Vec<ReadQuirk>,
}

/// The warnings of the records read so far, each record once, the first
/// [`LISTED_DAMAGED`] listed and the rest counted. Every clone shares one
/// list: a body is read when the crawl asks for it, after the archive's
/// [`CaptureInfo`] was handed out.
#[derive(Clone, Debug, Default)]
pub struct ReadWarnings(Arc<Mutex<WarningList>>);

#[derive(Debug, Default)]
struct WarningList {
    listed: Vec<ReadWarning>,
    not_listed: usize,
    seen: HashSet<RecordAt>,
}

impl ReadWarnings {
    /// The listed warnings, in file order.
    pub fn listed(&self) -> Vec<ReadWarning> {
        let mut listed = self
            .0
            .lock()
            .map(|list| list.listed.clone())
            .unwrap_or_default();
        listed.sort_by_key(|w| w.offset);
        listed
    }

    /// Warnings past the listed ones.
    pub fn not_listed(&self) -> usize {
        self.0
            .lock()
            .map(|list| list.not_listed)
            .unwrap_or_default()
    }

    /// Records warned about, listed or not.
    pub fn count(&self) -> usize {
        self.0
            .lock()
            .map(|list| list.listed.len() + list.not_listed)
            .unwrap_or_default()
    }

    /// Notes a record's quirks, once however often it is read (a diff reads
    /// each page twice, a redirect's hop is read with every page it leads to).
    fn note(&self, at: RecordAt, url: &Url, quirks: Vec<ReadQuirk>) {
        let Ok(mut list) = self.0.lock() else {
            return;
        };
        if quirks.is_empty() || !list.seen.insert(at) {
            return;
        }
        if list.listed.len() < LISTED_DAMAGED {
            list.listed.push(ReadWarning {
                offset: at.offset,
                url: url.clone(),
                quirks,
            });
        } else {
            list.not_listed += 1;
        }
    }
}

/// Two lists are the same when they hold the same warnings.
impl PartialEq for ReadWarnings {
    fn eq(&self, other: &Self) -> bool {
        self.listed() == other.listed() && self.not_listed() == other.not_listed()
    }
}

impl Eq for ReadWarnings {}

mod lazy;
use lazy::{Lazy, Looked};

/// Where a record is in the file, to be read again when asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct RecordAt {
    /// Which of the capture's parts holds it (a package holds several WARCs).
    part: usize,
    /// Where the record, or the gzip member that holds it, starts.
    offset: u64,
    /// The record's place among those its gzip member holds (0 when each
    /// record has its own member, as the inspector and wget write them).
    nth: usize,
}

/// A response record's head: its body is read when asked for.
pub(super) struct StoredResponse {
    pub url: Url,
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub at: RecordAt,
    /// `WARC-Truncated`: the capture cut the body.
    pub cut_by_capture: bool,
    pub date: Option<String>,
}

/// A response's body, decoded.
pub(super) struct Body {
    pub bytes: Vec<u8>,
    /// Cut: at the cap, or by the capture (`WARC-Truncated`).
    pub truncated: bool,
}

impl StoredResponse {
    /// A response record's head, answering for `url`; its body stays in
    /// the file, at `at`.
    fn of(url: Url, record: &super::Record, at: RecordAt) -> Result<Self, BadHttp> {
        let (status, headers) = parse_head(&record.block)?;
        Ok(Self {
            url,
            status,
            headers,
            at,
            cut_by_capture: record.head.field("WARC-Truncated").is_some(),
            date: record.head.field("WARC-Date").map(str::to_owned),
        })
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A page record of our own: what the page was when it was archived.
pub(super) struct StoredPage {
    pub url: Url,
    pub meta: PageMeta,
    pub refers_to: Option<String>,
}

/// A DOM record (the text the verdicts came from, read when asked for),
/// and its response's id.
pub(super) struct StoredDom {
    pub at: RecordAt,
    pub response: Option<String>,
}

/// Why the archive's record for a URL cannot answer.
pub(super) enum Unreadable {
    Http(BadHttp),
    /// A revisit of a capture the archive does not hold.
    RevisitWithoutOriginal,
}

/// The archive, indexed.
pub(super) struct ArchiveIndex {
    /// The capture's record streams (one, or a package's WARCs).
    parts: Vec<Part>,
    /// The archive holds our inspection record.
    own: bool,
    /// Other tools' bodies are cut here, as a live fetch's are.
    max_bytes: usize,
    pub info: CaptureInfo,
    /// Every response read, in the order read (a package's as the crawl
    /// asks for them).
    responses: RwLock<Vec<Arc<StoredResponse>>>,
    /// A package's index, where its responses are found when asked for.
    lazy: Option<Lazy>,
    /// The first response for each URL (fragment removed).
    pub by_url: HashMap<String, usize>,
    /// Responses by `WARC-Record-ID`.
    pub by_id: HashMap<String, usize>,
    /// DOM records by their `WARC-Record-ID`.
    pub doms: HashMap<String, StoredDom>,
    /// Page records by the URL that was asked for.
    pub pages: HashMap<String, StoredPage>,
    pub unreadable: HashMap<String, Unreadable>,
    /// The first HTML page, to start from when there is no inspection record.
    pub first_page: Option<Url>,
}

/// Whether the first WARC starts as ours does (SPEC 10): `warcinfo`, then
/// the inspection record. Two record headers are read, not the blocks.
fn opens_with_inspection(parts: &[Part]) -> bool {
    let Some(Ok(mut reader)) = parts.first().map(Part::reader) else {
        return false;
    };
    let no_block = |_: &RecordHead| false;
    for _ in 0..2 {
        match reader.next_record(&no_block, 0) {
            Some(Ok(record)) => {
                if record.head.kind() == RecordKind::Metadata
                    && record.head.field("WARC-Target-URI") == Some(INSPECTION_URI)
                {
                    return true;
                }
            }
            _ => return false,
        }
    }
    false
}

/// A URL as the archive's maps key it: no fragment (never sent on the wire).
pub(super) fn key(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.to_string()
}

fn target_uri(value: &str) -> Option<Url> {
    super::parse_target_uri(value).ok()
}

impl ArchiveIndex {
    /// Indexes every record of the archive at `path`: damaged records are
    /// listed and passed over, the intact ones kept. Bodies are read later,
    /// other tools' cut at `max_bytes`, our own whole.
    pub fn read(path: &Path, max_bytes: usize) -> Result<Self, ArchiveError> {
        let mut capture = open_capture(path)?;
        let package = capture.package.take();
        let package_start = package
            .as_ref()
            .and_then(|p| p.pages.first())
            .map(|page| (page.url.clone(), page.ts.clone()));
        let mut index = Self {
            parts: capture.parts.clone(),
            own: false,
            max_bytes,
            info: CaptureInfo::default(),
            responses: RwLock::new(Vec::new()),
            lazy: None,
            by_url: HashMap::new(),
            by_id: HashMap::new(),
            doms: HashMap::new(),
            pages: HashMap::new(),
            unreadable: HashMap::new(),
            first_page: None,
        };
        let mut first_date = None;
        let mut revisits: Vec<(Url, Option<Url>)> = Vec::new();
        let mut damaged = Vec::new();
        let mut damaged_not_listed = 0;
        // A package with an index and a first page opens without reading
        // its records: each URL the crawl asks for is found through the
        // index (a multi-GB crawl opens in the time its index takes). Our
        // own package is read whole, as its WARC is: its inspection record
        // holds the settings, depth and pages that make the report the
        // live run's.
        if let (Some(url_index), Some((start, ts))) = (capture.index.clone(), &package_start)
            && !opens_with_inspection(&capture.parts)
        {
            index.lazy = Some(Lazy::new(url_index));
            index.info.start_url = Some(start.clone());
            index.info.captured = ts.clone();
            index.info.package = package;
            return Ok(index);
        }
        let wanted =
            |head: &RecordHead| matches!(head.kind(), RecordKind::Response | RecordKind::Metadata);
        let in_package = capture.kind == FileKind::Zip;
        for (part_at, part) in capture.parts.iter().enumerate() {
            let mut reader = part.reader()?;
            let mut previous = RecordAt {
                part: part_at,
                offset: u64::MAX,
                nth: 0,
            };
            while let Some(record) = reader.next_record(&wanted, INDEX_BLOCK) {
                let record = match record.map_err(|damaged| named(damaged, part, in_package)) {
                    Ok(record) => record,
                    Err(one) if damaged.len() < LISTED_DAMAGED => {
                        damaged.push(one);
                        continue;
                    }
                    Err(_) => {
                        damaged_not_listed += 1;
                        continue;
                    }
                };
                let head = &record.head;
                let at = RecordAt {
                    part: part_at,
                    offset: head.offset,
                    nth: if head.offset == previous.offset {
                        previous.nth + 1
                    } else {
                        0
                    },
                };
                previous = at;
                if first_date.is_none() {
                    first_date = head.field("WARC-Date").map(str::to_owned);
                }
                let id = head.field("WARC-Record-ID").map(str::to_owned);
                let target = head.field("WARC-Target-URI").unwrap_or_default();
                match head.kind() {
                    RecordKind::Response => {
                        let Some(url) = target_uri(target) else {
                            continue;
                        };
                        match StoredResponse::of(url.clone(), &record, at) {
                            Ok(stored) => index.add_response(stored, id),
                            Err(bad) => {
                                index
                                    .unreadable
                                    .entry(key(&url))
                                    .or_insert(Unreadable::Http(bad));
                            }
                        }
                    }
                    RecordKind::Resource if target.starts_with("urn:dom:") => {
                        if let Some(id) = id {
                            let dom = StoredDom {
                                at,
                                response: head.field("WARC-Concurrent-To").map(str::to_owned),
                            };
                            index.doms.insert(id, dom);
                        }
                    }
                    RecordKind::Revisit => {
                        if let Some(url) = target_uri(target) {
                            let original =
                                head.field("WARC-Refers-To-Target-URI").and_then(target_uri);
                            revisits.push((url, original));
                        }
                    }
                    RecordKind::Metadata if target == INSPECTION_URI => {
                        index.info = inspection_info(&record.block).map_err(|detail| {
                            ArchiveError::BadInspectionRecord {
                                path: path.to_owned(),
                                detail,
                            }
                        })?;
                        // Before anything compiles the lists: the same limits
                        // as every other source of settings.
                        if let Some(over) = index
                            .info
                            .settings
                            .as_ref()
                            .and_then(|s| over_limits(s).into_iter().next())
                        {
                            return Err(ArchiveError::SettingsOverLimit {
                                path: path.to_owned(),
                                over,
                            });
                        }
                        index.own = true;
                    }
                    RecordKind::Metadata => index.add_page(target, &record.block, head),
                    _ => {}
                }
            }
        }
        // A revisit is the same as an earlier capture: answered by it when
        // the archive holds it.
        for (url, original) in revisits {
            match original.and_then(|o| index.by_url.get(&key(&o)).copied()) {
                Some(found) => {
                    index.by_url.entry(key(&url)).or_insert(found);
                }
                None => {
                    index
                        .unreadable
                        .entry(key(&url))
                        .or_insert(Unreadable::RevisitWithoutOriginal);
                }
            }
        }
        index.info.captured = index.start_date().or(first_date);
        // A package names its first page; another tool's archive starts
        // at its first HTML page.
        if index.info.start_url.is_none() {
            index.info.start_url = package_start
                .map(|(start, _)| start)
                .or_else(|| index.first_page.clone());
        }
        index.info.package = package;
        // Nothing intact to open: the damage is what is wrong.
        if index.info.start_url.is_none()
            && let Some(first) = damaged.first()
        {
            return Err(ArchiveError::Damaged {
                path: path.to_owned(),
                damaged: first.clone(),
            });
        }
        index.info.damaged = damaged;
        index.info.damaged_not_listed = damaged_not_listed;
        Ok(index)
    }

    /// The body of the response `at`, decoded: our own whole, other tools'
    /// (and any stored with a coding) cut at `max_bytes`.
    pub fn body(&self, at: usize) -> Result<Body, String> {
        let response = self.response(at).ok_or("the response is gone")?;
        let cap = if self.own && !is_coded(&response.headers) {
            OWN_BODY_CAP
        } else {
            self.max_bytes
        };
        let record = self.record(response.at, cap.saturating_add(HEAD_ROOM))?;
        let mut http = parse_response(record.block, cap).map_err(|bad| bad.to_string())?;
        if record.block_cut || response.cut_by_capture {
            http.mark_record_cut();
        }
        self.info
            .read_warnings
            .note(response.at, &response.url, http.quirks);
        Ok(Body {
            bytes: http.body.into_vec(),
            truncated: http.truncated,
        })
    }

    /// The response read `at`-th.
    pub fn response(&self, at: usize) -> Option<Arc<StoredResponse>> {
        self.responses
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(at)
            .cloned()
    }

    /// The response that answers `url` (fragment removed): indexed when the
    /// archive was read, or, in a package, found through its index now.
    pub fn find(&self, url: &Url) -> Option<usize> {
        let key = key(url);
        if let Some(at) = self.by_url.get(&key) {
            return Some(*at);
        }
        let lazy = self.lazy.as_ref()?;
        let looked = match lazy.get(&key) {
            Some(looked) => looked,
            None => {
                let looked = self.look_up(lazy, url, true);
                lazy.put(key, looked.clone());
                looked
            }
        };
        match looked {
            Looked::At(at) => Some(at),
            Looked::Unreadable(_) | Looked::Absent => None,
        }
    }

    /// Why a package's index names a record for `url` that cannot answer.
    pub fn unreadable_in_package(&self, url: &Url) -> Option<String> {
        match self.lazy.as_ref()?.get(&key(url))? {
            Looked::Unreadable(why) => Some(why),
            Looked::At(_) | Looked::Absent => None,
        }
    }

    /// Reads the record a package's index names for `url`; a revisit is
    /// answered by its original, looked up once.
    fn look_up(&self, lazy: &Lazy, url: &Url, follow_revisit: bool) -> Looked {
        let (part, offset) = match lazy.index.find(url) {
            Ok(Some(found)) => found,
            Ok(None) => return Looked::Absent,
            Err(why) => return Looked::Unreadable(why),
        };
        let at = RecordAt {
            part,
            offset,
            nth: 0,
        };
        let record = match self.record(at, HEAD_ROOM) {
            Ok(record) => record,
            Err(why) => return Looked::Unreadable(why),
        };
        let head = &record.head;
        match head.kind() {
            RecordKind::Response => match StoredResponse::of(url.clone(), &record, at) {
                Ok(stored) => {
                    let mut responses = self
                        .responses
                        .write()
                        .unwrap_or_else(PoisonError::into_inner);
                    responses.push(Arc::new(stored));
                    Looked::At(responses.len() - 1)
                }
                Err(bad) => Looked::Unreadable(bad.to_string()),
            },
            RecordKind::Revisit if follow_revisit => {
                let original = head
                    .field("WARC-Refers-To-Target-URI")
                    .and_then(target_uri)
                    .filter(|original| key(original) != key(url));
                match original.map(|original| self.look_up(lazy, &original, false)) {
                    Some(Looked::At(found)) => Looked::At(found),
                    _ => Looked::Unreadable(REVISIT_WITHOUT_ORIGINAL.to_owned()),
                }
            }
            RecordKind::Revisit => Looked::Unreadable(REVISIT_WITHOUT_ORIGINAL.to_owned()),
            other => Looked::Unreadable(format!(
                "the package's index points at a {} record at offset {offset}, not a response",
                other.name().unwrap_or("non-WARC")
            )),
        }
    }

    /// A DOM record's HTML.
    pub fn dom_html(&self, dom: &StoredDom) -> Result<String, String> {
        let record = self.record(dom.at, OWN_BODY_CAP.saturating_add(HEAD_ROOM))?;
        Ok(String::from_utf8_lossy(&record.block).into_owned())
    }

    fn record(&self, at: RecordAt, max_block: usize) -> Result<super::Record, String> {
        let part = self.parts.get(at.part).ok_or("the record's part is gone")?;
        part.record_at(at.offset, at.nth, max_block)
            .map_err(|e| crate::error_text::error_text(&e))
    }

    fn add_response(&mut self, stored: StoredResponse, id: Option<String>) {
        let responses = self
            .responses
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        let at = responses.len();
        if self.first_page.is_none()
            && stored.status == 200
            && is_html(stored.header("Content-Type"))
        {
            self.first_page = Some(stored.url.clone());
        }
        self.by_url.entry(key(&stored.url)).or_insert(at);
        if let Some(id) = id {
            self.by_id.insert(id, at);
        }
        responses.push(Arc::new(stored));
    }

    /// A page record of our own (one another tool wrote is no page of ours).
    fn add_page(&mut self, target: &str, block: &[u8], head: &RecordHead) {
        let (Some(url), Ok(meta)) = (
            target_uri(target),
            serde_json::from_slice::<PageMeta>(block),
        ) else {
            return;
        };
        let requested = Url::parse(&meta.requested).map_or_else(|_| key(&url), |u| key(&u));
        let refers_to = head.field("WARC-Refers-To").map(str::to_owned);
        self.pages.entry(requested).or_insert(StoredPage {
            url,
            meta,
            refers_to,
        });
    }

    /// The `WARC-Date` of the start page's response.
    fn start_date(&self) -> Option<String> {
        let start = self.info.start_url.as_ref()?;
        let at = *self.by_url.get(&key(start))?;
        self.response(at)?.date.clone()
    }
}

const REVISIT_WITHOUT_ORIGINAL: &str = "a revisit record of a capture the package does not hold";

/// A damaged record of a package's WARC, its entry named (an offset alone
/// does not say which WARC).
fn named(damaged: Damaged, part: &Part, in_package: bool) -> Damaged {
    if !in_package {
        return damaged;
    }
    Damaged {
        detail: format!("in {}: {}", part.label().display(), damaged.detail),
        ..damaged
    }
}

/// The inspection record, or why it cannot be used.
fn inspection_info(block: &[u8]) -> Result<CaptureInfo, String> {
    let meta = serde_json::from_slice::<InspectionMeta>(block).map_err(|e| e.to_string())?;
    if meta.schema != 1 {
        return Err(format!("schema {} is not 1", meta.schema));
    }
    Ok(CaptureInfo {
        start_url: Some(Url::parse(&meta.start_url).map_err(|e| format!("start_url: {e}"))?),
        // As the command line takes it: 4294967295 wrapped N to 0.
        depth: Some(meta.depth.min(MAX_DEPTH)).filter(|d| *d > 0),
        limit: meta.limit,
        profile: meta.profile,
        settings: meta.settings,
        mode: Some(meta.mode).filter(|m| !m.is_empty()),
        cancelled: meta.cancelled,
        captured: None,
        damaged: Vec::new(),
        damaged_not_listed: 0,
        package: None,
        read_warnings: ReadWarnings::default(),
    })
}
