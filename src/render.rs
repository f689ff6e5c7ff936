//! Rendered mode (SPEC 8): pages loaded in headless Chromium, driven over the
//! DevTools protocol on `--remote-debugging-pipe` (NUL-separated JSON on file
//! descriptors 3 and 4). A browser on a pipe exits when the pipe closes, so no
//! browser outlives the inspector, even one killed with SIGKILL.
//!
//! One browser per inspection; every page of a crawl is a new tab in it.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{Read as _, Write as _};
use std::os::fd::{FromRawFd as _, IntoRawFd as _, OwnedFd};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use url::Url;

use crate::fetch::{FetchError, FetchOptions, FetchedPage, Fetcher, HttpFetcher, Resolve};
use crate::inspect::{FetchSummary, Hop};

/// Environment variable with the same meaning as `--browser`.
pub const BROWSER_ENV: &str = "FOLLOW_INSPECTOR_BROWSER";
/// Where Debian's package puts the real binary (the `/usr/bin` wrapper is a
/// script that does not `exec`, so stopping it would leave the browser running).
const BROWSER_PATHS: [&str; 2] = [
    "/usr/lib/chromium/chromium-headless-shell",
    "/usr/lib/chromium/headless_shell",
];
/// How long a page may take (SPEC 8's default); then the DOM is read anyway.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);
/// Rendered pages loaded at once within a crawl level.
pub const DEFAULT_PARALLELISM: usize = 2;
/// How much JavaScript heap a page may use before its renderer is stopped.
const JS_HEAP_MB: u32 = 512;
/// After the wait condition holds, a client-side redirect still gets this long
/// to start (meta refresh and `location.replace` fire right after `load`).
const REDIRECT_GRACE: Duration = Duration::from_millis(300);

/// When the DOM is read (SPEC 8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Wait {
    /// The `load` event.
    Load,
    /// At most 2 requests open for 500 ms (Puppeteer's `networkidle2`).
    #[default]
    Networkidle2,
    /// No request open for 500 ms.
    Networkidle0,
}

impl Wait {
    pub fn id(self) -> &'static str {
        match self {
            Wait::Load => "load",
            Wait::Networkidle2 => "networkidle2",
            Wait::Networkidle0 => "networkidle0",
        }
    }

    /// The Chromium lifecycle event that means the wait is over.
    fn lifecycle_event(self) -> &'static str {
        match self {
            Wait::Load => "load",
            Wait::Networkidle2 => "networkAlmostIdle",
            Wait::Networkidle0 => "networkIdle",
        }
    }
}

/// How to render.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    pub browser: PathBuf,
    pub wait: Wait,
    /// Per page; at the deadline the DOM is read anyway.
    pub timeout: Duration,
    pub user_agent: String,
    pub resolve: Vec<Resolve>,
}

impl RenderOptions {
    /// Rendering in `browser` as `fetch` fetches (its User-Agent and
    /// `--resolve` rules), with SPEC 8's default wait and deadline.
    pub fn new(browser: PathBuf, fetch: &FetchOptions) -> Self {
        Self {
            browser,
            wait: Wait::default(),
            timeout: DEFAULT_TIMEOUT,
            user_agent: fetch.user_agent.clone(),
            resolve: fetch.resolve.clone(),
        }
    }
}

/// What rendering adds to a fetched page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// The served HTML of the final document, for the static side of the
    /// comparison; `None` when the browser no longer had it.
    pub served_html: Option<String>,
    /// The wait condition held before the deadline.
    pub network_idle: bool,
    pub wait: Wait,
    pub render_ms: u64,
}

