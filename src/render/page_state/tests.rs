//! `PageState` fed with event sequences recorded from chromium-headless-shell
//! (see each fixture's header for the page it loaded).

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Sender};
use std::time::{Duration, Instant};

use serde_json::Value;
use url::Url;

use super::{PageState, REDIRECT_GRACE};
use crate::fetch::{FetchError, Hop, Wait};

const PLAIN: &str = include_str!("../testdata/plain.jsonl");
const SERVER_REDIRECT: &str = include_str!("../testdata/server_redirect.jsonl");
const META_REFRESH: &str = include_str!("../testdata/meta_refresh.jsonl");
const META_REFRESH_SLOW_TARGET: &str = include_str!("../testdata/meta_refresh_slow_target.jsonl");
const LOCATION_REPLACE: &str = include_str!("../testdata/location_replace.jsonl");
const CRASH: &str = include_str!("../testdata/crash.jsonl");
const NEVER_IDLE: &str = include_str!("../testdata/never_idle.jsonl");
const SUBFRAME: &str = include_str!("../testdata/subframe.jsonl");

/// A deadline the wait's event beats (the grace included).
const LONG: Duration = Duration::from_secs(10);
/// A deadline for waits that never hold.
const SHORT: Duration = Duration::from_millis(30);
/// Past the redirect grace, so a wait that wrongly holds returns `true` first.
const PAST_GRACE: Duration = Duration::from_millis(600);

/// The events of a fixture; `#` lines are its header.
fn events(fixture: &str) -> Vec<Value> {
    fixture
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| serde_json::from_str(line).expect("a fixture line is JSON"))
        .collect()
}

fn method(event: &Value) -> &str {
    event["method"].as_str().unwrap_or_default()
}

fn is_document_request(event: &Value) -> bool {
    method(event) == "Network.requestWillBeSent" && event["params"]["type"] == "Document"
}

fn is_lifecycle(event: &Value, frame: &str, loader: &str, name: &str) -> bool {
    method(event) == "Page.lifecycleEvent"
        && event["params"]["frameId"] == frame
        && event["params"]["loaderId"] == loader
        && event["params"]["name"] == name
}

/// The events before the first one `stop` picks.
fn until(events: Vec<Value>, stop: impl Fn(&Value) -> bool) -> Vec<Value> {
    let end = events
        .iter()
        .position(stop)
        .expect("the fixture has the event");
    events.into_iter().take(end).collect()
}

/// The state after every event, and the indexes where `apply` said a new
/// navigation started.
fn applied(events: &[Value]) -> (PageState, Vec<usize>) {
    let mut state = PageState::new("main".into());
    let mut navigations = Vec::new();
    for (i, event) in events.iter().enumerate() {
        if state.apply(event).expect("no error in this sequence") {
            navigations.push(i);
        }
    }
    (state, navigations)
}

fn hop(status: u16, url: &str) -> Hop {
    Hop {
        status,
        url: Url::parse(url).expect("a test URL"),
    }
}

fn queued(events: Vec<Value>) -> (Sender<Value>, mpsc::Receiver<Value>) {
    let (tx, rx) = mpsc::channel();
    for event in events {
        tx.send(event).expect("the receiver is alive");
    }
    (tx, rx)
}

/// `follow` over `events` with the browser still there (the sender kept).
fn follow(
    events: Vec<Value>,
    wait: Wait,
    within: Duration,
) -> (PageState, Result<bool, FetchError>) {
    let (_tx, rx) = queued(events);
    let mut state = PageState::new("main".into());
    let result = state.follow(&rx, wait, Instant::now() + within, &AtomicBool::new(false));
    (state, result)
}

