//! An archive as a fetcher (SPEC 10): a URL is answered by the response
//! record for it (redirects followed through `Location`), in rendered mode
//! by its DOM record, or fails with "not in the archive"; never the network.
//! A page of our own capture is rebuilt from the records its page record
//! names, exactly as it was seen.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use url::Url;

use super::ArchiveError;
use super::index::{ArchiveIndex, Body, CaptureInfo, StoredPage, StoredResponse, Unreadable, key};
use crate::fetch::{
    Capture, Exchange, FetchError, FetchSummary, FetchedPage, Fetcher, Hop, MAX_REDIRECTS,
    Rendered, ReplaySource, StoredAnswer, chain_text, charset_param, is_html,
    refuse_non_http_redirect,
};

/// An archive indexed, answering fetches from its records: a body is read
/// from the file when its URL is asked for, so memory holds the pages the
/// crawl reads, as a live crawl's does, not every body of the archive.
pub struct ArchiveFetcher {
    index: ArchiveIndex,
    /// Other tools' bodies are cut here, as a live fetch's are.
    max_bytes: usize,
}

impl ArchiveFetcher {
    /// Indexes the archive at `path`; other tools' bodies will be read up to
    /// `max_bytes`, our own whole.
    pub fn open(path: &Path, max_bytes: usize) -> Result<Self, ArchiveError> {
        let index = ArchiveIndex::read(path, max_bytes)?;
        if index.info.start_url.is_none() {
            return Err(ArchiveError::NothingToOpen {
                path: PathBuf::from(path),
            });
        }
        Ok(Self { index, max_bytes })
    }

    pub fn info(&self) -> &CaptureInfo {
        &self.index.info
    }

    /// Why the archive cannot answer for `url`.
    fn missing(&self, url: &Url) -> FetchError {
        let url_text = url.to_string();
        match self.index.unreadable.get(&key(url)) {
            Some(Unreadable::Http(bad)) => FetchError::BadArchiveRecord {
                url: url_text,
                detail: bad.to_string(),
            },
            Some(Unreadable::RevisitWithoutOriginal) => {
                FetchError::RevisitWithoutOriginal { url: url_text }
            }
            None if let Some(detail) = self.index.unreadable_in_package(url) => {
                FetchError::BadArchiveRecord {
                    url: url_text,
                    detail,
                }
            }
            // The live crawl stopped before this page: so does this one.
            None if self.index.info.cancelled => FetchError::Cancelled,
            None => FetchError::NotInArchive { url: url_text },
        }
    }

    fn response(&self, at: usize) -> Result<Arc<StoredResponse>, FetchError> {
        self.index
            .response(at)
            .ok_or_else(|| FetchError::BadArchiveRecord {
                url: String::new(),
                detail: "the archive's index lost a response".to_owned(),
            })
    }

    /// The body of the response `at`, read from the file now.
    fn body(&self, at: usize) -> Result<Body, FetchError> {
        self.index
            .body(at)
            .map_err(|detail| FetchError::BadArchiveRecord {
                url: self
                    .index
                    .response(at)
                    .map(|r| r.url.to_string())
                    .unwrap_or_default(),
                detail,
            })
    }

