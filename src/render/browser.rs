//! Launching headless Chromium on a DevTools pipe, loading a page in a new
//! tab and reading its DOM; dropping the browser stops it.

use std::fs::File;
use std::os::fd::{FromRawFd as _, IntoRawFd as _, OwnedFd};
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Value, json};
use url::Url;

use super::cdp::{CdpError, Connection, TabGuard, Waited, pause_every_request, read_messages};
use super::last_words::LastWords;
use super::options::{READ_GRACE, RenderOptions};
use super::page_state::PageState;
use super::profile;
use super::replay::{TabReplay, steady_clock};
use super::resources::{Resources, protocol_version};
use crate::fetch::{
    Capture, Exchange, FetchError, FetchSummary, FetchedPage, LeftOut, PrivateNetwork, Rendered,
    ReplaySource,
};

/// How much JavaScript heap a page may use before its renderer is stopped.
const JS_HEAP_MB: u32 = 512;
/// One DevTools message may be this many times `--max-bytes` (the largest
/// real one carries the DOM, cut at `--max-bytes` characters), plus a little.
const MESSAGE_FACTOR: usize = 4;
const MESSAGE_SLACK: usize = 1 << 20;
/// An element with more attributes is read with only those the reader uses
/// (the HTML tokenizer checks each attribute against all before it, so
/// 200,000 on one element would take minutes).
const MAX_ATTRIBUTES: usize = 512;
/// How many times a DOM read that failed goes back to following the page
/// (a document replaced while it was read).
const MAX_REREADS: u32 = 3;
/// How long a page's scripts get to answer a probe: when they do not, they
/// are still running (a loop that never yields).
const PROBE: Duration = Duration::from_millis(300);
/// A page's capture keeps its other responses up to this many times
/// `--max-bytes` (40 MiB by default); the rest are counted, not kept. A
/// DevTools message is bounded by the same multiple (`MESSAGE_FACTOR`), so
/// no one body the browser can give is refused by the cap alone.
pub const KEEP_FACTOR: usize = MESSAGE_FACTOR;

