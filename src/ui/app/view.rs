//! The window itself: which view and side panels show, the dialogs, the
//! banners' dismissal, the clipboard and the desktop's file dialog.

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
        if self.view.file_dialog.is_some() {
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
            Ok(pending) => self.view.file_dialog = Some(pending),
            Err(e) => {
                self.error = Some(ShownError::plain(crate::copy::cannot_open_file_dialog(&e)));
            }
        }
    }
}
