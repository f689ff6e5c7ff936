//! What the results panel keeps between frames and what it is shown: the
//! types the panel's parts share.

use super::rows::{PageCompare, PageTargets, RowFilter, RowsCache};
use crate::inspect::Inspection;

/// What the results keep between frames.
#[derive(Default)]
pub struct ResultsState {
    /// What the user narrowed and ordered the table by.
    pub(super) filter: RowFilter,
    /// The rows shown, cached until the inspection, page, filter or sort change.
    pub(super) rows: RowsCache,
    /// The (load, page) drawn last: a new page opens scrolled to the top.
    pub(super) shown: Option<(u64, usize)>,
    /// The load the search was typed on: a new load clears it.
    pub(super) searched_in: Option<u64>,
}

/// What the results show besides their own state.
pub struct ResultsView<'a> {
    pub inspection: Option<&'a Inspection>,
    /// Bumped on every change of the inspection (re-classification included).
    pub generation: u64,
    /// Bumped when a new inspection arrives.
    pub loaded: u64,
    pub page: usize,
    pub selected: Option<usize>,
    /// The last load failed and this is what was shown before it.
    pub previous_result: bool,
    /// The crawl was made with other settings or another depth.
    pub stale_crawl: bool,
    /// The inspection is a saved file (its page URL may be a typed base URL).
    pub saved_file: bool,
    /// Reopened from a web archive: its file name, and what its records say
    /// (when it was captured, the damaged records passed over).
    pub archive: Option<(&'a str, &'a crate::archive::CaptureInfo)>,
    /// The keyboard belongs to the table (no dialog is open).
    pub keyboard: bool,
    /// The shown page decided under the compared profile.
    pub comparison: Option<PageCompare<'a>>,
    /// The shown page's targets, when a targets file is in use.
    pub targets: Option<PageTargets<'a>>,
    /// The selected link's target kind chooser is open.
    pub choosing_kind: bool,
}
