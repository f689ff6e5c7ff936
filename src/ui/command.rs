//! What a panel asks the app to do. Panels draw and return these; only the app
//! carries them out, so no panel imports the app.
//!
//! The commands go by subject, one enum per file in `app/` that carries them
//! out (`LoadCommand` in `app/loading.rs`, and so on); [`Command`] is the one
//! thing a panel returns: a subject's command and, in debug builds, where it
//! was made (as rerun's viewer records where a command was sent from).

use crate::ui::state::{
    AfterUnsaved, CopyWhat, Dialog, FilePurpose, MainView, NameAction, SidePanel,
};

/// One thing a panel asks the app to do: made from a subject's command with
/// `From`/`into`, which notes (in debug builds) the line it was made on.
#[must_use]
#[derive(Clone)]
pub struct Command {
    subject: Subject,
    /// Where the command was made: which panel, which line. Equality and
    /// `Debug` ignore it, so a panel's tests compare commands by what they ask.
    #[cfg(debug_assertions)]
    sent_from: &'static std::panic::Location<'static>,
}

/// A command, by the subject it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    Load(LoadCommand),
    Settings(SettingsCommand),
    Selection(SelectionCommand),
    View(ViewCommand),
    Profile(ProfileCommand),
    Comparison(ComparisonCommand),
    Corpus(CorpusCommand),
    Archive(ArchiveCommand),
    Targets(TargetsCommand),
}

/// Loading pages (`app/loading.rs`).
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadCommand {
    /// Fetch the URL or read the file in the top bar.
    Load,
    /// Crawl the shown start page again with the current settings and depth.
    CrawlAgain,
    Cancel,
    LoadDemo,
}

/// The settings on screen (`app/settings.rs`).
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsCommand {
    /// A setting changed: re-classify without fetching.
    SettingsEdited,
    ResetSettings,
    /// Depth or the N override changed: re-classify with the new limits.
    LimitsEdited,
    /// Append a domain to `followAllowedDomains` (a suggested sibling root).
    AddAllowedDomain(String),
    /// Put one storage key back to the scraper's default.
    RevertKey(&'static str),
}

/// The shown page and link (`app/selection.rs`).
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelectionCommand {
    SelectPage(usize),
    SelectLink(Option<usize>),
    CopySelected(CopyWhat),
}

/// The window itself: its views, side panels, dialogs, banners and the
/// clipboard (`app/view.rs`).
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewCommand {
    /// Switch between the inspector and the corpus view.
    ShowView(MainView),
    TogglePanel(SidePanel),
    /// Show the settings panel scrolled to the warnings.
    ShowWarnings,
    OpenDialog(Dialog),
    CloseDialog,
    DismissError,
    DismissNotice,
    CopyToClipboard(String),
    /// Ask the desktop for a file (on a background thread).
    BrowseFile(FilePurpose),
}

/// The profiles (`app/profiles.rs`).
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfileCommand {
    SwitchProfile(String),
    SaveProfile,
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
    DismissProfileNotice(usize),
}

/// Compare with… (`app/comparison.rs`).
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComparisonCommand {
    /// Decide the shown pages under a second profile too (`None`: stop comparing).
    CompareWith(Option<String>),
}

/// The corpus view's runs (`app/corpus.rs`).
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorpusCommand {
    /// Run the corpus view's folder or manifest.
    RunCorpus,
    CancelCorpus,
    /// Compare with the corpus run's suggestion (its index) and run again.
    TrySuggestion(usize),
    /// Ask a name to save the corpus run's suggestion (its index) as a profile.
    SaveSuggestion(usize),
    /// Tune…: run the corpus with `--tune`'s search; its settings become B.
    /// (Its steps and bounds are the view's.)
    Tune,
    /// Ask a name to save the last Tune…'s settings as a profile.
    SaveTuned,
    /// Open a corpus page in the inspector (its file and its URL), with
    /// `link` (a candidate index) selected once it has loaded.
    OpenCorpusPage {
        path: String,
        url: String,
        link: Option<usize>,
    },
}

/// Web archives (`app/archive.rs`).
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArchiveCommand {
    /// Ask where to save the loaded inspection as a web archive.
    SaveForTicket,
    /// Write the web archive; an existing file is replaced only when `overwrite`.
    SaveArchive { path: String, overwrite: bool },
    /// Judge a reopened archive's pages under its own settings (`true`) or
    /// the current profile's; nothing is fetched.
    JudgeUnderArchive(bool),
    /// Crawl the open WACZ package again from this page of its list.
    StartAtPackagePage(String),
}

/// The targets file links are marked in (`app/targets.rs`).
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetsCommand {
    /// Mark links in this targets file; with `create`, a new one is written
    /// when there is none.
    UseTargetsFile { path: String, create: bool },
    /// Open (`true`) or close the selected link's target kind chooser.
    ChooseTargetKind(bool),
    /// Mark the selected link as a target of this kind, or (`None`) as not one.
    MarkTarget(Option<crate::corpus::truth::TargetKind>),
    /// Put back the targets file as it was before the last mark.
    UndoMark,
}

impl Command {
    /// The command for `subject`, noting (in debug builds) where it was made.
    #[track_caller]
    pub fn new(subject: Subject) -> Self {
        Self {
            subject,
            #[cfg(debug_assertions)]
            sent_from: std::panic::Location::caller(),
        }
    }

    /// What is asked, by subject.
    pub fn subject(&self) -> &Subject {
        &self.subject
    }

    pub fn into_subject(self) -> Subject {
        self.subject
    }

    /// Where the command was made (debug builds only): the file and line of
    /// the panel that asked, to tell which of several buttons sent it.
    #[cfg(debug_assertions)]
    pub fn sent_from(&self) -> &'static std::panic::Location<'static> {
        self.sent_from
    }

    /// Whether this starts something new, so the last status message goes.
    pub fn starts_an_action(&self) -> bool {
        !matches!(
            self.subject,
            Subject::Selection(SelectionCommand::SelectPage(_) | SelectionCommand::SelectLink(_))
                | Subject::View(
                    ViewCommand::TogglePanel(_)
                        | ViewCommand::ShowWarnings
                        | ViewCommand::DismissError
                        | ViewCommand::DismissNotice
                        | ViewCommand::CloseDialog
                )
                | Subject::Profile(ProfileCommand::DismissProfileNotice(_))
                | Subject::Targets(TargetsCommand::ChooseTargetKind(_))
        )
    }
}

impl PartialEq for Command {
    fn eq(&self, other: &Self) -> bool {
        self.subject == other.subject
    }
}

impl Eq for Command {}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.subject.fmt(f)
    }
}

