//! What a panel asks the app to do. Panels draw and return these; only the app
//! carries them out, so no panel imports the app.

use crate::ui::state::{
    AfterUnsaved, CopyWhat, Dialog, FilePurpose, MainView, NameAction, SidePanel,
};

/// One thing a panel asks the app to do.
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Fetch the URL or read the file in the top bar.
    Load,
    /// Crawl the shown start page again with the current settings and depth.
    CrawlAgain,
    Cancel,
    LoadDemo,
    /// A setting changed: re-classify without fetching.
    SettingsEdited,
    ResetSettings,
    /// Depth or the N override changed: re-classify with the new limits.
    LimitsEdited,
    SelectPage(usize),
    SelectLink(Option<usize>),
    CopyToClipboard(String),
    CopySelected(CopyWhat),
    DismissError,
    DismissNotice,
    DismissProfileNotice(usize),
    TogglePanel(SidePanel),
    /// Show the settings panel scrolled to the warnings.
    ShowWarnings,
    /// Ask the desktop for a file (on a background thread).
    BrowseFile(FilePurpose),
    /// Append a domain to `followAllowedDomains` (a suggested sibling root).
    AddAllowedDomain(String),
    /// Decide the shown pages under a second profile too (`None`: stop comparing).
    CompareWith(Option<String>),
    /// Switch between the inspector and the corpus view.
    ShowView(MainView),
    /// Run the corpus view's folder or manifest.
    RunCorpus,
    CancelCorpus,
    /// Compare with the corpus run's suggestion (its index) and run again.
    TrySuggestion(usize),
    /// Ask a name to save the corpus run's suggestion (its index) as a profile.
    SaveSuggestion(usize),
    /// Open a corpus page in the inspector (its file and its URL), with
    /// `link` (a candidate index) selected once it has loaded.
    OpenCorpusPage {
        path: String,
        url: String,
        link: Option<usize>,
    },
    /// Put one storage key back to the scraper's default.
    RevertKey(&'static str),
    SwitchProfile(String),
    SaveProfile,
    OpenDialog(Dialog),
    CloseDialog,
    NameEntered {
        action: NameAction,
        name: String,
        /// What the unsaved-changes question was about, when Save as came from it.
        then: Option<AfterUnsaved>,
    },
    DeleteProfile,
    Discard(AfterUnsaved),
    /// Save the current profile, then go on with what was asked.
    SaveThen(AfterUnsaved),
    Import {
        name: String,
        json: String,
        path: String,
    },
    ExportToFile(String),
    /// Ask where to save the loaded inspection as a web archive.
    SaveForTicket,
    /// Write the web archive; an existing file is replaced only when `overwrite`.
    SaveArchive {
        path: String,
        overwrite: bool,
    },
    /// Judge a reopened archive's pages under its own settings (`true`) or
    /// the current profile's; nothing is fetched.
    JudgeUnderArchive(bool),
    /// Mark links in this targets file; with `create`, a new one is written
    /// when there is none.
    UseTargetsFile {
        path: String,
        create: bool,
    },
    /// Open (`true`) or close the selected link's target kind chooser.
    ChooseTargetKind(bool),
    /// Mark the selected link as a target of this kind, or (`None`) as not one.
    MarkTarget(Option<crate::corpus::truth::TargetKind>),
    /// Put back the targets file as it was before the last mark.
    UndoMark,
}

impl Command {
    /// Whether this starts something new, so the last status message goes.
    pub fn starts_an_action(&self) -> bool {
        !matches!(
            self,
            Command::SelectPage(_)
                | Command::SelectLink(_)
                | Command::TogglePanel(_)
                | Command::ShowWarnings
                | Command::DismissError
                | Command::DismissNotice
                | Command::DismissProfileNotice(_)
                | Command::CloseDialog
                | Command::ChooseTargetKind(_)
        )
    }
}
