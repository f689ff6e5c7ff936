//! The lines of a partial result: one JSON object each, told apart by its
//! only key. A shard writes its header, then each page, each archive's
//! counts, and last its end, which names every unit it judged: a shard cut
//! short has no end, and its units are missing at the merge. Every line but
//! the header names the header's plan by its digest, so a line of another
//! run is known even when its own header is not given.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use warcat::digest::{AlgorithmName, Digest, Hasher};

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
    /// Saved pages: unit k is the k-th page; `ids` is the digest of their
    /// ids in order, so two corpora of as many pages are not taken as one.
    Pages { count: usize, ids: String },
    /// Web archives: unit j is the j-th file, as the run reads them.
    Archives {
        #[serde(with = "super::fields::lossy_paths")]
        files: Vec<PathBuf>,
    },
}

impl Units {
    /// The units of saved pages with these ids, in order.
    pub fn pages<'a>(ids: impl ExactSizeIterator<Item = &'a str>) -> Self {
        let count = ids.len();
        let mut hasher = Hasher::new(AlgorithmName::Sha1);
        for id in ids {
            // Each id's length first: no two lists of ids hash alike.
            hasher.update(&(id.len() as u64).to_le_bytes());
            hasher.update(id.as_bytes());
        }
        let ids = Digest::new(AlgorithmName::Sha1, hasher.finish()).to_string();
        Units::Pages { count, ids }
    }

    pub fn count(&self) -> usize {
        match self {
            Units::Pages { count, .. } => *count,
            Units::Archives { files } => files.len(),
        }
    }
}

/// The targets file as the shards read it, carried whole so that the merge
/// measures against the very same rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetsFile {
    #[serde(with = "super::fields::lossy_path")]
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

impl RunPlan {
    /// The plan's digest, which every line of its shards carries.
    pub fn digest(&self) -> String {
        let mut hasher = Hasher::new(AlgorithmName::Sha1);
        // Serialising plain data to memory does not fail; were it to, the
        // digest would be of nothing and the merge would still compare plans.
        hasher.update(&serde_json::to_vec(self).unwrap_or_default());
        Digest::new(AlgorithmName::Sha1, hasher.finish()).to_string()
    }

    /// What differs from `other` first, in the words of the options.
    pub fn difference(&self, other: &RunPlan) -> &'static str {
        if self.a != other.a {
            "settings (A)"
        } else if self.b != other.b {
            "settings compared with (B)"
        } else if self.depth != other.depth {
            "--depth"
        } else if self.max_bytes != other.max_bytes {
            "--max-bytes"
        } else if self.suggest != other.suggest {
            "--suggest"
        } else if self.targets != other.targets {
            "targets file"
        } else {
            "inputs"
        }
    }
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
    /// The digest of the run's plan.
    pub plan: String,
    pub unit: usize,
    pub at: usize,
    pub run: PageRun,
    /// A labelled page's links, for evaluating and suggesting at the merge.
    pub kept: Option<KeptLinks>,
}

/// An archive's counts of what was not a page, and how many pages it gave.
#[derive(Debug, Serialize, Deserialize)]
pub struct ArchiveLine {
    pub plan: String,
    pub unit: usize,
    pub pages: usize,
    pub stats: ArchiveStats,
}

/// The units a shard judged, in all.
#[derive(Debug, Serialize, Deserialize)]
pub struct EndLine {
    pub plan: String,
    pub units: Vec<usize>,
}
