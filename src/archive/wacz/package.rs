//! A package opened: its WARCs listed, its pages and index read, its small
//! files' hashes checked.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use url::Url;

use super::directory::list_entries;
use super::entry::{EntryInput, Files};
use super::hashes::{self, HashScope};
use super::index::{self, CdxIndex, IndexHit};
use super::model::{
    EXTRA_PAGES, PAGES, WaczEntry, WaczError, WaczWarning, find_entry, looks_like_zip,
};
use super::pages::{self, WaczPage};

/// A WACZ package, opened.
pub struct Wacz {
    path: PathBuf,
    /// Every file entry, in name order.
    entries: Vec<WaczEntry>,
    /// The `archive/*.warc[.gz]` entries, in name order.
    warcs: Vec<WaczEntry>,
    pages: Vec<WaczPage>,
    index: Option<CdxIndex>,
    warnings: Vec<WaczWarning>,
}

impl Wacz {
    /// Opens a package: its directory checked, its pages and index read,
    /// and the hashes of its small files (all but the WARCs) checked.
    pub fn open(path: &Path) -> Result<Self, WaczError> {
        let read = |source: io::Error| WaczError::Read {
            path: path.to_owned(),
            source: Arc::new(source),
        };
        let file = File::open(path).map_err(read)?;
        let file_len = file.metadata().map_err(read)?.len();
        let entries = list_entries(path, file, file_len)?;
        let mut wacz = Self {
            path: path.to_owned(),
            entries,
            warcs: Vec::new(),
            pages: Vec::new(),
            index: None,
            warnings: Vec::new(),
        };
        let mut skipped_nested = Vec::new();
        for entry in &wacz.entries {
            let lower = entry.name.to_ascii_lowercase();
            if !lower.starts_with("archive/") {
                continue;
            }
            if lower.ends_with(".wacz") || lower.ends_with(".zip") {
                skipped_nested.push(entry.name.clone());
            } else if lower.ends_with(".warc") || lower.ends_with(".warc.gz") {
                // A WARC by name that is a ZIP by its bytes is a package
                // inside the package too.
                if wacz.starts_like_zip(entry) {
                    skipped_nested.push(entry.name.clone());
                } else {
                    wacz.warcs.push(entry.clone());
                }
            }
        }
        if wacz.warcs.is_empty() {
            return Err(WaczError::NoWarc {
                path: path.to_owned(),
                skipped_nested,
            });
        }
        wacz.warnings.extend(
            skipped_nested
                .into_iter()
                .map(|entry| WaczWarning::Nested { entry }),
        );
        let (pages, warnings) = pages::read_pages(wacz.files(), &[PAGES, EXTRA_PAGES]);
        wacz.pages = pages;
        wacz.warnings.extend(warnings);
        let (index, warnings) = index::read_index(wacz.files(), &wacz.warcs);
        wacz.index = index;
        wacz.warnings.extend(warnings);
        let warnings = wacz.check_hashes(HashScope::Small);
        wacz.warnings.extend(warnings);
        Ok(wacz)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The `archive/*.warc[.gz]` entries, in name order.
    pub fn warcs(&self) -> &[WaczEntry] {
        &self.warcs
    }

    /// Every file entry, in name order.
    pub fn entries(&self) -> &[WaczEntry] {
        &self.entries
    }

    /// An entry by its name in the package.
    pub fn entry(&self, name: &str) -> Option<&WaczEntry> {
        find_entry(&self.entries, name)
    }

    /// The pages of `pages/pages.jsonl`, then `pages/extraPages.jsonl`, in
    /// file order (at most [`MAX_PAGES`]).
    pub fn pages(&self) -> &[WaczPage] {
        &self.pages
    }

    /// What was odd about the package when it was opened.
    pub fn warnings(&self) -> &[WaczWarning] {
        &self.warnings
    }

    /// Reads an entry in place.
    pub fn open_entry(&self, entry: &WaczEntry) -> io::Result<EntryInput> {
        EntryInput::open(&self.path, entry)
    }

    /// The capture that answers a URL (its fragment removed), found in the
    /// index: of its captures, the earliest that is not a revisit and has a
    /// 2xx or 3xx status; else the earliest other non-revisit (a 404 is what
    /// was captured); else the earliest revisit, for the caller to resolve.
    /// Earliest, as pywb answers a page asked for with no timestamp, and as
    /// a WARC read in order answers by its first response. A hit whose WARC
    /// is missing or too short is passed over; when only such hits remain,
    /// that is the error.
    pub fn lookup(&self, url: &Url) -> Result<Option<IndexHit>, WaczError> {
        let Some(index) = &self.index else {
            return Err(WaczError::NoIndex {
                path: self.path.clone(),
            });
        };
        index.lookup(url, &self.warcs, &self.path)
    }

    /// Whether the package's index was read.
    pub fn has_index(&self) -> bool {
        self.index.is_some()
    }

    /// Checks the files `datapackage.json` lists against their `sha256`
    /// and size: the small ones (pages, indexes: checked when opening), the
    /// WARCs (read whole, so on demand), or all.
    pub fn check_hashes(&self, scope: HashScope) -> Vec<WaczWarning> {
        hashes::check(self.files(), scope)
    }

    fn files(&self) -> Files<'_> {
        Files {
            path: &self.path,
            entries: &self.entries,
        }
    }

    fn starts_like_zip(&self, entry: &WaczEntry) -> bool {
        let mut first = [0u8; 4];
        self.open_entry(entry)
            .and_then(|mut input| input.read_exact(&mut first))
            .is_ok()
            && looks_like_zip(&first)
    }
}