/// The browser to use: `explicit` (`--browser`), else `FOLLOW_INSPECTOR_BROWSER`,
/// else Debian's chromium-headless-shell.
pub fn find_browser(explicit: Option<&Path>) -> Result<PathBuf, FetchError> {
    let chosen = explicit
        .map(Path::to_path_buf)
        .or_else(|| std::env::var_os(BROWSER_ENV).map(PathBuf::from));
    match chosen {
        Some(path) if path.is_file() => Ok(path),
        Some(path) => Err(FetchError::Browser {
            detail: format!(
                "no browser at {}; {}",
                path.display(),
                crate::copy::NO_BROWSER
            ),
        }),
        None => BROWSER_PATHS
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .ok_or_else(|| FetchError::Browser {
                detail: crate::copy::NO_BROWSER.to_owned(),
            }),
    }
}

/// Why waiting for an answer ended without one.
enum Waited {
    Deadline,
    Cancelled,
    Failed(String),
}

type Pending = Arc<Mutex<HashMap<u64, Sender<Value>>>>;
type Sessions = Arc<Mutex<HashMap<String, Sender<Value>>>>;

/// The DevTools connection: commands out on one pipe, answers and events in
/// on the other, sorted by a reader thread.
struct Connection {
    out: Mutex<File>,
    next_id: AtomicU64,
    pending: Pending,
    sessions: Sessions,
}

impl Connection {
    /// Sends a command without waiting for its answer.
    fn send(&self, method: &str, params: Value, session: Option<&str>) -> Result<(), String> {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        self.write(id, method, params, session)
    }

    fn write(
        &self,
        id: u64,
        method: &str,
        params: Value,
        session: Option<&str>,
    ) -> Result<(), String> {
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = Value::from(session);
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        let mut out = self
            .out
            .lock()
            .map_err(|_| "the browser pipe is poisoned")?;
        out.write_all(&bytes)
            .map_err(|e| format!("cannot talk to the browser: {e}"))
    }

    /// Sends a command and waits for its answer.
    fn call(
        &self,
        method: &str,
        params: Value,
        session: Option<&str>,
        timeout: Duration,
    ) -> Result<Value, String> {
        let never = AtomicBool::new(false);
        self.call_until(method, params, session, Instant::now() + timeout, &never)
            .map_err(|e| match e {
                Waited::Failed(message) => message,
                Waited::Deadline | Waited::Cancelled => {
                    format!("the browser did not answer {method}")
                }
            })
    }

    /// Sends a command and waits for its answer until `deadline`, or until
    /// `cancel` is set (looked at every 100 ms).
    fn call_until(
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
            .map_err(|_| Waited::Failed("the browser connection is poisoned".into()))?
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
                    break Err(Waited::Failed("the browser exited".into()));
                }
            }
        };
        if let Ok(mut pending) = self.pending.lock() {
            pending.remove(&id);
        }
        let answer = answer?;
        match answer.get("error") {
            Some(error) => Err(Waited::Failed(format!(
                "{method}: {}",
                error["message"].as_str().unwrap_or("failed")
            ))),
            None => Ok(answer["result"].clone()),
        }
    }
}

