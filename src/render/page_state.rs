//! What the events of one tab tell: the main frame's navigations and
//! lifecycle, the document's response, redirects on the wire and client-side
//! ones. Pure: `apply` takes one DevTools event at a time, so recorded event
//! sequences test it without a browser.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::Value;
use url::Url;

use super::resources::{Resources, fields};
use crate::fetch::{FetchError, Hop, MAX_CLIENT_REDIRECTS, Wait, chain_text};

/// After the wait condition holds, a client-side redirect still gets this long
/// to start (meta refresh and `location.replace` fire right after `load`).
const REDIRECT_GRACE: Duration = Duration::from_millis(300);

/// The Chromium lifecycle event that means the wait is over.
fn lifecycle_event(wait: Wait) -> &'static str {
    match wait {
        Wait::Load => "load",
        Wait::Networkidle2 => "networkAlmostIdle",
        Wait::Networkidle0 => "networkIdle",
    }
}

/// What the events of one tab told so far.
pub struct PageState {
    main_frame: String,
    /// The loader of the latest main-frame navigation, and the lifecycle
    /// events seen for it.
    loader: Option<String>,
    lifecycle: HashSet<String>,
    pub document_request: Option<String>,
    /// The URL the document's response came from.
    pub document_url: Option<String>,
    pub status: Option<u16>,
    pub content_type: Option<String>,
    /// The document response's header fields and protocol, for the archive.
    pub document_headers: Vec<(String, String)>,
    pub document_protocol: Option<String>,
    pub document_ip: Option<String>,
    pub hops: Vec<Hop>,
    /// How many of `hops` a script or meta refresh made.
    client_redirects: usize,
    pub has_document: bool,
    /// The page's other requests, for its capture (set by the browser).
    pub resources: Option<Resources>,
}

impl PageState {
    pub fn new(main_frame: String) -> Self {
        Self {
            main_frame,
            loader: None,
            lifecycle: HashSet::new(),
            document_request: None,
            document_url: None,
            status: None,
            content_type: None,
            document_headers: Vec::new(),
            document_protocol: None,
            document_ip: None,
            hops: Vec::new(),
            client_redirects: 0,
            has_document: false,
            resources: None,
        }
    }

    /// Follows events until the wait holds (then `true`) or the deadline
    /// passes (`false`).
    pub fn follow(
        &mut self,
        events: &Receiver<Value>,
        wait: Wait,
        deadline: Instant,
        cancel: &AtomicBool,
    ) -> Result<bool, FetchError> {
        // Called again after a failed read, a page already settled gets the
        // redirect grace again, not the whole deadline.
        let mut settled_at: Option<Instant> = self
            .lifecycle
            .contains(lifecycle_event(wait))
            .then(|| Instant::now() + REDIRECT_GRACE);
        loop {
            if cancel.load(Ordering::SeqCst) {
                return Err(FetchError::Cancelled);
            }
            let now = Instant::now();
            if let Some(at) = settled_at
                && now >= at
            {
                return Ok(true);
            }
            if now >= deadline {
                return Ok(false);
            }
            // Woken at least every 100 ms to see a cancel.
            let until = settled_at
                .map_or(deadline, |at| at.min(deadline))
                .min(now + Duration::from_millis(100));
            match events.recv_timeout(until - now) {
                Ok(event) => {
                    if self.apply(&event)? {
                        settled_at = None;
                    }
                    if settled_at.is_none() && self.lifecycle.contains(lifecycle_event(wait)) {
                        settled_at = Some(Instant::now() + REDIRECT_GRACE);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(FetchError::Browser {
                        detail: "the browser exited".into(),
                    });
                }
            }
        }
    }

    /// Takes in one event; `true` when a new main-frame navigation started.
    fn apply(&mut self, event: &Value) -> Result<bool, FetchError> {
        if let Some(resources) = self.resources.as_mut() {
            resources.apply(event);
        }
        let params = &event["params"];
        let in_main_frame = params["frameId"].as_str() == Some(self.main_frame.as_str());
        match event["method"].as_str().unwrap_or_default() {
            "Inspector.targetCrashed" => {
                return Err(FetchError::Browser {
                    detail: "the page's renderer crashed (out of memory?)".into(),
                });
            }
            "Page.lifecycleEvent" if in_main_frame => {
                let loader = params["loaderId"].as_str().map(str::to_owned);
                let name = params["name"].as_str().unwrap_or_default();
                // The blank tab's lifecycle is replayed without an `init`.
                if name == "init" || self.loader.is_none() {
                    let new_navigation = self.loader.is_some() && loader != self.loader;
                    self.loader = loader;
                    self.lifecycle.clear();
                    self.lifecycle.insert(name.to_owned());
                    return Ok(new_navigation);
                }
                // Late events of a document being replaced (its `load` can come
                // after the next document was requested) say nothing of the next.
                if loader == self.loader {
                    self.lifecycle.insert(name.to_owned());
                }
            }
            "Network.requestWillBeSent"
                if in_main_frame && params["type"].as_str() == Some("Document") =>
            {
                // A document requested by a new loader replaces the one shown:
                // the old one's lifecycle must not end the wait while the new
                // one's answer is slower than the redirect grace.
                let loader = params["loaderId"].as_str().map(str::to_owned);
                let mut new_navigation = false;
                if loader.is_some() && loader != self.loader {
                    new_navigation = self.loader.is_some();
                    self.loader = loader;
                    self.lifecycle.clear();
                }
                let redirect = &params["redirectResponse"];
                if let (Some(status), Some(from)) =
                    (redirect["status"].as_u64(), redirect["url"].as_str())
                {
                    self.push_hop(status, from);
                } else if let (Some(previous), Some(status)) =
                    (self.document_url.clone(), self.status)
                {
                    // A new document after one was shown: a client-side redirect.
                    self.push_hop(u64::from(status), &previous);
                    self.client_redirects += 1;
                    if self.client_redirects > MAX_CLIENT_REDIRECTS {
                        let next = params["request"]["url"]
                            .as_str()
                            .and_then(|u| Url::parse(u).ok())
                            .unwrap_or_else(|| self.hops[self.hops.len() - 1].url.clone());
                        return Err(FetchError::ClientRedirectLoop {
                            max: MAX_CLIENT_REDIRECTS,
                            chain: chain_text(&self.hops, &next),
                        });
                    }
                }
                return Ok(new_navigation);
            }
            "Network.responseReceived"
                if in_main_frame && params["type"].as_str() == Some("Document") =>
            {
                let response = &params["response"];
                self.document_request = params["requestId"].as_str().map(str::to_owned);
                self.document_url = response["url"].as_str().map(str::to_owned);
                self.status = response["status"]
                    .as_u64()
                    .and_then(|s| u16::try_from(s).ok());
                self.content_type = response["mimeType"].as_str().map(str::to_owned);
                // DevTools joins a repeated header's values with a line break.
                self.document_headers = fields(&response["headers"]);
                self.document_protocol = response["protocol"].as_str().map(str::to_owned);
                self.document_ip = response["remoteIPAddress"].as_str().map(str::to_owned);
                self.has_document = true;
            }
            "Page.domContentEventFired" | "Page.loadEventFired" => self.has_document = true,
            _ => {}
        }
        Ok(false)
    }

    fn push_hop(&mut self, status: u64, url: &str) {
        if let Ok(url) = Url::parse(url) {
            self.hops.push(Hop {
                status: u16::try_from(status).unwrap_or(0),
                url,
            });
        }
    }
}

#[cfg(test)]
mod tests;
