//! A capture file opened by its kind: a WARC or an ARC is one part; a WACZ
//! package's WARCs are its parts, read in place (no temporary copy), and
//! its index finds a URL's record.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use url::Url;

use super::kind::{self, FileKind};
use super::parts::{PackageInfo, Part, PartOpener, UrlIndex};
use super::wacz::{EntryInput, HashScope, Wacz, WaczEntry, WaczWarning};
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

/// A package opened: its parts, its index when it has one, what it says.
struct Package {
    pub parts: Vec<Part>,
    pub index: Option<Arc<dyn UrlIndex>>,
    pub info: PackageInfo,
    pub wacz: Arc<Wacz>,
}

fn open(path: &Path) -> Result<Package, ArchiveError> {
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
        let package = open(path)?;
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
