//! A replay (SPEC 12): a browser whose every request is answered from a
//! capture instead of the network. The capture is a [`ReplaySource`] (an
//! archive implements it in a later layer); what the replay of one page
//! answered and could not answer is its [`Replayed`].

use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use url::Url;

use super::FetchError;

/// How many of a page's unanswered URLs its report lists (SPEC 12: the first 20).
pub const MISSING_LISTED: usize = 20;

/// A stored response: the status, the header fields as stored (the
/// browser is given them without the wire framing: see [`FRAMING_FIELDS`]),
/// the body decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnswer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// Header fields that describe a body's wire form: dropped from a replayed
/// answer, whose body is given decoded (SPEC 12).
pub const FRAMING_FIELDS: [&str; 3] = ["content-encoding", "transfer-encoding", "content-length"];

/// What answers a replaying browser's requests.
pub trait ReplaySource: Send + Sync {
    /// The stored response for `url` (its fragment is never sent), or `None`
    /// when the capture does not hold it.
    fn answer(&self, url: &Url) -> Option<StoredAnswer>;

    /// Why the capture cannot give the page at `url` (after its stored
    /// redirects), or `None` when it holds it: a page it lacks fails as it
    /// fails read from the capture without a browser.
    fn page_missing(&self, url: &Url) -> Option<FetchError>;

    /// When the page at `url` was captured: the replayed page's clock starts
    /// there.
    fn captured_at(&self, url: &Url) -> Option<SystemTime>;
}

/// What the replay of one page answered from the capture.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Replayed {
    /// Requests answered from the capture (a stored redirect is one answer).
    pub answered: usize,
    /// Requests the capture does not hold, answered `404` with an empty body.
    pub missing: usize,
    /// The first [`MISSING_LISTED`] of them.
    pub missing_urls: Vec<String>,
    /// How many of the missing were scripts: the capture cannot build the
    /// links those scripts build.
    pub missing_scripts: usize,
}

impl Replayed {
    /// Counts one request the capture could not answer.
    pub fn note_missing(&mut self, url: &str, script: bool) {
        self.missing += 1;
        if script {
            self.missing_scripts += 1;
        }
        if self.missing_urls.len() < MISSING_LISTED && !self.missing_urls.iter().any(|u| u == url) {
            self.missing_urls.push(url.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_twenty_missing_urls_are_listed_but_all_are_counted() {
        let mut replayed = Replayed::default();
        for i in 0..25 {
            replayed.note_missing(&format!("https://acme.test/{i}.js"), i % 2 == 0);
        }
        assert_eq!(replayed.missing, 25);
        assert_eq!(replayed.missing_scripts, 13);
        assert_eq!(replayed.missing_urls.len(), MISSING_LISTED);
        assert_eq!(replayed.missing_urls[0], "https://acme.test/0.js");
    }

    #[test]
    fn a_url_missing_twice_is_listed_once() {
        let mut replayed = Replayed::default();
        replayed.note_missing("https://acme.test/a.js", true);
        replayed.note_missing("https://acme.test/a.js", true);
        assert_eq!(replayed.missing, 2);
        assert_eq!(replayed.missing_urls, ["https://acme.test/a.js"]);
    }
}
