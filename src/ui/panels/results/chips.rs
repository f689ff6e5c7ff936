//! The chips above the table: one per verdict (click to hide, double-click
//! or right-click for "only this"), and the added-by-script and only-changed
//! switches, and with a targets file the chip of the page's targets.

use egui::{RichText, Ui};

use super::rows::{PageCompare, PageTargets};
use super::view::ResultsState;
use crate::copy;
use crate::inspect::{InspectedPage, LinkSource};
use crate::policy::Verdict;
use crate::ui::palette;

/// A chip that narrows the table to one kind of link while it is on.
fn toggle_chip(ui: &mut Ui, text: String, color: egui::Color32, on: bool, tooltip: &str) -> bool {
    let dark = ui.visuals().dark_mode;
    ui.add(
        egui::Button::new(RichText::new(text).color(color))
            .fill(palette::chip_fill(dark))
            .selected(on)
            .stroke(egui::Stroke::new(if on { 2.0 } else { 1.0 }, color)),
    )
    .on_hover_text(tooltip)
    .clicked()
}

/// Rendered mode: the chip that shows only the links scripts added.
fn added_by_script_chip(ui: &mut Ui, page: &InspectedPage, state: &mut ResultsState) {
    let added = page
        .decision
        .links
        .iter()
        .filter(|l| page.source(l) == Some(LinkSource::RenderedOnly))
        .count();
    let color = palette::added_by_script(ui.visuals().dark_mode);
    let on = state.filter.only_added_by_script;
    if toggle_chip(
        ui,
        copy::added_by_script_chip(added),
        color,
        on,
        copy::ADDED_BY_SCRIPT_TOOLTIP,
    ) {
        state.filter.only_added_by_script = !on;
    }
}

/// Comparing: the chip that shows only the changed links.
fn changed_chip(ui: &mut Ui, comparison: PageCompare<'_>, state: &mut ResultsState) {
    let color = palette::changed(ui.visuals().dark_mode);
    let on = state.filter.only_changed;
    let text = format!("{} {}", copy::LABEL_ONLY_CHANGED, comparison.changes.len());
    if toggle_chip(ui, text, color, on, copy::ONLY_CHANGED_TOOLTIP) {
        state.filter.only_changed = !on;
    }
}

/// A targets file is in use: the chip that shows only the page's targets.
fn targets_chip(
    ui: &mut Ui,
    page: &InspectedPage,
    targets: PageTargets<'_>,
    state: &mut ResultsState,
) {
    let n = page
        .decision
        .links
        .iter()
        .filter(|l| targets.kind_of(l).is_some())
        .count();
    let color = palette::target(ui.visuals().dark_mode);
    let on = state.filter.only_targets;
    if toggle_chip(
        ui,
        copy::targets_chip(n),
        color,
        on,
        copy::TARGETS_CHIP_TOOLTIP,
    ) {
        state.filter.only_targets = !on;
    }
}

/// The chips, wrapped; or, when `one_row` (the room is short), on one row
/// that scrolls sideways (Shift+wheel), so the table keeps its rows.
pub(super) fn verdict_chips(
    ui: &mut Ui,
    page: &InspectedPage,
    comparison: Option<PageCompare<'_>>,
    targets: Option<PageTargets<'_>>,
    state: &mut ResultsState,
    one_row: bool,
) {
    if one_row {
        egui::ScrollArea::horizontal()
            .id_salt("verdict_chips")
            .show(ui, |ui| {
                ui.horizontal(|ui| chips(ui, page, comparison, targets, state));
            });
    } else {
        ui.horizontal_wrapped(|ui| chips(ui, page, comparison, targets, state));
    }
}

fn chips(
    ui: &mut Ui,
    page: &InspectedPage,
    comparison: Option<PageCompare<'_>>,
    targets: Option<PageTargets<'_>>,
    state: &mut ResultsState,
) {
    let dark = ui.visuals().dark_mode;
    if let Some(targets) = targets {
        targets_chip(ui, page, targets, state);
        ui.separator();
    }
    if page.rendered().is_some() {
        added_by_script_chip(ui, page, state);
        ui.separator();
    }
    if let Some(comparison) = comparison {
        changed_chip(ui, comparison, state);
        ui.separator();
    }
    for verdict in Verdict::ALL.iter().rev().copied() {
        let n = page.decision.count(verdict);
        let shown = !state.filter.hidden.contains(&verdict);
        let color = palette::verdict(verdict, dark);
        let mut text = RichText::new(format!("{} {n}", copy::verdict_badge(verdict)));
        text = if shown {
            text.color(color)
        } else {
            text.color(palette::hidden_chip_text(dark)).strikethrough()
        };
        let response = ui
            .add(
                egui::Button::new(text)
                    .fill(palette::chip_fill(dark))
                    .stroke(egui::Stroke::new(if shown { 1.5 } else { 0.5 }, color)),
            )
            .on_hover_text(copy::verdict_chip_tooltip(verdict, shown));
        if response.double_clicked() {
            state.filter.show_only(verdict);
        } else if response.clicked() {
            if shown {
                state.filter.hidden.insert(verdict);
            } else {
                state.filter.hidden.remove(&verdict);
            }
        }
        response.context_menu(|ui| {
            if ui.button(copy::LABEL_SHOW_ONLY).clicked() {
                state.filter.show_only(verdict);
                ui.close();
            }
            if ui
                .add_enabled(
                    !state.filter.hidden.is_empty(),
                    egui::Button::new(copy::LABEL_SHOW_ALL),
                )
                .clicked()
            {
                state.filter.hidden.clear();
                ui.close();
            }
        });
    }
}
