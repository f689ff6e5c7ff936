//! The other responses of a rendered page (SPEC 12: "rendered capture keeps
//! what the page loaded"): every request the tab's events name, its
//! response's head and whether it finished, so that the page's capture can
//! hold its scripts, stylesheets, frames, XHR and fetch calls and be
//! rendered again offline. Pure: `apply` takes one DevTools event at a time.

use std::collections::HashMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use url::Url;

use crate::fetch::{Exchange, LeftOut};

/// DevTools resource types links never come from: left out of a capture
/// unless asked for (`--capture-all`), and counted.
const MEDIA: [&str; 3] = ["Image", "Media", "Font"];
/// Requests with no response worth keeping: a preflight's answer is the
/// browser's business, a socket has no body, a ping's answer is not read.
const NOT_KEPT: [&str; 5] = [
    "Preflight",
    "WebSocket",
    "Ping",
    "CSPViolationReport",
    "SignedExchange",
];

/// One request of the page and what came back for it.
struct Seen {
    exchange: Exchange,
    kind: String,
    responded: bool,
    finished: bool,
    /// The DevTools session the response came in on (a worker's own, for
    /// its script and its requests): its body is asked for there.
    session: Option<String>,
}

/// A response to keep, once its body is asked for.
pub struct Finished {
    pub request_id: String,
    pub exchange: Exchange,
    /// Where its body is asked for; `None`: the tab's own session.
    pub session: Option<String>,
}

/// What the tab's events told of its other requests.
pub struct Resources {
    main_frame: String,
    capture_all: bool,
    seen: HashMap<String, Seen>,
    /// Request ids in the order they finished (redirect hops have their own
    /// entries, finished at once).
    order: Vec<String>,
    /// A redirect hop of a request, kept under its own id.
    hops: Vec<Exchange>,
    pub left_out: LeftOut,
}

impl Resources {
    pub fn new(main_frame: String, capture_all: bool) -> Self {
        Self {
            main_frame,
            capture_all,
            seen: HashMap::new(),
            order: Vec::new(),
            hops: Vec::new(),
            left_out: LeftOut::default(),
        }
    }

    /// Whether a request of `kind` in `frame` is the page's own document
    /// (kept apart, as the page's response) or one never kept.
    fn skipped(&mut self, kind: &str, frame: Option<&str>) -> bool {
        if kind == "Document" && frame == Some(self.main_frame.as_str()) {
            return true;
        }
        if NOT_KEPT.contains(&kind) {
            return true;
        }
        if MEDIA.contains(&kind) && !self.capture_all {
            self.left_out.media += 1;
            return true;
        }
        false
    }

    /// Takes in one event of the tab.
    pub fn apply(&mut self, event: &Value) {
        let params = &event["params"];
        let Some(id) = params["requestId"].as_str() else {
            return;
        };
        match event["method"].as_str().unwrap_or_default() {
            "Network.requestWillBeSent" => {
                let kind = params["type"].as_str().unwrap_or("Other").to_owned();
                // A redirect ends the hop before it: kept as a response of its own.
                if let Some(previous) = self.seen.remove(id)
                    && let Some(status) = params["redirectResponse"]["status"].as_u64()
                {
                    let mut hop = previous.exchange;
                    respond(&mut hop, &params["redirectResponse"], status);
                    hop.body_unread = false;
                    self.hops.push(hop);
                }
                if self.skipped(&kind, params["frameId"].as_str()) {
                    return;
                }
                let request = &params["request"];
                let Some(url) = request["url"].as_str().and_then(|u| Url::parse(u).ok()) else {
                    return;
                };
                if !matches!(url.scheme(), "http" | "https") {
                    return;
                }
                let at = params["wallTime"]
                    .as_f64()
                    .filter(|t| t.is_finite() && *t > 0.0)
                    .map_or_else(SystemTime::now, |t| UNIX_EPOCH + Duration::from_secs_f64(t));
                let exchange = Exchange {
                    url,
                    method: request["method"].as_str().unwrap_or("GET").to_owned(),
                    request_headers: fields(&request["headers"]),
                    version: "HTTP/1.1".to_owned(),
                    status: 0,
                    reason: String::new(),
                    response_headers: Vec::new(),
                    body: Vec::new(),
                    truncated: false,
                    body_unread: true,
                    ip: None,
                    at,
                };
                self.seen.insert(
                    id.to_owned(),
                    Seen {
                        exchange,
                        kind,
                        responded: false,
                        finished: false,
                        session: None,
                    },
                );
            }
            "Network.responseReceived" => {
                if let Some(seen) = self.seen.get_mut(id) {
                    let response = &params["response"];
                    let status = response["status"].as_u64().unwrap_or(0);
                    respond(&mut seen.exchange, response, status);
                    seen.responded = true;
                    seen.session = event["sessionId"].as_str().map(str::to_owned);
                }
            }
            "Network.loadingFinished" => {
                if let Some(seen) = self.seen.get_mut(id)
                    && seen.responded
                    && !seen.finished
                {
                    seen.finished = true;
                    self.order.push(id.to_owned());
                }
            }
            "Network.loadingFailed" => {
                self.seen.remove(id);
            }
            _ => {}
        }
    }

