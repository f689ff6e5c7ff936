//! A package's responses found through its index when a URL is asked for:
//! a WACZ's CDXJ names the record of every capture, so opening a multi-GB
//! crawl reads its index and its pages list, not its records, and each URL
//! the crawl asks for costs one record read.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::archive::parts::UrlIndex;

/// What a lookup found, kept so that each URL is read once.
#[derive(Clone, Debug)]
pub(in crate::archive) enum Looked {
    /// The response, at its place in the index's responses.
    At(usize),
    /// The index names a record that cannot answer: why.
    Unreadable(String),
    Absent,
}

/// The lookups of one opened package.
pub(in crate::archive) struct Lazy {
    pub index: Arc<dyn UrlIndex>,
    found: Mutex<HashMap<String, Looked>>,
}

impl Lazy {
    pub fn new(index: Arc<dyn UrlIndex>) -> Self {
        Self {
            index,
            found: Mutex::new(HashMap::new()),
        }
    }

    pub fn get(&self, key: &str) -> Option<Looked> {
        self.found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .cloned()
    }

    pub fn put(&self, key: String, looked: Looked) {
        self.found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, looked);
    }
}
