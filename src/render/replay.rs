//! Rendering from a capture (SPEC 12): every request of the tab is paused
//! by the DevTools `Fetch` domain and answered here, on a thread of the
//! tab's own, from the capture: its stored status, header fields (wire
//! framing dropped) and decoded body, or `404` with an empty body when the
//! capture does not hold it. Nothing is let through to the network.

use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use serde_json::{Value, json};
use url::Url;

use super::cdp::Connection;
use crate::fetch::replay::FRAMING_FIELDS;
use crate::fetch::{ReplaySource, Replayed, StoredAnswer};

/// How long the browser gets to take an answer: it takes one at once, or
/// refuses it at once (a status it has no phrase for, a malformed field).
const FULFIL_TIMEOUT: Duration = Duration::from_secs(5);

/// The tab's replay: where its paused requests go, and what was answered.
pub struct TabReplay {
    pub paused: Sender<(String, Value)>,
    pub counts: Arc<Mutex<Replayed>>,
}

impl TabReplay {
    /// Starts the thread that answers a tab's paused requests from
    /// `source`; it ends when the tab's guard (holding `paused`) is dropped.
    pub fn start(
        connection: Arc<Connection>,
        source: Arc<dyn ReplaySource>,
    ) -> std::io::Result<Self> {
        let (paused, requests) = mpsc::channel::<(String, Value)>();
        let counts = Arc::new(Mutex::new(Replayed::default()));
        let kept = Arc::clone(&counts);
        std::thread::Builder::new()
            .name("follow-inspector-replay".into())
            .spawn(move || {
                // Each request is answered on the session it was paused in
                // (the tab's, or a worker's).
                for (session, params) in requests {
                    answer(&connection, &session, source.as_ref(), &params, &kept);
                }
            })?;
        Ok(Self { paused, counts })
    }

