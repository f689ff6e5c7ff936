//! Native file dialogs (rfd over the XDG desktop portal). A dialog blocks the
//! thread that opens it, so it runs in the background and the frame polls
//! for the answer. The typed path fields stay: where no portal answers, the
//! dialog returns nothing and the user types the path.

use crate::copy;
use crate::ui::state::FilePurpose;
use crate::ui::tasks::background::{Background, Status};
use std::path::PathBuf;

/// A dialog the desktop is showing. Dropping it lets the answer go unread:
/// a dialog cannot be closed from here.
pub struct PendingFileDialog {
    pub purpose: FilePurpose,
    answer: Background<(), Option<PathBuf>>,
}

/// What a poll found.
pub enum DialogPoll {
    Open,
    /// The user chose a file, or `None`: cancelled, or no dialog could be shown.
    Answered(Option<PathBuf>),
}

impl PendingFileDialog {
    /// Opens the dialog on a named thread, a file to save proposed as
    /// `suggested`; `repaint` wakes the window when it answers.
    pub fn spawn(
        purpose: FilePurpose,
        suggested: Option<PathBuf>,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> std::io::Result<Self> {
        let answer = Background::spawn("follow-inspector-file-dialog", repaint, move |_| {
            ask(purpose, suggested)
        })?;
        Ok(Self { purpose, answer })
    }

    /// Never blocks.
    pub fn poll(&self) -> DialogPoll {
        match self.answer.poll(|()| {}) {
            Status::Running => DialogPoll::Open,
            Status::Finished(chosen) => DialogPoll::Answered(chosen),
            Status::Vanished => DialogPoll::Answered(None),
        }
    }
}

/// Shows the desktop's dialog for `purpose` and waits for the answer.
fn ask(purpose: FilePurpose, suggested: Option<PathBuf>) -> Option<PathBuf> {
    let mut dialog = rfd::FileDialog::new();
    if let Some(suggested) = suggested {
        if let Some(folder) = suggested.parent().filter(|p| !p.as_os_str().is_empty()) {
            dialog = dialog.set_directory(folder);
        }
        if let Some(name) = suggested.file_name() {
            dialog = dialog.set_file_name(name.to_string_lossy());
        }
    }
    match purpose {
        // An archive's `.warc.gz` ends in `gz`: the filter names the last part.
        FilePurpose::OpenPage => dialog
            .set_title(copy::FILE_DIALOG_OPEN_PAGE)
            .add_filter(
                copy::FILE_FILTER_PAGE_OR_ARCHIVE,
                &["html", "htm", "xhtml", "warc", "gz", "arc", "wacz"],
            )
            .add_filter(copy::FILE_FILTER_HTML, &["html", "htm", "xhtml"])
            .add_filter(copy::FILE_FILTER_ARCHIVE, &["warc", "gz", "arc", "wacz"])
            .pick_file(),
        FilePurpose::SaveArchive => dialog
            .set_title(copy::FILE_DIALOG_SAVE_ARCHIVE)
            .add_filter(copy::FILE_FILTER_ARCHIVE, &["gz", "warc", "wacz"])
            .save_file(),
        FilePurpose::ImportSettings => dialog
            .set_title(copy::FILE_DIALOG_IMPORT_SETTINGS)
            .add_filter(copy::FILE_FILTER_JSON, &["json"])
            .pick_file(),
        FilePurpose::ExportSettings => dialog
            .set_title(copy::FILE_DIALOG_EXPORT_SETTINGS)
            .set_file_name("settings.json")
            .save_file(),
        FilePurpose::CorpusFolder => dialog
            .set_title(copy::FILE_DIALOG_CORPUS_FOLDER)
            .pick_folder(),
        FilePurpose::CorpusManifest => dialog
            .set_title(copy::FILE_DIALOG_CORPUS_MANIFEST)
            .add_filter(copy::FILE_FILTER_MANIFEST, &["tsv", "txt"])
            .pick_file(),
        FilePurpose::CorpusTargets => dialog
            .set_title(copy::FILE_DIALOG_CORPUS_TARGETS)
            .add_filter(copy::FILE_FILTER_TARGETS, &["tsv", "txt"])
            .pick_file(),
        FilePurpose::TargetsFile => dialog
            .set_title(copy::FILE_DIALOG_TARGETS)
            .add_filter(copy::FILE_FILTER_TARGETS, &["tsv", "txt"])
            .pick_file(),
        FilePurpose::CorpusArchive => dialog
            .set_title(copy::FILE_DIALOG_CORPUS_ARCHIVE)
            .add_filter(copy::FILE_FILTER_ARCHIVE, &["gz", "warc", "arc", "wacz"])
            .pick_file(),
    }
}
