//! Compare with…: starting and stopping it (the comparison itself is
//! `subjects::comparison`).

use crate::ui::command::ComparisonCommand;
use crate::ui::tasks::profiles::StoreRequest;

impl super::InspectorApp {
    pub(super) fn carry_out_comparison(&mut self, command: ComparisonCommand) {
        match command {
            ComparisonCommand::CompareWith(None) => self.comparison = None,
            // The profile is read on the profiles thread; its reply starts
            // the comparison (`profiles::apply_outcome`).
            ComparisonCommand::CompareWith(Some(name)) => {
                self.send_store(StoreRequest::Peek(name));
            }
        }
    }
}