    /// The response for `url`, with the redirects through `Location` that
    /// led to it, as a live fetch would follow them.
    fn follow(&self, url: &Url) -> Result<(Vec<Hop>, Vec<usize>), FetchError> {
        let mut current = url.clone();
        let mut redirects: Vec<Hop> = Vec::new();
        let mut chain = Vec::new();
        loop {
            let at = self
                .index
                .find(&current)
                .ok_or_else(|| self.missing(&current))?;
            chain.push(at);
            let response = self.response(at)?;
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
            refuse_non_http_redirect(&current, location, &next)?;
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

    /// A page of another tool's archive, as a live fetch of it gives it.
    fn fetched(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let (redirects, chain) = self.follow(url)?;
        let last = chain
            .last()
            .map(|&at| self.response(at))
            .ok_or_else(|| self.missing(url))??;
        let content_type = last.header("Content-Type").map(str::to_owned);
        if !is_html(content_type.as_deref()) {
            return Err(FetchError::NotHtml {
                url: last.url.to_string(),
                content_type: content_type.unwrap_or_default(),
            });
        }
        let capture = self.capture_of(&chain)?;
        let stored = capture.exchanges.last().ok_or_else(|| self.missing(url))?;
        let cut = stored.body.len() > self.max_bytes;
        let body = stored.body[..stored.body.len().min(self.max_bytes)].to_vec();
        Ok(FetchedPage {
            final_url: last.url.clone(),
            status: last.status,
            charset: content_type.as_deref().and_then(charset_param),
            summary: FetchSummary {
                redirects,
                content_type,
                bytes: body.len(),
                truncated: stored.truncated || cut,
                elapsed_ms: 0,
            },
            body,
            rendered: None,
            capture: Some(Arc::new(capture)),
        })
    }

    /// A page of our own capture, from the records its page record names.
    /// A static page whose response record is not there is answered by the
    /// response for its URL, as any URL is (SPEC 10).
    fn page(&self, page: &StoredPage) -> Result<FetchedPage, FetchError> {
        let meta = &page.meta;
        if let Some(text) = &meta.error {
            return Err(FetchError::Archived { text: text.clone() });
        }
        let by_id = |id: Option<&String>| id.and_then(|id| self.index.by_id.get(id)).copied();
        let dom = match &meta.rendered {
            Some(_) => {
                let id = page.refers_to.as_ref();
                Some(id.and_then(|id| self.index.doms.get(id)).ok_or_else(|| {
                    self.refers_to_nothing(page, "its DOM record", id.map(String::as_str))
                })?)
            }
            None => None,
        };
        let main = match dom {
            Some(dom) => by_id(dom.response.as_ref()),
            None => by_id(page.refers_to.as_ref()).or_else(|| self.index.find(&page.url)),
        };
        if dom.is_none() && main.is_none() {
            return Err(match &page.refers_to {
                Some(id) => self.refers_to_nothing(page, "its response record", Some(id)),
                None => FetchError::NotInArchive {
                    url: page.url.to_string(),
                },
            });
        }
        // The hops before the page's own response, as they were answered.
        let mut chain: Vec<usize> = meta
            .redirects
            .iter()
            .filter_map(|hop| self.index.find(&hop.url))
            .collect();
        chain.extend(main);
        let response = main.map(|at| self.response(at)).transpose()?;
        let content_type = response
            .as_ref()
            .and_then(|r| r.header("Content-Type").map(str::to_owned));
        let summary = |bytes: usize| FetchSummary {
            redirects: meta.redirects.clone(),
            content_type: content_type.clone(),
            bytes,
            truncated: meta.truncated,
            elapsed_ms: meta.elapsed_ms,
        };
        let status = meta
            .status
            .or(response.as_ref().map(|r| r.status))
            .unwrap_or(200);
        let (Some(how), Some(dom)) = (&meta.rendered, dom) else {
            let capture = self.capture_of(&chain)?;
            let body = capture
                .exchanges
                .last()
                .map(|e| e.body.clone())
                .unwrap_or_default();
            return Ok(FetchedPage {
                final_url: page.url.clone(),
                status,
                charset: content_type.as_deref().and_then(charset_param),
                summary: summary(body.len()),
                body,
                rendered: None,
                capture: Some(Arc::new(capture)),
            });
        };
        let html = self
            .index
            .dom_html(dom)
            .map_err(|detail| FetchError::BadArchiveRecord {
                url: page.url.to_string(),
                detail,
            })?;
        let mut capture = self.capture_of(&chain)?;
        let served_html = match main {
            Some(_) if how.served_html => capture
                .exchanges
                .last()
                .map(|e| String::from_utf8_lossy(&e.body).into_owned()),
            _ => None,
        };
        let rendered = Rendered {
            served_html,
            network_idle: meta.network_idle.unwrap_or(true),
            wait: meta.wait.unwrap_or_default(),
            render_ms: how.render_ms,
            dialogs: how.dialogs,
            scripts_stopped: how.scripts_stopped,
            dom_read: how.dom_read,
            blocked_requests: how.blocked_requests,
            replay: how.replay.clone(),
        };
        capture.dom = Some(html.clone());
        capture.rendered = Some(rendered.clone());
        // The page's other responses, so that saving it again keeps them;
        // one that cannot be read is counted, not a failed page (the
        // report never reads them).
        capture.left_out = how.left_out;
        for id in &how.resources {
            let kept = self.index.by_id.get(id).and_then(|&at| {
                self.capture_of(&[at])
                    .ok()
                    .and_then(|mut one| one.exchanges.pop())
            });
            match kept {
                Some(exchange) => capture.resources.push(exchange),
                None => capture.left_out.unread += 1,
            }
        }
        Ok(FetchedPage {
            final_url: page.url.clone(),
            status,
            charset: Some("utf-8".to_owned()),
            summary: summary(how.bytes.unwrap_or(html.len())),
            body: html.into_bytes(),
            rendered: Some(rendered),
            capture: Some(Arc::new(capture)),
        })
    }

    /// A page record that names a record the archive does not hold (and,
    /// for a static page, no response for its URL either).
    fn refers_to_nothing(&self, page: &StoredPage, what: &str, id: Option<&str>) -> FetchError {
        let detail = match id {
            Some(id) => format!(
                "its page record refers to {what} {id}, which is not in the archive (a damaged \
                 or edited archive)"
            ),
            None => format!("its page record names no record for {what}"),
        };
        FetchError::BadArchiveRecord {
            url: page.url.to_string(),
            detail,
        }
    }

    /// What a reopened page keeps, so that saving it again writes its
    /// responses again (the request records keep only the request line).
    fn capture_of(&self, chain: &[usize]) -> Result<Capture, FetchError> {
        let exchanges = chain
            .iter()
            .map(|&at| {
                let r = self.response(at)?;
                let body = self.body(at)?;
                Ok(Exchange {
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
                    body: body.bytes,
                    truncated: body.truncated,
                    body_unread: false,
                    ip: None,
                    at: r
                        .date
                        .as_deref()
                        .and_then(warc_time)
                        .unwrap_or_else(SystemTime::now),
                })
            })
            .collect::<Result<_, FetchError>>()?;
        Ok(Capture {
            exchanges,
            ..Capture::default()
        })
    }
}

/// A `WARC-Date` as a time.
fn warc_time(date: &str) -> Option<SystemTime> {
    chrono::DateTime::parse_from_rfc3339(date)
        .ok()
        .map(SystemTime::from)
}

/// A replay's answers (SPEC 12): the response record for the URL, a
/// revisit's original, a redirect as the redirect it was; its header fields
/// as stored and its body decoded.
impl ReplaySource for ArchiveFetcher {
    fn answer(&self, url: &Url) -> Option<StoredAnswer> {
        let at = self.index.find(url)?;
        let response = self.response(at).ok()?;
        let body = self.body(at).ok()?;
        Some(StoredAnswer {
            status: response.status,
            headers: response.headers.clone(),
            body: body.bytes,
        })
    }

    fn page_missing(&self, url: &Url) -> Option<FetchError> {
        self.follow(url).err()
    }

    fn captured_at(&self, url: &Url) -> Option<SystemTime> {
        let at = self.index.find(url)?;
        warc_time(self.response(at).ok()?.date.as_deref()?)
    }
}

impl Fetcher for ArchiveFetcher {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        match self.index.pages.get(&key(url)) {
            Some(page) => self.page(page),
            None => self.fetched(url),
        }
    }
}
