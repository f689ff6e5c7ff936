//! Fetching each URL once for both sides of a diff: the second crawl reads
//! what the first fetched.

use std::collections::HashMap;
use std::sync::Mutex;

use url::Url;

use super::{FetchError, FetchedPage, Fetcher};

/// A fetcher that fetches each URL once for both sides of a diff: the second
/// crawl reads what the first fetched.
pub struct FetchOnce<'a> {
    inner: &'a dyn Fetcher,
    fetched: Mutex<HashMap<Url, FetchedPage>>,
}

impl<'a> FetchOnce<'a> {
    pub fn new(inner: &'a dyn Fetcher) -> Self {
        Self {
            inner,
            fetched: Mutex::new(HashMap::new()),
        }
    }
}

impl Fetcher for FetchOnce<'_> {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        if let Some(page) = self.fetched.lock().ok().and_then(|m| m.get(url).cloned()) {
            return Ok(page);
        }
        let page = self.inner.fetch(url)?;
        if let Ok(mut fetched) = self.fetched.lock() {
            fetched.insert(url.clone(), page.clone());
        }
        Ok(page)
    }

    fn renders(&self) -> bool {
        self.inner.renders()
    }
}