/// Reads NUL-separated messages until the pipe closes.
fn read_messages(mut input: File, pending: &Pending, sessions: &Sessions) {
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

/// A running browser; dropping it stops it.
pub struct Browser {
    child: Child,
    connection: Arc<Connection>,
    opts: RenderOptions,
    profile_dir: PathBuf,
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded, so both descriptors are open and ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

static PROFILE_COUNTER: AtomicU64 = AtomicU64::new(0);

impl Browser {
    pub fn launch(opts: RenderOptions) -> Result<Self, FetchError> {
        let fail = |detail: String| FetchError::Browser { detail };
        let (browser_reads, we_write) = pipe().map_err(|e| fail(format!("pipe: {e}")))?;
        let (we_read, browser_writes) = pipe().map_err(|e| fail(format!("pipe: {e}")))?;
        let profile_dir = std::env::temp_dir().join(format!(
            "follow-inspector-browser-{}-{}",
            std::process::id(),
            PROFILE_COUNTER.fetch_add(1, Ordering::SeqCst)
        ));
        let mut command = Command::new(&opts.browser);
        command
            .arg("--headless")
            .arg("--remote-debugging-pipe")
            .arg("--disable-gpu")
            .arg("--no-first-run")
            .arg("--mute-audio")
            // Only the pages asked for are loaded: no updates, no safe-browsing
            // lists, no metrics (tests and CI must never reach the internet).
            .arg("--disable-background-networking")
            .arg("--disable-component-update")
            .arg("--disable-sync")
            .arg(format!("--user-data-dir={}", profile_dir.display()))
            .arg(format!("--user-agent={}", opts.user_agent))
            .arg(format!("--js-flags=--max-old-space-size={JS_HEAP_MB}"));
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            // Chromium refuses to run as root with its sandbox.
            command.arg("--no-sandbox");
        }
        if !opts.resolve.is_empty() {
            let rules: Vec<String> = opts
                .resolve
                .iter()
                .map(|r| format!("MAP {} {}", r.host, r.addr.ip()))
                .collect();
            command.arg(format!("--host-resolver-rules={}", rules.join(", ")));
        }
        command
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let (reads, writes) = (browser_reads.into_raw_fd(), browser_writes.into_raw_fd());
        // SAFETY: only async-signal-safe calls (fcntl, dup2, close) between
        // fork and exec. The ends are first copied above 10, so placing them on
        // 3 and 4 never overwrites one with the other, and dup2 onto a new
        // number leaves the copy open across exec.
        unsafe {
            command.pre_exec(move || {
                let high_reads = libc::fcntl(reads, libc::F_DUPFD, 10);
                let high_writes = libc::fcntl(writes, libc::F_DUPFD, 10);
                if high_reads < 0
                    || high_writes < 0
                    || libc::dup2(high_reads, 3) < 0
                    || libc::dup2(high_writes, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                libc::close(high_reads);
                libc::close(high_writes);
                Ok(())
            });
        }
        let spawned = command.spawn();
        // SAFETY: the raw descriptors were ours; the child has its copies now.
        unsafe {
            drop(OwnedFd::from_raw_fd(reads));
            drop(OwnedFd::from_raw_fd(writes));
        }
        let child =
            spawned.map_err(|e| fail(format!("cannot start {}: {e}", opts.browser.display())))?;
        let pending: Pending = Arc::default();
        let sessions: Sessions = Arc::default();
        let input = File::from(we_read);
        let (reader_pending, reader_sessions) = (Arc::clone(&pending), Arc::clone(&sessions));
        std::thread::Builder::new()
            .name("follow-inspector-browser".into())
            .spawn(move || read_messages(input, &reader_pending, &reader_sessions))
            .map_err(|e| fail(format!("cannot start the browser reader: {e}")))?;
        let connection = Arc::new(Connection {
            out: Mutex::new(File::from(we_write)),
            next_id: AtomicU64::new(1),
            pending,
            sessions,
        });
        let browser = Self {
            child,
            connection,
            opts,
            profile_dir,
        };
        browser
            .connection
            .call(
                "Browser.getVersion",
                json!({}),
                None,
                Duration::from_secs(20),
            )
            .map_err(|e| fail(format!("the browser did not start: {e}")))?;
        Ok(browser)
    }

    /// Loads `url` in a new tab, waits as asked, and reads the DOM; stops
    /// early with [`FetchError::Cancelled`] when `cancel` is set.
    pub fn render(&self, url: &Url, cancel: &AtomicBool) -> Result<FetchedPage, FetchError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::Scheme {
                url: url.to_string(),
            });
        }
        let started = Instant::now();
        let call_timeout = self.opts.timeout + Duration::from_secs(10);
        let conn = &self.connection;
        let browser_error = |detail: String| FetchError::Browser { detail };
        let target = conn
            .call(
                "Target.createTarget",
                json!({ "url": "about:blank" }),
                None,
                call_timeout,
            )
            .map_err(browser_error)?;
        let target_id = target["targetId"].as_str().unwrap_or_default().to_owned();
        let result = self.render_in(&target_id, url, started, call_timeout, cancel);
        let _ = conn.send("Target.closeTarget", json!({ "targetId": target_id }), None);
        result
    }

    fn render_in(
        &self,
        target_id: &str,
        url: &Url,
        started: Instant,
        call_timeout: Duration,
        cancel: &AtomicBool,
    ) -> Result<FetchedPage, FetchError> {
        let conn = &self.connection;
        let browser_error = |detail: String| FetchError::Browser { detail };
        let attached = conn
            .call(
                "Target.attachToTarget",
                json!({ "targetId": target_id, "flatten": true }),
                None,
                call_timeout,
            )
            .map_err(browser_error)?;
        let session = attached["sessionId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let (tx, events) = mpsc::channel();
        if let Ok(mut sessions) = conn.sessions.lock() {
            sessions.insert(session.clone(), tx);
        }
        let result = (|| {
            for method in ["Page.enable", "Network.enable", "Inspector.enable"] {
                conn.call(method, json!({}), Some(&session), call_timeout)
                    .map_err(browser_error)?;
            }
            conn.call(
                "Page.setLifecycleEventsEnabled",
                json!({ "enabled": true }),
                Some(&session),
                call_timeout,
            )
            .map_err(browser_error)?;
            // Navigate answers once the document's response arrived, which a
            // slow server can delay past the deadline: then there is no document.
            let deadline = started + self.opts.timeout;
            let navigate = conn
                .call_until(
                    "Page.navigate",
                    json!({ "url": url.as_str() }),
                    Some(&session),
                    deadline,
                    cancel,
                )
                .map_err(|waited| match waited {
                    Waited::Deadline => FetchError::Timeout {
                        url: url.to_string(),
                        seconds: self.opts.timeout.as_secs(),
                    },
                    Waited::Cancelled => FetchError::Cancelled,
                    Waited::Failed(detail) => FetchError::Browser { detail },
                })?;
            if let Some(error) = navigate["errorText"].as_str().filter(|e| !e.is_empty()) {
                return Err(FetchError::Navigation {
                    url: url.to_string(),
                    error: error.to_owned(),
                });
            }
            let frame = navigate["frameId"].as_str().unwrap_or_default().to_owned();
            let mut state = PageState::new(frame);
            let network_idle = state.follow(&events, self.opts.wait, deadline, cancel)?;
            if !state.has_document {
                return Err(FetchError::Timeout {
                    url: url.to_string(),
                    seconds: self.opts.timeout.as_secs(),
                });
            }
            let dom = conn
                .call(
                    "Runtime.evaluate",
                    json!({
                        // outerHTML has no doctype: say standards mode again, so
                        // the reader builds the tree the browser built.
                        "expression": "JSON.stringify([location.href, \
                            (document.compatMode === 'CSS1Compat' ? '<!DOCTYPE html>' : '') + \
                            (document.documentElement ? document.documentElement.outerHTML : '')])",
                        "returnByValue": true,
                    }),
                    Some(&session),
                    call_timeout,
                )
                .map_err(browser_error)?;
            let pair: (String, String) =
                serde_json::from_str(dom["result"]["value"].as_str().unwrap_or("[\"\",\"\"]"))
                    .map_err(|e| browser_error(format!("unreadable DOM: {e}")))?;
            let (href, html) = pair;
            let final_url = Url::parse(&href).map_err(|e| FetchError::Navigation {
                url: url.to_string(),
                error: format!("the page ended on `{href}`: {e}"),
            })?;
            let served_html = state.document_request.as_ref().and_then(|request| {
                conn.call(
                    "Network.getResponseBody",
                    json!({ "requestId": request }),
                    Some(&session),
                    call_timeout,
                )
                .ok()
                .and_then(|body| served_text(&body))
            });
            let elapsed_ms = started.elapsed().as_millis() as u64;
            Ok(FetchedPage {
                status: state.status.unwrap_or(200),
                charset: Some("utf-8".to_owned()),
                summary: FetchSummary {
                    redirects: state.hops,
                    content_type: state.content_type,
                    bytes: html.len(),
                    truncated: false,
                    elapsed_ms,
                },
                final_url,
                body: html.into_bytes(),
                rendered: Some(Rendered {
                    served_html,
                    network_idle,
                    wait: self.opts.wait,
                    render_ms: elapsed_ms,
                }),
            })
        })();
        if let Ok(mut sessions) = conn.sessions.lock() {
            sessions.remove(&session);
        }
        result
    }
}

