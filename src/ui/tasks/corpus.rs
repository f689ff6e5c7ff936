//! A corpus run in the background (saved pages or web archives): progress as
//! pages done (of all or of those found so far), then the suggestions tried;
//! the run (or what was read before a cancel), measured against the targets
//! file when there is one, as the result.

use std::path::{Path, PathBuf};

use crate::copy;
use crate::corpus;
use crate::corpus::truth::{self, Targets};
use crate::policy::Settings;
use crate::ui::state::{CorpusProgress, CorpusResult, TargetsChoice};
use crate::ui::tasks::background::{Background, Status};

/// How many suggestions a run keeps (the CLI's `--suggest` default).
const SUGGESTIONS: usize = 20;
static NO_LEXICON: truth::Lexicon = truth::Lexicon { words: Vec::new() };
/// The targets file a corpus finds beside it.
const TARGETS_FILE_NAME: &str = "targets.tsv";

/// What a corpus run is asked to do.
pub struct CorpusJob {
    pub path: PathBuf,
    pub a: Settings,
    pub b: Option<Settings>,
    pub depth: u32,
    pub targets: TargetsChoice,
    /// Tune… (SPEC 11 `--tune`): the steps and bounds.
    pub tune: Option<truth::TuneAsk>,
}

/// A running corpus run. Dropping it stops the run before the next page.
pub struct CorpusTask {
    work: Background<CorpusProgress, Result<Box<CorpusResult>, String>>,
    progress: CorpusProgress,
}

pub enum CorpusPoll {
    Running(CorpusProgress),
    Finished(Result<Box<CorpusResult>, String>),
}

/// Reads the targets file, if the job has one that can be used.
fn read_targets(
    file: &TargetsChoice,
    corpus: &Path,
) -> (Option<(PathBuf, Targets)>, Option<String>) {
    let path = match file {
        TargetsChoice::None => return (None, None),
        TargetsChoice::Beside => {
            let path = beside(corpus);
            // Not there: the run is simply not measured.
            if !path.is_file() {
                return (None, None);
            }
            path
        }
        TargetsChoice::Chosen(path) => path.clone(),
    };
    match Targets::read(&path) {
        Ok(targets) => (Some((path, targets)), None),
        Err(e) => (None, Some(format!("{e:#}"))),
    }
}

/// Where `targets.tsv` beside the corpus at `corpus` would be: inside a
/// folder, beside a manifest, an archive or a list of archives (`@FILE`).
fn beside(corpus: &Path) -> PathBuf {
    let corpus = corpus
        .to_str()
        .and_then(|p| p.strip_prefix('@'))
        .map_or(corpus, Path::new);
    let folder = if corpus.is_dir() {
        corpus
    } else {
        corpus.parent().unwrap_or(Path::new(""))
    };
    folder.join(TARGETS_FILE_NAME)
}

impl CorpusTask {
    /// Starts the run; `repaint` wakes the window on progress and at the end.
    pub fn spawn(
        job: CorpusJob,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> std::io::Result<Self> {
        let work = Background::spawn("follow-inspector-corpus", repaint, move |reporter| {
            let source = corpus::list_corpus(&job.path).map_err(|e| format!("{e:#}"))?;
            if let corpus::CorpusSource::Pages(pages) = &source {
                reporter.progress(CorpusProgress::Pages {
                    done: 0,
                    total: pages.len(),
                });
            }
            let progress = |done: usize, total: usize| {
                reporter.progress(CorpusProgress::Pages { done, total });
            };
            let (targets, targets_error) = read_targets(&job.targets, &job.path);
            let sides = corpus::Sides {
                a: &job.a,
                b: job.b.as_ref(),
                depth: job.depth,
                targets: targets.as_ref().map(|(_, t)| t),
            };
            let jobs = corpus::default_jobs();
            let cancel = reporter.cancel_flag();
            let mut run = corpus::run_source(
                &source,
                sides,
                crate::fetch::DEFAULT_MAX_BYTES,
                jobs,
                cancel,
                &progress,
            );
            if let Some((_, targets)) = &targets {
                let tried = |tried: usize, total: usize| {
                    reporter.progress(CorpusProgress::Suggesting { tried, total });
                };
                let tuning = |p: truth::TuneProgress| {
                    reporter.progress(CorpusProgress::Tuning(p));
                };
                // The shipped lexicon is checked by a unit test; were it
                // broken, suggestions would still come from the pages.
                let lexicon = truth::Lexicon::shipped().unwrap_or(&NO_LEXICON);
                let suggest = truth::Suggest {
                    keep: SUGGESTIONS,
                    jobs,
                    words: &copy::change_words,
                    progress: &tried,
                    lexicon,
                    tune: job.tune,
                    tune_progress: &tuning,
                };
                run.evaluation = Some(run.evaluate(targets, suggest, cancel));
            }
            Ok(Box::new(CorpusResult {
                run,
                targets_used: targets.map(|(path, _)| path),
                targets_error,
            }))
        })?;
        Ok(Self {
            work,
            progress: CorpusProgress::Pages { done: 0, total: 0 },
        })
    }

    /// Never blocks.
    pub fn poll(&mut self) -> CorpusPoll {
        let progress = &mut self.progress;
        match self.work.poll(|p| *progress = p) {
            Status::Running => CorpusPoll::Running(self.progress),
            Status::Finished(result) => CorpusPoll::Finished(result),
            Status::Vanished => CorpusPoll::Finished(Err(copy::CORPUS_THREAD_STOPPED.into())),
        }
    }

    /// Stops before the next page (or candidate change); what was done so
    /// far arrives as the result.
    pub fn cancel(&self) {
        self.work.cancel();
    }
}
