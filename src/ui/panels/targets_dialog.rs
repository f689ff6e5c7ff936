//! The targets file dialogs: which file links are marked in, and whether
//! to create one that does not exist.

use crate::copy;
use crate::ui::command::{Command, TargetsCommand, ViewCommand};
use crate::ui::panels::dialog_fields::{
    browse_button, buttons, enter_pressed, opens_now, path_field, take_keyboard,
};
use crate::ui::state::FilePurpose;

/// The path typed or browsed for; Use (or Enter) opens it.
pub(super) fn choose(ui: &mut egui::Ui, path: &mut String, browsing: bool) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.heading(copy::TARGETS_FILE_TITLE);
    let opening = opens_now(ui, "targets-file");
    crate::ui::widgets::note(ui, copy::TARGETS_FILE_NOTE);
    let mut entered = false;
    ui.horizontal(|ui| {
        let label = ui.label(copy::LABEL_TARGETS_PATH).id;
        let field = path_field(ui, label, path, copy::TARGETS_PATH_HINT, 300.0);
        if opening {
            take_keyboard(ui, &field, path);
        }
        entered = enter_pressed(ui, &field);
        if browse_button(ui, browsing) {
            commands.push(ViewCommand::BrowseFile(FilePurpose::TargetsFile).into());
        }
    });
    let ready = !path.trim().is_empty();
    let (used, cancel) = ui
        .horizontal(|ui| {
            let used = ui
                .add_enabled(ready, egui::Button::new(copy::LABEL_USE))
                .clicked();
            (used, ui.button(copy::LABEL_CANCEL).clicked())
        })
        .inner;
    if ready && (used || entered) {
        commands.push(
            TargetsCommand::UseTargetsFile {
                path: path.trim().to_owned(),
                create: false,
            }
            .into(),
        );
    }
    if cancel {
        commands.push(ViewCommand::CloseDialog.into());
    }
    commands
}

/// The file does not exist: Create writes it with the header, Cancel goes
/// back to the path.
pub(super) fn create(ui: &mut egui::Ui, path: &str) -> Vec<Command> {
    ui.label(copy::create_targets_question(path));
    let (create, cancel) = buttons(ui, copy::LABEL_CREATE);
    let mut commands = Vec::new();
    if create {
        commands.push(
            TargetsCommand::UseTargetsFile {
                path: path.to_owned(),
                create: true,
            }
            .into(),
        );
    }
    if cancel {
        commands.push(
            ViewCommand::OpenDialog(crate::ui::state::Dialog::TargetsFile {
                path: path.to_owned(),
            })
            .into(),
        );
    }
    commands
}
