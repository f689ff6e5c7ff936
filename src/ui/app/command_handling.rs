//! Carrying out what the panels asked for, and taking in what the tasks
//! reported: each command and each event goes to the file of its subject
//! (`loading`, `settings`, `selection`, `view`, `profiles`, `comparison`,
//! `corpus`, `archive`, `targets`).

use super::InspectorApp;
use crate::ui::command::{Command, Subject};
use crate::ui::tasks::TaskEvent;

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

    /// Takes in what the background tasks reported this frame, in order.
    pub(super) fn take_in(&mut self, events: Vec<TaskEvent>, ctx: &egui::Context) {
        for event in events {
            match event {
                TaskEvent::Loaded(result) => self.load_finished(result),
                TaskEvent::CorpusProgress(progress) => self.corpus_progressed(progress),
                TaskEvent::CorpusFinished(result) => self.corpus_finished(result, ctx),
                TaskEvent::Profiles(reply) => self.profiles_replied(reply, ctx),
                TaskEvent::FileChosen { purpose, chosen } => self.file_chosen(purpose, chosen, ctx),
                TaskEvent::Saved(outcome) => self.save_finished(outcome),
                TaskEvent::Targets(outcome) => self.targets_answered(outcome),
            }
        }
    }
}