/// A running browser; dropping it stops it.
pub struct Browser {
    child: Child,
    connection: Arc<Connection>,
    opts: RenderOptions,
    profile_dir: PathBuf,
    /// Set when every request is answered from a capture (SPEC 12).
    replay: Option<Arc<dyn ReplaySource>>,
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
    /// Starts the browser; with `replay`, every request of its pages is
    /// answered from that capture, and the browser itself has no way out:
    /// no host name resolves and every connection goes to a proxy that is
    /// not there (a WebSocket or a service worker is not paused by `Fetch`).
    pub fn launch(
        opts: RenderOptions,
        replay: Option<Arc<dyn ReplaySource>>,
    ) -> Result<Self, FetchError> {
        let fail = |detail: String| FetchError::Browser { detail };
        profile::set_up();
        let (browser_reads, we_write) = pipe().map_err(|e| fail(format!("pipe: {e}")))?;
        let (we_read, browser_writes) = pipe().map_err(|e| fail(format!("pipe: {e}")))?;
        let profile_dir = profile::new_dir(PROFILE_COUNTER.fetch_add(1, Ordering::SeqCst));
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
            // Frames of other sites stay in the page's renderer, so the tab's
            // request guard sees their requests too.
            .arg("--disable-site-isolation-trials")
            .arg("--disable-features=IsolateOrigins,site-per-process")
            .arg(format!("--user-data-dir={}", profile_dir.display()))
            .arg(format!("--user-agent={}", opts.user_agent))
            .arg(format!("--js-flags=--max-old-space-size={JS_HEAP_MB}"));
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            // Chromium refuses to run as root with its sandbox.
            command.arg("--no-sandbox");
        }
        if replay.is_some() {
            command
                .arg("--host-resolver-rules=MAP * ~NOTFOUND")
                // Port 9 (discard) on loopback: refused, and no fallback to
                // a direct connection is made for a proxy given this way.
                .arg("--proxy-server=http://127.0.0.1:9")
                .arg("--proxy-bypass-list=<-loopback>")
                // WebRTC sends UDP past any proxy (a STUN request to a
                // server's address: 3 datagrams reached the test's tripwire
                // without this): only proxied connections, so none.
                .arg("--force-webrtc-ip-handling-policy=disable_non_proxied_udp");
        } else if !opts.resolve.is_empty() {
            let rules: Vec<String> = opts
                .resolve
                .iter()
                // Chromium matches a rule's `host:port` pattern against the
                // request's host and port; the port left as it was is ours.
                .map(|r| format!("MAP {}:{} {}", r.host, r.addr.port(), r.addr.ip()))
                .collect();
            command.arg(format!("--host-resolver-rules={}", rules.join(", ")));
        }
        command
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let (reads, writes) = (browser_reads.into_raw_fd(), browser_writes.into_raw_fd());
        // SAFETY: only async-signal-safe calls (setpgid, fcntl, dup2, close)
        // between fork and exec. The ends are first copied above 10, so
        // placing them on 3 and 4 never overwrites one with the other, and
        // dup2 onto a new number leaves the copy open across exec. Its own
        // process group lets us stop every process of the browser at once.
        unsafe {
            command.pre_exec(move || {
                if libc::setpgid(0, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
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
        let mut child =
            spawned.map_err(|e| fail(format!("cannot start {}: {e}", opts.browser.display())))?;
        profile::track(child.id() as i32, &profile_dir);
        let last_words = LastWords::listen(child.stderr.take());
        let max_message = opts
            .max_bytes
            .saturating_mul(MESSAGE_FACTOR)
            .saturating_add(MESSAGE_SLACK);
        let connection = Arc::new(Connection::new(File::from(we_write), max_message));
        let mut browser = Self {
            child,
            connection: Arc::clone(&connection),
            opts,
            profile_dir,
            replay,
        };
        let input = File::from(we_read);
        std::thread::Builder::new()
            .name("follow-inspector-browser".into())
            .spawn(move || read_messages(input, &connection))
            .map_err(|e| fail(format!("cannot start the browser reader: {e}")))?;
        // A browser that never speaks gets the page deadline, not more.
        let timeout = browser.opts.timeout;
        let answer = browser
            .connection
            .call("Browser.getVersion", json!({}), None, timeout);
        match answer {
            Ok(_) => Ok(browser),
            Err(_) if browser.connection.oversized.load(Ordering::SeqCst) => Err(fail(format!(
                "the browser did not start: it sent a DevTools message over \
                 {max_message} bytes ({MESSAGE_FACTOR} × --max-bytes)"
            ))),
            // A quick exit closes the pipe before the question is written.
            Err(CdpError::Exited) | Err(CdpError::Write(_)) => Err(fail(format!(
                "the browser exited as it started, {}",
                last_words.exit(&mut browser.child)
            ))),
            Err(e) => Err(fail(format!(
                "the browser did not start within {} s (--render-timeout): {e}",
                timeout.as_secs_f64()
            ))),
        }
    }

    /// The page deadline.
    pub fn timeout(&self) -> Duration {
        self.opts.timeout
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
        let target = conn
            .call(
                "Target.createTarget",
                json!({ "url": "about:blank" }),
                None,
                call_timeout,
            )
            .map_err(FetchError::from)?;
        let target_id = target["targetId"].as_str().unwrap_or_default().to_owned();
        let result = self.render_in(&target_id, url, started, call_timeout, cancel);
        let _ = conn.send("Target.closeTarget", json!({ "targetId": target_id }), None);
        profile::hold_if_signalled();
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
        let attached = conn
            .call(
                "Target.attachToTarget",
                json!({ "targetId": target_id, "flatten": true }),
                None,
                call_timeout,
            )
            .map_err(FetchError::from)?;
        let session = attached["sessionId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let (tx, events) = mpsc::channel();
        let replay = match &self.replay {
            Some(source) => Some(
                TabReplay::start(Arc::clone(conn), Arc::clone(source)).map_err(|e| {
                    FetchError::Browser {
                        detail: format!("cannot start the replay: {e}"),
                    }
                })?,
            ),
            None => None,
        };
        let guard = Arc::new(TabGuard {
            network: PrivateNetwork::for_start(
                url,
                &self.opts.resolve,
                self.opts.allow_private_network,
            ),
            replay: replay.as_ref().map(|r| r.paused.clone()),
            pauses: self.replay.is_some() || !self.opts.allow_private_network,
            ..TabGuard::default()
        });
        conn.attach(&session, tx, Arc::clone(&guard));
        let result = (|| {
            // The tab's set-up: each call answered before the next.
            let tab = |method: &str, params: Value| {
                conn.call(method, params, Some(&session), call_timeout)
                    .map_err(FetchError::from)
            };
            for method in ["Page.enable", "Network.enable", "Inspector.enable"] {
                tab(method, json!({}))?;
            }
            // A dedicated worker's requests are its own target's: each is
            // attached as it starts and held until they are seen (and
            // paused, as the tab's are), by the reader thread
            // (`Target.attachedToTarget`).
            tab(
                "Target.setAutoAttach",
                json!({ "autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true }),
            )?;
            if let Some(source) = &self.replay {
                // A service worker's requests are not the tab's to pause.
                tab("Network.setBypassServiceWorker", json!({ "bypass": true }))?;
                tab(
                    "Page.addScriptToEvaluateOnNewDocument",
                    json!({ "source": steady_clock(url, source.captured_at(url)) }),
                )?;
            }
            if guard.pauses {
                // Every request of the tab waits for the reader's verdict.
                tab("Fetch.enable", pause_every_request())?;
            }
            tab("Page.setLifecycleEventsEnabled", json!({ "enabled": true }))?;
            // Navigate answers once the document's response arrived, which a
            // slow server can delay past the deadline: then there is no document.
            let deadline = started + self.opts.timeout;
            let timeout = || FetchError::Timeout {
                url: url.to_string(),
                seconds: self.opts.timeout.as_secs(),
            };
            let navigate = conn
                .call_until(
                    "Page.navigate",
                    json!({ "url": url.as_str() }),
                    Some(&session),
                    deadline,
                    cancel,
                )
                .map_err(|waited| match waited {
                    Waited::Deadline => timeout(),
                    Waited::Cancelled => FetchError::Cancelled,
                    Waited::Failed(err) => FetchError::from(err),
                })?;
            if let Some(error) = navigate["errorText"].as_str().filter(|e| !e.is_empty()) {
                return Err(FetchError::Navigation {
                    url: url.to_string(),
                    error: error.to_owned(),
                });
            }
            let frame = navigate["frameId"].as_str().unwrap_or_default().to_owned();
            let mut state = PageState::new(frame.clone());
            if self.opts.keep_resources {
                state.resources = Some(Resources::new(frame.clone(), self.opts.capture_all));
            }
            let mut rereads = 0;
            let (network_idle, scripts, read_by, dom) = loop {
                let network_idle = state.follow(&events, self.opts.wait, deadline, cancel)?;
                if !state.has_document {
                    return Err(timeout());
                }
                // Reading the page gets a little time past the deadline, no
                // more: stopping scripts, then the DOM, then the served HTML.
                let read_by = Instant::now().max(deadline) + READ_GRACE * 3 / 4;
                // Half of it for stopping scripts: the other half may go to
                // the served HTML when they do not stop.
                let stop_by = Instant::now().max(deadline) + READ_GRACE * 3 / 8;
                let scripts = self.stop_busy_scripts(&session, deadline, stop_by, cancel)?;
                let dom = match scripts {
                    Scripts::Unstoppable => None,
                    _ => match self.read_dom(&session, &frame, read_by) {
                        // A navigation that started after the redirect grace
                        // (a slow machine) replaced the document being read:
                        // follow it, as the browser does.
                        Err(_) if rereads < MAX_REREADS && Instant::now() < deadline => {
                            rereads += 1;
                            continue;
                        }
                        read => read?,
                    },
                };
                break (network_idle, scripts, read_by, dom);
            };
            let scripts_stopped = scripts != Scripts::Idle;
            let dom_read = dom.is_some();
            // The page does not answer (Chromium runs no DevTools command
            // during a long `document.write`) or not in time: the fetcher
            // reads the served HTML instead, and the page says so.
            let dom = dom.unwrap_or_else(|| Dom {
                href: state
                    .document_url
                    .clone()
                    .unwrap_or_else(|| url.to_string()),
                html: String::new(),
                truncated: false,
            });
            let final_url = Url::parse(&dom.href).map_err(|e| FetchError::Navigation {
                url: url.to_string(),
                error: format!("the page ended on `{}`: {e}", dom.href),
            })?;
            // Only the final document's own HTML compares with its DOM.
            let same_document = state
                .document_url
                .as_deref()
                .and_then(|u| Url::parse(u).ok())
                .is_some_and(|u| same_document(&u, &final_url));
            let served_html = state
                .document_request
                .as_ref()
                .filter(|_| same_document && dom_read)
                .and_then(|request| {
                    let never = AtomicBool::new(false);
                    conn.call_until(
                        "Network.getResponseBody",
                        json!({ "requestId": request }),
                        Some(&session),
                        read_by,
                        &never,
                    )
                    .ok()
                    .and_then(|body| served_text(&body))
                });
            // What the page loaded, for its capture: the events that came
            // in while the DOM was read first.
            while let Ok(event) = events.try_recv() {
                if let Some(resources) = state.resources.as_mut() {
                    resources.apply(&event);
                }
            }
            let (resources, left_out) = match state.resources.as_mut() {
                Some(seen) => self.keep_resources(&session, seen),
                None => (Vec::new(), LeftOut::default()),
            };
            let elapsed_ms = started.elapsed().as_millis() as u64;
            let mut capture = wire_capture(&state, url);
            capture.resources = resources;
            capture.left_out = left_out;
            Ok(FetchedPage {
                status: state.status.unwrap_or(200),
                charset: Some("utf-8".to_owned()),
                summary: FetchSummary {
                    redirects: state.hops,
                    content_type: state.content_type,
                    bytes: dom.html.len(),
                    truncated: dom.truncated,
                    elapsed_ms,
                },
                final_url,
                body: dom.html.into_bytes(),
                capture: Some(Arc::new(capture)),
                rendered: Some(Rendered {
                    served_html,
                    network_idle: network_idle && !scripts_stopped,
                    wait: self.opts.wait,
                    render_ms: elapsed_ms,
                    dialogs: guard.dialogs.load(Ordering::SeqCst),
                    scripts_stopped,
                    dom_read,
                    blocked_requests: guard.blocked.load(Ordering::SeqCst),
                    replay: replay.as_ref().map(TabReplay::counts),
                }),
            })
        })();
        conn.detach(&session);
        result
    }

    /// The page's other responses with their bodies, as the browser holds
    /// them, within [`READ_GRACE`] and the page's cap on bytes kept
    /// ([`KEEP_FACTOR`] × `--max-bytes`); what is not kept, counted.
    fn keep_resources(&self, session: &str, seen: &mut Resources) -> (Vec<Exchange>, LeftOut) {
        let (mut kept, finished) = seen.take();
        let mut left_out = seen.left_out;
        let cap = self.opts.max_bytes.saturating_mul(KEEP_FACTOR);
        let mut bytes: usize = 0;
        let keep_by = Instant::now() + READ_GRACE;
        let never = AtomicBool::new(false);
        for one in finished {
            if bytes >= cap {
                left_out.over_cap += 1;
                continue;
            }
            let body = if Instant::now() < keep_by {
                self.connection
                    .call_until(
                        "Network.getResponseBody",
                        json!({ "requestId": one.request_id }),
                        Some(one.session.as_deref().unwrap_or(session)),
                        keep_by,
                        &never,
                    )
                    .ok()
            } else {
                None
            };
            let Some(body) = body else {
                left_out.unread += 1;
                continue;
            };
            let mut exchange = one.exchange;
            let Some((bytes_of, as_text)) = response_body(&body) else {
                left_out.unread += 1;
                continue;
            };
            if bytes.saturating_add(bytes_of.len()) > cap {
                left_out.over_cap += 1;
                continue;
            }
            bytes += bytes_of.len();
            if as_text {
                // DevTools gives a text body decoded: kept as UTF-8, and said so.
                say_utf8(&mut exchange.response_headers);
            }
            exchange.body = bytes_of;
            exchange.body_unread = false;
            kept.push(exchange);
        }
        (kept, left_out)
    }

    /// Whether the page answers a trivial evaluation by `until` (a refusal
    /// is an answer too); an error when the browser is gone.
    fn answers(&self, session: &str, until: Instant) -> Result<bool, FetchError> {
        let never = AtomicBool::new(false);
        match self.connection.call_until(
            "Runtime.evaluate",
            json!({ "expression": "1", "returnByValue": true }),
            Some(session),
            until,
            &never,
        ) {
            Ok(_) | Err(Waited::Failed(CdpError::Refused { .. })) => Ok(true),
            Err(Waited::Deadline | Waited::Cancelled) => Ok(false),
            Err(Waited::Failed(err)) => Err(err.into()),
        }
    }

    /// Lets a busy script run until `deadline`, then stops it (and every
    /// script after it) so the DOM can be read.
    fn stop_busy_scripts(
        &self,
        session: &str,
        deadline: Instant,
        stop_by: Instant,
        cancel: &AtomicBool,
    ) -> Result<Scripts, FetchError> {
        loop {
            if self.answers(session, Instant::now() + PROBE)? {
                return Ok(Scripts::Idle);
            }
            if cancel.load(Ordering::SeqCst) {
                return Err(FetchError::Cancelled);
            }
            if Instant::now() >= deadline {
                break;
            }
        }
        let conn = &self.connection;
        // Terminating ends the running script only: the parser would start
        // the next one, so scripts are turned off too (both are run by the
        // renderer even while a script runs).
        while Instant::now() < stop_by {
            for (method, params) in [
                (
                    "Emulation.setScriptExecutionDisabled",
                    json!({ "value": true }),
                ),
                ("Runtime.terminateExecution", json!({})),
            ] {
                conn.send(method, params, Some(session))
                    .map_err(FetchError::from)?;
            }
            if self.answers(session, (Instant::now() + PROBE).min(stop_by))? {
                return Ok(Scripts::Stopped);
            }
        }
        Ok(Scripts::Unstoppable)
    }

    /// `location.href` and the DOM, cut at `--max-bytes` characters; `None`
    /// when the page does not give it by `read_by`.
    fn read_dom(
        &self,
        session: &str,
        frame: &str,
        read_by: Instant,
    ) -> Result<Option<Dom>, FetchError> {
        let never = AtomicBool::new(false);
        let max = self.opts.max_bytes;
        // The read runs in a world of its own: the page's scripts share the
        // DOM with it, not the globals, so a page that replaces
        // `document.querySelectorAll` or `Array.prototype` cannot break it.
        let world = match self.connection.call_until(
            "Page.createIsolatedWorld",
            json!({ "frameId": frame, "worldName": "follow-inspector-read" }),
            Some(session),
            read_by,
            &never,
        ) {
            Ok(world) => world["executionContextId"].clone(),
            Err(Waited::Failed(err)) => return Err(err.into()),
            Err(Waited::Deadline | Waited::Cancelled) => return Ok(None),
        };
        let answer = self
            .connection
            .call_until(
                "Runtime.evaluate",
                json!({
                    "contextId": world,
                    // outerHTML has no doctype: say standards mode again, so
                    // the reader builds the tree the browser built.
                    "expression": format!("(() => {{ \
                        for (const el of document.querySelectorAll('*')) {{ \
                            if (el.attributes.length <= {MAX_ATTRIBUTES}) continue; \
                            const copy = document.createElement(el.tagName); \
                            for (const name of ['id', 'class', 'href', 'rel', 'role']) \
                                if (el.hasAttribute(name)) copy.setAttribute(name, el.getAttribute(name)); \
                            copy.append(...el.childNodes); \
                            el.replaceWith(copy); \
                        }} \
                        const html = (document.compatMode === 'CSS1Compat' ? '<!DOCTYPE html>' : '') + \
                            (document.documentElement ? document.documentElement.outerHTML : ''); \
                        return [location.href, html.slice(0, {max}), html.length > {max}]; }})()"),
                    "returnByValue": true,
                }),
                Some(session),
                read_by,
                &never,
            )
            ;
        let answer = match answer {
            Ok(answer) => answer,
            Err(Waited::Failed(err)) => return Err(err.into()),
            Err(Waited::Deadline | Waited::Cancelled) => return Ok(None),
        };
        let (href, html, truncated): (String, String, bool) =
            serde_json::from_value(answer["result"]["value"].clone()).map_err(|e| {
                FetchError::Browser {
                    detail: format!("unreadable DOM: {e}"),
                }
            })?;
        Ok(Some(Dom {
            href,
            html,
            truncated,
        }))
    }
}

/// What the page's scripts were doing when the DOM was to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scripts {
    Idle,
    /// Still running at the deadline; stopped.
    Stopped,
    /// Still running, and the page did not answer after being told to stop.
    Unstoppable,
}

/// What the DOM read gives.
struct Dom {
    href: String,
    html: String,
    /// Cut at `--max-bytes` characters.
    truncated: bool,
}

/// The browser's hops as the archive keeps them: each redirect (HTTP or by
/// script) and the document's response, whose body (the served HTML) the
/// fetcher adds once it has it.
fn wire_capture(state: &PageState, url: &Url) -> Capture {
    let at = SystemTime::now();
    let exchange = |url: &Url, status: u16, headers: Vec<(String, String)>| Exchange {
        url: url.clone(),
        method: "GET".to_owned(),
        request_headers: Vec::new(),
        version: "HTTP/1.1".to_owned(),
        status,
        reason: String::new(),
        response_headers: headers,
        body: Vec::new(),
        truncated: false,
        // The browser does not give other documents' bodies.
        body_unread: true,
        ip: None,
        at,
    };
    let document = state
        .document_url
        .as_deref()
        .and_then(|u| Url::parse(u).ok())
        .unwrap_or_else(|| url.clone());
    let mut exchanges: Vec<Exchange> = state
        .hops
        .iter()
        .enumerate()
        .map(|(i, hop)| {
            let next = state.hops.get(i + 1).map_or(&document, |h| &h.url);
            let location = (300..400)
                .contains(&hop.status)
                .then(|| ("Location".to_owned(), next.to_string()));
            exchange(&hop.url, hop.status, location.into_iter().collect())
        })
        .collect();
    let mut main = exchange(
        &document,
        state.status.unwrap_or(200),
        state.document_headers.clone(),
    );
    if let Some(protocol) = state.document_protocol.as_deref() {
        main.version = protocol_version(Some(protocol));
    }
    main.ip = state
        .document_ip
        .as_deref()
        .and_then(|ip| ip.trim_matches(['[', ']']).parse().ok());
    exchanges.push(main);
    Capture {
        exchanges,
        ..Capture::default()
    }
}

/// A body as `Network.getResponseBody` gives it, and whether it came as
/// text (which DevTools gives decoded, whatever its charset was).
fn response_body(body: &Value) -> Option<(Vec<u8>, bool)> {
    let text = body["body"].as_str()?;
    if body["base64Encoded"].as_bool() == Some(true) {
        Some((base64_decode(text)?, false))
    } else {
        Some((text.as_bytes().to_vec(), true))
    }
}

/// Says in the `Content-Type` that a body is UTF-8 (a text body is kept as
/// DevTools gives it, decoded): a script or a stylesheet replayed from it is
/// then read as the browser read it, whatever its served charset.
fn say_utf8(headers: &mut [(String, String)]) {
    for (name, value) in headers.iter_mut() {
        if !name.eq_ignore_ascii_case("content-type") {
            continue;
        }
        let mime = value.split(';').next().unwrap_or_default().trim();
        let rest: Vec<&str> = value
            .split(';')
            .skip(1)
            .map(str::trim)
            .filter(|p| !p.to_ascii_lowercase().starts_with("charset="))
            .collect();
        let mut new = format!("{mime}; charset=utf-8");
        for p in rest {
            new.push_str("; ");
            new.push_str(p);
        }
        *value = new;
    }
}

/// Whether two URLs name one document (the fragment does not count).
pub fn same_document(a: &Url, b: &Url) -> bool {
    let (mut a, mut b) = (a.clone(), b.clone());
    a.set_fragment(None);
    b.set_fragment(None);
    a == b
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

impl Drop for Browser {
    fn drop(&mut self) {
        profile::hold_if_signalled();
        // Its renderers and helpers write to the profile until they exit.
        let child = &mut self.child;
        profile::stop(child.id() as i32, &self.profile_dir, || {
            let _ = child.kill();
            let _ = child.wait();
        });
    }
}
