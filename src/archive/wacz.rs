//! WACZ packages (SPEC 12, Webrecorder's WACZ 1.1.1): a ZIP holding
//! `archive/*.warc[.gz]`, an index (`indexes/*.cdxj`, `index.cdx[.gz]`),
//! `pages/pages.jsonl` and `datapackage.json`.
//!
//! Opening reads the ZIP's central directory, the pages and the index (each
//! bounded) and never a WARC: a WARC entry is read in place as a
//! [`EntryInput`] (a byte range of the file, or a raw-deflate stream over
//! one), and a URL is found through the index, so a multi-GB crawl opens in
//! the time its index takes to read.

mod entry;
mod hashes;
mod index;
mod lines;
mod pages;
#[cfg(test)]
mod tests;

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use url::Url;

pub use entry::EntryInput;
pub use hashes::HashScope;
pub use index::IndexHit;
pub use pages::{MAX_PAGES, WaczPage};

use index::CdxIndex;

/// Why a WACZ package cannot be read, or a URL in it cannot be answered.
#[derive(Debug, Clone, thiserror::Error)]
pub enum WaczError {
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: Arc<io::Error>,
    },
    /// The ZIP's central directory cannot be found or read.
    #[error("{} is not a readable ZIP (WACZ) package: {detail}", path.display())]
    NotZip { path: PathBuf, detail: String },
    /// An entry name that could point outside the package.
    #[error(
        "{}: the package is refused: its entry {entry:?} has an unsafe name (an absolute path, `..`, a backslash or a drive letter)",
        path.display()
    )]
    UnsafeName { path: PathBuf, entry: String },
    /// The central directory puts an entry's data where the file has none.
    #[error(
        "{}: the ZIP's directory puts entry {entry:?} at bytes {start}..{end}, past the end of the file ({file_len} bytes): the package is cut short or its directory is wrong",
        path.display()
    )]
    EntryOutside {
        path: PathBuf,
        entry: String,
        start: u64,
        end: u64,
        file_len: u64,
    },
    /// The central directory's sizes for an entry contradict each other.
    #[error("{}: the ZIP's directory gives entry {entry:?} sizes that contradict each other ({detail})", path.display())]
    SizesLie {
        path: PathBuf,
        entry: String,
        detail: String,
    },
    /// An entry compressed or encrypted in a way WACZ writers never use.
    #[error(
        "{}: entry {entry:?} is {how}; a WACZ's entries are stored or deflated, and only those are read",
        path.display()
    )]
    UnsupportedEntry {
        path: PathBuf,
        entry: String,
        how: String,
    },
    /// No `archive/*.warc[.gz]`.
    #[error(
        "{} holds no WARC: a WACZ keeps its captures as archive/*.warc or archive/*.warc.gz{}",
        path.display(),
        nested_note(skipped_nested)
    )]
    NoWarc {
        path: PathBuf,
        skipped_nested: Vec<String>,
    },
    /// No index was read: a URL cannot be found without reading every
    /// record (the caller may read them all instead).
    #[error(
        "{} has no readable index (indexes/*.cdxj or indexes/index.cdx[.gz]): a URL cannot be found in it without reading every record",
        path.display()
    )]
    NoIndex { path: PathBuf },
    /// The index puts the URL in a WARC the package does not hold.
    #[error("{}: the index puts {url} in {warc:?}, which the package does not hold", path.display())]
    HitMissingWarc {
        path: PathBuf,
        url: String,
        warc: String,
    },
    /// The index puts the URL past the end of its WARC.
    #[error(
        "{}: the index puts {url} at bytes {offset}..{end} of {warc}, past its end ({size} bytes)",
        path.display()
    )]
    HitPastEnd {
        path: PathBuf,
        url: String,
        warc: String,
        offset: u64,
        end: u64,
        size: u64,
    },
}

fn nested_note(skipped: &[String]) -> String {
    match skipped.first() {
        Some(first) => format!(
            " ({} package(s) inside it, such as {first}, are not read)",
            skipped.len()
        ),
        None => String::new(),
    }
}

/// Something odd about a package that still opens.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WaczWarning {
    /// A WACZ or ZIP inside `archive/` (or a WARC entry that is itself a
    /// ZIP): skipped, not read.
    #[error("{entry}: a package inside the package is not read")]
    Nested { entry: String },
    /// Lines over the line cap, read by their first bytes only.
    #[error("{file}: {count} line(s) longer than {cap} bytes, read by their first {cap} bytes")]
    LongLines {
        file: String,
        count: u64,
        cap: usize,
    },
    /// Lines that are not JSON, or name no URL.
    #[error("{file}: {count} line(s) not read (not JSON, or no URL), the first at line {first}")]
    BadLines {
        file: String,
        count: u64,
        first: u64,
    },
    /// More pages or index lines than are kept.
    #[error("{file}: {count} {what} past the first {cap} not kept")]
    OverCap {
        file: String,
        what: &'static str,
        count: u64,
        cap: usize,
    },
    /// A file so large that reading it was stopped.
    #[error("{file}: reading stopped after {bytes} bytes; what follows is not read or counted")]
    StoppedAt { file: String, bytes: u64 },
    /// A file that could not be read (to its end).
    #[error("{file} cannot be read: {detail}")]
    Unreadable { file: String, detail: String },
    #[error("the package has no pages/pages.jsonl: it names no page to start from")]
    NoPages,
    #[error("the package has no index (indexes/*.cdxj or indexes/index.cdx[.gz])")]
    NoIndex,
    /// Index lines that name a WARC the package does not hold.
    #[error("{count} index line(s) name {warc}, which the package does not hold")]
    IndexMissingWarc { warc: String, count: u64 },
    /// Index lines that point past the end of their WARC.
    #[error("{count} index line(s) point past the end of {warc} (the first: {url})")]
    IndexPastEnd {
        warc: String,
        url: String,
        count: u64,
    },
    #[error("the package has no datapackage.json: its files are not checked")]
    NoDatapackage,
    #[error("datapackage.json cannot be read: {detail}")]
    BadDatapackage { detail: String },
    #[error(
        "{file}: its sha256 is {found}, not the {expected} datapackage.json lists: the file was changed or is damaged"
    )]
    HashMismatch {
        file: String,
        expected: String,
        found: String,
    },
    #[error("{file}: {found} bytes, not the {expected} datapackage.json lists")]
    SizeMismatch {
        file: String,
        expected: u64,
        found: u64,
    },
    #[error("{file}: listed in datapackage.json but not in the package")]
    Missing { file: String },
    #[error("{file}: its hash in datapackage.json ({hash}) is not a sha256, so it is not checked")]
    HashNotChecked { file: String, hash: String },
}

