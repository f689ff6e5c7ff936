//! What a browser that exits as it starts leaves behind: its exit status and
//! the last line it wrote to stderr ("Running as root without --no-sandbox
//! is not supported", a failed check). Its stderr is read on a thread from
//! the start, so the browser never blocks on a full pipe.

use std::io::{BufRead as _, BufReader, Read as _};
use std::os::unix::process::ExitStatusExt as _;
use std::process::{Child, ChildStderr};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A line is read in pieces of at most this many bytes.
const MAX_LINE: u64 = 4096;
/// The last line is cut to this many characters.
const SHOWN_CHARS: usize = 300;
/// How long an exiting browser gets to finish exiting and writing.
const EXIT_WAIT: Duration = Duration::from_secs(1);

/// The browser's stderr, listened to until it closes.
pub struct LastWords {
    last_line: Arc<Mutex<String>>,
    closed: Receiver<()>,
}

impl LastWords {
    /// Listens to `stderr`; without it (or a thread) nothing is heard.
    pub fn listen(stderr: Option<ChildStderr>) -> Self {
        let last_line = Arc::new(Mutex::new(String::new()));
        let kept = Arc::clone(&last_line);
        let (closing, closed) = mpsc::channel();
        let Some(stderr) = stderr else {
            return Self { last_line, closed };
        };
        let _ = std::thread::Builder::new()
            .name("follow-inspector-browser-stderr".into())
            .spawn(move || {
                let mut reader = BufReader::new(stderr);
                let mut line = Vec::new();
                loop {
                    line.clear();
                    match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    let text = String::from_utf8_lossy(&line);
                    let text = text.trim();
                    if !text.is_empty()
                        && let Ok(mut last) = kept.lock()
                    {
                        *last = text.chars().take(SHOWN_CHARS).collect();
                    }
                }
                let _ = closing.send(());
            });
        Self { last_line, closed }
    }

    /// Why `child` went: "with status 1: <its last line>", or "killed by
    /// signal 9"; waits a moment for it to finish exiting.
    pub fn exit(&self, child: &mut Child) -> String {
        let until = Instant::now() + EXIT_WAIT;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(20)),
                Ok(None) | Err(_) => break None,
            }
        };
        // Its helpers may hold stderr open; what it wrote is read by now
        // or soon.
        let _ = self
            .closed
            .recv_timeout(until.saturating_duration_since(Instant::now()));
        let how = match status {
            Some(status) => match (status.code(), status.signal()) {
                (Some(code), _) => format!("with status {code}"),
                // Nobody here sent it: the kernel's out-of-memory killer, likely.
                (None, Some(libc::SIGKILL)) => "killed by SIGKILL (out of memory?)".to_owned(),
                (None, Some(signal)) => format!("killed by signal {signal}"),
                (None, None) => status.to_string(),
            },
            None => "its pipe closed".to_owned(),
        };
        match self.last_line.lock().map(|l| l.clone()) {
            Ok(line) if !line.is_empty() => format!("{how}: {line}"),
            _ => how,
        }
    }
}
