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

#[cfg(test)]
mod tests {
    use egui::accesskit::Role;
    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT as _, Queryable as _};

    use super::*;
    use crate::ui::command::{ComparisonCommand, ProfileCommand, Subject, ViewCommand};
    use crate::ui::test_support;

    /// What the bar is given, and the commands it gave back.
    struct Bar {
        names: Vec<String>,
        current: String,
        dirty: bool,
        comparing: Option<String>,
        commands: Vec<Command>,
    }

    /// The profile bar and the compare picker alone, over the profiles
    /// "Scraper defaults", "Mine" and "Other".
    fn bar(current: &str, dirty: bool, comparing: Option<&str>) -> Harness<'static, Bar> {
        let bar = Bar {
            names: [BUILT_IN, "Mine", "Other"].map(String::from).to_vec(),
            current: current.to_owned(),
            dirty,
            comparing: comparing.map(String::from),
            commands: Vec::new(),
        };
        let mut harness = test_support::harness(
            egui::vec2(900.0, 400.0),
            |ui, bar: &mut Bar| {
                let view = ProfileView {
                    names: &bar.names,
                    current: &bar.current,
                    dirty: bar.dirty,
                    busy: false,
                    comparing: bar.comparing.as_deref(),
                };
                let mut commands = ui.horizontal(|ui| show(ui, &view)).inner;
                commands.extend(ui.horizontal(|ui| compare_picker(ui, &view)).inner);
                bar.commands.extend(commands);
            },
            bar,
        );
        harness.run();
        harness
    }

    // What the bar asked, one helper per kind: the only lines that name
    // `Command`'s variants, so a change of its shape is mended here.
    fn switched(c: &Command) -> Option<&str> {
        match c.subject() {
            Subject::Profile(ProfileCommand::SwitchProfile(name)) => Some(name),
            _ => None,
        }
    }
    fn saved(c: &Command) -> bool {
        matches!(c.subject(), Subject::Profile(ProfileCommand::SaveProfile))
    }
    fn opened(c: &Command) -> Option<&Dialog> {
        match c.subject() {
            Subject::View(ViewCommand::OpenDialog(dialog)) => Some(dialog),
            _ => None,
        }
    }
    fn compared(c: &Command) -> Option<Option<&str>> {
        match c.subject() {
            Subject::Comparison(ComparisonCommand::CompareWith(name)) => Some(name.as_deref()),
            _ => None,
        }
    }

    fn selector_shows(harness: &Harness<'_, Bar>) -> String {
        harness
            .get_by_role_and_label(Role::ComboBox, "Profile")
            .value()
            .unwrap_or_default()
    }

    fn pick(harness: &mut Harness<'_, Bar>, combo: &str, item: &str) {
        harness.get_by_role_and_label(Role::ComboBox, combo).click();
        harness.run();
        harness.get_by_label(item).click();
        harness.run();
    }

    fn menu(harness: &mut Harness<'_, Bar>, item: &str) {
        harness.get_by_label("⋯").click();
        harness.run();
        harness.get_by_label(item).click();
        harness.run();
    }

    #[test]
    fn the_selector_shows_the_unsaved_dot_and_picking_another_profile_asks_to_switch() {
        let mut harness = bar("Mine", true, None);
        assert_eq!(selector_shows(&harness), "Mine ●");
        // Picking the profile already shown asks nothing.
        pick(&mut harness, "Profile", "Mine");
        assert!(harness.state().commands.is_empty());
        pick(&mut harness, "Profile", "Other");
        let switches: Vec<_> = harness
            .state()
            .commands
            .iter()
            .filter_map(switched)
            .collect();
        assert_eq!(switches, ["Other"]);

        let clean = bar("Mine", false, None);
        assert_eq!(selector_shows(&clean), "Mine");
    }

    #[test]
    fn save_is_offered_only_for_unsaved_changes_to_a_profile_of_ones_own() {
        for (current, dirty) in [(BUILT_IN, true), ("Mine", false)] {
            let harness = bar(current, dirty, None);
            let save = harness.get_by_label("Save");
            assert!(save.accesskit_node().is_disabled(), "{current} {dirty}");
        }
        let mut harness = bar("Mine", true, None);
        harness.get_by_label("Save").click();
        harness.run();
        assert!(harness.state().commands.iter().any(saved));
    }

    #[test]
    fn the_actions_menu_opens_each_dialog_with_the_name_it_suggests() {
        let mut harness = bar("Mine", false, None);
        menu(&mut harness, "Rename…");
        menu(&mut harness, "Duplicate…");
        menu(&mut harness, "Delete…");
        let dialogs: Vec<_> = harness
            .state()
            .commands
            .iter()
            .filter_map(opened)
            .cloned()
            .collect();
        assert_eq!(
            dialogs,
            [
                Dialog::name_entry(NameAction::Rename, "Mine"),
                Dialog::name_entry(NameAction::Duplicate, "Mine copy"),
                Dialog::ConfirmDelete,
            ]
        );
    }

    #[test]
    fn the_built_in_profile_cannot_be_renamed_or_deleted_from_the_menu() {
        let mut harness = bar(BUILT_IN, false, None);
        harness.get_by_label("⋯").click();
        harness.run();
        for item in ["Rename…", "Delete…"] {
            assert!(
                harness.get_by_label(item).accesskit_node().is_disabled(),
                "{item}"
            );
        }
        for item in ["Save as…", "Duplicate…", "Import…", "Export…"] {
            assert!(
                !harness.get_by_label(item).accesskit_node().is_disabled(),
                "{item}"
            );
        }
    }

    #[test]
    fn compare_with_picks_a_profile_and_nobody_stops_comparing() {
        let mut harness = bar("Mine", false, None);
        pick(&mut harness, "Compare with…", "Other");
        let mut comparing = bar("Mine", false, Some("Other"));
        pick(&mut comparing, "Compare with…", "(nobody)");
        let picked: Vec<_> = harness
            .state()
            .commands
            .iter()
            .filter_map(compared)
            .collect();
        let stopped: Vec<_> = comparing
            .state()
            .commands
            .iter()
            .filter_map(compared)
            .collect();
        assert_eq!(picked, [Some("Other")]);
        assert_eq!(stopped, [None]);
    }
}
