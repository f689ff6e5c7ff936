//! An archive as a fetcher (SPEC 10): a URL is answered by the response
//! record for it (redirects followed through `Location`), in rendered mode
//! by its DOM record, or fails with "not in the archive"; never the network.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use url::Url;

use super::write::{InspectionMeta, PageMeta};
use super::{ArchiveError, INSPECTION_URI, RecordReader, parse_response};
use crate::fetch::{
    Capture, Exchange, FetchError, FetchSummary, FetchedPage, Fetcher, Hop, MAX_REDIRECTS,
    Rendered, chain_text, charset_param, is_html,
};
use crate::policy::Settings;

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
    /// The `WARC-Date` of the start page's response (else of the first record).
    pub captured: Option<String>,
}

/// A response record, read.
struct StoredResponse {
    url: Url,
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    truncated: bool,
    date: Option<String>,
}

impl StoredResponse {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A page record of our own: what the page was when it was archived.
struct StoredPage {
    url: Url,
    meta: PageMeta,
    refers_to: Option<String>,
}

/// An archive read into memory, answering fetches from its records.
pub struct ArchiveFetcher {
    info: CaptureInfo,
    responses: Vec<StoredResponse>,
    /// The first response for each URL (fragment removed).
    by_url: HashMap<String, usize>,
    /// Responses by `WARC-Record-ID`.
    by_id: HashMap<String, usize>,
    /// DOM records by their `WARC-Record-ID`: the text, and the response
    /// they are concurrent to.
    doms: HashMap<String, (String, Option<String>)>,
    /// Page records by the URL that was asked for.
    pages: HashMap<String, StoredPage>,
    /// The first HTML page, to start from when there is no inspection record.
    first_page: Option<Url>,
    /// Why the records for these URLs cannot be read.
    unreadable: HashMap<String, String>,
}

/// Why a revisit record cannot answer.
const REVISIT_WITHOUT_ORIGINAL: &str =
    "it is a revisit record, and the capture it repeats is not in the archive";

/// A URL as the archive's maps key it: no fragment (never sent on the wire).
fn key(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.to_string()
}

/// A `WARC-Target-URI`, which WARC/1.0 writers may wrap in `<…>`.
fn target_uri(value: &str) -> Option<Url> {
    Url::parse(value.trim().trim_start_matches('<').trim_end_matches('>')).ok()
}

impl ArchiveFetcher {
    /// Reads the archive at `path`; bodies are kept up to `max_bytes`.
    pub fn open(path: &Path, max_bytes: usize) -> Result<Self, ArchiveError> {
        let mut reader = RecordReader::open(path)?;
        let mut archive = Self {
            info: CaptureInfo::default(),
            responses: Vec::new(),
            by_url: HashMap::new(),
            by_id: HashMap::new(),
            doms: HashMap::new(),
            pages: HashMap::new(),
            first_page: None,
            unreadable: HashMap::new(),
        };
        let mut first_date = None;
        let mut revisits: Vec<(Url, Option<Url>)> = Vec::new();
        let wanted = |head: &super::RecordHead| {
            matches!(head.kind(), Some("response" | "resource" | "metadata"))
        };
        // Room for a response's HTTP head beside a body of `max_bytes`.
        let max_block = max_bytes.saturating_add(1024 * 1024);
        while let Some(record) = reader.next_record(&wanted, max_block) {
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
                    let http = match parse_response(&record.block, max_bytes) {
                        Ok(http) => http,
                        Err(bad) => {
                            archive
                                .unreadable
                                .entry(key(&url))
                                .or_insert(bad.to_string());
                            continue;
                        }
                    };
                    let stored = StoredResponse {
                        url,
                        status: http.status,
                        truncated: http.truncated
                            || record.block_cut
                            || head.field("WARC-Truncated").is_some(),
                        date: head.field("WARC-Date").map(str::to_owned),
                        headers: http.headers,
                        body: http.body,
                    };
                    archive.add_response(stored, id);
                }
                Some("resource") => {
                    if let (Some(id), Some(_)) = (id, target.strip_prefix("urn:dom:")) {
                        let text = String::from_utf8_lossy(&record.block).into_owned();
                        let response = head.field("WARC-Concurrent-To").map(str::to_owned);
                        archive.doms.insert(id, (text, response));
                    }
                }
                Some("revisit") => {
                    // The same as an earlier capture: answered by it when the
                    // archive holds it.
                    if let Some(url) = target_uri(target) {
                        let original = head.field("WARC-Refers-To-Target-URI").and_then(target_uri);
                        revisits.push((url, original));
                    }
                }
                Some("metadata") if target == INSPECTION_URI => {
                    archive.info = inspection_info(&record.block);
                }
                Some("metadata") => {
                    let (Some(url), Ok(meta)) = (
                        target_uri(target),
                        serde_json::from_slice::<PageMeta>(&record.block),
                    ) else {
                        continue;
                    };
                    let requested =
                        Url::parse(&meta.requested).map_or_else(|_| key(&url), |u| key(&u));
                    let refers_to = head.field("WARC-Refers-To").map(str::to_owned);
                    archive.pages.entry(requested).or_insert(StoredPage {
                        url,
                        meta,
                        refers_to,
                    });
                }
                _ => {}
            }
        }
        for (url, original) in revisits {
            match original.and_then(|o| archive.by_url.get(&key(&o)).copied()) {
                Some(index) => {
                    archive.by_url.entry(key(&url)).or_insert(index);
                }
                None => {
                    archive
                        .unreadable
                        .entry(key(&url))
                        .or_insert_with(|| REVISIT_WITHOUT_ORIGINAL.to_owned());
                }
            }
        }
        archive.info.captured = archive.start_date().or(first_date);
        if archive.info.start_url.is_none() {
            archive.info.start_url = archive.first_page.clone();
        }
        if archive.info.start_url.is_none() {
            return Err(ArchiveError::NothingToOpen {
                path: PathBuf::from(path),
            });
        }
        Ok(archive)
    }

    pub fn info(&self) -> &CaptureInfo {
        &self.info
    }

    fn add_response(&mut self, stored: StoredResponse, id: Option<String>) {
        let index = self.responses.len();
        if self.first_page.is_none()
            && stored.status == 200
            && is_html(stored.header("Content-Type"))
        {
            self.first_page = Some(stored.url.clone());
        }
        self.by_url.entry(key(&stored.url)).or_insert(index);
        if let Some(id) = id {
            self.by_id.insert(id, index);
        }
        self.responses.push(stored);
    }

    /// The `WARC-Date` of the start page's response.
    fn start_date(&self) -> Option<String> {
        let start = self.info.start_url.as_ref()?;
        let index = *self.by_url.get(&key(start))?;
        self.responses[index].date.clone()
    }

    /// Why the archive cannot answer for `url`.
    fn missing(&self, url: &Url) -> FetchError {
        match self.unreadable.get(&key(url)) {
            Some(detail) => FetchError::BadArchiveRecord {
                url: url.to_string(),
                detail: detail.clone(),
            },
            None => FetchError::NotInArchive {
                url: url.to_string(),
            },
        }
    }

    /// The response for `url`, with the redirects through `Location` that
    /// led to it, as a live fetch would follow them.
    fn follow(&self, url: &Url) -> Result<(Vec<Hop>, Vec<usize>), FetchError> {
        let mut current = url.clone();
        let mut redirects: Vec<Hop> = Vec::new();
        let mut chain = Vec::new();
        loop {
            let index = *self
                .by_url
                .get(&key(&current))
                .ok_or_else(|| self.missing(&current))?;
            chain.push(index);
            let response = &self.responses[index];
            let location = response.header("Location");
            let (true, Some(location)) = ((300..400).contains(&response.status), location) else {
                return Ok((redirects, chain));
            };
            let next = current
                .join(location)
                .map_err(|e| FetchError::BadRedirect {
                    url: current.to_string(),
                    detail: format!("Location `{location}`: {e}"),
                })?;
            redirects.push(Hop {
                status: response.status,
                url: current.clone(),
            });
            if redirects.iter().any(|h| h.url == next) {
                return Err(FetchError::RedirectLoop {
                    chain: chain_text(&redirects, &next),
                });
            }
            if redirects.len() > MAX_REDIRECTS {
                return Err(FetchError::TooManyRedirects {
                    max: MAX_REDIRECTS,
                    chain: chain_text(&redirects, &next),
                });
            }
            current = next;
        }
    }

    /// A page as a live fetch of it gave it, from its response records.
    fn fetched(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let (redirects, chain) = self.follow(url)?;
        let last = &self.responses[chain[chain.len() - 1]];
        let content_type = last.header("Content-Type").map(str::to_owned);
        if !is_html(content_type.as_deref()) {
            return Err(FetchError::NotHtml {
                url: last.url.to_string(),
                content_type: content_type.unwrap_or_default(),
            });
        }
        Ok(FetchedPage {
            final_url: last.url.clone(),
            status: last.status,
            charset: content_type.as_deref().and_then(charset_param),
            body: last.body.clone(),
            summary: FetchSummary {
                redirects,
                content_type,
                bytes: last.body.len(),
                truncated: last.truncated,
                elapsed_ms: 0,
            },
            rendered: None,
            capture: Some(Arc::new(self.capture_of(&chain, None, None))),
        })
    }

    /// A page of our own capture, as it was seen.
    fn page(&self, page: &StoredPage) -> Result<FetchedPage, FetchError> {
        let meta = &page.meta;
        if let Some(text) = &meta.error {
            return Err(FetchError::Archived { text: text.clone() });
        }
        let requested = Url::parse(&meta.requested).map_err(|_| FetchError::NotInArchive {
            url: meta.requested.clone(),
        })?;
        let Some(how) = &meta.rendered else {
            let mut fetched = self.fetched(&requested)?;
            fetched.summary.redirects = meta.redirects.clone();
            fetched.summary.truncated = meta.truncated;
            fetched.summary.elapsed_ms = meta.elapsed_ms;
            return Ok(fetched);
        };
        let not_here = || FetchError::NotInArchive {
            url: page.url.to_string(),
        };
        let (dom, response_id) = page
            .refers_to
            .as_ref()
            .and_then(|id| self.doms.get(id))
            .ok_or_else(not_here)?;
        let response = response_id
            .as_ref()
            .and_then(|id| self.by_id.get(id))
            .copied();
        let served = response.map(|i| &self.responses[i]);
        let served_html = served
            .filter(|_| how.served_html)
            .map(|r| String::from_utf8_lossy(&r.body).into_owned());
        let chain: Vec<usize> = self.follow(&requested).map(|(_, c)| c).unwrap_or_default();
        let rendered = Rendered {
            served_html,
            network_idle: meta.network_idle.unwrap_or(true),
            wait: meta.wait.unwrap_or_default(),
            render_ms: how.render_ms,
            dialogs: how.dialogs,
            scripts_stopped: how.scripts_stopped,
            dom_read: how.dom_read,
            blocked_requests: how.blocked_requests,
        };
        Ok(FetchedPage {
            final_url: page.url.clone(),
            status: meta.status.or(served.map(|r| r.status)).unwrap_or(200),
            charset: Some("utf-8".to_owned()),
            body: dom.clone().into_bytes(),
            summary: FetchSummary {
                redirects: meta.redirects.clone(),
                content_type: served.and_then(|r| r.header("Content-Type").map(str::to_owned)),
                bytes: dom.len(),
                truncated: meta.truncated,
                elapsed_ms: meta.elapsed_ms,
            },
            capture: Some(Arc::new(self.capture_of(
                &chain,
                Some(dom.clone()),
                Some(rendered.clone()),
            ))),
            rendered: Some(rendered),
        })
    }

    /// What a reopened page keeps, so that saving it again writes it again.
    fn capture_of(
        &self,
        chain: &[usize],
        dom: Option<String>,
        rendered: Option<Rendered>,
    ) -> Capture {
        let exchanges = chain
            .iter()
            .map(|&i| {
                let r = &self.responses[i];
                Exchange {
                    url: r.url.clone(),
                    method: "GET".to_owned(),
                    request_headers: Vec::new(),
                    version: "HTTP/1.1".to_owned(),
                    status: r.status,
                    reason: String::new(),
                    // The stored body's own length is written again.
                    response_headers: r
                        .headers
                        .iter()
                        .filter(|(n, _)| !n.eq_ignore_ascii_case("content-length"))
                        .cloned()
                        .collect(),
                    body: r.body.clone(),
                    truncated: r.truncated,
                    ip: None,
                    at: r
                        .date
                        .as_deref()
                        .and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok())
                        .map_or_else(SystemTime::now, SystemTime::from),
                }
            })
            .collect();
        Capture {
            exchanges,
            dom,
            rendered,
        }
    }
}

fn inspection_info(block: &[u8]) -> CaptureInfo {
    let Ok(meta) = serde_json::from_slice::<InspectionMeta>(block) else {
        return CaptureInfo::default();
    };
    CaptureInfo {
        start_url: Url::parse(&meta.start_url).ok(),
        depth: Some(meta.depth).filter(|d| *d > 0),
        limit: meta.limit,
        profile: meta.profile,
        settings: meta.settings,
        mode: Some(meta.mode).filter(|m| !m.is_empty()),
        captured: None,
    }
}

impl Fetcher for ArchiveFetcher {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        match self.pages.get(&key(url)) {
            Some(page) => self.page(page),
            None => self.fetched(url),
        }
    }
}
