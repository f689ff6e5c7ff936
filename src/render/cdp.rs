//! The DevTools connection on the browser's pipe: commands out on one end,
//! answers and events in on the other, sorted by a reader thread.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read as _, Write as _};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use url::Url;

use crate::fetch::{FetchError, PrivateNetwork};

/// Why a DevTools call failed.
#[derive(Debug, thiserror::Error)]
pub enum CdpError {
    #[error("cannot talk to the browser: {0}")]
    Write(#[source] std::io::Error),
    #[error("the browser connection is poisoned")]
    Poisoned,
    #[error("the browser did not answer {method}")]
    NoAnswer { method: String },
    #[error("the browser exited")]
    Exited,
    /// The browser answered with an error.
    #[error("{method}: {message}")]
    Refused { method: String, message: String },
}

impl From<CdpError> for FetchError {
    fn from(err: CdpError) -> Self {
        FetchError::Browser {
            detail: err.to_string(),
        }
    }
}

/// `Fetch.enable`'s parameters that pause every request before it is sent.
pub fn pause_every_request() -> Value {
    json!({ "patterns": [{ "urlPattern": "*", "requestStage": "Request" }] })
}

/// Why waiting for an answer ended without one.
pub enum Waited {
    Deadline,
    Cancelled,
    Failed(CdpError),
}

type Pending = Mutex<HashMap<u64, Sender<Value>>>;
type Sessions = Mutex<HashMap<String, Session>>;

/// What the reader thread answers for a tab by itself, since the tab waits
/// for the answer whatever the caller is doing: dialogs (dismissed) and
/// paused requests (let through or refused).
#[derive(Debug, Default)]
pub struct TabGuard {
    pub network: PrivateNetwork,
    pub dialogs: AtomicUsize,
    pub blocked: AtomicUsize,
    /// A replay's answering thread: every paused request goes there, none
    /// is let through (SPEC 12).
    pub replay: Option<Sender<(String, Value)>>,
    /// The tab's requests are paused (`Fetch.enable`): so are its workers'.
    pub pauses: bool,
}

/// One attached tab (or a worker of it): where its events go, and what is
/// answered for it.
struct Session {
    events: Sender<Value>,
    guard: Arc<TabGuard>,
    /// A worker's tab: detached with it.
    parent: Option<String>,
}

/// The DevTools connection: commands out on one pipe, answers and events in
/// on the other, sorted by a reader thread.
pub struct Connection {
    out: Mutex<File>,
    next_id: AtomicU64,
    pending: Pending,
    sessions: Sessions,
    /// The largest message read; a longer one is skipped (its call fails).
    max_message: usize,
    /// A message was skipped for its size.
    pub oversized: AtomicBool,
}

impl Connection {
    /// A connection writing to `out`; [`read_messages`] answers its calls.
    pub fn new(out: File, max_message: usize) -> Self {
        Self {
            out: Mutex::new(out),
            next_id: AtomicU64::new(1),
            pending: Mutex::default(),
            sessions: Mutex::default(),
            max_message,
            oversized: AtomicBool::new(false),
        }
    }

    /// Sends `session`'s events to `events` from now on, and answers its
    /// dialogs and paused requests as `guard` says.
    pub fn attach(&self, session: &str, events: Sender<Value>, guard: Arc<TabGuard>) {
        if let Ok(mut sessions) = self.sessions.lock() {
            sessions.insert(
                session.to_owned(),
                Session {
                    events,
                    guard,
                    parent: None,
                },
            );
        }
    }

    pub fn detach(&self, session: &str) {
        if let Ok(mut sessions) = self.sessions.lock() {
            sessions.remove(session);
            sessions.retain(|_, s| s.parent.as_deref() != Some(session));
        }
    }

    /// Sends a command without waiting for its answer.
    pub fn send(&self, method: &str, params: Value, session: Option<&str>) -> Result<(), CdpError> {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        self.write(id, method, params, session)
    }

    fn write(
        &self,
        id: u64,
        method: &str,
        params: Value,
        session: Option<&str>,
    ) -> Result<(), CdpError> {
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = Value::from(session);
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        let mut out = self.out.lock().map_err(|_| CdpError::Poisoned)?;
        out.write_all(&bytes).map_err(CdpError::Write)
    }

    /// Sends a command and waits for its answer.
    pub fn call(
        &self,
        method: &str,
        params: Value,
        session: Option<&str>,
        timeout: Duration,
    ) -> Result<Value, CdpError> {
        let never = AtomicBool::new(false);
        self.call_until(method, params, session, Instant::now() + timeout, &never)
            .map_err(|e| match e {
                Waited::Failed(err) => err,
                Waited::Deadline | Waited::Cancelled => CdpError::NoAnswer {
                    method: method.to_owned(),
                },
            })
    }