/// The body Chromium kept for the main document, as text.
fn served_text(body: &Value) -> Option<String> {
    let text = body["body"].as_str()?;
    if body["base64Encoded"].as_bool() == Some(true) {
        let bytes = base64_decode(text)?;
        Some(crate::page::decode(&bytes, None, None).text.into_owned())
    } else {
        Some(text.to_owned())
    }
}

fn base64_decode(text: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.decode(text).ok()
}

/// What the events of one tab told so far.
struct PageState {
    main_frame: String,
    /// The loader of the latest main-frame navigation, and the lifecycle
    /// events seen for it.
    loader: Option<String>,
    lifecycle: HashSet<String>,
    document_request: Option<String>,
    document_url: Option<String>,
    status: Option<u16>,
    content_type: Option<String>,
    hops: Vec<Hop>,
    has_document: bool,
}

impl PageState {
    fn new(main_frame: String) -> Self {
        Self {
            main_frame,
            loader: None,
            lifecycle: HashSet::new(),
            document_request: None,
            document_url: None,
            status: None,
            content_type: None,
            hops: Vec::new(),
            has_document: false,
        }
    }

    /// Follows events until the wait holds (then `true`) or the deadline
    /// passes (`false`).
    fn follow(
        &mut self,
        events: &Receiver<Value>,
        wait: Wait,
        deadline: Instant,
        cancel: &AtomicBool,
    ) -> Result<bool, FetchError> {
        let mut settled_at: Option<Instant> = None;
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
                    if settled_at.is_none() && self.lifecycle.contains(wait.lifecycle_event()) {
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
                if name == "init" || loader != self.loader {
                    let new_navigation = self.loader.is_some() && loader != self.loader;
                    self.loader = loader;
                    self.lifecycle.clear();
                    self.lifecycle.insert(name.to_owned());
                    return Ok(new_navigation);
                }
                self.lifecycle.insert(name.to_owned());
            }
            "Network.requestWillBeSent"
                if in_main_frame && params["type"].as_str() == Some("Document") =>
            {
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
                }
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

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile_dir);
    }
}

