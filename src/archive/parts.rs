//! A capture file as the record streams it holds: a WARC or an ARC is one,
//! a WACZ package one per WARC inside it. Every command reads records
//! through here, so a WARC inside a package is read as a WARC file is,
//! without a temporary copy.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use url::Url;

use super::wacz::{WaczPage, WaczWarning};
use super::{ArchiveError, Input, Record, RecordReader};

/// Where a part's bytes come from.
pub trait PartOpener: Send + Sync {
    /// A fresh input over the part's bytes, and how many there are.
    fn open(&self) -> std::io::Result<(Input, u64)>;
}

/// One record stream of a capture.
#[derive(Clone)]
pub struct Part {
    /// How the part is named in reports: the file, or `PACKAGE#ENTRY`.
    label: PathBuf,
    source: Source,
}

#[derive(Clone)]
enum Source {
    File(PathBuf),
    Opener(Arc<dyn PartOpener>),
}

impl std::fmt::Debug for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Part").field("label", &self.label).finish()
    }
}

impl Part {
    /// A WARC or ARC file.
    pub fn file(path: &Path) -> Self {
        Self {
            label: path.to_owned(),
            source: Source::File(path.to_owned()),
        }
    }

    /// A stream inside a package, named `PACKAGE#ENTRY`.
    pub fn entry(package: &Path, entry: &str, opener: Arc<dyn PartOpener>) -> Self {
        let mut label = package.as_os_str().to_owned();
        label.push("#");
        label.push(entry);
        Self {
            label: PathBuf::from(label),
            source: Source::Opener(opener),
        }
    }

    /// How reports name it.
    pub fn label(&self) -> &Path {
        &self.label
    }

    fn read_error(&self, source: std::io::Error) -> ArchiveError {
        ArchiveError::Read {
            path: self.label.clone(),
            source: Arc::new(source),
        }
    }

    /// Its records, read from the start.
    pub fn reader(&self) -> Result<RecordReader, ArchiveError> {
        match &self.source {
            Source::File(path) => RecordReader::open(path),
            Source::Opener(opener) => {
                let (input, len) = opener.open().map_err(|e| self.read_error(e))?;
                RecordReader::open_input(input, len, &self.label)
            }
        }
    }

    /// The record at `offset` (see [`RecordReader::record_at`]).
    pub fn record_at(
        &self,
        offset: u64,
        nth: usize,
        max_block: usize,
    ) -> Result<Record, ArchiveError> {
        match &self.source {
            Source::File(path) => RecordReader::record_at(path, offset, nth, max_block),
            Source::Opener(opener) => {
                let (input, len) = opener.open().map_err(|e| self.read_error(e))?;
                RecordReader::record_in(input, len, &self.label, offset, nth, max_block)
            }
        }
    }
}

/// Finds where a URL's capture is without reading the records.
pub trait UrlIndex: Send + Sync {
    /// The part (a WARC of the package) and the offset of the record that
    /// answers `url`; `None` when the index holds no capture of it; why,
    /// when the index names one that cannot be there.
    fn find(&self, url: &Url) -> Result<Option<(usize, u64)>, String>;
}

/// What a package says besides its records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackageInfo {
    /// The pages its `pages.jsonl` names, in order (the first is where
    /// `inspect` starts).
    pub pages: Vec<WaczPage>,
    /// What was odd about it (hashes, long lines, a nested package).
    pub warnings: Vec<WaczWarning>,
}
