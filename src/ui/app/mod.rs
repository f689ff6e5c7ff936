//! The app: owns the state, draws the panels (`ui`), and carries out the
//! commands they return (`command_handling`), each in its subject's file
//! (`loading`, `profiles`, `corpus`, …), which changes that subject's part of
//! the state (`subjects/`). Work that can take time runs in the background
//! (`tasks::BackgroundTasks`), polled once a frame.

mod archive;
mod command_handling;
mod comparison;
mod corpus;
mod loading;
mod profiles;
mod selection;
mod settings;
mod subjects;
mod targets;
mod targets_file;
mod ui;
mod view;

use std::path::PathBuf;
use std::sync::Arc;

use crate::fetch::Fetcher;
use crate::inspect::Inspection;
use crate::policy::Settings;
use crate::ui::panels::top_bar::TopBarState;
use crate::ui::state::{Dialog, RememberedWindowOptions, ShownError};
use crate::ui::tasks::BackgroundTasks;
use crate::ui::tasks::profiles::Request;
use subjects::comparison::Comparison;

/// The window's whole state: what is typed and said, shared by every
/// subject, then one part per subject, each defined in and changed by its
/// file in `app/`.
pub struct InspectorApp {
    /// The settings on screen (`settings`); a profile's as saved is in `profiles`.
    settings: Settings,
    top: TopBarState,
    /// What the window remembers that belongs to no profile (host mappings).
    window_options: RememberedWindowOptions,
    /// The last error, shown in a banner until dismissed or the next load.
    error: Option<ShownError>,
    /// Something the user should know that is not an error; cleared when the
    /// next action starts.
    notice: Option<String>,
    dialog: Option<Dialog>,
    /// Measuring start-up: when the window was asked for, and whether the
    /// first frame was reported.
    measuring: Option<(std::time::Instant, bool)>,
    /// The shown inspection and the load running (`loading`).
    load: subjects::load::LoadState,
    /// The shown page and link, and what is cached of them (`selection`).
    selection: subjects::selection::SelectionState,
    /// Which views and side panels show (`view`).
    view: subjects::view::ViewState,
    /// The current profile, the others' names and the profiles thread (`profiles`).
    profiles: subjects::profiles::ProfileState,
    /// A second profile the pages are also decided under (`comparison`).
    comparison: Option<Comparison>,
    /// The corpus view and its run (`corpus`).
    corpus: subjects::corpus::CorpusRunState,
    /// Save for ticket (`archive`).
    archive: subjects::archive::ArchiveState,
    /// The targets file links are marked in (`targets`).
    targets: targets_file::TargetsFile,
    /// Everything running off the frame, polled once a frame (`ui`); what
    /// it reports goes to its subject's file (`command_handling`).
    tasks: BackgroundTasks,
}

const STORAGE_KEY: &str = "follow-inspector";
const WINDOW_OPTIONS_KEY: &str = "follow-inspector-window-options";

impl InspectorApp {
    /// The app as eframe creates it: fonts installed, the last inputs restored,
    /// the active profile and the demo page shown; `start` (a URL or file) is
    /// loaded at once. Profiles live in `config_dir`, or in the user's
    /// configuration directory when it is `None`.
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        start: Option<String>,
        config_dir: Option<PathBuf>,
    ) -> Self {
        let top: TopBarState = cc
            .storage
            .and_then(|s| eframe::get_value::<TopBarState>(s, STORAGE_KEY))
            .map(TopBarState::validated)
            .unwrap_or_default();
        let window_options = cc
            .storage
            .and_then(|s| eframe::get_value::<RememberedWindowOptions>(s, WINDOW_OPTIONS_KEY))
            .unwrap_or_default();
        let repaint_ctx = cc.egui_ctx.clone();
        let (tasks, profiles_unavailable) =
            BackgroundTasks::start(move || repaint_ctx.request_repaint());
        let mut app = Self {
            settings: Settings::default(),
            top,
            window_options,
            error: None,
            notice: None,
            dialog: None,
            measuring: None,
            load: subjects::load::LoadState::new(crate::render::find_browser(None).ok()),
            selection: subjects::selection::SelectionState::default(),
            view: subjects::view::ViewState::new(),
            profiles: subjects::profiles::ProfileState::new(),
            comparison: None,
            corpus: subjects::corpus::CorpusRunState::default(),
            archive: subjects::archive::ArchiveState::default(),
            targets: targets_file::TargetsFile::default(),
            tasks,
        };
        match profiles_unavailable {
            None => app.send_profiles(Request::Open(config_dir)),
            Some(e) => app
                .profiles
                .notices
                .push(crate::copy::profiles_unavailable(&e.to_string())),
        }
        app.load_demo();
        app.load.start_target = start;
        if app.tasks.profiles.is_none() {
            app.load_start_target(&cc.egui_ctx);
        }
        app
    }

    /// Uses `browser` for rendered mode instead of the one found at start-up
    /// (`None`: as if Chromium were not installed).
    pub fn with_browser(mut self, browser: Option<PathBuf>) -> Self {
        self.load.browser = browser;
        self
    }

    /// Reports the first frame and the loaded start page on stderr, then
    /// closes the window (see `ui::MEASURE_ENV`).
    pub fn measuring_startup(mut self, started: std::time::Instant) -> Self {
        self.measuring = Some((started, false));
        self
    }

    /// Uses `fetcher` for every URL instead of the HTTP client.
    pub fn with_fetcher(mut self, fetcher: Arc<dyn Fetcher>) -> Self {
        self.load.fetcher = Some(fetcher);
        self
    }

    pub fn inspection(&self) -> Option<&Inspection> {
        self.load.inspection.as_ref()
    }

    pub fn error(&self) -> Option<&str> {
        self.error.as_ref().map(|e| e.message.as_str())
    }

    /// The last status message (not an error).
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// The start page's URL field as typed, and the base URL for a saved page.
    pub fn target(&self) -> (&str, &str) {
        (&self.top.target, &self.top.base_url)
    }

    pub fn is_busy(&self) -> bool {
        self.tasks.load.is_some()
    }

    /// Save for ticket is writing an archive.
    pub fn is_saving(&self) -> bool {
        self.tasks.save.is_some()
    }

    /// A corpus run is going.
    pub fn corpus_running(&self) -> bool {
        self.tasks.corpus.is_some()
    }

    /// The name of the profile the pages are compared with.
    pub fn comparing(&self) -> Option<&str> {
        self.comparison.as_ref().map(|c| c.name.as_str())
    }

    /// The last corpus run.
    pub fn corpus_run(&self) -> Option<&crate::corpus::CorpusRun> {
        self.corpus.panel.run.as_ref()
    }

    /// The host mappings as typed (Settings › Advanced).
    pub fn host_mapping(&self) -> &str {
        &self.window_options.host_mapping
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn profile(&self) -> &str {
        &self.profiles.name
    }

    /// The settings differ from the profile as saved.
    pub fn is_dirty(&self) -> bool {
        self.settings != self.profiles.saved
    }
}