#[test]
fn plain_page_has_its_document_and_no_hops() {
    let events = events(PLAIN);
    let (state, navigations) = applied(&events);
    assert!(state.hops.is_empty());
    assert_eq!(state.status, Some(200));
    assert_eq!(state.content_type.as_deref(), Some("text/html"));
    assert_eq!(state.document_request.as_deref(), Some("L1"));
    assert_eq!(
        state.document_url.as_deref(),
        Some("http://127.0.0.1:8000/plain")
    );
    assert!(state.has_document);
    // The blank tab gives way to the page when the page is requested.
    let request = events.iter().position(is_document_request);
    assert_eq!(navigations, Vec::from_iter(request));
    assert_eq!(state.loader.as_deref(), Some("L1"));
    for name in [
        "init",
        "DOMContentLoaded",
        "load",
        "networkAlmostIdle",
        "networkIdle",
    ] {
        assert!(state.lifecycle.contains(name), "{name}");
    }
}

#[test]
fn blank_tab_lifecycle_is_dropped_once_the_page_is_requested() {
    let mut events = until(events(PLAIN), |e| is_lifecycle(e, "main", "L1", "init"));
    let (state, _) = applied(&events[..5]);
    assert!(state.lifecycle.contains("load"), "the replayed blank tab");
    events.truncate(events.iter().position(is_document_request).unwrap_or(0) + 1);
    let (state, _) = applied(&events);
    assert!(state.lifecycle.is_empty());
    assert!(!state.has_document);
}

#[test]
fn server_redirect_is_one_hop_to_the_answer() {
    let (state, navigations) = applied(&events(SERVER_REDIRECT));
    assert_eq!(state.hops, [hop(302, "http://127.0.0.1:8000/redirect")]);
    assert_eq!(state.status, Some(200));
    assert_eq!(state.content_type.as_deref(), Some("text/html"));
    assert_eq!(
        state.document_url.as_deref(),
        Some("http://127.0.0.1:8000/plain")
    );
    assert_eq!(state.document_request.as_deref(), Some("L1"));
    assert!(state.has_document);
    // The redirected request keeps its loader: one navigation.
    assert_eq!(navigations.len(), 1);
}

#[test]
fn meta_refresh_is_a_hop_from_the_shown_document() {
    let events = events(META_REFRESH);
    let (state, navigations) = applied(&events);
    assert_eq!(state.hops, [hop(200, "http://127.0.0.1:8000/meta")]);
    assert_eq!(state.status, Some(200));
    assert_eq!(
        state.document_url.as_deref(),
        Some("http://127.0.0.1:8000/b")
    );
    assert_eq!(state.document_request.as_deref(), Some("L2"));
    assert!(state.has_document);
    // The page, then the refresh, each when its document is requested.
    let requests: Vec<usize> = (0..events.len())
        .filter(|&i| is_document_request(&events[i]))
        .collect();
    assert_eq!(navigations, requests);
    assert_eq!(state.loader.as_deref(), Some("L2"));
    assert!(state.lifecycle.contains("networkIdle"));
}

#[test]
fn location_replace_is_a_hop_and_the_old_load_does_not_count() {
    let events = events(LOCATION_REPLACE);
    let (state, navigations) = applied(&events);
    assert_eq!(state.hops, [hop(200, "http://127.0.0.1:8000/js")]);
    assert_eq!(state.status, Some(200));
    assert_eq!(
        state.document_url.as_deref(),
        Some("http://127.0.0.1:8000/b")
    );
    assert_eq!(state.document_request.as_deref(), Some("L2"));
    assert_eq!(navigations.len(), 2);
    // The replace runs in the load handler: /js's `load` comes after /b was
    // requested, and must not end a wait for /b.
    let late_load = events
        .iter()
        .position(|e| is_lifecycle(e, "main", "L1", "load"))
        .expect("the old page's load");
    let (state, _) = applied(&events[..=late_load]);
    assert_eq!(state.loader.as_deref(), Some("L2"));
    assert!(!state.lifecycle.contains("load"));
}

#[test]
fn renderer_crash_is_a_browser_error() {
    let mut state = PageState::new("main".into());
    let mut outcome = Ok(false);
    for event in events(CRASH) {
        outcome = state.apply(&event);
        if outcome.is_err() {
            assert_eq!(method(&event), "Inspector.targetCrashed");
            break;
        }
    }
    assert!(
        matches!(outcome, Err(FetchError::Browser { .. })),
        "{outcome:?}"
    );
    assert!(state.has_document, "the crash came after the response");
}

