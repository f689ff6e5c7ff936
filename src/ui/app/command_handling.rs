//! Carrying out what the panels asked for: each command goes to the file of
//! its subject (`loading`, `settings`, `selection`, `view`, `profiles`,
//! `comparison`, `corpus`, `archive`, `targets`).

use super::InspectorApp;
use crate::ui::command::{Command, Subject};

impl InspectorApp {
    pub(super) fn apply(&mut self, command: Command, ctx: &egui::Context) {
        if command.starts_an_action() {
            self.notice = None;
        }
        match command.into_subject() {
            Subject::Load(command) => self.carry_out_load(command, ctx),
            Subject::Settings(command) => self.carry_out_settings(command),
            Subject::Selection(command) => self.carry_out_selection(command, ctx),
            Subject::View(command) => self.carry_out_view(command, ctx),
            Subject::Profile(command) => self.carry_out_profile(command, ctx),
            Subject::Comparison(command) => self.carry_out_comparison(command),
            Subject::Corpus(command) => self.carry_out_corpus(command, ctx),
            Subject::Archive(command) => self.carry_out_archive(command, ctx),
            Subject::Targets(command) => self.carry_out_targets(command),
        }
    }
}
