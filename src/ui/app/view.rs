//! The window itself: which view and side panels show, the dialogs, the
//! banners' dismissal, the clipboard and the desktop's file dialog.

use std::path::PathBuf;

use super::InspectorApp;
use crate::ui::command::ViewCommand;
use crate::ui::state::{Dialog, FilePurpose, ShownError, SidePanel};
use crate::ui::tasks::file_dialog::PendingFileDialog;

impl InspectorApp {
    pub(super) fn carry_out_view(&mut self, command: ViewCommand, ctx: &egui::Context) {
        match command {
            ViewCommand::ShowView(view) => self.view.main = view,
            ViewCommand::TogglePanel(SidePanel::Settings) => self.view.show_settings ^= true,
            ViewCommand::TogglePanel(SidePanel::Detail) => self.view.show_detail ^= true,
            ViewCommand::ShowWarnings => {
                self.view.show_settings = true;
                self.view.scroll_to_warnings = true;
            }
            ViewCommand::OpenDialog(dialog) => self.dialog = Some(dialog),
            ViewCommand::CloseDialog => self.dialog = None,
            ViewCommand::DismissError => {
                self.error = None;
                self.load.failed = false;
            }
            ViewCommand::DismissNotice => self.notice = None,
            ViewCommand::CopyToClipboard(text) => {
                ctx.copy_text(text);
                self.notice = Some(crate::copy::COPIED.into());
            }
            ViewCommand::BrowseFile(purpose) => self.browse_file(purpose, ctx),
        }
    }

    /// Asks the desktop for a file on a background thread; one at a time.
    fn browse_file(&mut self, purpose: FilePurpose, ctx: &egui::Context) {
        if self.tasks.file_dialog.is_some() {
            return;
        }
        let repaint_ctx = ctx.clone();
        // Save for ticket proposes the file its dialog names.
        let suggested = match &self.dialog {
            Some(Dialog::SaveArchive { path, .. }) if purpose == FilePurpose::SaveArchive => {
                Some(std::path::PathBuf::from(path.trim()))
            }
            _ => None,
        };
        let repaint = move || repaint_ctx.request_repaint();
        match PendingFileDialog::spawn(purpose, suggested, repaint) {
            Ok(pending) => self.tasks.file_dialog = Some(pending),
            Err(e) => {
                self.error = Some(ShownError::plain(crate::copy::cannot_open_file_dialog(&e)));
            }
        }
    }

    /// The file dialog for `purpose` answered: the file goes where it was
    /// asked for.
    pub(super) fn file_chosen(
        &mut self,
        purpose: FilePurpose,
        chosen: Option<PathBuf>,
        ctx: &egui::Context,
    ) {
        let Some(path) = chosen.map(|p| p.display().to_string()) else {
            self.notice = Some(crate::copy::NO_FILE_CHOSEN.into());
            return;
        };
        match purpose {
            FilePurpose::OpenPage => {
                self.top.set_target(path);
                self.load(ctx);
            }
            FilePurpose::ImportSettings => {
                if let Some(Dialog::Import { path: field, .. }) = &mut self.dialog {
                    *field = path;
                }
            }
            FilePurpose::ExportSettings => self.export_to_file(&path),
            FilePurpose::SaveArchive => {
                if let Some(Dialog::SaveArchive { path: field, .. }) = &mut self.dialog {
                    field.clone_from(&path);
                }
                self.save_archive(&path, false, ctx);
            }
            FilePurpose::TargetsFile => {
                if let Some(Dialog::TargetsFile { path: field }) = &mut self.dialog {
                    *field = path;
                }
            }
            FilePurpose::CorpusFolder
            | FilePurpose::CorpusManifest
            | FilePurpose::CorpusArchive => self.corpus.panel.path = path,
            FilePurpose::CorpusTargets => {
                self.corpus.panel.targets = path;
                self.corpus.panel.targets_off = false;
            }
        }
    }
}
