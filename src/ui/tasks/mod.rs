//! The work that runs off the frame: each task runs on a named thread and
//! reports through a channel (`background`); [`BackgroundTasks`] holds them
//! all, and the app polls it once a frame for what finished or moved on.
//! A task imports no panel.

pub mod background;
pub mod corpus;
pub mod file_dialog;
pub mod load;
pub mod profiles;
pub mod request_worker;
pub mod save;
pub mod targets;

use std::path::PathBuf;

use crate::ui::state::{CorpusProgress, CorpusResult, FilePurpose, ShownError};
use corpus::{CorpusPoll, CorpusTask};
use file_dialog::{DialogPoll, PendingFileDialog};
use load::{LoadedPage, Poll, Task};
use profiles::{ProfileWorker, Reply};
use save::{SaveOutcome, SaveTask};
use targets::{TargetsOutcome, TargetsWorker};

/// Everything the window has running off the frame. A slot is `None` when
/// nothing of its kind runs (or, for the two workers, when their thread could
/// not start); a task that finished is taken out of its slot by [`poll`].
///
/// [`poll`]: BackgroundTasks::poll
#[derive(Default)]
pub struct BackgroundTasks {
    /// The page, crawl or file loading. Dropping it cancels the load.
    pub load: Option<Task>,
    pub corpus: Option<CorpusTask>,
    /// Reads and writes the profiles; lives as long as the window.
    pub profiles: Option<ProfileWorker>,
    /// Reads and writes the targets file; lives as long as the window.
    pub targets: Option<TargetsWorker>,
    /// Save for ticket writing an archive.
    pub save: Option<SaveTask>,
    /// The desktop's file dialog, open.
    pub file_dialog: Option<PendingFileDialog>,
}

/// What one of the tasks finished, or how far it has come.
pub enum TaskEvent {
    Loaded(Result<LoadedPage, ShownError>),
    CorpusProgress(CorpusProgress),
    CorpusFinished(Result<Box<CorpusResult>, String>),
    Profiles(Reply),
    /// The file dialog for `purpose` answered: the file chosen, or `None`.
    FileChosen {
        purpose: FilePurpose,
        chosen: Option<PathBuf>,
    },
    Saved(SaveOutcome),
    Targets(TargetsOutcome),
}

impl BackgroundTasks {
    /// The two workers that live as long as the window, each waking it with
    /// `repaint` when it answers. The profiles thread not starting is said
    /// (the error is returned); the targets thread not starting is said when
    /// a mark is asked for.
    pub fn start(
        repaint: impl Fn() + Clone + Send + Sync + 'static,
    ) -> (Self, Option<std::io::Error>) {
        let (profiles, error) = match ProfileWorker::spawn(repaint.clone()) {
            Ok(worker) => (Some(worker), None),
            Err(e) => (None, Some(e)),
        };
        let tasks = Self {
            profiles,
            targets: TargetsWorker::spawn(repaint).ok(),
            ..Self::default()
        };
        (tasks, error)
    }

    /// What finished or moved on since the last poll, in the order the app
    /// takes them in: the load, the corpus run, the profiles, the file
    /// dialog, the save, the targets file. Never blocks.
    pub fn poll(&mut self) -> Vec<TaskEvent> {
        let mut events = Vec::new();
        if let Some(Poll::Finished(result)) = self.load.as_mut().map(Task::poll) {
            self.load = None;
            events.push(TaskEvent::Loaded(result));
        }
        match self.corpus.as_mut().map(CorpusTask::poll) {
            Some(CorpusPoll::Running(progress)) => events.push(TaskEvent::CorpusProgress(progress)),
            Some(CorpusPoll::Finished(result)) => {
                self.corpus = None;
                events.push(TaskEvent::CorpusFinished(result));
            }
            None => {}
        }
        if let Some(worker) = &mut self.profiles {
            events.extend(worker.poll().into_iter().map(TaskEvent::Profiles));
        }
        if let Some(pending) = &self.file_dialog
            && let DialogPoll::Answered(chosen) = pending.poll()
        {
            let purpose = pending.purpose;
            self.file_dialog = None;
            events.push(TaskEvent::FileChosen { purpose, chosen });
        }
        if let Some(outcome) = self.save.as_ref().and_then(SaveTask::poll) {
            self.save = None;
            events.push(TaskEvent::Saved(outcome));
        }
        if let Some(worker) = &mut self.targets {
            events.extend(worker.poll().into_iter().map(TaskEvent::Targets));
        }
        events
    }

    /// Something is running, so the window keeps its spinner turning.
    pub fn busy(&self) -> bool {
        self.load.is_some()
            || self.corpus.is_some()
            || self.save.is_some()
            || self.profiles_busy()
            || self.targets_busy()
    }

    /// Profile work is queued or running on the profiles thread.
    pub fn profiles_busy(&self) -> bool {
        self.profiles.as_ref().is_some_and(ProfileWorker::is_busy)
    }

    /// The targets thread has requests to answer.
    pub fn targets_busy(&self) -> bool {
        self.targets.as_ref().is_some_and(TargetsWorker::is_busy)
    }
}
