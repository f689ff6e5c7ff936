//! Corpus run glue: starting the run, taking in its progress and result, and
//! the suggestions' Try as B and Save as profile….

use std::path::PathBuf;

use super::InspectorApp;
use super::subjects::comparison::Comparison;
use crate::ui::command::CorpusCommand;
use crate::ui::panels::corpus::RunInputs;
use crate::ui::state::{CorpusProgress, CorpusResult, Dialog, MainView, NameAction};
use crate::ui::tasks::corpus::{CorpusJob, CorpusTask};
use crate::ui::tasks::profiles::StoreRequest;

impl InspectorApp {
    pub(super) fn carry_out_corpus(&mut self, command: CorpusCommand, ctx: &egui::Context) {
        match command {
            CorpusCommand::RunCorpus => self.run_corpus(ctx),
            CorpusCommand::TrySuggestion(index) => self.try_suggestion(index, ctx),
            CorpusCommand::SaveSuggestion(index) => self.ask_suggestion_name(index),
            CorpusCommand::Tune => self.tune_corpus(ctx),
            CorpusCommand::SaveTuned => self.ask_tuned_name(),
            CorpusCommand::CancelCorpus => {
                if let Some(task) = &self.tasks.corpus {
                    task.cancel();
                }
            }
            CorpusCommand::OpenCorpusPage { path, url, link } => {
                self.opened_corpus_page(&path);
                self.selection.select_when_loaded = link;
                self.view.main = MainView::Inspector;
                self.top.set_target(path);
                self.top.base_url = url;
                self.load(ctx);
            }
        }
    }

    pub(super) fn corpus_progressed(&mut self, progress: CorpusProgress) {
        self.corpus.progress = Some(progress);
    }

    /// The corpus run finished (`tasks.poll` took it out of its slot).
    pub(super) fn corpus_finished(
        &mut self,
        result: Result<Box<CorpusResult>, String>,
        ctx: &egui::Context,
    ) {
        self.corpus.progress = None;
        let made_with = self.corpus.starting.take();
        match result {
            Ok(result) => {
                let tuned = result
                    .run
                    .evaluation
                    .as_ref()
                    .and_then(|e| e.tuning.as_ref())
                    .filter(|t| !t.steps.is_empty())
                    .map(|t| (t.steps.len(), t.settings.clone()));
                self.corpus.panel.finished(*result, made_with);
                // Tune… shows its settings as B: compared, and run again.
                if let Some((steps, settings)) = tuned {
                    let name = crate::copy::tuned_side_name(steps);
                    self.comparison = Some(Comparison::new(name, settings));
                    self.run_corpus(ctx);
                }
                // Links marked in the inspector go to the file the
                // run was measured against.
                if let Some(path) = self.corpus.panel.targets_used.clone()
                    && self.targets_file() != Some(path.as_path())
                {
                    self.use_targets_file(path);
                }
            }
            Err(e) => self.corpus.panel.error = Some(e),
        }
    }

    pub(super) fn run_corpus(&mut self, ctx: &egui::Context) {
        self.start_corpus(None, ctx);
    }

    /// Tune…: the run tunes A with the view's steps and bounds.
    fn tune_corpus(&mut self, ctx: &egui::Context) {
        let panel = &self.corpus.panel;
        let ask = crate::corpus::truth::TuneAsk {
            steps: panel.tune_ask.steps,
            max_followed_per_page: panel
                .tune_ask
                .max_followed_per_page
                .filter(|_| panel.tune_bound_per_page),
            min_precision: panel
                .tune_ask
                .min_precision
                .filter(|_| panel.tune_bound_precision),
        };
        self.start_corpus(Some(ask), ctx);
    }

