//! Corpus run glue: starting the run and taking in its progress and result.

use std::path::PathBuf;

use super::InspectorApp;
use crate::ui::corpus_task::{CorpusJob, CorpusPoll, CorpusTask};

impl InspectorApp {
    pub(super) fn poll_corpus(&mut self) {
        let Some(task) = &mut self.corpus_task else {
            return;
        };
        match task.poll() {
            CorpusPoll::Running { done, total } => self.corpus_progress = Some((done, total)),
            CorpusPoll::Finished(result) => {
                self.corpus_task = None;
                self.corpus_progress = None;
                match result {
                    Ok(run) => {
                        self.corpus.error = None;
                        self.corpus.run = Some(*run);
                    }
                    Err(e) => self.corpus.error = Some(e),
                }
            }
        }
    }

    pub(super) fn run_corpus(&mut self, ctx: &egui::Context) {
        if self.corpus_task.is_some() {
            return;
        }
        let job = CorpusJob {
            path: PathBuf::from(self.corpus.path.trim()),
            a: self.settings.clone(),
            b: self.comparison.as_ref().map(|c| c.settings.clone()),
            depth: self.top.depth,
        };
        let repaint_ctx = ctx.clone();
        match CorpusTask::spawn(job, move || repaint_ctx.request_repaint()) {
            Ok(task) => {
                self.corpus_task = Some(task);
                self.corpus_progress = Some((0, 0));
                self.corpus.error = None;
            }
            Err(e) => {
                self.corpus.error = Some(crate::copy::cannot_start_corpus_run(&e));
            }
        }
    }
}
