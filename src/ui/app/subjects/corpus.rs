//! The corpus view and its run; changed by `app/corpus.rs`.

use crate::ui::panels::corpus::CorpusState;
use crate::ui::state::CorpusProgress;

/// The corpus view (what is typed in it and the last run) and the run going.
#[derive(Default)]
pub struct CorpusRunState {
    pub panel: CorpusState,
    /// How far the running corpus task has come.
    pub progress: Option<CorpusProgress>,
}
