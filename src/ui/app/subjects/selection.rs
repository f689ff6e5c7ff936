//! The shown page and link; changed by `app/selection.rs`.

use crate::policy::SiblingRoot;
use crate::policy::explain::WhatIf;

/// The shown page and link, and what is worked out of them once per change
/// (not on every frame).
#[derive(Default)]
pub struct SelectionState {
    pub page: usize,
    pub selected: Option<usize>,
    /// The link to select on the page a load brings (opened from the Corpus view).
    pub select_when_loaded: Option<usize>,
    /// The selected link's what-ifs, for the (generation, page, link) they are of.
    pub what_ifs: Option<((u64, usize, usize), Vec<WhatIf>)>,
    /// The shown page's sibling roots, for the (generation, page) they are of.
    pub sibling_roots: Option<((u64, usize), Vec<SiblingRoot>)>,
}
