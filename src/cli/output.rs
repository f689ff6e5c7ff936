//! Where reports are written, and the progress line and the lines of stderr
//! beside them. Nothing else of `cli` prints (`tests/integration/architecture.rs`
//! guards this): every stderr line and every table goes through
//! [`report::Escaped`], so a file name, an archive's error text or a keyword
//! cannot drive the terminal.

use std::io::{IsTerminal as _, Write as _};

use super::failure::Failure;
use crate::report::{self, Escaped};

/// A report goes out in large writes: a report of 10,000 links is 4 MB of
/// JSON.
const REPORT_BUFFER: usize = 1 << 20;

/// Standard output for a report, in large writes.
pub fn report_out() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(REPORT_BUFFER, std::io::stdout().lock())
}

/// Whether standard output is a terminal (a person reading the report as it
/// comes).
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Standard output for a report written from the worker threads as a run
/// goes (a locked stdout stays on its thread).
pub fn shared_report_out() -> std::io::BufWriter<std::io::Stdout> {
    std::io::BufWriter::with_capacity(REPORT_BUFFER, std::io::stdout())
}

/// Standard output for a text report that is not one of `report`'s tables
/// (which escape themselves): every line escaped, its layout kept.
pub fn text_out() -> Escaped<std::io::BufWriter<std::io::StdoutLock<'static>>> {
    Escaped::new(report_out())
}

/// One line on stderr (a warning, a note, the error): its control characters,
/// line breaks and bidi overrides escaped, so it stays one line and shows what
/// it says. A stderr that cannot be written has no one to tell.
pub fn say(line: &str) {
    let mut err = Escaped::new(std::io::stderr().lock());
    let _ = writeln!(err, "{}", report::escape(line, false));
    let _ = err.flush();
}

/// A closed pipe (`| head`) is not an error worth reporting.
pub fn finish_writing(written: std::io::Result<()>) -> Result<(), Failure> {
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::Usage(
            anyhow::Error::from(e).context("cannot write the report"),
        )),
        _ => Ok(()),
    }
}

/// The one line of stderr that shows progress, redrawn in place; shown only
/// when stderr is a terminal, so a pipe or a log gets the warnings alone.
#[derive(Clone, Copy)]
pub struct StatusLine {
    interactive: bool,
}

impl StatusLine {
    pub fn on_stderr() -> Self {
        Self {
            interactive: std::io::stderr().is_terminal(),
        }
    }

    pub fn show(self, text: &str) {
        if self.interactive {
            // The clear is ours; the text is escaped as every stderr line is.
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K{}", report::escape(text, false));
            let _ = err.flush();
        }
    }

    /// Before the lines that stay: warnings, an error, the report.
    pub fn clear(self) {
        if self.interactive {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}
