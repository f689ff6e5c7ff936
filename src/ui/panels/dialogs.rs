//! Modal dialogs: profile names, delete and discard confirmations, import,
//! export, and Save for ticket with its replace question.

use egui::{Id, Modal, RichText};

use crate::archive::SaveFormat;
use crate::copy;
use crate::ui::command::{ArchiveCommand, Command, ProfileCommand, ViewCommand};
use crate::ui::panels::dialog_fields::{
    browse_button, buttons, enter_pressed, keyboard_as_it_opens, opens_now, path_field,
};
use crate::ui::state::{AfterUnsaved, Dialog, FilePurpose, NameAction};

fn title(action: NameAction) -> &'static str {
    match action {
        NameAction::SaveAs => copy::SAVE_AS_TITLE,
        NameAction::Rename => copy::RENAME_TITLE,
        NameAction::Duplicate => copy::DUPLICATE_TITLE,
        NameAction::SaveSuggestion => copy::SAVE_SUGGESTION_TITLE,
    }
}

/// `error` is shown this pass and was not the pass before (the profiles
/// thread refused what OK sent, say).
fn error_is_new(ui: &egui::Ui, kind: &str, error: &Option<String>) -> bool {
    let id = Id::unique(("follow-inspector-dialog-error", kind));
    let last = ui.ctx().data_mut(|d| {
        let last = d.get_temp::<Option<String>>(id);
        d.insert_temp(id, error.clone());
        last
    });
    error.is_some() && last.flatten() != *error
}

fn error_line(ui: &mut egui::Ui, error: &Option<String>) {
    if let Some(e) = error {
        let color = crate::ui::palette::error(ui.visuals().dark_mode);
        ui.add(egui::Label::new(RichText::new(e).color(color)).wrap());
    }
}

/// Save for ticket's format, WARC or WACZ: the one the path's ending
/// names is chosen (the save tells the format by it too), and choosing the
/// other swaps the ending. Whether the path changed.
fn format_choice(ui: &mut egui::Ui, path: &mut String) -> bool {
    let shown = SaveFormat::of_path(path);
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label(copy::LABEL_ARCHIVE_FORMAT);
        for (format, label, tooltip) in [
            (
                SaveFormat::Warc,
                copy::LABEL_FORMAT_WARC,
                copy::FORMAT_WARC_TOOLTIP,
            ),
            (
                SaveFormat::Wacz,
                copy::LABEL_FORMAT_WACZ,
                copy::FORMAT_WACZ_TOOLTIP,
            ),
        ] {
            let chosen = shown == Some(format);
            if ui.radio(chosen, label).on_hover_text(tooltip).clicked() && !chosen {
                *path = format.name(path);
                changed = true;
            }
        }
    });
    changed
}

/// What the dialogs show besides their own fields.
pub struct DialogView<'a> {
    pub profile: &'a str,
    /// The profile is the built-in one, which cannot be saved over.
    pub built_in: bool,
    pub export_json: &'a str,
    /// A file dialog is already open.
    pub browsing: bool,
    /// Save for ticket is writing the archive.
    pub saving: bool,
    /// Save as profile… on a suggestion: which A it was measured on.
    pub measured_on: Option<&'a str>,
}

/// What the unsaved-changes question says: what is about to happen, and
/// whether the changes can be saved where they are.
fn unsaved_question(after: &AfterUnsaved, profile: &str, save_in_place: bool) -> String {
    // Saving into the profile about to go keeps nothing, so the question must
    // not read as if it did: it names the new profile the changes go to.
    if let AfterUnsaved::Delete(name) = after {
        return copy::delete_unsaved_question(name);
    }
    let doing = match after {
        AfterUnsaved::Quit => copy::QUITTING.to_owned(),
        AfterUnsaved::Switch(to) => copy::switching_to(to),
        AfterUnsaved::Import { name, .. } => copy::importing(name),
        AfterUnsaved::Rename { to, .. } => copy::renaming_to(to),
        AfterUnsaved::Duplicate { from, to } => copy::duplicating(from, to),
        AfterUnsaved::Delete(name) => copy::deleting(name),
        AfterUnsaved::UseArchiveSettings(_) => copy::USING_ARCHIVE_SETTINGS.to_owned(),
    };
    copy::unsaved_question(&doing, profile, save_in_place)
}

