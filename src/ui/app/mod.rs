//! The app: owns the state, draws the panels (`ui`), and carries out the
//! commands they return (`command_handling`). Work that can take time runs in
//! the background (`loading`, `profiles`, `corpus`).

mod archive;
mod command_handling;
mod comparison;
mod corpus;
mod loading;
mod profiles;
mod selection;
mod settings;
mod targets;
mod targets_file;
mod ui;
mod view;

use std::path::PathBuf;
use std::sync::Arc;

use crate::fetch::Fetcher;
use crate::inspect::Inspection;
use crate::policy::explain::WhatIf;
use crate::policy::{Settings, SiblingRoot};
use crate::profiles::BUILT_IN;
use crate::ui::panels::corpus::CorpusState;
use crate::ui::panels::results::ResultsState;
use crate::ui::panels::top_bar::TopBarState;
use crate::ui::state::{Dialog, MainView, RememberedWindowOptions, ShownError, Source};
use crate::ui::tasks::corpus::CorpusTask;
use crate::ui::tasks::file_dialog::PendingFileDialog;
use crate::ui::tasks::load::Task;
use crate::ui::tasks::profiles::{ProfileWorker, Request};
use comparison::Comparison;

/// The bundled demo page: every verdict, no network.
pub const DEMO_HTML: &[u8] = include_bytes!("../../../assets/demo/acme-home.html");
pub const DEMO_URL: &str = "https://acme.test/";

/// What a crawl was made with: when these change, its pages are out of date.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CrawlInputs {
    settings: Settings,
    depth: u32,
    limit_override: Option<usize>,
}

/// The window's whole state: what is shown, what is typed, what is running.
pub struct InspectorApp {
    settings: Settings,
    top: TopBarState,
    /// What the window remembers that belongs to no profile (host mappings).
    window_options: RememberedWindowOptions,
    inspection: Option<Inspection>,
    /// Bumped whenever `inspection` changes, for the panels' caches.
    generation: u64,
    /// Bumped when a new inspection arrives (not on re-classification).
    loaded: u64,
    /// What the shown crawl was made with; `None` for a saved page or the demo.
    crawled_with: Option<CrawlInputs>,
    source: Source,
    /// The host mappings the shown pages were fetched with.
    loaded_host_mapping: Vec<crate::fetch::Resolve>,
    /// The last error, shown in a banner until dismissed or the next load.
    error: Option<ShownError>,
    /// The last load failed, so the table shows the result from before it.
    load_failed: bool,
    task: Option<Task>,
    page: usize,
    /// The page to show again when the crawl running now arrives (Crawl again).
    reopen: Option<url::Url>,
    selected: Option<usize>,
    /// The link to select on the page a load brings (opened from the Corpus view).
    select_when_loaded: Option<usize>,
    what_ifs: Option<((u64, usize, usize), Vec<WhatIf>)>,
    /// The shown page's sibling roots, for the (generation, page) they are of.
    sibling_roots: Option<((u64, usize), Vec<SiblingRoot>)>,
    results: ResultsState,
    /// A fetcher given by the embedder (tests); otherwise one is built per load.
    fetcher: Option<Arc<dyn Fetcher>>,
    /// Reads and writes the profiles off the frame; `None` if its thread
    /// could not start (a notice says so).
    profiles: Option<ProfileWorker>,
    /// The URL or file to load once the profiles are open.
    start_target: Option<String>,
    /// Chromium for rendered mode, looked up once at start-up.
    browser: Option<PathBuf>,
    profile: String,
    /// The current profile as last saved: the settings are dirty when they differ.
    saved: Settings,
    profile_names: Vec<String>,
    dialog: Option<Dialog>,
    /// Something the user should know that is not an error; cleared when the
    /// next action starts.
    notice: Option<String>,
    /// What happened to the profiles file; each stays until the user closes it.
    profile_notices: Vec<String>,
    show_settings: bool,
    show_detail: bool,
    /// The warnings button was clicked: scroll the settings panel to them.
    scroll_to_warnings: bool,
    file_dialog: Option<PendingFileDialog>,
    /// Unsaved changes were discarded for quitting: let the window close.
    allow_close: bool,
    /// A second profile the pages are also decided under.
    comparison: Option<Comparison>,
    view: MainView,
    corpus: CorpusState,
    corpus_task: Option<CorpusTask>,
    /// How far the running corpus task has come.
    corpus_progress: Option<crate::ui::state::CorpusProgress>,
    /// Measuring start-up: when the window was asked for, and whether the
    /// first frame was reported.
    measuring: Option<(std::time::Instant, bool)>,
    /// Save for ticket running.
    save_task: Option<crate::ui::tasks::save::SaveTask>,
    /// Which pages the running save holds (see `archive::pages_identity`).
    saving_pages: Option<usize>,
    /// Where the shown inspection was last saved for a ticket, and when.
    saved_archive: Option<SavedArchive>,
    /// The targets file links are marked in.
    targets: targets_file::TargetsFile,
}

