//! An inspection written as SPEC 10 says: `warcinfo`, the inspection's
//! `metadata`, then per page its request/response pairs, its DOM in rendered
//! mode and its own `metadata`; `.warc.gz` as one gzip member per record.

use std::path::{Path, PathBuf};

use super::ArchiveError;
use crate::inspect::Inspection;

/// What to save.
pub struct SaveRequest<'a> {
    pub inspection: &'a Inspection,
    /// A diff's other side: its pages that `inspection` lacks are saved too.
    pub other: Option<&'a Inspection>,
    /// The profile whose settings the inspection used, if one.
    pub profile: Option<&'a str>,
}

/// What was saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    pub path: PathBuf,
    pub pages: usize,
    pub records: usize,
    pub bytes: u64,
}

/// Writes the archive to `path` (gzip members when it ends `.gz`).
pub fn save(path: &Path, request: &SaveRequest<'_>) -> Result<Saved, ArchiveError> {
    let _ = request;
    Err(ArchiveError::NotWarc {
        path: path.to_owned(),
    })
}
