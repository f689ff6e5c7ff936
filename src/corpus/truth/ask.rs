//! What `--tune` asks, and how far it has come: shared by the suggestions
//! (which carry the ask) and the tuning (which answers it).

/// The most steps a tuning may take: each is a whole suggestion run, and
/// a list grown by more than this many changes is no default anyone would
/// ship.
pub const MAX_TUNE_STEPS: usize = 100;
/// What `--tune` asks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TuneAsk {
    /// 1..=[`MAX_TUNE_STEPS`].
    pub steps: usize,
    /// A change may not make followed links per labelled page exceed this.
    pub max_followed_per_page: Option<f64>,
    /// A change may not make precision fall below this (0..=1).
    pub min_precision: Option<f64>,
}

/// What a tuning reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TuneProgress {
    /// A step of the tuning over every labelled page.
    Step { step: usize, of: usize },
    /// A step of tuning without fold `fold` (1-based).
    Fold {
        fold: usize,
        folds: usize,
        step: usize,
    },
}
