//! A capture file as the record streams it holds: a WARC or an ARC is one,
//! a WACZ package one per WARC inside it. Every command reads records
//! through here, so a WARC inside a package is read as a WARC file is,
//! without a temporary copy.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::index::UrlIndex;
use super::kind::{self, FileKind};
use super::package::PackageInfo;
use super::wacz::{HashScope, Wacz, WaczWarning};
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

/// A capture file opened: its kind and its record streams; a package's
/// index and what it says besides.
pub struct Capture {
    pub kind: FileKind,
    pub parts: Vec<Part>,
    pub index: Option<Arc<dyn UrlIndex>>,
    pub package: Option<PackageInfo>,
    wacz: Option<Arc<Wacz>>,
}

impl Capture {
    /// A package's WARCs checked against `datapackage.json`'s sha256 (read
    /// whole: a corpus run, which reads them all anyway, asks; opening a
    /// package checks only its small files).
    pub fn check_warc_hashes(&self) -> Vec<WaczWarning> {
        self.wacz
            .as_ref()
            .map(|wacz| wacz.check_hashes(HashScope::Warcs))
            .unwrap_or_default()
    }
}

/// Opens the capture at `path`, its kind told from its first bytes.
pub fn open_capture(path: &Path) -> Result<Capture, ArchiveError> {
    let kind = kind::sniff(path).map_err(|source| ArchiveError::Read {
        path: path.to_owned(),
        source: Arc::new(source),
    })?;
    if kind == FileKind::Zip {
        let package = super::package::open(path)?;
        return Ok(Capture {
            kind,
            parts: package.parts,
            index: package.index,
            package: Some(package.info),
            wacz: Some(package.wacz),
        });
    }
    Ok(Capture {
        kind,
        parts: vec![Part::file(path)],
        index: None,
        package: None,
        wacz: None,
    })
}
