//! The DevTools connection on the browser's pipe: commands out on one end,
//! answers and events in on the other, sorted by a reader thread.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read as _, Write as _};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::fetch::FetchError;

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

/// Why waiting for an answer ended without one.
pub enum Waited {
    Deadline,
    Cancelled,
    Failed(CdpError),
}

pub type Pending = Arc<Mutex<HashMap<u64, Sender<Value>>>>;
pub type Sessions = Arc<Mutex<HashMap<String, Sender<Value>>>>;

/// The DevTools connection: commands out on one pipe, answers and events in
/// on the other, sorted by a reader thread.
pub struct Connection {
    out: Mutex<File>,
    next_id: AtomicU64,
    pending: Pending,
    pub sessions: Sessions,
}

impl Connection {
    /// A connection writing to `out`; the reader thread fills `pending` and
    /// `sessions` (see [`read_messages`]).
    pub fn new(out: File, pending: Pending, sessions: Sessions) -> Self {
        Self {
            out: Mutex::new(out),
            next_id: AtomicU64::new(1),
            pending,
            sessions,
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

/// Reads NUL-separated messages until the pipe closes.
pub fn read_messages(mut input: File, pending: &Pending, sessions: &Sessions) {
    let mut buffer = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        buffer.extend_from_slice(&chunk[..n]);
        while let Some(end) = buffer.iter().position(|b| *b == 0) {
            let raw: Vec<u8> = buffer.drain(..=end).collect();
            let Ok(message) = serde_json::from_slice::<Value>(&raw[..raw.len() - 1]) else {
                continue;
            };
            if let Some(id) = message.get("id").and_then(Value::as_u64) {
                if let Some(tx) = pending.lock().ok().and_then(|mut p| p.remove(&id)) {
                    let _ = tx.send(message);
                }
            } else if let Some(session) = message.get("sessionId").and_then(Value::as_str)
                && let Some(tx) = sessions.lock().ok().and_then(|s| s.get(session).cloned())
            {
                let _ = tx.send(message);
            }
        }
    }
    // Closing every waiting channel tells callers the browser is gone.
    if let Ok(mut p) = pending.lock() {
        p.clear();
    }
    if let Ok(mut s) = sessions.lock() {
        s.clear();
    }
}
