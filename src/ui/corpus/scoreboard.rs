//! The top of the workbench: the targets file the run was measured against
//! (or why not), its skipped rows, and the scoreboard: how many labelled
//! sites reach a target under A and B, per kind, and at what cost.

use egui::{RichText, Ui};

use super::state::CorpusState;
use crate::copy;
use crate::corpus::CorpusRun;
use crate::corpus::truth::{Evaluation, TargetKind};
use crate::ui::corpus_task::TargetsFile;
use crate::ui::palette;

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
    } else if state.targets_file() == TargetsFile::Beside {
        ui.label(RichText::new(copy::NO_TARGETS_BESIDE).weak());
    }
    if let Some(evaluation) = &run.evaluation
        && !evaluation.problems.is_empty()
    {
        problems(ui, evaluation);
    }
}

/// The rows of the targets file that were skipped, as warnings.
fn problems(ui: &mut Ui, evaluation: &Evaluation) {
    let dark = ui.visuals().dark_mode;
    let all = &evaluation.problems;
    egui::CollapsingHeader::new(
        RichText::new(copy::targets_problems_heading(all.len())).color(palette::warning(dark)),
    )
    .id_salt("corpus_targets_problems")
    .default_open(all.len() <= OPEN_PROBLEMS)
    .show(ui, |ui| {
        for problem in all.iter().take(LISTED_PROBLEMS) {
            ui.colored_label(palette::warning(dark), problem.to_string());
        }
        if all.len() > LISTED_PROBLEMS {
            ui.label(copy::more_chips(all.len() - LISTED_PROBLEMS));
        }
    });
}

/// The scoreboard, when the run was measured.
pub fn show(ui: &mut Ui, evaluation: &Evaluation) {
    let (a, b) = (&evaluation.a, evaluation.b.as_ref());
    ui.label(
        RichText::new(copy::scoreboard_line(
            a,
            b,
            evaluation.rescued.len(),
            evaluation.lost.len(),
        ))
        .strong()
        .size(16.0),
    );
    ui.horizontal_wrapped(|ui| {
        for kind in TargetKind::ALL {
            let count = |m: &crate::corpus::truth::Metrics| {
                m.by_kind
                    .get(&kind)
                    .map_or((0, 0), |c| (c.found, c.labelled_pages))
            };
            // A kind no page has a target of says nothing.
            if count(a).1 > 0 {
                ui.label(copy::scoreboard_kind(kind, count(a), b.map(count)));
                ui.separator();
            }
        }
        ui.label(copy::scoreboard_links(a, b));
    });
    if b.is_some() {
        ui.label(copy::rescued_and_lost(
            &evaluation.rescued,
            &evaluation.lost,
        ));
    }
}
