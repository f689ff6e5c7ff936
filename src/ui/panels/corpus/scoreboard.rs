//! The top of the workbench: the targets file the run was measured against
//! (or why not), its skipped rows, and the scoreboard: how many labelled
//! sites reach a target under A and B, per kind, and at what cost.

use egui::{RichText, Ui};

use super::state::CorpusState;
use crate::copy;
use crate::corpus::CorpusRun;
use crate::corpus::truth::Evaluation;
use crate::ui::palette;
use crate::ui::state::TargetsChoice;

/// Skipped rows listed open up to this many; more are folded away.
const OPEN_PROBLEMS: usize = 5;
/// Skipped rows listed at most; the rest are counted.
const LISTED_PROBLEMS: usize = 100;

/// Which targets file the run used, or why it has none.
pub fn targets_notes(ui: &mut Ui, run: &CorpusRun, state: &CorpusState) {
    let dark = ui.visuals().dark_mode;
    if let Some(error) = &state.targets_error {
        ui.colored_label(palette::error(dark), copy::targets_unusable(error));
    } else if let Some(path) = &state.targets_used {
        ui.label(RichText::new(copy::targets_used(path)).weak());
    } else if state.targets_choice() == TargetsChoice::Beside {
        ui.label(RichText::new(copy::NO_TARGETS_BESIDE).weak());
    }
    if state.kept_after_cancel {
        ui.colored_label(palette::warning(dark), copy::CANCELLED_KEPT_PREVIOUS);
    }
    if let Some(marked) = &state.marked_since {
        let line = if state.targets_used.as_ref() == Some(marked) {
            copy::marked_since_run(marked)
        } else {
            copy::marking_another_file(marked)
        };
        ui.colored_label(palette::warning(dark), line);
    }
    let Some(evaluation) = &run.evaluation else {
        return;
    };
    if !evaluation.problems.is_empty() {
        problems(ui, evaluation);
    }
    if evaluation.pages.is_empty() {
        let pages = run.read_pages().count();
        ui.colored_label(palette::warning(dark), copy::nothing_labelled(pages));
    }
    if evaluation.partial {
        ui.colored_label(palette::warning(dark), copy::PARTIAL_EVALUATION);
    }
}

/// The rows of the targets file that were skipped, as warnings.
fn problems(ui: &mut Ui, evaluation: &Evaluation) {
    let dark = ui.visuals().dark_mode;
    let all = &evaluation.problems;
    let count = all.len() + evaluation.problems_not_listed;
    egui::CollapsingHeader::new(
        RichText::new(copy::targets_problems_heading(count)).color(palette::warning(dark)),
    )
    .id_salt("corpus_targets_problems")
    .default_open(count <= OPEN_PROBLEMS)
    .show(ui, |ui| {
        for problem in all.iter().take(LISTED_PROBLEMS) {
            ui.colored_label(palette::warning(dark), copy::skipped_target_row(problem));
        }
        if count > LISTED_PROBLEMS {
            ui.label(copy::more_chips(count - LISTED_PROBLEMS));
        }
    });
}

/// The scoreboard, when the run was measured: the sites reached under A
/// and B, then each side per kind and at what cost.
pub fn show(ui: &mut Ui, evaluation: &Evaluation) {
    ui.label(
        RichText::new(copy::scoreboard(evaluation))
            .strong()
            .size(16.0),
    );
    ui.label(copy::metrics_details(copy::SIDE_A, &evaluation.a));
    if let Some(b) = &evaluation.b {
        ui.label(copy::metrics_details(copy::SIDE_B, b));
        ui.label(copy::rescued_and_lost(
            &evaluation.rescued,
            &evaluation.lost,
        ));
    }
}
