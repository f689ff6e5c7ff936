//! The targets file the window marks links in, as the window knows it:
//! its path and its targets as last read, and the page opened from the
//! Corpus view (it goes by its corpus id). The thread that reads and writes
//! the file is `tasks.targets`.

use std::path::PathBuf;

use crate::corpus::truth::{Target, Targets};
use crate::ui::panels::results::PageTargets;
use crate::ui::tasks::targets::Fingerprint;

/// The targets file and what the window knows of it.
#[derive(Default)]
pub struct TargetsFile {
    /// The file in use, once it was read.
    pub path: Option<PathBuf>,
    pub targets: Targets,
    /// Bumped whenever `targets` is read again, for the table's cache.
    pub generation: u64,
    /// The page opened from the Corpus view: its file and its corpus id.
    pub corpus_page: Option<(String, String)>,
    /// The kind chooser is open for this link.
    pub choosing: Option<usize>,
    /// The last mark can be undone.
    pub can_undo: bool,
    /// The file as it was before the first mark since the last run (or
    /// since marking began in it): when a mark or an undo puts it back, no
    /// link is marked since the run.
    pub unmarked: Option<Fingerprint>,
}

impl TargetsFile {
    /// The targets of the page with `id`, when a file is in use.
    pub fn of_page(&self, id: Option<&str>) -> Option<PageTargets<'_>> {
        self.path.as_ref()?;
        let targets: &[Target] = id
            .and_then(|id| self.targets.for_page(id))
            .unwrap_or_default();
        Some(PageTargets {
            targets,
            generation: self.generation,
        })
    }

    pub fn take_in(&mut self, path: PathBuf, targets: Targets) {
        self.path = Some(path);
        self.targets = targets;
        self.generation += 1;
    }
}
