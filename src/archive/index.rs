//! An archive read into memory for reopening: its responses by URL and by
//! record id, its DOM records, its page records by the URL asked for, and
//! what its inspection record says.

use std::collections::HashMap;
use std::path::Path;

use url::Url;

use super::write::{InspectionMeta, PageMeta};
use super::{ArchiveError, BadHttp, INSPECTION_URI, RecordHead, RecordReader, parse_response};
use crate::fetch::is_html;
use crate::policy::Settings;

/// A body of our own capture is kept whole up to this (it was cut at the
/// live run's `--max-bytes` when written); other tools' bodies are cut at
/// the reopening run's `--max-bytes`, as a live fetch would cut them.
const OWN_BODY_CAP: usize = 256 * 1024 * 1024;

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
}

/// A response record, read.
pub(super) struct StoredResponse {
    pub url: Url,
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub truncated: bool,
    pub date: Option<String>,
}

impl StoredResponse {
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

/// A DOM record: the text the verdicts came from, and its response's id.
pub(super) struct StoredDom {
    pub html: String,
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
    pub info: CaptureInfo,
    pub responses: Vec<StoredResponse>,
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
    /// Reads every record of the archive at `path`.
    pub fn read(path: &Path, max_bytes: usize) -> Result<Self, ArchiveError> {
        let mut reader = RecordReader::open(path)?;
        let mut index = Self {
            info: CaptureInfo::default(),
            responses: Vec::new(),
            by_url: HashMap::new(),
            by_id: HashMap::new(),
            doms: HashMap::new(),
            pages: HashMap::new(),
            unreadable: HashMap::new(),
            first_page: None,
        };
        let mut first_date = None;
        let mut revisits: Vec<(Url, Option<Url>)> = Vec::new();
        let mut own = false;
        let wanted =
            |head: &RecordHead| matches!(head.kind(), Some("response" | "resource" | "metadata"));
        loop {
            let body_cap = if own { OWN_BODY_CAP } else { max_bytes };
            // Room for a response's HTTP head beside its body.
            let Some(record) = reader.next_record(&wanted, body_cap.saturating_add(1024 * 1024))
            else {
                break;
            };
            let record = record.map_err(|damaged| ArchiveError::Damaged {
                path: path.to_owned(),
                damaged,
            })?;
            let head = &record.head;
            if first_date.is_none() {
                first_date = head.field("WARC-Date").map(str::to_owned);
            }
            let id = head.field("WARC-Record-ID").map(str::to_owned);
            let target = head.field("WARC-Target-URI").unwrap_or_default();
            match head.kind() {
                Some("response") => {
                    let Some(url) = target_uri(target) else {
                        continue;
                    };
                    match parse_response(&record.block, body_cap) {
                        Ok(http) => {
                            let truncated = http.truncated
                                || record.block_cut
                                || head.field("WARC-Truncated").is_some();
                            let stored = StoredResponse {
                                url,
                                status: http.status,
                                truncated,
                                date: head.field("WARC-Date").map(str::to_owned),
                                headers: http.headers,
                                body: http.body,
                            };
                            index.add_response(stored, id);
                        }
                        Err(bad) => {
                            index
                                .unreadable
                                .entry(key(&url))
                                .or_insert(Unreadable::Http(bad));
                        }
                    }
                }
                Some("resource") if target.starts_with("urn:dom:") => {
                    if let Some(id) = id {
                        let dom = StoredDom {
                            html: String::from_utf8_lossy(&record.block).into_owned(),
                            response: head.field("WARC-Concurrent-To").map(str::to_owned),
                        };
                        index.doms.insert(id, dom);
                    }
                }
                Some("revisit") => {
                    if let Some(url) = target_uri(target) {
                        let original = head.field("WARC-Refers-To-Target-URI").and_then(target_uri);
                        revisits.push((url, original));
                    }
                }
                Some("metadata") if target == INSPECTION_URI => {
                    index.info = inspection_info(&record.block).map_err(|detail| {
                        ArchiveError::BadInspectionRecord {
                            path: path.to_owned(),
                            detail,
                        }
                    })?;
                    own = true;
                }
                Some("metadata") => index.add_page(target, &record.block, head),
                _ => {}
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
        if index.info.start_url.is_none() {
            index.info.start_url = index.first_page.clone();
        }
        Ok(index)
    }

    fn add_response(&mut self, stored: StoredResponse, id: Option<String>) {
        let at = self.responses.len();
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
        self.responses.push(stored);
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
        self.responses[at].date.clone()
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
        depth: Some(meta.depth).filter(|d| *d > 0),
        limit: meta.limit,
        profile: meta.profile,
        settings: meta.settings,
        mode: Some(meta.mode).filter(|m| !m.is_empty()),
        cancelled: meta.cancelled,
        captured: None,
    })
}