    fn start_corpus(&mut self, tune: Option<crate::corpus::truth::TuneAsk>, ctx: &egui::Context) {
        if self.tasks.corpus.is_some() {
            return;
        }
        let inputs = self.corpus_inputs();
        let job = CorpusJob {
            path: PathBuf::from(&inputs.path),
            a: inputs.a.clone(),
            b: inputs.compared.as_ref().map(|(_, b)| b.clone()),
            depth: inputs.depth,
            targets: inputs.targets.clone(),
            tune,
        };
        let repaint_ctx = ctx.clone();
        match CorpusTask::spawn(job, move || repaint_ctx.request_repaint()) {
            Ok(task) => {
                self.tasks.corpus = Some(task);
                self.corpus.starting = Some(inputs);
                self.corpus.progress = None;
                self.corpus.panel.error = None;
            }
            Err(e) => {
                self.corpus.panel.error = Some(crate::copy::cannot_start_corpus_run(&e));
            }
        }
    }

    /// What a run started now is made with, as the view names it.
    fn corpus_inputs(&self) -> RunInputs {
        RunInputs {
            path: self.corpus.panel.path.trim().to_owned(),
            profile: self.profiles.name.clone(),
            edited: self.is_dirty(),
            a: self.settings.clone(),
            compared: self
                .comparison
                .as_ref()
                .map(|c| (c.name.clone(), c.settings.clone())),
            depth: self.top.depth,
            targets: self.corpus.panel.targets_choice(),
        }
    }

    /// The last run's suggestion `index`.
    fn suggestion(&self, index: usize) -> Option<&crate::corpus::truth::Suggestion> {
        let evaluation = self.corpus.panel.run.as_ref()?.evaluation.as_ref()?;
        evaluation.suggestions.get(index)
    }

    /// Try as B: the compared side becomes A with the suggestion's change,
    /// unsaved, and the corpus runs again.
    pub(super) fn try_suggestion(&mut self, index: usize, ctx: &egui::Context) {
        let Some(suggestion) = self.suggestion(index) else {
            return;
        };
        let name = crate::copy::tried_change_name(&suggestion.change);
        self.comparison = Some(Comparison::new(name, suggestion.settings.clone()));
        self.run_corpus(ctx);
    }

    /// Save as profile…: asks a name for the suggestion's settings.
    pub(super) fn ask_suggestion_name(&mut self, index: usize) {
        let Some(suggestion) = self.suggestion(index) else {
            return;
        };
        let name = crate::copy::suggested_profile_name(&self.profiles.name, &suggestion.change);
        let settings = suggestion.settings.clone();
        self.ask_profile_name(settings, &name);
    }

    /// Save tuned as profile…: asks a name for the last Tune…'s settings.
    fn ask_tuned_name(&mut self) {
        let Some(tuning) = &self.corpus.panel.tuning else {
            return;
        };
        let name = crate::copy::tuned_profile_name(&self.profiles.name, tuning.steps.len());
        let settings = tuning.settings.clone();
        self.ask_profile_name(settings, &name);
    }

    /// The name dialog for settings made from the run's A.
    fn ask_profile_name(&mut self, settings: crate::policy::Settings, name: &str) {
        self.corpus.panel.saving = Some(settings);
        // The settings are the run's A changed: a user who edited A since
        // must know which A that was.
        self.corpus.panel.saving_measured_on = self
            .corpus
            .panel
            .made_with
            .as_ref()
            .map(|made| crate::copy::measured_on(&made.profile, made.edited, made.depth));
        self.dialog = Some(Dialog::name_entry(NameAction::SaveSuggestion, name));
    }

    /// Stores the settings being named as a new profile; the current one
    /// stays current.
    pub(super) fn save_suggestion(&mut self, name: String) {
        let Some(settings) = self.corpus.panel.saving.clone() else {
            self.dialog = None;
            return;
        };
        self.send_store(StoreRequest::SaveCopy { name, settings });
    }

    /// The suggestion was stored as `name`: when it is the side tried as B,
    /// B is now that profile.
    pub(super) fn suggestion_saved(&mut self, name: String, settings: &crate::policy::Settings) {
        self.dialog = None;
        self.corpus.panel.saving = None;
        if let Some(comparison) = &mut self.comparison
            && comparison.settings == *settings
        {
            comparison.name.clone_from(&name);
        }
        self.notice = Some(crate::copy::saved_profile(&name));
    }
}
