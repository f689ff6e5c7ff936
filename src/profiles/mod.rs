//! Named settings profiles, all in one TOML file per OS user (found by confy).
//!
//! Profiles must never be lost: every change is a read-modify-write of the file
//! under an exclusive lock (so two app instances merge instead of overwriting
//! each other), written to a temporary file and renamed over the old one. A
//! damaged file is kept byte for byte under a timestamped name before anything
//! is written; when only some profiles are damaged, only those are left out and
//! the others load. Keys the inspector does not know are kept and reported.

mod file;
mod store;

use std::path::PathBuf;

use crate::policy::{Settings, SettingsError};

pub use file::{ProfileFile, StoredProfile};
pub use store::{ProfileStore, validate_name};

pub const APP_NAME: &str = "follow-inspector";
const CONFIG_NAME: &str = "profiles";
/// The read-only profile that always equals the scraper's defaults.
pub const BUILT_IN: &str = "Scraper defaults";
/// Environment variable with the same meaning as `--config-dir`.
pub const CONFIG_DIR_ENV: &str = "FOLLOW_INSPECTOR_CONFIG_DIR";

#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("a profile name cannot be empty")]
    EmptyName,
    #[error("a profile name cannot contain control characters or line breaks: “{0}”")]
    ControlCharacters(String),
    #[error("a profile named “{0}” already exists (names are compared ignoring case)")]
    NameTaken(String),
    #[error("no profile named “{0}”")]
    NotFound(String),
    #[error("“{BUILT_IN}” is built in and read-only: save your changes as a new profile")]
    BuiltInReadOnly,
    // The OS error is in the text (the window shows the text alone), so it is
    // not the source as well: `{:#}` showed it twice ("Not a directory (os
    // error 20): Not a directory (os error 20)").
    #[error("{action} {path}: {error}")]
    Io {
        action: &'static str,
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("cannot write {path}: {detail}")]
    Write { path: PathBuf, detail: String },
    #[error("cannot find the configuration directory: {0}")]
    NoConfigDir(String),
    // Not a `#[source]`: the message already says it, and `{:#}` would
    // print it twice.
    #[error("invalid settings: {0}")]
    Settings(SettingsError),
}

impl From<SettingsError> for ProfileError {
    fn from(err: SettingsError) -> Self {
        ProfileError::Settings(err)
    }
}

/// The five storage keys as the scraper stores them (comma strings), as JSON.
pub fn export_json(settings: &Settings) -> String {
    serde_json::to_string_pretty(settings).unwrap_or_default()
}
