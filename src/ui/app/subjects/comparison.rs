//! Compare with…: the shown pages decided under a second profile; changed
//! by `app/comparison.rs` and by the profiles' and corpus's answers.

use crate::inspect::Inspection;
use crate::policy::compare::{LinkChange, compare_pages};
use crate::policy::{PageDecision, Settings};
use crate::ui::panels::results::PageCompare;

/// The shown pages decided under a second profile (Compare with…).
pub struct Comparison {
    pub name: String,
    pub settings: Settings,
    /// The app's `generation` these were computed for.
    pub computed_for: Option<u64>,
    /// Bumped on every computation, for the table's cache.
    pub generation: u64,
    pub decisions: Vec<PageDecision>,
    /// Per page, the links that change from the current settings to these.
    pub changes: Vec<Vec<LinkChange>>,
}

impl Comparison {
    pub fn new(name: String, settings: Settings) -> Self {
        Self {
            name,
            settings,
            computed_for: None,
            generation: 0,
            decisions: Vec::new(),
            changes: Vec::new(),
        }
    }

    /// Decides the pages again when the inspection changed since last time.
    pub fn refresh(&mut self, inspection: Option<&Inspection>, generation: u64) {
        if self.computed_for == Some(generation) {
            return;
        }
        self.computed_for = Some(generation);
        self.generation += 1;
        let Some(inspection) = inspection else {
            self.decisions.clear();
            self.changes.clear();
            return;
        };
        self.decisions = inspection.decide_under(&self.settings);
        let (ours, theirs) = (inspection.settings().options(), self.settings.options());
        self.changes = inspection
            .pages
            .iter()
            .zip(&self.decisions)
            .map(|(page, decision)| compare_pages(&page.decision, decision, &ours, &theirs))
            .collect();
    }

    pub fn page(&self, page: usize) -> Option<PageCompare<'_>> {
        Some(PageCompare {
            name: &self.name,
            decision: self.decisions.get(page)?,
            changes: self.changes.get(page)?,
            generation: self.generation,
        })
    }
}
