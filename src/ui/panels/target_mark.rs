//! The detail pane's target section: whether the selected link is a target
//! in the targets file, Mark as target… with its kind chooser, Not a
//! target, and the choice of the file.

use std::path::Path;

use egui::{RichText, Ui};

use crate::copy;
use crate::corpus::truth::TargetKind;
use crate::ui::command::{Command, TargetsCommand, ViewCommand};
use crate::ui::palette;
use crate::ui::state::Dialog;

/// What the section shows.
pub struct TargetMark<'a> {
    /// The targets file's name and path, when one is in use.
    pub file: Option<&'a str>,
    pub path: Option<&'a Path>,
    /// The selected link's kind in it.
    pub kind: Option<TargetKind>,
    /// The kind chooser is open.
    pub choosing: bool,
    /// The last mark can be undone.
    pub can_undo: bool,
}

/// Draws the section; returns what its buttons ask.
pub fn section(ui: &mut Ui, mark: &TargetMark<'_>) -> Vec<Command> {
    let mut commands = Vec::new();
    let dark = ui.visuals().dark_mode;
    ui.horizontal_wrapped(|ui| {
        match mark.file {
            Some(file) => {
                let line = RichText::new(copy::target_line(mark.kind, file));
                let line = if mark.kind.is_some() {
                    line.color(palette::target(dark))
                } else {
                    line
                };
                ui.label(line);
            }
            None => {
                ui.label(RichText::new(copy::NO_TARGETS_FILE).weak());
            }
        }
        let chooser = ui
            .button(copy::LABEL_TARGETS_FILE)
            .on_hover_text(copy::TARGETS_FILE_TOOLTIP);
        if chooser.clicked() {
            let path = mark
                .path
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            commands.push(ViewCommand::OpenDialog(Dialog::TargetsFile { path }).into());
        }
    });
    let in_use = mark.file.is_some();
    ui.horizontal_wrapped(|ui| {
        let label = if mark.kind.is_some() {
            copy::LABEL_CHANGE_KIND
        } else {
            copy::LABEL_MARK_TARGET
        };
        let button = ui
            .add_enabled(in_use, egui::Button::new(label).selected(mark.choosing))
            .on_hover_text(copy::MARK_TARGET_TOOLTIP)
            .on_disabled_hover_text(copy::CHOOSE_TARGETS_FILE_FIRST);
        if button.clicked() {
            commands.push(TargetsCommand::ChooseTargetKind(!mark.choosing).into());
        }
        if mark.kind.is_some()
            && ui
                .button(copy::LABEL_NOT_A_TARGET)
                .on_hover_text(copy::NOT_A_TARGET_TOOLTIP)
                .clicked()
        {
            commands.push(TargetsCommand::MarkTarget(None).into());
        }
        if mark.can_undo
            && ui
                .button(copy::LABEL_UNDO_MARK)
                .on_hover_text(copy::UNDO_MARK_TOOLTIP)
                .clicked()
        {
            commands.push(TargetsCommand::UndoMark.into());
        }
    });
    let open = mark.choosing && in_use;
    // Opened by T in a short window it may be below the fold: on the frame
    // it opens, it is scrolled into view.
    let was_open_id = egui::Id::unique("follow-inspector-kind-chooser-was-open");
    let was_open = ui
        .data(|d| d.get_temp::<bool>(was_open_id))
        .unwrap_or(false);
    ui.data_mut(|d| d.insert_temp(was_open_id, open));
    if open {
        let chooser = egui::Frame::group(ui.style()).show(ui, |ui| kind_chooser(ui, mark.kind));
        if !was_open {
            chooser.response.scroll_to_me(None);
        }
        commands.extend(chooser.inner);
    }
    commands
}

/// Contact, imprint or about: the link's kind is shown chosen.
fn kind_chooser(ui: &mut Ui, current: Option<TargetKind>) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.label(RichText::new(copy::WHICH_KIND).strong());
    ui.horizontal_wrapped(|ui| {
        for kind in TargetKind::ALL {
            let button = egui::Button::new(copy::kind_button(kind)).selected(current == Some(kind));
            if ui.add(button).clicked() {
                commands.push(TargetsCommand::MarkTarget(Some(kind)).into());
            }
        }
        if ui.button(copy::LABEL_CANCEL).clicked() {
            commands.push(TargetsCommand::ChooseTargetKind(false).into());
        }
    });
    ui.label(RichText::new(copy::KIND_KEYS).small().weak());
    commands
}
