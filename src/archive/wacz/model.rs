//! The package's words and shapes: its errors, its warnings, an entry.

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

pub(super) const PAGES: &str = "pages/pages.jsonl";
pub(super) const EXTRA_PAGES: &str = "pages/extraPages.jsonl";
pub(super) const DATAPACKAGE: &str = "datapackage.json";

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

impl WaczWarning {
    /// Its stable id in a corpus report's `archives.warnings` (`kind`).
    pub fn id(&self) -> &'static str {
        match self {
            Self::Nested { .. } => "package_nested",
            Self::LongLines { .. } => "package_long_lines",
            Self::BadLines { .. } => "package_bad_lines",
            Self::OverCap { .. } => "package_over_cap",
            Self::StoppedAt { .. } => "package_stopped",
            Self::Unreadable { .. } => "package_unreadable_file",
            Self::NoPages => "package_no_pages",
            Self::NoIndex => "package_no_index",
            Self::IndexMissingWarc { .. } => "package_index_missing_warc",
            Self::IndexPastEnd { .. } => "package_index_past_end",
            Self::NoDatapackage => "package_no_datapackage",
            Self::BadDatapackage { .. } => "package_bad_datapackage",
            Self::HashMismatch { .. } => "package_hash_mismatch",
            Self::SizeMismatch { .. } => "package_size_mismatch",
            Self::Missing { .. } => "package_missing_file",
            Self::HashNotChecked { .. } => "package_hash_not_checked",
        }
    }
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

/// An entry by its name, in entries kept in name order.
pub(super) fn find_entry<'a>(entries: &'a [WaczEntry], name: &str) -> Option<&'a WaczEntry> {
    entries
        .binary_search_by(|e| e.name.as_str().cmp(name))
        .ok()
        .map(|at| &entries[at])
}

/// Whether a file's first bytes are a ZIP's: a local file header, or the
/// end record of an empty ZIP.
pub fn looks_like_zip(first_bytes: &[u8]) -> bool {
    first_bytes.starts_with(b"PK\x03\x04") || first_bytes.starts_with(b"PK\x05\x06")
}
