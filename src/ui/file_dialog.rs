//! Native file dialogs (rfd over the XDG desktop portal). A dialog blocks the
//! thread that opens it, so it runs on its own named thread and the frame polls
//! for the answer. The typed path fields stay: where no portal answers, the
//! dialog returns nothing and the user types the path.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, TryRecvError};

use crate::ui::state::FilePurpose;

/// A dialog the desktop is showing.
pub struct PendingFileDialog {
    pub purpose: FilePurpose,
    rx: Receiver<Option<PathBuf>>,
}

/// What a poll found.
pub enum DialogPoll {
    Open,
    /// The user chose a file, or `None`: cancelled, or no dialog could be shown.
    Answered(Option<PathBuf>),
}

impl PendingFileDialog {
    /// Opens the dialog on a named thread; `repaint` wakes the window when it answers.
    pub fn spawn(
        purpose: FilePurpose,
        repaint: impl Fn() + Send + 'static,
    ) -> std::io::Result<Self> {
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("follow-inspector-file-dialog".into())
            .spawn(move || {
                let dialog = rfd::FileDialog::new();
                let chosen = match purpose {
                    FilePurpose::OpenPage => dialog
                        .set_title("Open a saved page")
                        .add_filter("HTML page", &["html", "htm", "xhtml"])
                        .pick_file(),
                    FilePurpose::ImportSettings => dialog
                        .set_title("Import a user's settings")
                        .add_filter("storage-data JSON", &["json"])
                        .pick_file(),
                    FilePurpose::ExportSettings => dialog
                        .set_title("Export the settings")
                        .set_file_name("settings.json")
                        .save_file(),
                    FilePurpose::CorpusFolder => {
                        dialog.set_title("A folder of saved pages").pick_folder()
                    }
                    FilePurpose::CorpusManifest => dialog
                        .set_title("A corpus manifest")
                        .add_filter("manifest", &["tsv", "txt"])
                        .pick_file(),
                };
                let _ = tx.send(chosen);
                repaint();
            })?;
        Ok(Self { purpose, rx })
    }

    /// Never blocks.
    pub fn poll(&self) -> DialogPoll {
        match self.rx.try_recv() {
            Ok(chosen) => DialogPoll::Answered(chosen),
            Err(TryRecvError::Empty) => DialogPoll::Open,
            Err(TryRecvError::Disconnected) => DialogPoll::Answered(None),
        }
    }
}
