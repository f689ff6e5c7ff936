//! The targets file in use (`targets_file`): choosing it, taking in what
//! its thread answered, the shown page's targets, marking the selected link.
//! The file is read and written by the targets thread (`tasks::targets`);
//! the frame only sends requests and takes outcomes in.

use std::path::{Path, PathBuf};

use super::InspectorApp;
use crate::corpus::truth::TargetKind;
use crate::corpus::truth::edit::{Edit, Mark};
use crate::ui::command::TargetsCommand;
use crate::ui::panels::results::PageTargets;
use crate::ui::panels::target_mark::TargetMark;
use crate::ui::state::{Dialog, Source};
use crate::ui::tasks::targets::{TargetsOutcome, TargetsRequest, Written};

impl InspectorApp {
    pub(super) fn carry_out_targets(&mut self, command: TargetsCommand) {
        match command {
            TargetsCommand::UseTargetsFile { path, create } => {
                self.dialog = None;
                self.send_targets(TargetsRequest::Open {
                    path: PathBuf::from(path),
                    create,
                });
            }
            TargetsCommand::ChooseTargetKind(open) => self.choose_target_kind(open),
            TargetsCommand::MarkTarget(kind) => self.mark_selected(kind),
            TargetsCommand::UndoMark => self.undo_mark(),
        }
    }

    /// Marks links in the targets file at `path` (read in the background;
    /// a file that does not exist is offered to be created). The Corpus
    /// view calls this after a run with targets.
    pub fn use_targets_file(&mut self, path: PathBuf) {
        self.send_targets(TargetsRequest::Open {
            path,
            create: false,
        });
    }

    /// The targets file in use.
    pub fn targets_file(&self) -> Option<&Path> {
        self.targets.path.as_deref()
    }

    /// The targets thread has requests to answer.
    pub fn targets_busy(&self) -> bool {
        self.tasks.targets_busy()
    }

    /// The page opened from the Corpus view goes by its corpus id in the
    /// targets file (SPEC 11); `path` is its file.
    pub(super) fn opened_corpus_page(&mut self, path: &str) {
        let id = self.corpus_run().and_then(|run| {
            run.pages
                .iter()
                .find(|p| p.path.display().to_string() == path)
                .map(|p| p.id.clone())
        });
        self.targets.corpus_page = id.map(|id| (path.to_owned(), id));
    }

    pub(super) fn send_targets(&mut self, request: TargetsRequest) {
        let sent = self
            .tasks
            .targets
            .as_mut()
            .is_some_and(|worker| worker.send(request));
        if !sent {
            self.notice = Some(crate::copy::TARGETS_THREAD_STOPPED.into());
        }
    }

    /// Takes in what the targets thread answered.
    pub(super) fn targets_answered(&mut self, outcome: TargetsOutcome) {
        match outcome {
            TargetsOutcome::Opened {
                path,
                targets,
                created,
            } => {
                self.notice = Some(if created {
                    crate::copy::targets_created(&path)
                } else {
                    crate::copy::targets_opened(
                        &path,
                        targets.target_count(),
                        targets.pages.values().filter(|p| !p.is_empty()).count(),
                        targets.problem_count(),
                    )
                });
                self.targets.can_undo = false;
                self.targets.take_in(path, targets);
            }
            TargetsOutcome::Missing(path) => {
                self.dialog = Some(Dialog::CreateTargets {
                    path: path.display().to_string(),
                });
            }
            TargetsOutcome::Marked {
                path,
                targets,
                edit,
                url,
                written,
            } => {
                self.notice = Some(crate::copy::marked(edit, &url, &path));
                if edit != Edit::Unchanged {
                    self.marked_in(&path, written);
                }
                self.targets.can_undo |= edit != Edit::Unchanged;
                self.targets.take_in(path, targets);
            }
            TargetsOutcome::Undone {
                path,
                targets,
                written,
            } => {
                self.notice = Some(crate::copy::undone(&path));
                self.marked_in(&path, written);
                self.targets.can_undo = false;
                self.targets.take_in(path, targets);
            }
            TargetsOutcome::Failed { message, targets } => {
                self.notice = Some(message);
                if let Some((path, targets)) = targets {
                    // Read again after an edit elsewhere: Undo would
                    // write over it.
                    self.targets.can_undo = false;
                    self.targets.take_in(path, targets);
                }
            }
        }
    }

    /// The Corpus view says links were marked in `path` since its run, until
    /// the file is back to what it held before the first of them: every
    /// mark undone, nothing is left to measure.
    fn marked_in(&mut self, path: &Path, written: Written) {
        let marked = &mut self.corpus.panel.marked_since;
        if marked.as_deref() != Some(path) {
            self.targets.unmarked = Some(written.was);
            *marked = Some(path.to_owned());
        }
        if self.targets.unmarked == Some(written.now) {
            *marked = None;
        }
    }

    /// The shown page's id in the targets file: its corpus id when it was
    /// opened from the Corpus view, else its URL (SPEC 11).
    pub(super) fn target_page_id(&self) -> Option<String> {
        let page = self
            .load
            .inspection
            .as_ref()?
            .pages
            .get(self.selection.page)?;
        if self.selection.page == 0
            && let Some((file, id)) = &self.targets.corpus_page
            && matches!(&self.load.source, Source::File(shown) if Path::new(shown) == Path::new(file))
        {
            return Some(id.clone());
        }
        Some(page.url.to_string())
    }

    /// The shown page's targets, when a targets file is in use.
    pub(super) fn page_targets(&self) -> Option<PageTargets<'_>> {
        self.targets.of_page(self.target_page_id().as_deref())
    }

    /// Whether the kind chooser is open for the selected link.
    pub(super) fn choosing_kind(&self) -> bool {
        self.selection.selected.is_some() && self.targets.choosing == self.selection.selected
    }

    /// What the detail pane's target section shows of the selected link.
    pub(super) fn target_mark(&self) -> TargetMark<'_> {
        let kind = self
            .selected_link()
            .and_then(|(_, link, _)| self.page_targets().and_then(|t| t.kind_of(link)));
        TargetMark {
            file: self
                .targets
                .path
                .as_deref()
                .and_then(Path::file_name)
                .and_then(|n| n.to_str()),
            path: self.targets.path.as_deref(),
            kind,
            choosing: self.choosing_kind(),
            can_undo: self.targets.can_undo,
        }
    }

    pub(super) fn choose_target_kind(&mut self, open: bool) {
        self.targets.choosing = if open && self.targets.path.is_some() {
            self.selection.selected
        } else {
            None
        };
    }

    /// Puts back the targets file as it was before the last mark.
    pub(super) fn undo_mark(&mut self) {
        if self.targets.can_undo {
            self.send_targets(TargetsRequest::Undo);
        }
    }

    /// Marks the selected link as a target of `kind`, or as not one.
    pub(super) fn mark_selected(&mut self, kind: Option<TargetKind>) {
        self.targets.choosing = None;
        if self.targets.path.is_none() {
            self.notice = Some(crate::copy::CHOOSE_TARGETS_FILE_FIRST.into());
            return;
        }
        let id = self.target_page_id();
        let mark = self.selected_link().zip(id).and_then(|((_, link, _), id)| {
            let url = link.url.as_ref()?;
            Some(Mark {
                id,
                url: url.to_string(),
                index: link.index,
                text: link.text.to_string(),
                kind,
            })
        });
        match mark {
            Some(mark) => self.send_targets(TargetsRequest::Mark(mark)),
            None => self.notice = Some(crate::copy::NO_LINK_TO_MARK.into()),
        }
    }
}
