//! The profile selector (with an unsaved-changes dot) and its actions menu.

use egui::Ui;

use crate::copy;
use crate::profiles::BUILT_IN;
use crate::ui::command::{Command, ComparisonCommand, ProfileCommand, ViewCommand};
use crate::ui::state::{Dialog, NameAction};

pub struct ProfileView<'a> {
    pub names: &'a [String],
    pub current: &'a str,
    pub dirty: bool,
    /// Profile work is running on its thread.
    pub busy: bool,
    /// The profile the pages are compared with, if any.
    pub comparing: Option<&'a str>,
}

pub fn show(ui: &mut Ui, view: &ProfileView<'_>) -> Vec<Command> {
    let mut commands = Vec::new();
    let label = ui.label(copy::LABEL_PROFILE).id;
    let shown = if view.dirty {
        format!("{} {}", view.current, copy::UNSAVED_MARK)
    } else {
        view.current.to_owned()
    };
    egui::ComboBox::from_id_salt("profile")
        .selected_text(shown)
        .width(170.0)
        .show_ui(ui, |ui| {
            for name in view.names {
                if ui.selectable_label(name == view.current, name).clicked() && name != view.current
                {
                    commands.push(ProfileCommand::SwitchProfile(name.clone()).into());
                }
            }
        })
        .response
        .labelled_by(label)
        .on_hover_text(if view.dirty {
            copy::PROFILE_DIRTY_TOOLTIP
        } else {
            copy::PROFILE_TOOLTIP
        });
    let built_in = view.current == BUILT_IN;
    if ui
        .add_enabled(view.dirty && !built_in, egui::Button::new(copy::LABEL_SAVE))
        .on_disabled_hover_text(if built_in {
            copy::BUILT_IN_READ_ONLY
        } else {
            copy::NO_UNSAVED_CHANGES
        })
        .clicked()
    {
        commands.push(ProfileCommand::SaveProfile.into());
    }
    ui.menu_button("⋯", |ui| {
        let mut item = |ui: &mut Ui, enabled: bool, text: &str, dialog: Dialog| {
            if ui.add_enabled(enabled, egui::Button::new(text)).clicked() {
                commands.push(ViewCommand::OpenDialog(dialog).into());
            }
        };
        item(
            ui,
            true,
            copy::LABEL_SAVE_AS,
            Dialog::name_entry(NameAction::SaveAs, ""),
        );
        item(
            ui,
            !built_in,
            copy::LABEL_RENAME,
            Dialog::name_entry(NameAction::Rename, view.current),
        );
        item(
            ui,
            true,
            copy::LABEL_DUPLICATE,
            Dialog::name_entry(NameAction::Duplicate, &copy::copy_name(view.current)),
        );
        item(ui, !built_in, copy::LABEL_DELETE, Dialog::ConfirmDelete);
        ui.separator();
        item(ui, true, copy::LABEL_IMPORT, Dialog::import());
        item(
            ui,
            true,
            copy::LABEL_EXPORT,
            Dialog::Export {
                path: String::new(),
            },
        );
    })
    .response
    .on_hover_text(copy::LABEL_PROFILE_MENU);
    if view.busy {
        ui.spinner().on_hover_text(copy::PROFILES_BUSY);
    }
    commands
}

/// "Compare with…": a second profile whose verdicts show beside the current
/// ones. The app puts it after the profile bar; a narrow window has it in the
/// top bar's More menu instead.
pub fn compare_picker(ui: &mut Ui, view: &ProfileView<'_>) -> Option<Command> {
    let mut command = None;
    let label = ui.label(copy::LABEL_COMPARE_WITH).id;
    egui::ComboBox::from_id_salt("compare_with")
        .selected_text(view.comparing.unwrap_or(copy::LABEL_COMPARE_NONE))
        .width(150.0)
        .show_ui(ui, |ui| {
            if ui
                .selectable_label(view.comparing.is_none(), copy::LABEL_COMPARE_NONE)
                .clicked()
                && view.comparing.is_some()
            {
                command = Some(ComparisonCommand::CompareWith(None).into());
            }
            for name in view.names {
                if ui
                    .selectable_label(view.comparing == Some(name.as_str()), name)
                    .clicked()
                {
                    command = Some(ComparisonCommand::CompareWith(Some(name.clone())).into());
                }
            }
        })
        .response
        .labelled_by(label)
        .on_hover_text(copy::COMPARE_TOOLTIP);
    command
}
