//! How a command fails: its error and the exit code SPEC section 7 gives it.

use std::process::ExitCode;

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