#[test]
fn subframe_events_are_ignored() {
    let events = events(SUBFRAME);
    let (state, navigations) = applied(&events);
    assert!(state.hops.is_empty());
    assert_eq!(
        state.document_url.as_deref(),
        Some("http://127.0.0.1:8000/iframe")
    );
    assert_eq!(state.document_request.as_deref(), Some("L1"));
    assert_eq!(state.loader.as_deref(), Some("L1"));
    assert_eq!(navigations.len(), 1);
    // The child's `load` comes before the page's: the page's state is as if
    // the child had sent nothing.
    let main_load = events
        .iter()
        .position(|e| is_lifecycle(e, "main", "L1", "load"))
        .expect("the page's load");
    let before = &events[..main_load];
    assert!(
        before
            .iter()
            .any(|e| is_lifecycle(e, "child", "L3", "load"))
    );
    let main_only: Vec<Value> = before
        .iter()
        .filter(|e| e["params"]["frameId"] != "child")
        .cloned()
        .collect();
    let (with_child, _) = applied(before);
    let (without_child, _) = applied(&main_only);
    assert_eq!(with_child.lifecycle, without_child.lifecycle);
    assert!(!with_child.lifecycle.contains("load"));
    assert_eq!(with_child.hops, without_child.hops);
    assert_eq!(with_child.document_url, without_child.document_url);
}

#[test]
fn follow_holds_after_the_wait_event() {
    for wait in [Wait::Load, Wait::Networkidle2, Wait::Networkidle0] {
        let (state, result) = follow(events(PLAIN), wait, LONG);
        assert_eq!(result, Ok(true), "{wait:?}");
        assert_eq!(state.status, Some(200));
    }
}

#[test]
fn follow_holds_on_the_page_a_client_side_redirect_reached() {
    for fixture in [META_REFRESH, LOCATION_REPLACE] {
        let (state, result) = follow(events(fixture), Wait::Load, LONG);
        assert_eq!(result, Ok(true));
        assert_eq!(
            state.document_url.as_deref(),
            Some("http://127.0.0.1:8000/b")
        );
        assert_eq!(state.hops.len(), 1);
    }
}

#[test]
fn follow_stops_at_the_deadline_before_the_wait_event() {
    let events = until(events(PLAIN), |e| is_lifecycle(e, "main", "L1", "load"));
    let (state, result) = follow(events, Wait::Load, SHORT);
    assert_eq!(result, Ok(false));
    assert!(state.has_document, "DOMContentLoaded came");
}

#[test]
fn follow_stops_at_the_deadline_when_the_network_never_idles() {
    let (state, result) = follow(events(NEVER_IDLE), Wait::Networkidle0, SHORT);
    assert_eq!(result, Ok(false));
    assert!(state.has_document);
    // At most two requests open is reached all the same.
    let (_, result) = follow(events(NEVER_IDLE), Wait::Networkidle2, LONG);
    assert_eq!(result, Ok(true));
}

#[test]
fn follow_ignores_the_blank_tab_lifecycle() {
    // The page answered but its renderer has not begun: only the blank tab
    // had a `load`.
    let events = until(events(PLAIN), |e| is_lifecycle(e, "main", "L1", "init"));
    assert!(PAST_GRACE > REDIRECT_GRACE);
    let (_, result) = follow(events, Wait::Load, PAST_GRACE);
    assert_eq!(result, Ok(false));
}

#[test]
fn follow_waits_for_a_client_side_redirect_slower_than_the_grace() {
    let (state, result) = follow(events(META_REFRESH_SLOW_TARGET), Wait::Load, PAST_GRACE);
    assert_eq!(result, Ok(false), "/slowb has not answered yet");
    assert_eq!(state.hops, [hop(200, "http://127.0.0.1:8000/meta-slow")]);
}

#[test]
fn follow_ignores_a_subframe_load() {
    let events = until(events(SUBFRAME), |e| is_lifecycle(e, "main", "L1", "load"));
    let (_, result) = follow(events, Wait::Load, SHORT);
    assert_eq!(result, Ok(false));
}

