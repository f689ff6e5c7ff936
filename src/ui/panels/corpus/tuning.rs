//! Tune… (SPEC 11 `--tune`): the steps and bounds, and the last tuning's
//! steps with the honest, cross-validated figure. Its settings are then B;
//! Save tuned as profile… keeps them.

use egui::{RichText, Ui};

use super::state::CorpusState;
use crate::copy;
use crate::corpus::truth::{MAX_TUNE_STEPS, Tuning};
use crate::policy::Settings;
use crate::ui::command::{Command, CorpusCommand};

/// The controls, and the last tuning when there is one (shown only with a
/// run measured against targets). `running`: a run is going; `a`: side A as
/// it is now.
pub fn show(ui: &mut Ui, state: &mut CorpusState, running: bool, a: &Settings) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.horizontal_wrapped(|ui| {
        let label = ui.label(copy::LABEL_TUNE_STEPS).id;
        ui.add(egui::DragValue::new(&mut state.tune_ask.steps).range(1..=MAX_TUNE_STEPS))
            .labelled_by(label);
        bound(
            ui,
            &mut state.tune_bound_per_page,
            &mut state.tune_ask.max_followed_per_page,
            copy::LABEL_TUNE_PER_PAGE,
            (0.5, 100.0, 0.1),
        );
        bound(
            ui,
            &mut state.tune_bound_precision,
            &mut state.tune_ask.min_precision,
            copy::LABEL_TUNE_PRECISION,
            (0.0, 1.0, 0.01),
        );
        let tune = ui
            .add_enabled(!running, egui::Button::new(copy::LABEL_TUNE))
            .on_hover_text(copy::TUNE_TOOLTIP);
        if tune.clicked() {
            commands.push(CorpusCommand::Tune.into());
        }
    });
    if let Some(tuning) = &state.tuning {
        // Tuned from another A: its settings are not A plus its steps.
        let current = tuning.start == *a;
        if !current {
            ui.label(RichText::new(copy::TUNED_FROM_ANOTHER_A).weak());
        }
        steps(ui, tuning);
        if !tuning.steps.is_empty()
            && ui
                .add_enabled(
                    !running && current,
                    egui::Button::new(copy::LABEL_SAVE_TUNED),
                )
                .clicked()
        {
            commands.push(CorpusCommand::SaveTuned.into());
        }
    }
    commands
}

/// A bound's box and its value (named by the box), the value editable
/// while the box is ticked; `(least, most, speed)` of the value.
fn bound(
    ui: &mut Ui,
    on: &mut bool,
    value: &mut Option<f64>,
    label: &str,
    (least, most, speed): (f64, f64, f64),
) {
    let label = ui.checkbox(on, label).id;
    if let Some(value) = value {
        let drag = egui::DragValue::new(value).range(least..=most).speed(speed);
        ui.add_enabled(*on, drag).labelled_by(label);
    }
}

fn steps(ui: &mut Ui, tuning: &Tuning) {
    let percent = |r: Option<f64>| crate::copy::percent_or_dash(r, 1);
    let per = crate::copy::per_site_or_dash;
    egui::Grid::new("corpus_tuning_steps")
        .striped(true)
        .num_columns(copy::TUNING_STEP_COLUMNS.len())
        .show(ui, |ui| {
            for title in copy::TUNING_STEP_COLUMNS {
                ui.label(RichText::new(title).strong());
            }
            ui.end_row();
            for (i, step) in tuning.steps.iter().enumerate() {
                let s = &step.suggestion;
                ui.label((i + 1).to_string());
                ui.label(copy::change_words(&s.change));
                ui.label(s.pages_gained.len().to_string());
                ui.label(s.validated_gain().to_string());
                ui.label(s.pages_lost.len().to_string());
                ui.label(percent(step.metrics.site_recall()));
                ui.label(percent(step.metrics.precision()));
                ui.label(per(step.metrics.followed_per_page()));
                ui.end_row();
            }
        });
    ui.label(copy::tuning_stopped(tuning));
    ui.label(RichText::new(copy::cross_validated_line(tuning)).strong());
}
