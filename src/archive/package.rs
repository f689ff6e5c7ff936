//! A WACZ package read as a capture: its WARCs are the parts, read in place
//! (no temporary copy), and its index finds a URL's record.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use url::Url;

use super::index::UrlIndex;
use super::parts::{Part, PartOpener};
use super::wacz::{EntryInput, Wacz, WaczEntry, WaczPage, WaczWarning};
use super::{ArchiveError, Input, RecordInput};

impl RecordInput for EntryInput {}

/// A WARC entry of a package, opened afresh for each reader.
struct EntryOpener {
    wacz: Arc<Wacz>,
    entry: WaczEntry,
}

impl PartOpener for EntryOpener {
    fn open(&self) -> std::io::Result<(Input, u64)> {
        let input = self.wacz.open_entry(&self.entry)?;
        let len = input.len();
        Ok((Box::new(input), len))
    }
}

/// The package's index, answering with the part and offset of a record.
struct PackageIndex {
    wacz: Arc<Wacz>,
    part_of: HashMap<String, usize>,
}

impl UrlIndex for PackageIndex {
    fn find(&self, url: &Url) -> Result<Option<(usize, u64)>, String> {
        let hit = self.wacz.lookup(url).map_err(|e| e.to_string())?;
        Ok(hit.and_then(|hit| Some((*self.part_of.get(&hit.warc)?, hit.offset))))
    }
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

/// A package opened: its parts, its index when it has one, what it says.
pub(super) struct Package {
    pub parts: Vec<Part>,
    pub index: Option<Arc<dyn UrlIndex>>,
    pub info: PackageInfo,
    pub wacz: Arc<Wacz>,
}

/// The stable id of a package warning in a corpus report's
/// `archives.warnings` (`kind`).
pub fn warning_id(warning: &WaczWarning) -> &'static str {
    match warning {
        WaczWarning::Nested { .. } => "package_nested",
        WaczWarning::LongLines { .. } => "package_long_lines",
        WaczWarning::BadLines { .. } => "package_bad_lines",
        WaczWarning::OverCap { .. } => "package_over_cap",
        WaczWarning::StoppedAt { .. } => "package_stopped",
        WaczWarning::Unreadable { .. } => "package_unreadable_file",
        WaczWarning::NoPages => "package_no_pages",
        WaczWarning::NoIndex => "package_no_index",
        WaczWarning::IndexMissingWarc { .. } => "package_index_missing_warc",
        WaczWarning::IndexPastEnd { .. } => "package_index_past_end",
        WaczWarning::NoDatapackage => "package_no_datapackage",
        WaczWarning::BadDatapackage { .. } => "package_bad_datapackage",
        WaczWarning::HashMismatch { .. } => "package_hash_mismatch",
        WaczWarning::SizeMismatch { .. } => "package_size_mismatch",
        WaczWarning::Missing { .. } => "package_missing_file",
        WaczWarning::HashNotChecked { .. } => "package_hash_not_checked",
    }
}

pub(super) fn open(path: &Path) -> Result<Package, ArchiveError> {
    let wacz = Arc::new(Wacz::open(path).map_err(ArchiveError::Package)?);
    let parts = wacz
        .warcs()
        .iter()
        .map(|entry| {
            let opener = EntryOpener {
                wacz: Arc::clone(&wacz),
                entry: entry.clone(),
            };
            Part::entry(path, &entry.name, Arc::new(opener))
        })
        .collect();
    let index = wacz.has_index().then(|| {
        let part_of = wacz
            .warcs()
            .iter()
            .enumerate()
            .map(|(at, entry)| (entry.name.clone(), at))
            .collect();
        Arc::new(PackageIndex {
            wacz: Arc::clone(&wacz),
            part_of,
        }) as Arc<dyn UrlIndex>
    });
    let info = PackageInfo {
        pages: wacz.pages().to_vec(),
        warnings: wacz.warnings().to_vec(),
    };
    Ok(Package {
        parts,
        index,
        info,
        wacz,
    })
}
