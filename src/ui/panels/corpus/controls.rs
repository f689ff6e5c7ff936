//! The corpus view's controls: the folder, manifest or archive and the
//! targets file (typed, chosen or cleared), Run and Cancel, the sides, the
//! progress, and what the archives held besides pages.

use egui::Ui;

use super::state::{CorpusState, CorpusView};
use crate::copy;
use crate::ui::command::{Command, CorpusCommand, ViewCommand};
use crate::ui::state::CorpusProgress;
use crate::ui::state::FilePurpose;
use crate::ui::{palette, widgets};

fn browse(
    ui: &mut Ui,
    label: &str,
    purpose: FilePurpose,
    view: &CorpusView<'_>,
) -> Option<Command> {
    ui.add_enabled(!view.browsing, egui::Button::new(label))
        .clicked()
        .then_some(ViewCommand::BrowseFile(purpose).into())
}

/// The targets file: typed or chosen, empty for the one beside the corpus,
/// or none at all. Enter in its field runs, as in the corpus field.
fn targets_row(ui: &mut Ui, state: &mut CorpusState, view: &CorpusView<'_>) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.horizontal_wrapped(|ui| {
        let hint = if state.targets_off {
            copy::TARGETS_HINT_OFF
        } else {
            copy::TARGETS_HINT_BESIDE
        };
        let field = widgets::labelled_field(
            ui,
            copy::LABEL_TARGETS_PATH,
            &mut state.targets,
            "corpus_targets",
            hint,
            360.0,
        );
        if field.changed() && !state.targets.trim().is_empty() {
            state.targets_off = false;
        }
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if enter && view.running.is_none() && !state.path.trim().is_empty() {
            commands.push(CorpusCommand::RunCorpus.into());
        }
        commands.extend(browse(
            ui,
            copy::LABEL_CHOOSE_TARGETS,
            FilePurpose::CorpusTargets,
            view,
        ));
        if state.targets_off {
            if ui.button(copy::LABEL_TARGETS_BESIDE).clicked() {
                state.targets_off = false;
            }
        } else if ui
            .button(copy::LABEL_CLEAR_TARGETS)
            .on_hover_text(copy::CLEAR_TARGETS_TOOLTIP)
            .clicked()
        {
            state.targets.clear();
            state.targets_off = true;
        }
    });
    commands
}

pub fn show(ui: &mut Ui, state: &mut CorpusState, view: &CorpusView<'_>) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.horizontal_wrapped(|ui| {
        let field = widgets::labelled_field(
            ui,
            copy::LABEL_CORPUS_PATH,
            &mut state.path,
            "corpus_path",
            copy::CORPUS_PATH_HINT,
            360.0,
        );
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        for (label, purpose) in [
            (copy::LABEL_CHOOSE_FOLDER, FilePurpose::CorpusFolder),
            (copy::LABEL_CHOOSE_MANIFEST, FilePurpose::CorpusManifest),
            (copy::LABEL_CHOOSE_ARCHIVE, FilePurpose::CorpusArchive),
        ] {
            commands.extend(browse(ui, label, purpose, view));
        }
        if view.running.is_some() {
            if ui.button(copy::LABEL_CANCEL).clicked() {
                commands.push(CorpusCommand::CancelCorpus.into());
            }
        } else if (ui
            .add_enabled(
                !state.path.trim().is_empty(),
                egui::Button::new(copy::LABEL_RUN_CORPUS),
            )
            .clicked()
            || enter)
            && !state.path.trim().is_empty()
        {
            commands.push(CorpusCommand::RunCorpus.into());
        }
    });
    commands.extend(targets_row(ui, state, view));
    // With a run shown, the line says what it was made with: the banner over
    // it names what is on screen now, if that differs.
    let sides = match (&state.made_with, &state.run) {
        (Some(made), Some(_)) => copy::shown_run_sides(
            &made.profile,
            made.edited,
            made.compared.as_ref().map(|(name, _)| name.as_str()),
            made.depth,
        ),
        _ => copy::corpus_sides(view.profile, view.edited, view.compared, view.depth),
    };
    widgets::note(ui, &sides);
    let progress = match view.running {
        Some(CorpusProgress::Pages { done, total }) => {
            Some((done, total, copy::corpus_progress(done, total)))
        }
        Some(CorpusProgress::Suggesting { tried, total }) => {
            Some((tried, total, copy::trying_suggestions(tried, total)))
        }
        Some(CorpusProgress::Tuning(p)) => {
            let (done, total) = match p {
                crate::corpus::truth::TuneProgress::Step { step, of } => (step, of),
                crate::corpus::truth::TuneProgress::Fold { fold, folds, .. } => (fold, folds),
            };
            Some((done, total, copy::tuning_progress(p)))
        }
        None => None,
    };
    if let Some((done, total, words)) = progress {
        let fraction = if total == 0 {
            0.0
        } else {
            done as f32 / total as f32
        };
        ui.add(egui::ProgressBar::new(fraction).text(words).animate(true));
    }
    if let Some(error) = &state.error {
        ui.colored_label(palette::error(ui.visuals().dark_mode), error);
    }
    commands
}

/// What the archives held besides pages: the skipped kinds, then each
/// damaged or unreadable record (at most a few, the rest counted).
pub fn archive_lines(ui: &mut Ui, stats: &crate::corpus::ArchiveStats, pages: usize) {
    const SHOWN: usize = 5;
    ui.label(copy::archive_summary(stats, pages));
    let dark = ui.visuals().dark_mode;
    let damaged = stats
        .damaged
        .iter()
        .map(|p| (copy::damaged_record_line(p), true));
    let unreadable = stats
        .unreadable
        .iter()
        .map(|p| (copy::unreadable_record_line(p), false));
    // Only the lines shown are worded: the lists can be long.
    let warnings = stats
        .warnings
        .iter()
        .map(|w| (copy::record_warning_line(w), false));
    let shown: Vec<(String, bool)> = damaged
        .chain(unreadable)
        .chain(warnings)
        .take(SHOWN)
        .collect();
    for (line, is_damage) in &shown {
        if *is_damage {
            ui.colored_label(palette::error(dark), line);
        } else {
            ui.label(line);
        }
    }
    let total = stats.problem_count();
    if total > shown.len() {
        ui.label(copy::more_chips(total - shown.len()));
    }
}
