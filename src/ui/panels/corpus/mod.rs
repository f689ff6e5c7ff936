//! The corpus view, a tuning workbench: a folder, manifest or archive of
//! saved pages run under the current profile (A) and the compared one (B),
//! measured against a targets file when there is one. On top the
//! scoreboard; then the page table (sortable; a click opens the page in the
//! inspector), the followed links gained and lost, the changed links by
//! cause, the missed targets, the suggestions (Try as B, Save as profile…)
//! and the keywords. A cause or a suggestion clicked narrows the tables to
//! what it changes, until its chip (or Escape) clears it.

mod capped;
mod causes;
mod controls;
mod filter;
mod keywords;
mod links;
mod pages;
mod scoreboard;
mod sort;
mod stale;
mod state;
mod suggestions;
mod truth_chart;
mod tuning;

use egui::{RichText, Ui};

use crate::copy;
use crate::corpus::CorpusRun;
use crate::ui::command::Command;
use state::Filter;
pub use state::{CorpusState, CorpusView, RunInputs};

/// The chip that says what the tables are narrowed to; a click (or Escape)
/// clears it.
fn filter_chip(ui: &mut Ui, run: &CorpusRun, state: &mut CorpusState, view: &CorpusView<'_>) {
    let Some(filter) = &state.filter else {
        return;
    };
    let what = match filter {
        Filter::Cause(cause) => copy::because(cause),
        Filter::Suggestion(index) => run
            .evaluation
            .as_ref()
            .and_then(|e| e.suggestions.get(*index))
            .map(|s| copy::change_words(&s.change))
            .unwrap_or_default(),
    };
    let clicked = ui
        .button(copy::filtered_by(&what))
        .on_hover_text(copy::FILTER_CHIP_TOOLTIP)
        .clicked();
    let escape = view.keyboard && ui.input(|i| i.key_pressed(egui::Key::Escape));
    if clicked || escape {
        state.filter = None;
    }
}

/// Everything below the page table, in one scroll area.
fn below(
    ui: &mut Ui,
    run: &CorpusRun,
    state: &mut CorpusState,
    view: &CorpusView<'_>,
) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.label(copy::nothing_followed_line(
        copy::SIDE_A,
        &run.nothing_followed(false),
    ));
    if run.b.is_some() {
        ui.label(copy::nothing_followed_line(
            copy::SIDE_B,
            &run.nothing_followed(true),
        ));
        egui::CollapsingHeader::new(copy::CHANGED_LINKS_HEADING)
            .id_salt("corpus_changed_links_section")
            .default_open(true)
            .show(ui, |ui| commands.extend(links::show(ui, run, state)));
        egui::CollapsingHeader::new(copy::CAUSES_HEADING)
            .id_salt("corpus_causes")
            .default_open(true)
            .show(ui, |ui| causes::show(ui, run, state));
    }
    if let Some(evaluation) = &run.evaluation {
        egui::CollapsingHeader::new(copy::SUGGESTIONS_HEADING)
            .id_salt("corpus_suggestions_section")
            .default_open(true)
            .show(ui, |ui| {
                let running = view.running.is_some();
                commands.extend(suggestions::suggestions(ui, evaluation, state, running));
            });
        egui::CollapsingHeader::new(copy::TUNING_HEADING)
            .id_salt("corpus_tuning_section")
            .default_open(true)
            .show(ui, |ui| {
                let running = view.running.is_some();
                commands.extend(tuning::show(ui, state, running, view.a));
            });
        egui::CollapsingHeader::new(copy::MISSED_HEADING)
            .id_salt("corpus_missed_section")
            .default_open(true)
            .show(ui, |ui| {
                commands.extend(suggestions::missed(ui, run, evaluation, state));
            });
    }
    // The charts are long: folded until asked for.
    egui::CollapsingHeader::new(copy::CHARTS_HEADING)
        .id_salt("corpus_charts_section")
        .default_open(false)
        .show(ui, |ui| {
            keywords::chart(ui, run);
            if let Some(evaluation) = &run.evaluation {
                truth_chart::show(ui, evaluation);
            }
        });
    egui::CollapsingHeader::new(copy::KEYWORDS_HEADING)
        .id_salt("corpus_keywords_section")
        .default_open(true)
        .show(ui, |ui| keywords::grid(ui, run));
    commands
}

/// Draws the corpus view.
pub fn show(ui: &mut Ui, state: &mut CorpusState, view: &CorpusView<'_>) -> Vec<Command> {
    let mut commands = controls::show(ui, state, view);
    // The run is taken out while its tables draw, so they can change the
    // view's filter and order.
    let Some(run) = state.run.take() else {
        ui.add_space(12.0);
        ui.label(RichText::new(copy::CORPUS_EMPTY).italics());
        return commands;
    };
    ui.separator();
    commands.extend(stale::banner(ui, state, view));
    scoreboard::targets_notes(ui, &run, state);
    if let Some(evaluation) = &run.evaluation {
        scoreboard::show(ui, evaluation);
    }
    ui.label(RichText::new(copy::corpus_summary(&run)).strong());
    if let Some(stats) = &run.archives {
        controls::archive_lines(ui, stats, run.pages.len());
    }
    filter_chip(ui, &run, state, view);
    // Keys move the page table's selection unless a field is being typed in.
    let keyboard = view.keyboard && ui.memory(|m| m.focused().is_none());
    // The page table and what is below it share the room by a split the
    // user drags, as the inspector's crawled pages do.
    let room = ui.available_height();
    let row = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let needed = row * (run.pages.len() as f32 + 2.0) + 24.0;
    let least = (row * 4.0).min(room * 0.5);
    egui::Panel::top("corpus_pages_split")
        .resizable(true)
        .default_size(needed.min(room * 0.45).max(least))
        .size_range(least..=(room * 0.85).max(least))
        .show(ui, |ui| {
            let height = ui.available_height() - row;
            commands.extend(pages::table(ui, &run, state, height, keyboard));
        });
    // Both ways: a table wider than the view (the suggestions, the missed
    // targets) scrolls sideways with Shift+wheel instead of being cut.
    egui::ScrollArea::both()
        .id_salt("corpus_below")
        .auto_shrink([false, false])
        .show(ui, |ui| commands.extend(below(ui, &run, state, view)));
    state.run = Some(run);
    commands
}

#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod panel_tests;
#[cfg(test)]
mod stale_tests;
