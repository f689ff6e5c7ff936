//! Rendering from a capture (SPEC 12): every request of the tab is paused
//! by the DevTools `Fetch` domain and answered here, on a thread of the
//! tab's own, from the capture: its stored status, header fields (wire
//! framing dropped) and decoded body, or `404` with an empty body when the
//! capture does not hold it. Nothing is let through to the network.

use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use serde_json::{Value, json};
use url::Url;

use super::cdp::Connection;
use crate::fetch::replay::FRAMING_FIELDS;
use crate::fetch::{ReplaySource, Replayed, StoredAnswer};

/// The tab's replay: where its paused requests go, and what was answered.
pub struct TabReplay {
    pub paused: Sender<Value>,
    pub counts: Arc<Mutex<Replayed>>,
}

impl TabReplay {
    /// Starts the thread that answers `session`'s paused requests from
    /// `source`; it ends when the tab's guard (holding `paused`) is dropped.
    pub fn start(
        connection: Arc<Connection>,
        session: String,
        source: Arc<dyn ReplaySource>,
    ) -> std::io::Result<Self> {
        let (paused, requests) = mpsc::channel::<Value>();
        let counts = Arc::new(Mutex::new(Replayed::default()));
        let kept = Arc::clone(&counts);
        std::thread::Builder::new()
            .name("follow-inspector-replay".into())
            .spawn(move || {
                for params in requests {
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
    let found = Url::parse(url_text)
        .ok()
        .and_then(|url| source.answer(&url));
    let mut counts = counts.lock().unwrap_or_else(PoisonError::into_inner);
    let fulfil = match found {
        Some(stored) => {
            counts.answered += 1;
            fulfilment(&request, &stored)
        }
        None => {
            let script = params["resourceType"].as_str() == Some("Script");
            counts.note_missing(url_text, script);
            json!({ "requestId": request, "responseCode": 404, "responseHeaders": [], "body": "" })
        }
    };
    drop(counts);
    let _ = connection.send("Fetch.fulfillRequest", fulfil, Some(session));
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
    // DevTools refuses a status outside 100-599; a capture's odd one is
    // given as a plain success rather than not at all.
    let status = if (100..600).contains(&stored.status) {
        stored.status
    } else {
        200
    };
    json!({
        "requestId": request,
        "responseCode": status,
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