/// `From<…Command>` for [`Subject`] and for [`Command`]; the latter is
/// `#[track_caller]`, and so is the standard `into`, so the location noted
/// is the panel's line that made the command.
macro_rules! subjects {
    ($($command:ident => $subject:ident,)*) => {$(
        impl From<$command> for Subject {
            fn from(command: $command) -> Self {
                Subject::$subject(command)
            }
        }

        impl From<$command> for Command {
            #[track_caller]
            fn from(command: $command) -> Self {
                Command::new(Subject::$subject(command))
            }
        }
    )*};
}

subjects! {
    LoadCommand => Load,
    SettingsCommand => Settings,
    SelectionCommand => Selection,
    ViewCommand => View,
    ProfileCommand => Profile,
    ComparisonCommand => Comparison,
    CorpusCommand => Corpus,
    ArchiveCommand => Archive,
    TargetsCommand => Targets,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_and_debug_ignore_where_a_command_was_made() {
        let here = Command::from(LoadCommand::Load);
        let there: Command = LoadCommand::Load.into();
        assert_eq!(here, there);
        assert_eq!(format!("{here:?}"), "Load(Load)");
        assert_ne!(here, Command::from(LoadCommand::Cancel));
    }

    #[cfg(debug_assertions)]
    #[test]
    fn a_command_records_the_line_it_was_made_on() {
        let line = line!() + 1;
        let command: Command = ViewCommand::DismissNotice.into();
        assert_eq!(command.sent_from().file(), file!());
        assert_eq!(command.sent_from().line(), line);
    }

    #[test]
    fn only_looking_around_keeps_the_last_message() {
        let keeps: [Command; 9] = [
            SelectionCommand::SelectPage(1).into(),
            SelectionCommand::SelectLink(None).into(),
            ViewCommand::TogglePanel(SidePanel::Detail).into(),
            ViewCommand::ShowWarnings.into(),
            ViewCommand::DismissError.into(),
            ViewCommand::DismissNotice.into(),
            ViewCommand::CloseDialog.into(),
            ProfileCommand::DismissProfileNotice(0).into(),
            TargetsCommand::ChooseTargetKind(true).into(),
        ];
        assert!(keeps.iter().all(|c| !c.starts_an_action()));
        let starts: [Command; 4] = [
            LoadCommand::Load.into(),
            SelectionCommand::CopySelected(CopyWhat::Url).into(),
            ViewCommand::ShowView(MainView::Corpus).into(),
            TargetsCommand::UndoMark.into(),
        ];
        assert!(starts.iter().all(Command::starts_an_action));
    }
}
