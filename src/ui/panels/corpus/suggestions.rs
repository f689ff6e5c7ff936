//! The missed targets with their reasons, and the suggestions: single
//! changes of A tried over the labelled pages, each with Try as B and Save
//! as profile…; a click on a change narrows the tables to its pages.

use egui::{RichText, Sense, Ui};
use egui_extras::{Column, TableBuilder};

use super::filter::kept_pages;
use super::pages::open_page;
use super::state::{CorpusState, Filter};
use crate::copy;
use crate::corpus::CorpusRun;
use crate::corpus::truth::{Evaluation, Missed};
use crate::ui::command::{Command, CorpusCommand};

/// The missed targets of A (and B), kept to the filter's pages.
pub fn missed(
    ui: &mut Ui,
    run: &CorpusRun,
    evaluation: &Evaluation,
    state: &CorpusState,
) -> Option<Command> {
    let kept = kept_pages(run, state.filter.as_ref());
    let sides = [
        (copy::SIDE_A, Some(&evaluation.missed)),
        (copy::SIDE_B, evaluation.missed_b.as_ref()),
    ];
    let rows: Vec<(&str, &Missed)> = sides
        .into_iter()
        .filter_map(|(side, list)| Some((side, list?)))
        .flat_map(|(side, list)| list.iter().map(move |m| (side, m)))
        .filter(|(_, m)| kept.as_ref().is_none_or(|k| k.contains(m.id.as_str())))
        .collect();
    if rows.is_empty() {
        ui.label(RichText::new(copy::NO_MISSED).weak());
        return None;
    }
    let mut command = None;
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let shown_rows = super::capped::rows(ui, rows.len());
    TableBuilder::new(ui)
        .id_salt("corpus_missed")
        .striped(true)
        .sense(Sense::click())
        .vscroll(false)
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        .column(Column::auto().at_least(48.0))
        .column(Column::auto().at_least(36.0))
        .column(Column::auto().at_least(60.0))
        .column(Column::initial(280.0).at_least(80.0).clip(true))
        .column(Column::initial(150.0).at_least(60.0).clip(true))
        .column(Column::remainder().at_least(160.0).clip(true))
        .header(row_height, |mut header| {
            for title in copy::MISSED_COLUMNS {
                header.col(|ui| {
                    ui.label(RichText::new(title).strong());
                });
            }
        })
        .body(|body| {
            body.rows(row_height, shown_rows, |mut row| {
                let Some((side, missed)) = rows.get(row.index()) else {
                    return;
                };
                let cells = [
                    missed.id.clone(),
                    (*side).to_owned(),
                    missed.target.kind.id().to_owned(),
                    missed.target.url.clone(),
                    missed.text.clone().unwrap_or_default(),
                    copy::target_reason(&missed.why),
                ];
                for cell in cells {
                    row.col(|ui| {
                        ui.add(egui::Label::new(cell).truncate().selectable(false));
                    });
                }
                let response = row.response().on_hover_text(copy::OPEN_CORPUS_PAGE);
                let page = run.pages.iter().find(|p| p.id == missed.id);
                let link = candidate_of(evaluation, missed);
                command = command
                    .take()
                    .or_else(|| page.and_then(|p| open_page(&response, p, link)));
            });
        });
    command
}

/// The candidate that carries a missed target, when its page has one.
fn candidate_of(evaluation: &Evaluation, missed: &Missed) -> Option<usize> {
    evaluation
        .page(&missed.id)?
        .targets
        .iter()
        .find(|t| t.target == missed.target)?
        .index
}

/// The suggestions, best first, their actions in the first column: a
/// change's words can be long, and the actions stay in view however wide
/// the rest of the table is (at 1024×700 with the settings open, last, they
/// were cut).
/// `running`: a run is going, so nothing can be tried or saved from it yet.
pub fn suggestions(
    ui: &mut Ui,
    evaluation: &Evaluation,
    state: &mut CorpusState,
    running: bool,
) -> Vec<Command> {
    let mut commands = Vec::new();
    if evaluation.suggestions.is_empty() {
        ui.label(RichText::new(copy::NO_SUGGESTIONS).weak());
        return commands;
    }
    ui.label(
        RichText::new(copy::suggestions_heading(
            evaluation.suggestions.len(),
            evaluation.candidates_tried,
        ))
        .weak(),
    );
    if let Some(Filter::Suggestion(index)) = state.filter
        && let Some(chosen) = evaluation.suggestions.get(index)
    {
        ui.label(copy::chosen_suggestion_line(chosen));
    }
    egui::Grid::new("corpus_suggestions")
        .striped(true)
        .num_columns(copy::SUGGESTION_TABLE_HEADERS.len())
        .show(ui, |ui| {
            for title in copy::SUGGESTION_TABLE_HEADERS {
                ui.label(RichText::new(title).strong());
            }
            ui.end_row();
            for (index, suggestion) in evaluation.suggestions.iter().enumerate() {
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(!running, egui::Button::new(copy::LABEL_TRY_AS_B))
                        .on_hover_text(copy::TRY_AS_B_TOOLTIP)
                        .clicked()
                    {
                        commands.push(CorpusCommand::TrySuggestion(index).into());
                    }
                    if ui
                        .add_enabled(!running, egui::Button::new(copy::LABEL_SAVE_SUGGESTION))
                        .clicked()
                    {
                        commands.push(CorpusCommand::SaveSuggestion(index).into());
                    }
                });
                let filter = Filter::Suggestion(index);
                let chosen = state.filter.as_ref() == Some(&filter);
                let mut words = copy::change_words(&suggestion.change);
                if !suggestion.alternatives.is_empty() {
                    words = format!(
                        "{words} {}",
                        copy::alternatives_words(&suggestion.alternatives)
                    );
                }
                if ui
                    .selectable_label(chosen, words)
                    .on_hover_text(copy::SUGGESTION_TOOLTIP)
                    .clicked()
                {
                    state.filter = if chosen { None } else { Some(filter) };
                }
                ui.label(copy::page_ids(&suggestion.pages_gained));
                // The count keeps the table narrow; the words are a hover
                // away, and under the heading for the suggestion chosen.
                ui.label(copy::validated_cell(suggestion))
                    .on_hover_text(copy::validated_words(suggestion));
                ui.label(copy::page_ids(&suggestion.pages_lost));
                ui.label(suggestion.targets_gained.to_string());
                ui.label(suggestion.non_targets_gained.to_string());
                ui.end_row();
            }
        });
    commands
}
