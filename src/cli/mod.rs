//! The headless commands: `inspect`, `diff`, `corpus` and `profiles`. Errors
//! carry the exit code SPEC section 7 gives them; `args` is what clap parses,
//! `setup` what the commands run with.

mod args;
mod corpus;
mod inspect;
mod profiles;
mod setup;

use std::path::Path;
use std::process::ExitCode;

pub use args::{Cli, Command};

use crate::copy;
use crate::fetch::local::FileError;
use crate::load::LoadError;

/// A failed command, with its exit code.
#[derive(Debug)]
pub enum Failure {
    /// Bad arguments, an unreadable file or invalid settings: exit 2.
    Usage(anyhow::Error),
    /// The target could not be loaded: exit 3 when fetching failed, else 2.
    Load(LoadError),
}

impl Failure {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::Usage(_) => ExitCode::from(2),
            Failure::Load(LoadError::Fetch(_)) => ExitCode::from(3),
            Failure::Load(_) => ExitCode::from(2),
        }
    }

    /// The error in one line, with what to do about it when its kind says.
    pub fn message(&self) -> String {
        match self {
            Failure::Usage(err) => match err.downcast_ref::<FileError>() {
                Some(file) => format!("{err:#} — {}", copy::file_advice(file, copy::Front::Cli)),
                None => format!("{err:#}"),
            },
            Failure::Load(err) => {
                let text = copy::error_text(err);
                match copy::load_advice(err, copy::Front::Cli) {
                    Some(advice) => format!("{text} — {advice}"),
                    None => text,
                }
            }
        }
    }
}

impl From<LoadError> for Failure {
    fn from(err: LoadError) -> Self {
        Failure::Load(err)
    }
}

/// Runs a headless command.
pub fn run(command: &Command, config_dir: Option<&Path>) -> ExitCode {
    let result = match command {
        Command::Inspect(args) => inspect::run_inspect(args, config_dir),
        Command::Diff(args) => inspect::run_diff(args, config_dir),
        Command::Corpus(args) => corpus::run_corpus(args, config_dir),
        Command::Profiles(command) => profiles::run_profiles(command, config_dir),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {}", failure.message());
            failure.exit_code()
        }
    }
}

/// Standard output for a report, in large writes: a report of 10,000 links is
/// 4 MB of JSON.
fn report_out() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock())
}

/// A closed pipe (`| head`) is not an error worth reporting.
fn finish_writing(written: std::io::Result<()>) -> Result<(), Failure> {
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::Usage(
            anyhow::Error::from(e).context("cannot write the report"),
        )),
        _ => Ok(()),
    }
}
