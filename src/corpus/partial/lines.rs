//! The lines of a partial result: one JSON object each, told apart by its
//! only key. A shard writes its header, then each page, each archive's
//! counts, and last its end, which names every unit it judged: a shard cut
//! short has no end, and its units are missing at the merge.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::corpus::truth::KeptLinks;
use crate::corpus::{ArchiveStats, PageRun};
use crate::policy::Settings;

/// The format's name and version in every header: a merge reads only the
/// partial results of its own build.
pub const FORMAT: &str = "follow-inspector partial result";
pub const FORMAT_VERSION: u32 = 1;

/// One line.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Line {
    Header(Header),
    /// Boxed: a page is most of a partial result, and far larger than the rest.
    Page(Box<PageLine>),
    Archive(ArchiveLine),
    End(EndLine),
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub format_version: u32,
    /// The inspector's version that wrote it.
    pub inspector: String,
    pub plan: RunPlan,
}

/// What the whole run is: the same in every shard of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunPlan {
    pub a: Settings,
    pub b: Option<Settings>,
    pub depth: u32,
    pub max_bytes: usize,
    /// With targets: how many suggestions to list.
    pub suggest: usize,
    pub targets: Option<TargetsFile>,
    pub units: Units,
}

/// The units the run is split in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Units {
    /// Saved pages: unit k is the k-th page.
    Pages { count: usize },
    /// Web archives: unit j is the j-th file, as the run reads them.
    Archives { files: Vec<PathBuf> },
}

impl Units {
    pub fn count(&self) -> usize {
        match self {
            Units::Pages { count } => *count,
            Units::Archives { files } => files.len(),
        }
    }
}

/// The targets file as the shards read it, carried whole so that the merge
/// measures against the very same rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetsFile {
    pub path: PathBuf,
    pub bytes: TargetsBytes,
}

/// Text when the file is UTF-8 (the usual case, readable in the line), its
/// bytes otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TargetsBytes {
    Text(String),
    Bytes(Vec<u8>),
}

impl TargetsBytes {
    pub fn of(bytes: Vec<u8>) -> Self {
        String::from_utf8(bytes).map_or_else(|e| Self::Bytes(e.into_bytes()), Self::Text)
    }

    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Self::Text(text) => text.as_bytes(),
            Self::Bytes(bytes) => bytes,
        }
    }
}

/// A page: the `at`-th of its unit (always 0 for a saved page).
#[derive(Debug, Serialize, Deserialize)]
pub struct PageLine {
    pub unit: usize,
    pub at: usize,
    pub run: PageRun,
    /// A labelled page's links, for evaluating and suggesting at the merge.
    pub kept: Option<KeptLinks>,
}

/// An archive's counts of what was not a page, and how many pages it gave.
#[derive(Debug, Serialize, Deserialize)]
pub struct ArchiveLine {
    pub unit: usize,
    pub pages: usize,
    pub stats: ArchiveStats,
}

/// The units a shard judged, in all.
#[derive(Debug, Serialize, Deserialize)]
pub struct EndLine {
    pub units: Vec<usize>,
}
