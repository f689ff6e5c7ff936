//! The corpus view and its run; changed by `app/corpus.rs`.

use crate::ui::panels::corpus::{CorpusState, RunInputs};
use crate::ui::state::CorpusProgress;

/// The corpus view (what is typed in it and the last run) and the run going.
#[derive(Default)]
pub struct CorpusRunState {
    pub panel: CorpusState,
    /// How far the running corpus task has come.
    pub progress: Option<CorpusProgress>,
    /// What the running task was started with; the view's once it finishes.
    pub starting: Option<RunInputs>,
}
