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
        let label = ui
            .checkbox(&mut state.tune_bound_per_page, copy::LABEL_TUNE_PER_PAGE)
            .id;
        if let Some(max) = &mut state.tune_ask.max_followed_per_page {
            let value = egui::DragValue::new(max).range(0.5..=100.0).speed(0.1);
            ui.add_enabled(state.tune_bound_per_page, value)
                .labelled_by(label);
        }
        let label = ui
            .checkbox(&mut state.tune_bound_precision, copy::LABEL_TUNE_PRECISION)
            .id;
        if let Some(min) = &mut state.tune_ask.min_precision {
            let value = egui::DragValue::new(min).range(0.0..=1.0).speed(0.01);
            ui.add_enabled(state.tune_bound_precision, value)
                .labelled_by(label);
        }
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

fn steps(ui: &mut Ui, tuning: &Tuning) {
    let percent = |r: Option<f64>| r.map_or("–".to_owned(), |r| format!("{:.1}%", r * 100.0));
    let per = |r: Option<f64>| r.map_or("–".to_owned(), |r| format!("{r:.2}"));
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
