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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT as _, Queryable as _};

    use super::*;
    use crate::ui::command::{Subject, TargetsCommand, ViewCommand};
    use crate::ui::test_support;

    /// What the section is given, and the commands it gave back.
    struct Section {
        file: Option<(String, PathBuf)>,
        kind: Option<TargetKind>,
        choosing: bool,
        can_undo: bool,
        commands: Vec<Command>,
    }

    /// The section alone; `in_file` names the targets file `targets.tsv`.
    fn section_of(
        in_file: bool,
        kind: Option<TargetKind>,
        choosing: bool,
        can_undo: bool,
    ) -> Harness<'static, Section> {
        let state = Section {
            file: in_file.then(|| ("targets.tsv".into(), PathBuf::from("/corpus/targets.tsv"))),
            kind,
            choosing,
            can_undo,
            commands: Vec::new(),
        };
        let mut harness = test_support::harness(
            egui::vec2(600.0, 400.0),
            |ui, s: &mut Section| {
                let mark = TargetMark {
                    file: s.file.as_ref().map(|(name, _)| name.as_str()),
                    path: s.file.as_ref().map(|(_, path)| path.as_path()),
                    kind: s.kind,
                    choosing: s.choosing,
                    can_undo: s.can_undo,
                };
                let commands = section(ui, &mark);
                s.commands.extend(commands);
            },
            state,
        );
        harness.run();
        harness
    }

    // What the section asked, one helper per kind: the only lines that name
    // `Command`'s variants, so a change of its shape is mended here.
    fn targets_file_dialog(c: &Command) -> Option<&str> {
        match c.subject() {
            Subject::View(ViewCommand::OpenDialog(Dialog::TargetsFile { path })) => Some(path),
            _ => None,
        }
    }
    fn chooser(c: &Command) -> Option<bool> {
        match c.subject() {
            Subject::Targets(TargetsCommand::ChooseTargetKind(open)) => Some(*open),
            _ => None,
        }
    }
    fn marked(c: &Command) -> Option<Option<TargetKind>> {
        match c.subject() {
            Subject::Targets(TargetsCommand::MarkTarget(kind)) => Some(*kind),
            _ => None,
        }
    }
    fn undone(c: &Command) -> bool {
        matches!(c.subject(), Subject::Targets(TargetsCommand::UndoMark))
    }

    #[test]
    fn without_a_targets_file_marking_waits_for_one_to_be_chosen() {
        let mut harness = section_of(false, None, false, false);
        harness.get_by_label("No targets file");
        assert!(
            harness
                .get_by_label("Mark as target…")
                .accesskit_node()
                .is_disabled()
        );
        harness.get_by_label("Mark as target…").click();
        harness.run();
        assert!(harness.state().commands.is_empty());
        harness.get_by_label("Targets file…").click();
        harness.run();
        let asked: Vec<_> = harness
            .state()
            .commands
            .iter()
            .filter_map(targets_file_dialog)
            .collect();
        assert_eq!(asked, [""]);
    }

    #[test]
    fn a_link_that_is_no_target_can_be_marked_and_the_chooser_offers_each_kind() {
        let mut harness = section_of(true, None, false, false);
        harness.get_by_label("Not a target in targets.tsv");
        assert!(harness.query_by_label("Not a target").is_none());
        assert!(
            harness
                .query_by_label("Which kind of page does it lead to?")
                .is_none()
        );
        harness.get_by_label("Mark as target…").click();
        harness.run();
        let opened: Vec<_> = harness
            .state()
            .commands
            .iter()
            .filter_map(chooser)
            .collect();
        assert_eq!(opened, [true]);

        let mut harness = section_of(true, None, true, false);
        harness.get_by_label("Which kind of page does it lead to?");
        harness.get_by_label("Contact (C)");
        harness.get_by_label("About (A)");
        harness.get_by_label("Imprint (I)").click();
        harness.run();
        harness.get_by_label("Cancel").click();
        harness.run();
        let marks: Vec<_> = harness.state().commands.iter().filter_map(marked).collect();
        let closed: Vec<_> = harness
            .state()
            .commands
            .iter()
            .filter_map(chooser)
            .collect();
        assert_eq!(marks, [Some(TargetKind::Imprint)]);
        assert_eq!(closed, [false]);
    }

    #[test]
    fn a_marked_link_says_its_kind_and_can_be_unmarked_undone_or_moved_to_another_file() {
        let mut harness = section_of(true, Some(TargetKind::Contact), false, true);
        harness.get_by_label("Target: contact (in targets.tsv)");
        harness.get_by_label("Change kind…");
        harness.get_by_label("Not a target").click();
        harness.run();
        harness.get_by_label("↶ Undo mark").click();
        harness.run();
        harness.get_by_label("Targets file…").click();
        harness.run();
        let commands = &harness.state().commands;
        assert_eq!(commands.len(), 3, "{commands:?}");
        assert_eq!(marked(&commands[0]), Some(None));
        assert!(undone(&commands[1]));
        // The file dialog opens on the file in use.
        assert_eq!(
            targets_file_dialog(&commands[2]),
            Some("/corpus/targets.tsv")
        );
    }

    #[test]
    fn undo_is_offered_only_when_there_is_a_mark_to_undo() {
        let harness = section_of(true, Some(TargetKind::About), false, false);
        assert!(harness.query_by_label("↶ Undo mark").is_none());
    }
}
