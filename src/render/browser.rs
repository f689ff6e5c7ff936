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
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use url::Url;

use super::cdp::{Connection, Pending, Sessions, Waited, read_messages};
use super::options::RenderOptions;
use super::page_state::PageState;
use crate::fetch::{FetchError, FetchSummary, FetchedPage, Rendered};

/// How much JavaScript heap a page may use before its renderer is stopped.
const JS_HEAP_MB: u32 = 512;
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
        let connection = Arc::new(Connection::new(File::from(we_write), pending, sessions));
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
        if let Ok(mut sessions) = conn.sessions.lock() {
            sessions.insert(session.clone(), tx);
        }
        let result = (|| {
            for method in ["Page.enable", "Network.enable", "Inspector.enable"] {
                conn.call(method, json!({}), Some(&session), call_timeout)
                    .map_err(FetchError::from)?;
            }
            conn.call(
                "Page.setLifecycleEventsEnabled",
                json!({ "enabled": true }),
                Some(&session),
                call_timeout,
            )
            .map_err(FetchError::from)?;
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
                    Waited::Failed(err) => FetchError::from(err),
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
                .map_err(FetchError::from)?;
            let pair: (String, String) =
                serde_json::from_str(dom["result"]["value"].as_str().unwrap_or("[\"\",\"\"]"))
                    .map_err(|e| FetchError::Browser {
                        detail: format!("unreadable DOM: {e}"),
                    })?;
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

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile_dir);
    }
}