/// "Keep editing" goes back to the dialog that led to the question, with what
/// was typed in it; a switch, quit, delete or the archive banner's button had
/// none to go back to.
fn keep_editing(after: &AfterUnsaved) -> Command {
    match after {
        AfterUnsaved::Import { name, json, path } => ViewCommand::OpenDialog(Dialog::Import {
            name: name.clone(),
            json: json.clone(),
            path: path.clone(),
            error: None,
        })
        .into(),
        AfterUnsaved::Rename { to, .. } => {
            ViewCommand::OpenDialog(Dialog::name_entry(NameAction::Rename, to)).into()
        }
        AfterUnsaved::Duplicate { to, .. } => {
            ViewCommand::OpenDialog(Dialog::name_entry(NameAction::Duplicate, to)).into()
        }
        AfterUnsaved::Switch(_)
        | AfterUnsaved::Quit
        | AfterUnsaved::Delete(_)
        | AfterUnsaved::UseArchiveSettings(_) => ViewCommand::CloseDialog.into(),
    }
}

/// Draws the open dialog; returns the commands its buttons give. A text field
/// has the keyboard when its dialog opens, Enter in it confirms, Escape cancels
/// (in the unsaved-changes question: keeps editing).
pub fn show(ctx: &egui::Context, dialog: &mut Dialog, view: &DialogView<'_>) -> Vec<Command> {
    let profile = view.profile;
    let export_json = view.export_json;
    let mut commands = Vec::new();
    let on_escape = match dialog {
        Dialog::ConfirmDiscard(after) => keep_editing(after),
        // Not replacing goes back to where the archive was to be saved.
        Dialog::ConfirmOverwrite { path } => ViewCommand::OpenDialog(Dialog::SaveArchive {
            path: path.clone(),
            error: None,
        })
        .into(),
        Dialog::CreateTargets { path } => {
            ViewCommand::OpenDialog(Dialog::TargetsFile { path: path.clone() }).into()
        }
        _ => ViewCommand::CloseDialog.into(),
    };
    let modal = Modal::new(Id::unique("follow-inspector-dialog")).show(ctx, |ui| {
        ui.set_width(440.0);
        match dialog {
            Dialog::Name {
                action,
                name,
                error,
                then,
            } => {
                ui.heading(title(*action));
                if *action == NameAction::SaveSuggestion
                    && let Some(measured_on) = view.measured_on
                {
                    ui.add(egui::Label::new(measured_on).wrap());
                }
                let opening = opens_now(ui, title(*action));
                let label = ui.label(copy::LABEL_NAME).id;
                let field = ui
                    .add(egui::TextEdit::singleline(name).desired_width(400.0))
                    .labelled_by(label);
                let refused = error_is_new(ui, title(*action), error);
                keyboard_as_it_opens(ui, &field, opening, name);
                if !opening && refused {
                    field.request_focus();
                }
                // A refusal is about the name it was given: once the name
                // changes, the red line would speak of a name no longer there.
                if field.changed() {
                    *error = None;
                }
                error_line(ui, error);
                let entered = enter_pressed(ui, &field);
                let (ok, cancel) = buttons(ui, copy::LABEL_OK);
                if ok || entered {
                    commands.push(
                        ProfileCommand::NameEntered {
                            action: *action,
                            name: name.clone(),
                            then: then.clone(),
                        }
                        .into(),
                    );
                }
                if cancel {
                    commands.push(ViewCommand::CloseDialog.into());
                }
            }
            Dialog::ConfirmDelete => {
                ui.label(copy::delete_question(profile));
                let (ok, cancel) = buttons(ui, copy::LABEL_DELETE.trim_end_matches('…'));
                if ok {
                    commands.push(ProfileCommand::DeleteProfile.into());
                }
                if cancel {
                    commands.push(ViewCommand::CloseDialog.into());
                }
            }
            Dialog::ConfirmDiscard(after) => {
                // The built-in profile is read-only, and saving a profile about
                // to be deleted keeps nothing: there the changes go to a new one.
                let save_in_place = !view.built_in && !matches!(after, AfterUnsaved::Delete(_));
                ui.label(unsaved_question(after, profile, save_in_place));
                let (save, discard, cancel) = ui
                    .horizontal(|ui| {
                        let save_label = if save_in_place {
                            copy::LABEL_SAVE_CHANGES
                        } else {
                            copy::LABEL_SAVE_AS
                        };
                        let save = ui.button(save_label).clicked();
                        let discard = ui.button(copy::LABEL_DISCARD).clicked();
                        let keep = ui.button(copy::LABEL_KEEP_EDITING).clicked();
                        (save, discard, keep)
                    })
                    .inner;
                if save {
                    commands.push(if save_in_place {
                        ProfileCommand::SaveThen(after.clone()).into()
                    } else {
                        ViewCommand::OpenDialog(Dialog::Name {
                            action: NameAction::SaveAs,
                            name: String::new(),
                            error: None,
                            then: Some(after.clone()),
                        })
                        .into()
                    });
                }
                if discard {
                    commands.push(ProfileCommand::Discard(after.clone()).into());
                }
                if cancel {
                    commands.push(keep_editing(after));
                }
            }
            Dialog::Import {
                name,
                json,
                path,
                error,
            } => {
                ui.heading(copy::IMPORT_TITLE);
                let opening = opens_now(ui, copy::IMPORT_TITLE);
                crate::ui::widgets::note(ui, copy::IMPORT_NOTE);
                let label = ui.label(copy::LABEL_NAME).id;
                let name_field = ui
                    .add(egui::TextEdit::singleline(name).desired_width(400.0))
                    .labelled_by(label);
                keyboard_as_it_opens(ui, &name_field, opening, name);
                let mut entered = enter_pressed(ui, &name_field);
                let mut changed = name_field.changed();
                let label = ui.label(copy::LABEL_PASTE).id;
                changed |= ui
                    .add(
                        egui::TextEdit::multiline(json)
                            .code_editor()
                            .desired_rows(8)
                            .desired_width(400.0),
                    )
                    .labelled_by(label)
                    .changed();
                let label = ui.label(copy::LABEL_FROM_FILE).id;
                ui.horizontal(|ui| {
                    let path_field = path_field(ui, label, path, copy::SETTINGS_PATH_HINT, 320.0);
                    entered |= enter_pressed(ui, &path_field);
                    changed |= path_field.changed();
                    if browse_button(ui, view.browsing) {
                        commands.push(ViewCommand::BrowseFile(FilePurpose::ImportSettings).into());
                    }
                });
                // The refusal spoke of what was typed before.
                if changed {
                    *error = None;
                }
                error_line(ui, error);
                let (ok, cancel) = buttons(ui, copy::LABEL_IMPORT.trim_end_matches('…'));
                if ok || entered {
                    commands.push(
                        ProfileCommand::Import {
                            name: name.clone(),
                            json: json.clone(),
                            path: path.clone(),
                        }
                        .into(),
                    );
                }
                if cancel {
                    commands.push(ViewCommand::CloseDialog.into());
                }
            }
            Dialog::Export { path } => {
                ui.heading(copy::export_title(profile));
                let opening = opens_now(ui, "export");
                crate::ui::widgets::note(ui, copy::EXPORT_NOTE);
                let mut shown = export_json.to_owned();
                ui.add(
                    egui::TextEdit::multiline(&mut shown)
                        .code_editor()
                        .desired_width(400.0)
                        .interactive(false),
                );
                if ui.button(copy::LABEL_COPY_JSON).clicked() {
                    commands.push(ViewCommand::CopyToClipboard(export_json.to_owned()).into());
                }
                ui.horizontal(|ui| {
                    let label = ui.label(copy::LABEL_SAVE_TO_FILE).id;
                    let path_field = path_field(ui, label, path, copy::SETTINGS_PATH_HINT, 260.0);
                    keyboard_as_it_opens(ui, &path_field, opening, path);
                    let entered = enter_pressed(ui, &path_field) && !path.trim().is_empty();
                    let save = ui
                        .add_enabled(!path.trim().is_empty(), egui::Button::new(copy::LABEL_SAVE))
                        .clicked();
                    if save || entered {
                        commands.push(ProfileCommand::ExportToFile(path.clone()).into());
                    }
                    if browse_button(ui, view.browsing) {
                        commands.push(ViewCommand::BrowseFile(FilePurpose::ExportSettings).into());
                    }
                });
                if ui.button(copy::LABEL_CLOSE).clicked() {
                    commands.push(ViewCommand::CloseDialog.into());
                }
            }
            Dialog::SaveArchive { path, error } => {
                ui.heading(copy::SAVE_FOR_TICKET_TITLE);
                let opening = opens_now(ui, "save-archive");
                crate::ui::widgets::note(ui, copy::SAVE_FOR_TICKET_NOTE);
                let mut entered = false;
                ui.horizontal(|ui| {
                    let label = ui.label(copy::LABEL_ARCHIVE_FILE).id;
                    let field = path_field(ui, label, path, copy::ARCHIVE_PATH_HINT, 300.0);
                    keyboard_as_it_opens(ui, &field, opening, path);
                    if !opening && error_is_new(ui, "save-archive", error) {
                        field.request_focus();
                    }
                    entered = enter_pressed(ui, &field);
                    if field.changed() {
                        *error = None;
                    }
                    if browse_button(ui, view.browsing || view.saving) {
                        commands.push(ViewCommand::BrowseFile(FilePurpose::SaveArchive).into());
                    }
                });
                if format_choice(ui, path) {
                    *error = None;
                }
                error_line(ui, error);
                let ready = !path.trim().is_empty() && !view.saving;
                let (save, cancel) = ui
                    .horizontal(|ui| {
                        let save = ui
                            .add_enabled(ready, egui::Button::new(copy::LABEL_SAVE))
                            .clicked();
                        if view.saving {
                            ui.spinner();
                            ui.label(copy::SAVING_ARCHIVE);
                        }
                        (save, ui.button(copy::LABEL_CANCEL).clicked())
                    })
                    .inner;
                if ready && (save || entered) {
                    commands.push(
                        ArchiveCommand::SaveArchive {
                            path: path.clone(),
                            overwrite: false,
                        }
                        .into(),
                    );
                }
                if cancel {
                    commands.push(ViewCommand::CloseDialog.into());
                }
            }
            Dialog::TargetsFile { path } => {
                commands.extend(crate::ui::panels::targets_dialog::choose(
                    ui,
                    path,
                    view.browsing,
                ));
            }
            Dialog::CreateTargets { path } => {
                commands.extend(crate::ui::panels::targets_dialog::create(ui, path));
            }
            Dialog::ConfirmOverwrite { path } => {
                ui.label(copy::overwrite_question(path));
                let (replace, cancel) = buttons(ui, copy::LABEL_REPLACE);
                if replace && !view.saving {
                    commands.push(
                        ArchiveCommand::SaveArchive {
                            path: path.clone(),
                            overwrite: true,
                        }
                        .into(),
                    );
                }
                if cancel {
                    commands.push(
                        ViewCommand::OpenDialog(Dialog::SaveArchive {
                            path: path.clone(),
                            error: None,
                        })
                        .into(),
                    );
                }
            }
        }
    });
    if modal.should_close() && commands.is_empty() {
        commands.push(on_escape);
    }
    commands
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable as _;

    use super::*;
    use crate::ui::state::AfterUnsaved;
    use crate::ui::test_support;
    use egui::Key;

    /// The open dialog, whether the current profile is the built-in one, and
    /// the commands it gave.
    struct Open {
        dialog: Option<Dialog>,
        built_in: bool,
        commands: Vec<Command>,
    }

    fn open(dialog: Dialog, built_in: bool) -> Harness<'static, Open> {
        let open = Open {
            dialog: Some(dialog),
            built_in,
            commands: Vec::new(),
        };
        let mut harness = test_support::harness(
            egui::vec2(800.0, 600.0),
            |ui, open: &mut Open| {
                let view = DialogView {
                    profile: "Strict",
                    built_in: open.built_in,
                    export_json: "{}",
                    browsing: false,
                    saving: false,
                    measured_on: Some(MEASURED_ON),
                };
                let Some(dialog) = &mut open.dialog else {
                    return;
                };
                let commands = show(ui.ctx(), dialog, &view);
                // As the app does: closing is the app's to carry out.
                if commands.contains(&Command::from(ViewCommand::CloseDialog)) {
                    open.dialog = None;
                }
                open.commands.extend(commands);
            },
            open,
        );
        harness.run();
        harness
    }

    /// What the app gives the dialogs about the suggestion being saved.
    const MEASURED_ON: &str = "Measured on “Mine” (as edited), depth 2";

    #[test]
    fn saving_a_suggestion_says_which_a_it_was_measured_on_and_save_as_does_not() {
        let harness = open(
            Dialog::name_entry(NameAction::SaveSuggestion, "Mine + besuch"),
            false,
        );
        harness.get_by_label("Save the suggestion as a profile");
        harness.get_by_label(MEASURED_ON);
        let harness = open(Dialog::name_entry(NameAction::SaveAs, ""), false);
        assert!(harness.query_by_label(MEASURED_ON).is_none());
    }

    #[test]
    fn enter_in_the_name_dialog_confirms_the_typed_name() {
        let mut harness = open(Dialog::name_entry(NameAction::SaveAs, ""), false);
        harness.get_by_label("Save the settings as a new profile");
        harness.get_by_label("Name").type_text("Lenient");
        harness.run();
        harness.key_press(Key::Enter);
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ProfileCommand::NameEntered {
                action: NameAction::SaveAs,
                name: "Lenient".into(),
                then: None,
            })]
        );
    }

    #[test]
    fn ok_in_the_rename_dialog_confirms_the_edited_name() {
        let mut harness = open(Dialog::name_entry(NameAction::Rename, "Strict"), false);
        harness.get_by_label("Rename the profile");
        // The name is selected; End keeps it and types after it.
        harness.key_press(Key::End);
        harness.run();
        harness.get_by_label("Name").type_text(" 2");
        harness.get_by_label("OK").click();
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ProfileCommand::NameEntered {
                action: NameAction::Rename,
                name: "Strict 2".into(),
                then: None,
            })]
        );
    }

    #[test]
    fn escape_closes_the_name_dialog() {
        let mut harness = open(
            Dialog::name_entry(NameAction::Duplicate, "Strict copy"),
            false,
        );
        harness.get_by_label("Duplicate the profile");
        harness.key_press(Key::Escape);
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ViewCommand::CloseDialog)]
        );
        assert!(harness.query_by_label("Duplicate the profile").is_none());
    }

    #[test]
    fn cancel_closes_the_name_dialog() {
        let mut harness = open(Dialog::name_entry(NameAction::SaveAs, ""), false);
        harness.get_by_label("Cancel").click();
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ViewCommand::CloseDialog)]
        );
        assert!(harness.query_by_label("Name").is_none());
    }

    #[test]
    fn a_name_the_store_refused_shows_its_problem_in_the_dialog() {
        let mut dialog = Dialog::name_entry(NameAction::SaveAs, "Strict");
        dialog.set_error("a profile named “Strict” exists".into());
        let harness = open(dialog, false);
        harness.get_by_label("a profile named “Strict” exists");
        assert!(harness.state().commands.is_empty());
    }

    #[test]
    fn a_refusal_goes_once_the_name_it_was_about_changes() {
        let mut dialog = Dialog::name_entry(NameAction::SaveAs, "Strict");
        dialog.set_error("a profile named “Strict” exists".into());
        let mut harness = open(dialog, false);
        harness.get_by_label("a profile named “Strict” exists");
        harness.key_press(Key::End);
        harness.run();
        harness.get_by_label("Name").type_text(" 2");
        harness.run();
        assert!(
            harness
                .query_by_label("a profile named “Strict” exists")
                .is_none()
        );
        harness.key_press(Key::Enter);
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ProfileCommand::NameEntered {
                action: NameAction::SaveAs,
                name: "Strict 2".into(),
                then: None,
            })]
        );
    }

    #[test]
    fn the_delete_question_names_the_profile_and_deletes_on_confirm() {
        let mut harness = open(Dialog::ConfirmDelete, false);
        harness.get_by_label("Delete the profile “Strict”? This cannot be undone.");
        harness.get_by_label("Delete").click();
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ProfileCommand::DeleteProfile)]
        );
    }

    #[test]
    fn the_delete_question_can_be_cancelled() {
        let mut harness = open(Dialog::ConfirmDelete, false);
        harness.get_by_label("Cancel").click();
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ViewCommand::CloseDialog)]
        );
        assert!(
            harness
                .query_by_label_contains("Delete the profile")
                .is_none()
        );
    }

    #[test]
    fn the_unsaved_changes_question_saves_discards_or_keeps_editing() {
        let switch = AfterUnsaved::Switch("Lenient".into());
        for (button, then) in [
            (
                "Save changes",
                Command::from(ProfileCommand::SaveThen(switch.clone())),
            ),
            (
                "Discard changes",
                Command::from(ProfileCommand::Discard(switch.clone())),
            ),
            ("Keep editing", Command::from(ViewCommand::CloseDialog)),
        ] {
            let mut harness = open(Dialog::ConfirmDiscard(switch.clone()), false);
            harness.get_by_label("Switching to “Lenient”: save your changes to “Strict” first?");
            harness.get_by_label(button).click();
            harness.run();
            assert_eq!(harness.state().commands, [then], "{button}");
        }
    }

    #[test]
    fn the_unsaved_changes_question_names_the_action_waiting_for_it() {
        let (from, to) = ("Strict".to_owned(), "Strict 2".to_owned());
        for (after, question) in [
            (
                AfterUnsaved::Quit,
                "Quitting: save your changes to “Strict” first?",
            ),
            (
                AfterUnsaved::Import {
                    name: "ACME".into(),
                    json: "{}".into(),
                    path: String::new(),
                },
                "Importing “ACME”: save your changes to “Strict” first?",
            ),
            (
                AfterUnsaved::Rename {
                    from: from.clone(),
                    to: to.clone(),
                },
                "Renaming to “Strict 2”: save your changes to “Strict” first?",
            ),
            (
                AfterUnsaved::Duplicate { from, to },
                "Duplicating “Strict” as “Strict 2”: save your changes to “Strict” first?",
            ),
            (
                AfterUnsaved::UseArchiveSettings("ticket.warc.gz".into()),
                "Using the archive's settings: save your changes to “Strict” first?",
            ),
        ] {
            let harness = open(Dialog::ConfirmDiscard(after), false);
            harness.get_by_label(question);
        }
    }

    #[test]
    fn save_for_ticket_picks_the_format_by_its_label_and_the_name_follows() {
        let proposed = "/home/ana/acme.test-2026-12-01";
        let mut harness = open(
            Dialog::SaveArchive {
                path: format!("{proposed}.warc.gz"),
                error: None,
            },
            false,
        );
        harness.get_by_label("Save for ticket");
        harness.get_by_label("WACZ (.wacz)").click();
        harness.run();
        let shown = |harness: &Harness<'static, Open>| {
            harness
                .get_by_label("Archive file")
                .value()
                .unwrap_or_default()
        };
        assert_eq!(shown(&harness), format!("{proposed}.wacz"));
        harness.get_by_label("Save").click();
        harness.run();
        // Back to WARC: the name follows again, and Enter saves it.
        harness.get_by_label("WARC (.warc.gz)").click();
        harness.run();
        assert_eq!(shown(&harness), format!("{proposed}.warc.gz"));
        harness.get_by_label("Archive file").click();
        harness.run();
        harness.key_press(Key::Enter);
        harness.run();
        assert_eq!(
            harness.state().commands,
            [
                Command::from(ArchiveCommand::SaveArchive {
                    path: format!("{proposed}.wacz"),
                    overwrite: false,
                }),
                Command::from(ArchiveCommand::SaveArchive {
                    path: format!("{proposed}.warc.gz"),
                    overwrite: false,
                }),
            ]
        );
    }

    #[test]
    fn a_typed_wacz_name_is_swapped_when_warc_is_chosen() {
        let mut harness = open(
            Dialog::SaveArchive {
                path: String::new(),
                error: None,
            },
            false,
        );
        harness
            .get_by_label("Archive file")
            .type_text("ticket-4711.WACZ");
        harness.run();
        harness.get_by_label("WARC (.warc.gz)").click();
        harness.run();
        assert_eq!(
            harness.get_by_label("Archive file").value().as_deref(),
            Some("ticket-4711.warc.gz")
        );
    }

    #[test]
    fn escape_in_the_unsaved_changes_question_keeps_editing() {
        let mut harness = open(Dialog::ConfirmDiscard(AfterUnsaved::Quit), false);
        harness.key_press(Key::Escape);
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ViewCommand::CloseDialog)]
        );
        assert!(harness.query_by_label("Keep editing").is_none());
    }

    #[test]
    fn keep_editing_and_escape_go_back_to_the_dialog_that_asked() {
        let rename = AfterUnsaved::Rename {
            from: "Strict".into(),
            to: "Strict 2".into(),
        };
        let back = Command::from(ViewCommand::OpenDialog(Dialog::name_entry(
            NameAction::Rename,
            "Strict 2",
        )));
        let mut harness = open(Dialog::ConfirmDiscard(rename.clone()), false);
        harness.get_by_label("Keep editing").click();
        harness.run();
        assert_eq!(harness.state().commands, std::slice::from_ref(&back));

        let mut harness = open(Dialog::ConfirmDiscard(rename), false);
        harness.key_press(Key::Escape);
        harness.run();
        assert_eq!(harness.state().commands, [back]);
    }

    #[test]
    fn deleting_an_edited_profile_offers_to_keep_the_changes_in_a_new_one() {
        let delete = AfterUnsaved::Delete("Strict".into());
        let mut harness = open(Dialog::ConfirmDiscard(delete.clone()), false);
        harness.get_by_label(
            "Deleting “Strict” also deletes its unsaved changes: keep them in a new profile first?",
        );
        assert!(harness.query_by_label("Save changes").is_none());
        harness.get_by_label("Save as…").click();
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ViewCommand::OpenDialog(Dialog::Name {
                action: NameAction::SaveAs,
                name: String::new(),
                error: None,
                then: Some(delete),
            }))]
        );
    }

    #[test]
    fn every_name_dialog_has_the_keyboard_when_it_opens() {
        // The suggested name is selected: typing replaces it.
        for (action, suggested) in [
            (NameAction::SaveAs, ""),
            (NameAction::Rename, "Strict"),
            (NameAction::Duplicate, "Strict copy"),
        ] {
            let mut harness = open(Dialog::name_entry(action, suggested), false);
            harness.get_by_label("Name").type_text("Lenient");
            harness.run();
            harness.key_press(Key::Enter);
            harness.run();
            assert_eq!(
                harness.state().commands,
                [Command::from(ProfileCommand::NameEntered {
                    action,
                    name: "Lenient".into(),
                    then: None,
                })],
                "{action:?}"
            );
        }
    }

    #[test]
    fn the_import_dialog_has_the_keyboard_in_its_name_and_enter_imports() {
        let mut harness = open(Dialog::import(), false);
        harness.get_by_label("Name").type_text("ACME");
        harness.run();
        harness.key_press(Key::Enter);
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ProfileCommand::Import {
                name: "ACME".into(),
                json: String::new(),
                path: String::new(),
            })]
        );
    }

    #[test]
    fn the_export_dialog_has_the_keyboard_in_its_path_and_enter_saves() {
        let mut harness = open(
            Dialog::Export {
                path: String::new(),
            },
            false,
        );
        harness
            .get_by_label("Save to file")
            .type_text("/tmp/out.json");
        harness.run();
        harness.key_press(Key::Enter);
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ProfileCommand::ExportToFile(
                "/tmp/out.json".into()
            ))]
        );
    }

    #[test]
    fn unsaved_changes_to_the_built_in_profile_are_saved_as_a_new_one() {
        let mut harness = open(Dialog::ConfirmDiscard(AfterUnsaved::Quit), true);
        assert!(harness.query_by_label("Save changes").is_none());
        harness.get_by_label("Save as…").click();
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(ViewCommand::OpenDialog(Dialog::Name {
                action: NameAction::SaveAs,
                name: String::new(),
                error: None,
                then: Some(AfterUnsaved::Quit),
            }))]
        );
    }
}