    pub fn counts(&self) -> Replayed {
        self.counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// Answers one `Fetch.requestPaused` from the capture.
fn answer(
    connection: &Connection,
    session: &str,
    source: &dyn ReplaySource,
    params: &Value,
    counts: &Mutex<Replayed>,
) {
    let request = params["requestId"].clone();
    let url_text = params["request"]["url"].as_str().unwrap_or_default();
    let script = params["resourceType"].as_str() == Some("Script");
    let found = Url::parse(url_text)
        .ok()
        .and_then(|url| source.answer(&url));
    let answered = found.as_ref().is_some_and(|stored| {
        // Waited for: a request whose answer the browser refuses would stay
        // paused until the page's deadline. It is then counted missing.
        connection
            .call(
                "Fetch.fulfillRequest",
                fulfilment(&request, stored),
                Some(session),
                FULFIL_TIMEOUT,
            )
            .is_ok()
    });
    let mut counts = counts.lock().unwrap_or_else(PoisonError::into_inner);
    if answered {
        counts.answered += 1;
        return;
    }
    counts.note_missing(url_text, script);
    drop(counts);
    let not_found = json!({
        "requestId": request, "responseCode": 404, "responsePhrase": "Not Found",
        "responseHeaders": [], "body": "",
    });
    if connection
        .call(
            "Fetch.fulfillRequest",
            not_found,
            Some(session),
            FULFIL_TIMEOUT,
        )
        .is_err()
    {
        let _ = connection.send(
            "Fetch.failRequest",
            json!({ "requestId": request, "errorReason": "Failed" }),
            Some(session),
        );
    }
}

/// `Fetch.fulfillRequest`'s parameters for a stored answer.
fn fulfilment(request: &Value, stored: &StoredAnswer) -> Value {
    let headers: Vec<Value> = stored
        .headers
        .iter()
        .filter(|(name, value)| {
            !FRAMING_FIELDS.contains(&name.to_ascii_lowercase().as_str())
                && is_token(name)
                && !value.bytes().any(|b| matches!(b, b'\r' | b'\n' | 0))
        })
        .map(|(name, value)| json!({ "name": name, "value": value }))
        .collect();
    // DevTools refuses a status outside 200-599 (an interim 1xx is no
    // answer); a capture's odd one is given as a plain success rather than
    // not at all. A phrase is always given: without one Chromium refuses a
    // status it has none for (419, 520, 999).
    let status = if (200..600).contains(&stored.status) {
        stored.status
    } else {
        200
    };
    let phrase = reqwest::StatusCode::from_u16(status)
        .ok()
        .and_then(|code| code.canonical_reason())
        .unwrap_or("Status");
    json!({
        "requestId": request,
        "responseCode": status,
        "responsePhrase": phrase,
        "responseHeaders": headers,
        "body": base64::engine::general_purpose::STANDARD.encode(&stored.body),
    })
}

/// An HTTP field name (RFC 9110 token); DevTools refuses a fulfilment with
/// any other.
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// The script every document of a replayed page runs first: its clock
/// starts at the capture's time and moves a millisecond a reading, and
/// `Math.random` is a generator seeded by the page's URL. Two replays of one
/// capture then see the same time and the same numbers, so scripts that
/// build links from either build the same links; and the page sees the
/// date it was captured on, as the scraper's browser did.
pub fn steady_clock(url: &Url, captured: Option<SystemTime>) -> String {
    let millis = captured
        .and_then(|at| at.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis());
    // FNV-1a of the URL: any fixed seed per page serves.
    let seed = url.as_str().bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let clock = if millis == 0 {
        String::new()
    } else {
        format!(
            "const RealDate = Date; let now = {millis}; \
             const tick = () => now++; \
             function FixedDate(...args) {{ \
                 if (!new.target) return new RealDate(tick()).toString(); \
                 return args.length ? new RealDate(...args) : new RealDate(tick()); }} \
             FixedDate.prototype = RealDate.prototype; \
             FixedDate.now = tick; FixedDate.UTC = RealDate.UTC; FixedDate.parse = RealDate.parse; \
             globalThis.Date = FixedDate;"
        )
    };
    format!(
        "(() => {{ let seed = {seed}; \
         Math.random = function random() {{ \
             seed = (seed + 0x6D2B79F5) >>> 0; let t = seed; \
             t = Math.imul(t ^ (t >>> 15), t | 1); \
             t ^= t + Math.imul(t ^ (t >>> 7), t | 61); \
             return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }}; \
         {clock} }})();"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_fields_and_malformed_fields_are_not_given_to_the_browser() {
        let stored = StoredAnswer {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/javascript".into()),
                ("Transfer-Encoding".into(), "chunked".into()),
                ("Content-Encoding".into(), "gzip".into()),
                ("content-length".into(), "999".into()),
                ("X Content Type Options".into(), "nosniff".into()),
                ("Set-Cookie".into(), "a=1\nb=2".into()),
            ],
            body: b"var x = 1;".to_vec(),
        };
        let given = fulfilment(&json!("r-1"), &stored);
        assert_eq!(given["responseCode"], 200);
        assert_eq!(
            given["responseHeaders"],
            json!([{ "name": "Content-Type", "value": "text/javascript" }])
        );
        assert_eq!(given["body"], "dmFyIHggPSAxOw==");
    }

    #[test]
    fn the_clock_script_names_the_capture_time_and_a_seed_from_the_url() {
        let url = Url::parse("https://acme.test/").unwrap();
        let at = UNIX_EPOCH + std::time::Duration::from_millis(1_700_000_000_123);
        let script = steady_clock(&url, Some(at));
        assert!(script.contains("let now = 1700000000123;"), "{script}");
        assert_eq!(script, steady_clock(&url, Some(at)));
        let other = steady_clock(&Url::parse("https://acme.test/b").unwrap(), Some(at));
        assert_ne!(script, other);
        assert!(!steady_clock(&url, None).contains("RealDate"));
    }
}