/// An archive Save for ticket wrote of the shown inspection.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SavedArchive {
    /// The copied explanation names the file, as attached to the ticket.
    file_name: String,
    /// UTC, `YYYY-MM-DD HH:MM`.
    at: String,
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
        let mut app = Self {
            settings: Settings::default(),
            top,
            window_options,
            inspection: None,
            generation: 0,
            loaded: 0,
            crawled_with: None,
            source: Source::Nothing,
            loaded_host_mapping: Vec::new(),
            error: None,
            load_failed: false,
            task: None,
            page: 0,
            reopen: None,
            selected: None,
            select_when_loaded: None,
            what_ifs: None,
            sibling_roots: None,
            results: ResultsState::default(),
            fetcher: None,
            profiles: None,
            start_target: None,
            browser: crate::render::find_browser(None).ok(),
            profile: BUILT_IN.to_owned(),
            saved: Settings::default(),
            profile_names: vec![BUILT_IN.to_owned()],
            dialog: None,
            notice: None,
            profile_notices: Vec::new(),
            show_settings: true,
            show_detail: true,
            scroll_to_warnings: false,
            file_dialog: None,
            allow_close: false,
            comparison: None,
            view: MainView::Inspector,
            corpus: CorpusState::default(),
            corpus_task: None,
            corpus_progress: None,
            measuring: None,
            save_task: None,
            saving_pages: None,
            saved_archive: None,
            targets: targets_file::TargetsFile::start(&cc.egui_ctx),
        };
        let repaint_ctx = cc.egui_ctx.clone();
        match ProfileWorker::spawn(move || repaint_ctx.request_repaint()) {
            Ok(worker) => {
                app.profiles = Some(worker);
                app.send_profiles(Request::Open(config_dir));
            }
            Err(e) => app
                .profile_notices
                .push(crate::copy::profiles_unavailable(&e.to_string())),
        }
        app.load_demo();
        app.start_target = start;
        if app.profiles.is_none() {
            app.load_start_target(&cc.egui_ctx);
        }
        app
    }

    /// Uses `browser` for rendered mode instead of the one found at start-up
    /// (`None`: as if Chromium were not installed).
    pub fn with_browser(mut self, browser: Option<PathBuf>) -> Self {
        self.browser = browser;
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
        self.fetcher = Some(fetcher);
        self
    }

    pub fn inspection(&self) -> Option<&Inspection> {
        self.inspection.as_ref()
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
        self.task.is_some()
    }

    /// Save for ticket is writing an archive.
    pub fn is_saving(&self) -> bool {
        self.save_task.is_some()
    }

    /// A corpus run is going.
    pub fn corpus_running(&self) -> bool {
        self.corpus_task.is_some()
    }

    /// The name of the profile the pages are compared with.
    pub fn comparing(&self) -> Option<&str> {
        self.comparison.as_ref().map(|c| c.name.as_str())
    }

    /// The last corpus run.
    pub fn corpus_run(&self) -> Option<&crate::corpus::CorpusRun> {
        self.corpus.run.as_ref()
    }

    /// The host mappings as typed (Settings › Advanced).
    pub fn host_mapping(&self) -> &str {
        &self.window_options.host_mapping
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn profile(&self) -> &str {
        &self.profile
    }

    /// The settings differ from the profile as saved.
    pub fn is_dirty(&self) -> bool {
        self.settings != self.saved
    }
}
