//! Web archives (SPEC 10): an inspection saved as WARC records exactly as it
//! was seen, an archive read back as a fetcher (offline, the same pages and
//! verdicts), and an archive's HTML responses streamed as corpus pages.

mod fetcher;
mod fields;
mod http_block;
mod index;
pub mod kind;
mod package;
mod parts;
mod records;
mod save_format;
pub mod wacz;
mod write;

use std::path::PathBuf;
use std::sync::Arc;

pub use fetcher::ArchiveFetcher;
pub use http_block::{BadHttp, Body, EarlyEnd, HttpResponse, ReadQuirk, parse_response};
pub use index::{CaptureInfo, ReadWarning, ReadWarnings};
pub use package::{Capture, open_capture};
pub use parts::{PackageInfo, Part, PartOpener, UrlIndex};
pub use records::{Damaged, Input, Record, RecordHead, RecordInput, RecordKind, RecordReader};
pub use save_format::SaveFormat;
pub use write::{SaveRequest, Saved, save};

/// Why an archive cannot be read or written.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ArchiveError {
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: Arc<std::io::Error>,
    },
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: Arc<crate::fetch::local_write::WriteError>,
    },
    /// Neither a WARC file nor a gzip of one.
    #[error("{} is not a web archive (WARC): it does not start with a WARC/1.x record", path.display())]
    NotWarc { path: PathBuf },
    /// A WARC draft whose records are not laid out as 1.0's.
    #[error(
        "{} is a WARC/{version} draft file, whose records are not laid out as WARC 1.0's: it is not read",
        path.display()
    )]
    DraftWarc { path: PathBuf, version: String },
    /// A ZIP where a WARC was to be read (a package inside a package).
    #[error("{} is a ZIP file, not a WARC", path.display())]
    ZipNotWarc { path: PathBuf },
    /// A WACZ package that cannot be read.
    #[error(transparent)]
    Package(wacz::WaczError),
    /// A record that could not be read, where.
    #[error("{}: {damaged}", path.display())]
    Damaged { path: PathBuf, damaged: Damaged },
    /// An inspection record that does not parse, or of a schema not known.
    #[error("{}: its inspection record cannot be read ({detail})", path.display())]
    BadInspectionRecord { path: PathBuf, detail: String },
    /// The inspection record's settings are over a list limit (SPEC 3), as
    /// a settings file or profile over them is refused.
    #[error("{}: the archive's settings", path.display())]
    SettingsOverLimit {
        path: PathBuf,
        #[source]
        over: crate::policy::OverLimit,
    },
    /// Nothing in the inspection was fetched (a saved page, the demo page).
    #[error("nothing to save: no page of this inspection was fetched from the web")]
    NothingFetched,
    /// An archive that holds no inspection record and no page to start from.
    #[error("{} holds no page to open: no inspection record and no HTML response", path.display())]
    NothingToOpen { path: PathBuf },
}

/// The inspection record's `WARC-Target-URI`.
pub const INSPECTION_URI: &str = "urn:follow-inspector:inspection";

/// A rendered page's DOM record's `WARC-Target-URI`.
pub fn dom_uri(page_url: &url::Url) -> String {
    format!("urn:dom:{page_url}")
}

/// A `WARC-Target-URI` as a URL; WARC/1.0 writers may wrap it in `<…>`.
pub fn parse_target_uri(value: &str) -> Result<url::Url, url::ParseError> {
    url::Url::parse(value.trim().trim_start_matches('<').trim_end_matches('>'))
}

/// Whether a path names a web archive by its name (`.warc[.gz]`,
/// `.arc[.gz]`, `.wacz`): for a window frame, which must not read the
/// file; loading it tells its kind from its bytes ([`kind::sniff`]).
pub fn is_archive_name(path: &str) -> bool {
    kind::kind_by_name(path).is_some()
}
