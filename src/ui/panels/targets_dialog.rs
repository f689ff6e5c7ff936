//! The targets file dialogs: which file links are marked in, and whether
//! to create one that does not exist.

use crate::copy;
use crate::ui::command::{Command, TargetsCommand, ViewCommand};
use crate::ui::panels::dialog_fields::{
    browse_button, buttons, enter_pressed, keyboard_as_it_opens, opens_now, path_field,
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
        keyboard_as_it_opens(ui, &field, opening, path);
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

#[cfg(test)]
mod tests {
    use egui::Key;
    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT as _, Queryable as _};

    use super::*;
    use crate::ui::command::{Subject, TargetsCommand, ViewCommand};
    use crate::ui::state::Dialog;
    use crate::ui::test_support;

    /// The path in the field, whether a file dialog is open, and the
    /// commands the dialog gave back.
    struct Choosing {
        path: String,
        browsing: bool,
        commands: Vec<Command>,
    }

    /// "Choose the targets file" alone, its field holding `path`.
    fn choosing(path: &str, browsing: bool) -> Harness<'static, Choosing> {
        let state = Choosing {
            path: path.to_owned(),
            browsing,
            commands: Vec::new(),
        };
        let mut harness = test_support::harness(
            egui::vec2(600.0, 300.0),
            |ui, c: &mut Choosing| {
                let commands = choose(ui, &mut c.path, c.browsing);
                c.commands.extend(commands);
            },
            state,
        );
        harness.run();
        harness
    }

    /// "… does not exist. Create it?" alone, for `path`.
    fn creating(path: &str) -> Harness<'static, (String, Vec<Command>)> {
        let mut harness = test_support::harness(
            egui::vec2(600.0, 300.0),
            |ui, (path, commands): &mut (String, Vec<Command>)| {
                commands.extend(create(ui, path));
            },
            (path.to_owned(), Vec::new()),
        );
        harness.run();
        harness
    }

    // What the dialog asked, one helper per kind: the only lines that name
    // `Command`'s variants, so a change of its shape is mended here.
    fn used(c: &Command) -> Option<(&str, bool)> {
        match c.subject() {
            Subject::Targets(TargetsCommand::UseTargetsFile { path, create }) => {
                Some((path, *create))
            }
            _ => None,
        }
    }
    fn browsed(c: &Command) -> bool {
        matches!(
            c.subject(),
            Subject::View(ViewCommand::BrowseFile(FilePurpose::TargetsFile))
        )
    }
    fn closed(c: &Command) -> bool {
        matches!(c.subject(), Subject::View(ViewCommand::CloseDialog))
    }
    fn back_to_choosing(c: &Command) -> Option<&str> {
        match c.subject() {
            Subject::View(ViewCommand::OpenDialog(Dialog::TargetsFile { path })) => Some(path),
            _ => None,
        }
    }

    #[test]
    fn use_waits_for_a_path_and_enter_uses_the_typed_one_trimmed() {
        let mut harness = choosing("", false);
        harness.get_by_label("Choose the targets file");
        assert!(harness.get_by_label("Use").accesskit_node().is_disabled());
        // The field has the keyboard as the dialog opens.
        harness
            .get_by_label("Targets file")
            .type_text(" corpus/targets.tsv ");
        harness.run();
        assert!(!harness.get_by_label("Use").accesskit_node().is_disabled());
        assert!(harness.state().commands.is_empty());
        harness.key_press(Key::Enter);
        harness.run();
        let uses: Vec<_> = harness.state().commands.iter().filter_map(used).collect();
        assert_eq!(uses, [("corpus/targets.tsv", false)]);
    }

    #[test]
    fn use_browse_and_cancel_each_ask_what_they_say() {
        let mut harness = choosing("targets.tsv", false);
        harness.get_by_label("Use").click();
        harness.run();
        harness.get_by_label("Browse…").click();
        harness.run();
        harness.get_by_label("Cancel").click();
        harness.run();
        let commands = &harness.state().commands;
        assert_eq!(commands.len(), 3, "{commands:?}");
        assert_eq!(used(&commands[0]), Some(("targets.tsv", false)));
        assert!(browsed(&commands[1]));
        assert!(closed(&commands[2]));
    }

    #[test]
    fn browse_is_off_while_a_file_dialog_is_open() {
        let harness = choosing("", true);
        assert!(
            harness
                .get_by_label("Browse…")
                .accesskit_node()
                .is_disabled()
        );
    }

    #[test]
    fn a_missing_file_is_offered_to_be_created_and_cancel_goes_back_to_its_path() {
        let mut harness = creating("new/targets.tsv");
        harness.get_by_label(
            "new/targets.tsv does not exist. Create it, with the columns id, url, kind, index, \
             text and note?",
        );
        harness.get_by_label("Create").click();
        harness.run();
        harness.get_by_label("Cancel").click();
        harness.run();
        let commands = &harness.state().1;
        assert_eq!(commands.len(), 2, "{commands:?}");
        assert_eq!(used(&commands[0]), Some(("new/targets.tsv", true)));
        assert_eq!(back_to_choosing(&commands[1]), Some("new/targets.tsv"));
    }
}
