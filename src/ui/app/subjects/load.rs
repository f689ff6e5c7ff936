//! The shown inspection, where it came from, and the load running; changed
//! by `app/loading.rs`.

use std::path::PathBuf;
use std::sync::Arc;

use url::Url;

use crate::fetch::{Fetcher, Resolve};
use crate::inspect::Inspection;
use crate::ui::state::Source;

/// What a crawl was made with: when these change, its pages are out of date.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrawlInputs {
    pub settings: crate::policy::Settings,
    pub depth: u32,
    pub limit_override: Option<usize>,
}

/// The shown inspection, where it came from, and the load running.
pub struct LoadState {
    pub inspection: Option<Inspection>,
    /// Bumped whenever `inspection` changes, for the panels' caches.
    pub generation: u64,
    /// Bumped when a new inspection arrives (not on re-classification).
    pub loaded: u64,
    /// What the shown crawl was made with; `None` for a saved page or the demo.
    pub crawled_with: Option<CrawlInputs>,
    pub source: Source,
    /// The host mappings the shown pages were fetched with.
    pub host_mapping: Vec<Resolve>,
    /// The last load failed, so the table shows the result from before it.
    pub failed: bool,
    /// The page to show again when the crawl running now arrives (Crawl again).
    pub reopen: Option<Url>,
    /// The URL or file to load once the profiles are open.
    pub start_target: Option<String>,
    /// A fetcher given by the embedder (tests); otherwise one is built per load.
    pub fetcher: Option<Arc<dyn Fetcher>>,
    /// Chromium for rendered mode, looked up once at start-up.
    pub browser: Option<PathBuf>,
}

impl LoadState {
    pub fn new(browser: Option<PathBuf>) -> Self {
        Self {
            inspection: None,
            generation: 0,
            loaded: 0,
            crawled_with: None,
            source: Source::Nothing,
            host_mapping: Vec::new(),
            failed: false,
            reopen: None,
            start_target: None,
            fetcher: None,
            browser,
        }
    }
}