#[test]
fn follow_stops_when_cancelled() {
    let (_tx, rx) = queued(events(PLAIN));
    let mut state = PageState::new("main".into());
    let cancel = AtomicBool::new(true);
    let result = state.follow(&rx, Wait::Load, Instant::now() + LONG, &cancel);
    assert_eq!(result, Err(FetchError::Cancelled));
}

#[test]
fn follow_reports_the_browser_gone_when_the_events_end() {
    let events = until(events(PLAIN), |e| is_lifecycle(e, "main", "L1", "load"));
    let (tx, rx) = queued(events);
    drop(tx);
    let mut state = PageState::new("main".into());
    let result = state.follow(
        &rx,
        Wait::Load,
        Instant::now() + LONG,
        &AtomicBool::new(false),
    );
    assert_eq!(
        result,
        Err(FetchError::Browser {
            detail: "the browser exited".into()
        })
    );
}

#[test]
fn follow_reports_a_renderer_crash() {
    let (_, result) = follow(events(CRASH), Wait::Load, LONG);
    assert!(
        matches!(result, Err(FetchError::Browser { .. })),
        "{result:?}"
    );
}

/// A client-side redirect loop: each of `hops` documents sends the browser
/// on to the next (`location.href = '/r?' + Math.random()`).
fn redirect_loop(hops: usize) -> Vec<Value> {
    let mut events = Vec::new();
    for i in 1..=hops {
        let loader = format!("L{i}");
        let url = format!("http://127.0.0.1:8000/r?{i}");
        events.push(
            serde_json::json!({"method": "Network.requestWillBeSent", "params": {
            "frameId": "main", "loaderId": loader, "type": "Document", "requestId": loader,
            "request": {"url": url}}}),
        );
        events.push(
            serde_json::json!({"method": "Network.responseReceived", "params": {
            "frameId": "main", "loaderId": loader, "type": "Document", "requestId": loader,
            "response": {"url": url, "status": 200, "mimeType": "text/html"}}}),
        );
        events.push(
            serde_json::json!({"method": "Page.lifecycleEvent", "params": {
            "frameId": "main", "loaderId": loader, "name": "init"}}),
        );
    }
    events
}

#[test]
fn client_side_redirects_are_cut_after_20_with_the_chain() {
    use crate::fetch::MAX_CLIENT_REDIRECTS;
    // 20 client-side hops (21 documents) are allowed.
    let (state, _) = applied(&redirect_loop(MAX_CLIENT_REDIRECTS + 1));
    assert_eq!(state.hops.len(), MAX_CLIENT_REDIRECTS);
    // The 21st is a loop, whatever the time left.
    let (_, result) = follow(redirect_loop(100), Wait::Load, LONG);
    match result {
        Err(FetchError::ClientRedirectLoop { max, chain }) => {
            assert_eq!(max, 20);
            assert!(
                chain.starts_with("http://127.0.0.1:8000/r?1 (200) → "),
                "{chain}"
            );
            assert!(chain.ends_with(" → http://127.0.0.1:8000/r?22"), "{chain}");
            assert_eq!(chain.matches(" → ").count(), 21, "{chain}");
        }
        other => panic!("not a redirect loop: {other:?}"),
    }
}

#[test]
fn the_documents_headers_are_kept_each_repeated_value_on_its_own() {
    let events = vec![
        serde_json::json!({"method": "Network.responseReceived", "params": {
        "frameId": "main", "loaderId": "L1", "type": "Document", "requestId": "L1",
        "response": {"url": "https://acme.test/", "status": 200, "mimeType": "text/html",
            "protocol": "h2", "remoteIPAddress": "[::1]",
            "headers": {"content-type": "text/html", "set-cookie": "a=1\nb=2"}}}}),
    ];
    let (state, _) = applied(&events);
    assert_eq!(
        state.document_headers,
        [
            ("content-type".to_owned(), "text/html".to_owned()),
            ("set-cookie".to_owned(), "a=1".to_owned()),
            ("set-cookie".to_owned(), "b=2".to_owned()),
        ]
    );
    assert_eq!(state.document_protocol.as_deref(), Some("h2"));
    assert_eq!(state.document_ip.as_deref(), Some("[::1]"));
}
