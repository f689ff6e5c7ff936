//! The changed links grouped by cause: a click on a line narrows the tables
//! to its links and their pages (a second click, or the chip, shows all).

use egui::{RichText, Ui};

use super::state::{CorpusState, Filter};
use crate::copy;
use crate::corpus::CorpusRun;

pub fn show(ui: &mut Ui, run: &CorpusRun, state: &mut CorpusState) {
    if run.causes.is_empty() {
        ui.label(RichText::new(copy::NO_CHANGED_LINKS).weak());
    }
    for cause in &run.causes {
        let filter = Filter::Cause(cause.because.clone());
        let chosen = state.filter.as_ref() == Some(&filter);
        let line = copy::cause_line(
            &copy::because(&cause.because),
            cause.links,
            cause.pages,
            cause.gained,
            cause.lost,
        );
        if ui
            .selectable_label(chosen, line)
            .on_hover_text(copy::CAUSE_TOOLTIP)
            .clicked()
        {
            state.filter = if chosen { None } else { Some(filter) };
        }
    }
}