    /// The redirect hops, whole, and the finished responses whose bodies
    /// are to be asked for, in the order they finished.
    pub fn take(&mut self) -> (Vec<Exchange>, Vec<Finished>) {
        let mut finished = Vec::new();
        for id in std::mem::take(&mut self.order) {
            if let Some(seen) = self.seen.remove(&id) {
                debug_assert!(seen.finished && !seen.kind.is_empty());
                finished.push(Finished {
                    request_id: id,
                    exchange: seen.exchange,
                    session: seen.session,
                });
            }
        }
        (std::mem::take(&mut self.hops), finished)
    }
}

/// A response's head (`response` is DevTools' `Network.Response`) written
/// into `exchange`.
fn respond(exchange: &mut Exchange, response: &Value, status: u64) {
    exchange.status = u16::try_from(status).unwrap_or(0);
    exchange.reason = response["statusText"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    exchange.response_headers = fields(&response["headers"]);
    exchange.version = protocol_version(response["protocol"].as_str());
    exchange.ip = response["remoteIPAddress"]
        .as_str()
        .and_then(|ip| ip.trim_matches(['[', ']']).parse().ok());
}

/// DevTools' header object as fields in order; a repeated header's values,
/// which DevTools joins with a line break, apart again.
pub fn fields(headers: &Value) -> Vec<(String, String)> {
    headers
        .as_object()
        .map(|headers| {
            headers
                .iter()
                .flat_map(|(name, value)| {
                    value
                        .as_str()
                        .unwrap_or_default()
                        .split('\n')
                        .map(|one| (name.clone(), one.to_owned()))
                        .collect::<Vec<_>>()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// DevTools' protocol name as the HTTP client names it: `HTTP/d.d` is what
/// archive readers parse.
pub fn protocol_version(protocol: Option<&str>) -> String {
    match protocol {
        Some("h2") => "HTTP/2.0",
        Some("h3" | "h3-29" | "quic") => "HTTP/3.0",
        Some("http/1.0") => "HTTP/1.0",
        _ => "HTTP/1.1",
    }
    .to_owned()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn sent(id: &str, kind: &str, frame: &str, url: &str) -> Value {
        json!({ "method": "Network.requestWillBeSent", "params": {
            "requestId": id, "type": kind, "frameId": frame, "wallTime": 1.7e9,
            "request": { "url": url, "method": "GET", "headers": { "Accept": "*/*" } } } })
    }

    fn received(id: &str, status: u64, headers: Value) -> Value {
        json!({ "method": "Network.responseReceived", "params": {
            "requestId": id, "response": { "status": status, "statusText": "OK",
            "headers": headers, "protocol": "h2" } } })
    }

    fn finished(id: &str) -> Value {
        json!({ "method": "Network.loadingFinished", "params": { "requestId": id } })
    }

    #[test]
    fn scripts_and_xhr_are_kept_in_the_order_they_finished_and_images_are_counted() {
        let mut r = Resources::new("main".into(), false);
        for event in [
            sent("1", "Document", "main", "https://acme.test/"),
            sent("2", "Script", "main", "https://acme.test/app.js"),
            sent("3", "Image", "main", "https://acme.test/logo.png"),
            sent("4", "XHR", "main", "https://acme.test/api/menu.json"),
            received("1", 200, json!({})),
            received("2", 200, json!({ "Content-Type": "text/javascript" })),
            received("4", 200, json!({ "Set-Cookie": "a=1\nb=2" })),
            finished("1"),
            finished("4"),
            finished("2"),
        ] {
            r.apply(&event);
        }
        let (hops, done) = r.take();
        assert!(hops.is_empty());
        let urls: Vec<&str> = done.iter().map(|f| f.exchange.url.path()).collect();
        assert_eq!(urls, ["/api/menu.json", "/app.js"]);
        assert_eq!(done[0].exchange.version, "HTTP/2.0");
        assert_eq!(done[0].exchange.response_headers.len(), 2);
        assert_eq!(r.left_out.media, 1);
    }

    #[test]
    fn a_redirected_script_keeps_its_redirect_as_a_response_of_its_own() {
        let mut r = Resources::new("main".into(), true);
        r.apply(&sent("7", "Script", "main", "https://acme.test/old.js"));
        let mut redirect = sent("7", "Script", "main", "https://cdn.acme.test/new.js");
        redirect["params"]["redirectResponse"] = json!({
            "status": 301, "headers": { "Location": "https://cdn.acme.test/new.js" } });
        r.apply(&redirect);
        r.apply(&received("7", 200, json!({})));
        r.apply(&finished("7"));
        let (hops, done) = r.take();
        assert_eq!(hops.len(), 1);
        assert_eq!(hops[0].status, 301);
        assert_eq!(hops[0].url.path(), "/old.js");
        assert_eq!(done[0].exchange.url.host_str(), Some("cdn.acme.test"));
    }

    #[test]
    fn a_failed_request_and_a_frame_document_are_told_apart() {
        let mut r = Resources::new("main".into(), false);
        r.apply(&sent("1", "Script", "main", "https://acme.test/gone.js"));
        r.apply(&json!({ "method": "Network.loadingFailed", "params": { "requestId": "1" } }));
        r.apply(&sent(
            "2",
            "Document",
            "frame-2",
            "https://acme.test/frame.html",
        ));
        r.apply(&received("2", 200, json!({})));
        r.apply(&finished("2"));
        let (_, done) = r.take();
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].exchange.url.path(), "/frame.html");
    }
}