    /// Sends a command and waits for its answer until `deadline`, or until
    /// `cancel` is set (looked at every 100 ms).
    pub fn call_until(
        &self,
        method: &str,
        params: Value,
        session: Option<&str>,
        deadline: Instant,
        cancel: &AtomicBool,
    ) -> Result<Value, Waited> {
        let (tx, rx) = mpsc::channel();
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        // Registered before sending, so a quick answer is not missed.
        self.pending
            .lock()
            .map_err(|_| Waited::Failed(CdpError::Poisoned))?
            .insert(id, tx);
        self.write(id, method, params, session)
            .map_err(Waited::Failed)?;
        let answer = loop {
            if cancel.load(Ordering::SeqCst) {
                break Err(Waited::Cancelled);
            }
            let now = Instant::now();
            if now >= deadline {
                break Err(Waited::Deadline);
            }
            match rx.recv_timeout((deadline - now).min(Duration::from_millis(100))) {
                Ok(answer) => break Ok(answer),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    break Err(Waited::Failed(CdpError::Exited));
                }
            }
        };
        if let Ok(mut pending) = self.pending.lock() {
            pending.remove(&id);
        }
        let answer = answer?;
        match answer.get("error") {
            Some(error) => Err(Waited::Failed(CdpError::Refused {
                method: method.to_owned(),
                message: error["message"].as_str().unwrap_or("failed").to_owned(),
            })),
            None => Ok(answer["result"].clone()),
        }
    }
}

/// Reads NUL-separated messages until the pipe closes. A message longer
/// than the connection's limit is skipped, never buffered whole: the call it
/// answers fails, saying so.
pub fn read_messages(mut input: File, conn: &Connection) {
    let mut buffer = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    // Inside a message too long to keep, until its NUL.
    let mut skipping = false;
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let mut rest = &chunk[..n];
        while !rest.is_empty() {
            let end = rest.iter().position(|b| *b == 0);
            let part = &rest[..end.unwrap_or(rest.len())];
            rest = end.map_or(&[][..], |e| &rest[e + 1..]);
            if !skipping {
                buffer.extend_from_slice(part);
                if buffer.len() > conn.max_message {
                    conn.too_large(&buffer);
                    buffer.clear();
                    skipping = true;
                }
            }
            if end.is_some() {
                if !skipping {
                    conn.dispatch(&buffer);
                }
                buffer.clear();
                skipping = false;
            }
        }
    }
    // Closing every waiting channel tells callers the browser is gone.
    if let Ok(mut p) = conn.pending.lock() {
        p.clear();
    }
    if let Ok(mut s) = conn.sessions.lock() {
        s.clear();
    }
}

impl Connection {
    fn dispatch(&self, raw: &[u8]) {
        let Ok(message) = serde_json::from_slice::<Value>(raw) else {
            return;
        };
        if let Some(id) = message.get("id").and_then(Value::as_u64) {
            self.answer(id, message);
            return;
        }
        let Some(session) = message.get("sessionId").and_then(Value::as_str) else {
            return;
        };
        let Some((events, guard)) = self.sessions.lock().ok().and_then(|s| {
            s.get(session)
                .map(|s| (s.events.clone(), Arc::clone(&s.guard)))
        }) else {
            return;
        };
        let params = &message["params"];
        match message["method"].as_str().unwrap_or_default() {
            // A dialog stops the page until it is answered; a scraper's
            // browser dismisses it to read the page.
            "Page.javascriptDialogOpening" => {
                guard.dialogs.fetch_add(1, Ordering::SeqCst);
                let _ = self.send(
                    "Page.handleJavaScriptDialog",
                    json!({ "accept": false }),
                    Some(session),
                );
            }
            // A worker of the tab: its requests are seen (and paused, when
            // the tab's are) as the tab's, then it may start.
            "Target.attachedToTarget" => {
                if let Some(child) = params["sessionId"].as_str() {
                    if let Ok(mut sessions) = self.sessions.lock() {
                        sessions.insert(
                            child.to_owned(),
                            Session {
                                events: events.clone(),
                                guard: Arc::clone(&guard),
                                parent: Some(session.to_owned()),
                            },
                        );
                    }
                    if guard.pauses {
                        let _ = self.send("Fetch.enable", pause_every_request(), Some(child));
                    }
                    let _ = self.send("Network.enable", json!({}), Some(child));
                    let _ = self.send("Runtime.runIfWaitingForDebugger", json!({}), Some(child));
                }
            }
            "Fetch.requestPaused" if let Some(replay) = &guard.replay => {
                let _ = replay.send((session.to_owned(), params.clone()));
            }
            "Fetch.requestPaused" => {
                let request = params["requestId"].clone();
                let allowed = params["request"]["url"]
                    .as_str()
                    .and_then(|u| Url::parse(u).ok())
                    .is_none_or(|u| guard.network.allows(&u));
                let _ = if allowed {
                    self.send(
                        "Fetch.continueRequest",
                        json!({ "requestId": request }),
                        Some(session),
                    )
                } else {
                    guard.blocked.fetch_add(1, Ordering::SeqCst);
                    self.send(
                        "Fetch.failRequest",
                        json!({ "requestId": request, "errorReason": "BlockedByClient" }),
                        Some(session),
                    )
                };
            }
            _ => {}
        }
        let _ = events.send(message);
    }

    fn answer(&self, id: u64, message: Value) {
        if let Some(tx) = self.pending.lock().ok().and_then(|mut p| p.remove(&id)) {
            let _ = tx.send(message);
        }
    }

    /// A message over the limit: its call (Chromium writes the `id` first)
    /// fails with the reason.
    fn too_large(&self, start: &[u8]) {
        self.oversized.store(true, Ordering::SeqCst);
        let head = String::from_utf8_lossy(&start[..start.len().min(64)]).into_owned();
        let id = head
            .strip_prefix("{\"id\":")
            .map(|r| {
                r.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
            })
            .and_then(|digits| digits.parse::<u64>().ok());
        if let Some(id) = id {
            let message = format!("a DevTools message over {} bytes", self.max_message);
            self.answer(id, json!({ "id": id, "error": { "message": message } }));
        }
    }
}
