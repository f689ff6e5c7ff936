//! The centre: page header, crawled pages, verdict chips, search and region
//! filter, and the table of every candidate link with keyboard navigation.

mod chips;
mod elide;
mod keys;
mod pages;
mod rows;
mod table;
mod view;

use egui::{Key, Modifiers, RichText, Ui};

use crate::copy;
use crate::policy::Region;
use crate::ui::command::{Command, LoadCommand, SelectionCommand, Subject};
use crate::ui::{palette, widgets};
pub use elide::{ELLIPSIS, elide_start};
pub use rows::{PageCompare, PageTargets};
pub use view::{ResultsState, ResultsView};

/// The links table keeps room for this many rows: the tree, the chips and
/// the banners above it give way first.
pub(crate) const MIN_ROWS: usize = 5;

/// "Region: all / nav / header / …": a filter by the part of the page.
fn region_filter(ui: &mut Ui, state: &mut ResultsState) {
    let label = ui.label(copy::LABEL_REGION).id;
    egui::ComboBox::from_id_salt("region_filter")
        .selected_text(
            state
                .filter
                .region
                .map_or(copy::LABEL_ALL_REGIONS, |r| r.id()),
        )
        .width(80.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut state.filter.region, None, copy::LABEL_ALL_REGIONS);
            for region in Region::ALL {
                ui.selectable_value(&mut state.filter.region, Some(region), region.id());
            }
        })
        .response
        .labelled_by(label)
        .on_hover_text(copy::REGION_TOOLTIP);
}

/// Draws the results.
pub fn show(ui: &mut Ui, view: &ResultsView<'_>, state: &mut ResultsState) -> Vec<Command> {
    let mut commands = Vec::new();
    let Some(inspection) = view.inspection else {
        ui.centered_and_justified(|ui| {
            ui.label(copy::NOTHING_SHOWN);
        });
        return commands;
    };
    let Some(current) = inspection.pages.get(view.page) else {
        return commands;
    };
    let dark = ui.visuals().dark_mode;

    if view.previous_result {
        ui.label(
            RichText::new(copy::PREVIOUS_RESULT)
                .italics()
                .color(palette::error_text(dark)),
        );
    }
    commands.extend(pages::header(ui, view, inspection, current));
    if view.stale_crawl
        && widgets::banner(
            ui,
            palette::stale_banner(dark),
            palette::stale_text(dark),
            copy::STALE_CRAWL,
            Some(copy::LABEL_CRAWL_AGAIN),
        )
    {
        commands.push(LoadCommand::CrawlAgain.into());
    }
    // What the table keeps whatever is above it: its header and MIN_ROWS
    // rows; and below the tree one row of chips, the search and a line.
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let line = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    // A row takes its height and the spacing between rows (24 px a row).
    let row_pitch = row_height + ui.spacing().item_spacing.y;
    let table_least = row_pitch * (MIN_ROWS as f32 + 1.0) + line;
    if inspection.pages.len() > 1
        && let Some(c) = pages::pages_list(
            ui,
            inspection,
            view.loaded,
            view.page,
            view.stale_crawl,
            table_least + 3.0 * line,
        )
    {
        commands.push(c);
    }
    if let Some(error) = current.error() {
        ui.colored_label(palette::error(dark), copy::page_failed(&error.to_string()));
    }
    if let Some(comparison) = view.comparison {
        ui.label(
            RichText::new(copy::comparison_line(
                comparison.name,
                &crate::policy::compare::summarize(comparison.changes),
            ))
            .color(palette::changed(dark)),
        );
    }
    // The chips wrap to up to three rows in a narrow centre; when that
    // would eat the table's rows, they keep to one row that scrolls sideways.
    let one_row = ui.available_height() < table_least + 5.0 * line;
    chips::verdict_chips(ui, current, view.comparison, view.targets, state, one_row);

    // A search belongs to the page it was typed on; moving between the pages
    // of one crawl keeps it, and the line under the field says so.
    if state.searched_in != Some(view.loaded) {
        state.searched_in = Some(view.loaded);
        state.filter.search.clear();
    }

    let search = ui
        .horizontal(|ui| {
            let search = widgets::labelled_field(
                ui,
                copy::LABEL_SEARCH,
                &mut state.filter.search,
                "search",
                copy::LABEL_SEARCH_HINT,
                260.0,
            );
            region_filter(ui, state);
            ui.label(RichText::new("⌨").weak())
                .on_hover_text(copy::KEYBOARD_HELP);
            search
        })
        .inner;
    if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::F)) {
        search.request_focus();
    }

    let rows = state
        .rows
        .rows(
            &state.filter,
            Some(current),
            (view.generation, view.page),
            view.comparison,
            view.targets,
        )
        .to_vec();
    if !state.filter.search.trim().is_empty() {
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(copy::search_note(
                    state.filter.search.trim(),
                    rows.len(),
                    current.decision.links.len(),
                ))
                .italics(),
            );
            if ui.small_button(copy::LABEL_CLEAR_SEARCH).clicked() {
                state.filter.search.clear();
            }
        });
    }
    // The detail pane shows nothing that the filters hide.
    if let Some(s) = view.selected
        && !rows.contains(&s)
    {
        commands.push(SelectionCommand::SelectLink(None).into());
    }
    let page_rows = ((ui.available_height() / row_height).floor() as usize)
        .saturating_sub(1)
        .max(1);
    // The keyboard moves the selection when no text field has it.
    let typing = ui.ctx().text_edit_focused();
    let selected_kind = view
        .selected
        .and_then(|s| current.decision.links.get(s))
        .and_then(|link| view.targets.as_ref()?.kind_of(link));
    if view.keyboard && !typing {
        if let Some(n) = keys::keyboard_selection(ui, &rows, view.selected, page_rows) {
            commands.push(SelectionCommand::SelectLink(Some(n)).into());
        }
        // Ctrl+Shift+C is ours alone: with no row selected the window says
        // so. A bare Ctrl+C may be copying selected text instead.
        if let Some(what) = keys::copy_shortcut(ui).filter(|what| {
            view.selected.is_some() || *what == crate::ui::state::CopyWhat::Explanation
        }) {
            commands.push(SelectionCommand::CopySelected(what).into());
        }
        if view.selected.is_some()
            && view.targets.is_some()
            && let Some(command) = keys::target_keys(ui, view.choosing_kind, selected_kind)
        {
            commands.push(command);
        }
    }
    table::removed_by_scripts(ui, current);
    // A selection moved by the keyboard is scrolled into view.
    let moved_to = commands.iter().find_map(|c| match c.subject() {
        Subject::Selection(SelectionCommand::SelectLink(Some(link))) => Some(*link),
        _ => None,
    });
    commands.extend(table::show(
        ui, view, state, current, &rows, row_height, moved_to,
    ));
    commands
}

#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod panel_tests;
