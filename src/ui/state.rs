//! Plain data that panels, commands and workers share. It imports no other ui
//! file, so the imports between ui files form no circle.

use std::path::PathBuf;
use std::time::Instant;

use crate::crawl::Progress;

/// The bundled demo page: every verdict, no network. Here, beside the plain
/// data, so that the app shows it and the panels' kittests draw it alike.
pub const DEMO_HTML: &[u8] = include_bytes!("../../assets/demo/acme-home.html");
pub const DEMO_URL: &str = "https://acme.test/";

/// What the keyboard copy shortcuts put on the clipboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyWhat {
    /// Ctrl+C: the selected link's URL.
    Url,
    /// Ctrl+Shift+C: the selected link's explanation, for a ticket.
    Explanation,
}

/// What the window keeps between runs that belongs to no profile: it is about
/// how pages are reached, not how links are judged.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct RememberedWindowOptions {
    /// Host mappings as typed: `HOST:PORT:ADDR` (the CLI's `--resolve`), by
    /// commas or spaces; for static fetches and rendered loads alike.
    pub host_mapping: String,
}

impl RememberedWindowOptions {
    /// The host mappings, or the words of the first that does not parse.
    pub fn host_mapping(&self) -> Result<Vec<crate::fetch::Resolve>, String> {
        crate::fetch::Resolve::parse_list(&self.host_mapping)
    }
}

/// What the centre of the window shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MainView {
    /// One page or crawl, link by link.
    #[default]
    Inspector,
    /// A folder or manifest of saved pages under one or two profiles.
    Corpus,
}

/// A side panel the user can fold away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SidePanel {
    Settings,
    Detail,
}

/// Where the shown inspection came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Source {
    #[default]
    Nothing,
    Demo,
    File(String),
    Url,
    /// A web archive reopened offline, and what its inspection record says.
    Archive {
        path: String,
        info: Box<crate::archive::CaptureInfo>,
    },
}

/// What the chosen file is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilePurpose {
    /// A saved page to inspect.
    OpenPage,
    /// A storage-data JSON file to import as a profile.
    ImportSettings,
    /// Where to write the current settings.
    ExportSettings,
    /// A folder of saved pages for the corpus view.
    CorpusFolder,
    /// A corpus manifest (TSV).
    CorpusManifest,
    /// Where Save for ticket writes the web archive.
    SaveArchive,
    /// A web archive (or an @LIST of them) for the corpus view.
    CorpusArchive,
    /// The corpus view's targets file (TSV).
    CorpusTargets,
    /// The targets file links are marked in.
    TargetsFile,
}

/// A load in progress, as the top bar shows it.
#[derive(Clone, Debug)]
pub struct Loading {
    pub progress: Progress,
    pub started: Instant,
    /// What is being loaded, as typed.
    pub label: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameAction {
    SaveAs,
    Rename,
    Duplicate,
    /// A corpus suggestion's settings stored as a new profile; the current
    /// profile stays current.
    SaveSuggestion,
}

/// An action that leaves the current profile, or replaces the settings on
/// screen: with unsaved changes it waits for the unsaved-changes question,
/// and is done once they are saved or discarded. Each names the profiles (or
/// the archive) it is about, as a "Save as" first changes which profile is
/// current.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AfterUnsaved {
    Switch(String),
    Quit,
    Import {
        name: String,
        json: String,
        path: String,
    },
    Rename {
        from: String,
        to: String,
    },
    Duplicate {
        from: String,
        to: String,
    },
    Delete(String),
    /// The reopened archive at this path judged under its own settings
    /// (the archive banner's button), which replace those on screen.
    UseArchiveSettings(String),
}

/// The open modal dialog and what is typed in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dialog {
    Name {
        action: NameAction,
        name: String,
        error: Option<String>,
        then: Option<AfterUnsaved>,
    },
    ConfirmDelete,
    ConfirmDiscard(AfterUnsaved),
    Import {
        name: String,
        json: String,
        path: String,
        error: Option<String>,
    },
    Export {
        path: String,
    },
    /// Save for ticket: where the web archive goes.
    SaveArchive {
        path: String,
        error: Option<String>,
    },
    /// The archive's file exists: replace it?
    ConfirmOverwrite {
        path: String,
    },
    /// Which targets file links are marked in.
    TargetsFile {
        path: String,
    },
    /// The targets file named does not exist: create it?
    CreateTargets {
        path: String,
    },
}

impl Dialog {
    pub fn name_entry(action: NameAction, name: &str) -> Dialog {
        Dialog::Name {
            action,
            name: name.to_owned(),
            error: None,
            then: None,
        }
    }

    pub fn import() -> Dialog {
        Dialog::Import {
            name: String::new(),
            json: String::new(),
            path: String::new(),
            error: None,
        }
    }

    /// Shows a problem inside the dialog instead of closing it.
    pub fn set_error(&mut self, message: String) {
        if let Dialog::Name { error, .. }
        | Dialog::Import { error, .. }
        | Dialog::SaveArchive { error, .. } = self
        {
            *error = Some(message);
        }
    }
}

/// An error as the banner shows it: its words and, when its kind has one,
/// what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownError {
    pub message: String,
    pub advice: Option<&'static str>,
}

impl ShownError {
    /// A failed load, with the advice its kind calls for.
    pub fn of_load(err: &crate::load::LoadError) -> Self {
        Self {
            message: crate::copy::error_text(err),
            advice: crate::copy::load_advice(err, crate::copy::Front::Window),
        }
    }

    /// An error that says all there is to say itself.
    pub fn plain(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            advice: None,
        }
    }
}

/// The targets file a run is measured against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetsChoice {
    /// None: the run is not measured.
    None,
    /// `targets.tsv` beside the corpus (beside a manifest or an archive,
    /// inside a folder): used when it exists.
    Beside,
    /// Chosen by the user: a file that cannot be used is an error.
    Chosen(PathBuf),
}

/// How far a run has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorpusProgress {
    /// Pages done, pages in the corpus (0 before they are listed; for
    /// archives, the pages found so far).
    Pages { done: usize, total: usize },
    /// Pages read; candidate changes tried over the labelled pages, of all.
    Suggesting { tried: usize, total: usize },
    /// Tune…: a step of the tuning, or of a fold of its cross-validation.
    Tuning(crate::corpus::truth::TuneProgress),
}

/// A finished run and what became of its targets file.
pub struct CorpusResult {
    pub run: crate::corpus::CorpusRun,
    /// The targets file the run was measured against.
    pub targets_used: Option<PathBuf>,
    /// Why the targets file could not be used (the run went on without it).
    pub targets_error: Option<String>,
}
