//! Where reports are written, and the progress line beside them.

use std::io::IsTerminal as _;

use super::failure::Failure;

/// Standard output for a report, in large writes: a report of 10,000 links is
/// 4 MB of JSON.
pub fn report_out() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock())
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
            eprint!("\r\x1b[2K{text}");
        }
    }

    /// Before the lines that stay: warnings, an error, the report.
    pub fn clear(self) {
        if self.interactive {
            eprint!("\r\x1b[2K");
        }
    }
}
