//! Where reports are written.

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