/// Renders every page it is asked for in one browser (a [`Fetcher`], so a
/// crawl in rendered mode is the same crawl).
pub struct RenderFetcher {
    browser: Browser,
    /// For the served HTML when the browser no longer has it.
    plain: HttpFetcher,
    /// Set by the window's Cancel: the page being rendered stops at once.
    cancel: Arc<AtomicBool>,
}

impl RenderFetcher {
    pub fn launch(
        opts: RenderOptions,
        fetch: FetchOptions,
        cancel: Arc<AtomicBool>,
    ) -> Result<Self, FetchError> {
        Ok(Self {
            browser: Browser::launch(opts)?,
            plain: HttpFetcher::new(fetch)?,
            cancel,
        })
    }
}

impl Fetcher for RenderFetcher {
    fn renders(&self) -> bool {
        true
    }

    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let mut page = self.browser.render(url, &self.cancel)?;
        if let Some(rendered) = page.rendered.as_mut()
            && rendered.served_html.is_none()
        {
            // SPEC 8: else a separate plain fetch of the final URL.
            rendered.served_html = self.plain.fetch(&page.final_url).ok().map(|served| {
                crate::page::decode(&served.body, served.charset.as_deref(), None)
                    .text
                    .into_owned()
            });
        }
        Ok(page)
    }
}