/// One file in the package: where its data lies in the ZIP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaczEntry {
    /// Its name in the package, e.g. `archive/data.warc.gz`.
    pub name: String,
    /// Where its (compressed) data starts in the ZIP file.
    pub data_start: u64,
    pub compressed_size: u64,
    /// Its declared uncompressed size: reads stop there.
    pub size: u64,
    /// Stored as it is (else deflated).
    pub stored: bool,
}

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

/// Whether a file's first bytes are a ZIP's: a local file header, or the
/// end record of an empty ZIP.
pub fn looks_like_zip(first_bytes: &[u8]) -> bool {
    first_bytes.starts_with(b"PK\x03\x04") || first_bytes.starts_with(b"PK\x05\x06")
}

const PAGES: &str = "pages/pages.jsonl";
const EXTRA_PAGES: &str = "pages/extraPages.jsonl";
const DATAPACKAGE: &str = "datapackage.json";

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
        let (pages, warnings) = pages::read_pages(&wacz, &[PAGES, EXTRA_PAGES]);
        wacz.pages = pages;
        wacz.warnings.extend(warnings);
        let (index, warnings) = index::read_index(&wacz);
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
        self.entries
            .binary_search_by(|e| e.name.as_str().cmp(name))
            .ok()
            .map(|at| &self.entries[at])
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
        hashes::check(self, scope)
    }

    fn starts_like_zip(&self, entry: &WaczEntry) -> bool {
        let mut first = [0u8; 4];
        self.open_entry(entry)
            .and_then(|mut input| input.read_exact(&mut first))
            .is_ok()
            && looks_like_zip(&first)
    }
}

/// The ZIP's file entries, each checked: a safe name, a way of storing
/// that is read, and data that lies inside the file.
fn list_entries(path: &Path, file: File, file_len: u64) -> Result<Vec<WaczEntry>, WaczError> {
    let not_zip = |detail: String| WaczError::NotZip {
        path: path.to_owned(),
        detail,
    };
    let mut zip = zip::ZipArchive::new(BufReader::new(file)).map_err(|e| not_zip(e.to_string()))?;
    let mut entries = Vec::with_capacity(zip.len());
    for at in 0..zip.len() {
        // Reading an entry raw reads its local header, which gives where its
        // data starts: a directory that points outside the file fails here.
        let file = zip
            .by_index_raw(at)
            .map_err(|e| not_zip(format!("entry {at}: {e}")))?;
        let name = match file.name() {
            Ok(name) => name.into_owned(),
            Err(_) => String::from_utf8_lossy(file.name_raw()).into_owned(),
        };
        if unsafe_name(&name) {
            return Err(WaczError::UnsafeName {
                path: path.to_owned(),
                entry: name,
            });
        }
        if file.is_dir() {
            continue;
        }
        let unsupported = |how: String| WaczError::UnsupportedEntry {
            path: path.to_owned(),
            entry: name.clone(),
            how,
        };
        if file.encrypted() {
            return Err(unsupported("encrypted".to_owned()));
        }
        let stored = match file.compression() {
            zip::CompressionMethod::Stored => true,
            zip::CompressionMethod::Deflated => false,
            other => return Err(unsupported(format!("compressed with {other}"))),
        };
        let data_start = file
            .data_start()
            .ok_or_else(|| not_zip(format!("entry {name:?}: where its data starts is unknown")))?;
        let (compressed_size, size) = (file.compressed_size(), file.size());
        let end = data_start.checked_add(compressed_size);
        match end {
            Some(end) if end <= file_len => {}
            _ => {
                return Err(WaczError::EntryOutside {
                    path: path.to_owned(),
                    entry: name,
                    start: data_start,
                    end: end.unwrap_or(u64::MAX),
                    file_len,
                });
            }
        }
        if stored && size != compressed_size {
            return Err(WaczError::SizesLie {
                path: path.to_owned(),
                entry: name,
                detail: format!("stored, yet {size} bytes from {compressed_size}"),
            });
        }
        entries.push(WaczEntry {
            name,
            data_start,
            compressed_size,
            size,
            stored,
        });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// A name that could point outside the package when taken as a path: empty,
/// absolute, with a `..` part, a backslash (a Windows separator), a drive
/// letter, a NUL or other control byte.
fn unsafe_name(name: &str) -> bool {
    name.is_empty()
        || name.starts_with('/')
        || name.contains('\\')
        || name.chars().any(char::is_control)
        || name.split('/').any(|part| part == "..")
        || name.as_bytes().get(1) == Some(&b':')
}
