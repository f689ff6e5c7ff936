//! The app: owns the state, draws the panels, and carries out the commands
//! they return. Work that can take time runs on a background task.

use std::path::PathBuf;
use std::sync::Arc;

use url::Url;

use crate::fetch::Fetcher;
use crate::inspect::{InspectedPage, Inspection};
use crate::policy::compare::{LinkChange, compare_pages};
use crate::policy::explain::{PageInput, WhatIf, what_if};
use crate::policy::{
    LinkDecision, PageDecision, Settings, SiblingRoot, lint_settings, sibling_roots,
};
use crate::profiles::{BUILT_IN, export_json};
use crate::ui::command::Command;
use crate::ui::corpus_task::{CorpusJob, CorpusPoll, CorpusTask};
use crate::ui::corpus_view::{CorpusState, CorpusView};
use crate::ui::dialogs::DialogView;
use crate::ui::file_dialog::{DialogPoll, PendingFileDialog};
use crate::ui::profile_worker::{Outcome, ProfileWorker, Request, StoreRequest};
use crate::ui::profiles_bar::ProfileView;
use crate::ui::results::{PageCompare, ResultsState, ResultsView};
use crate::ui::state::{AfterUnsaved, CopyWhat, Dialog, FilePurpose, MainView, SidePanel, Source};
use crate::ui::task::{Job, Poll, Task};
use crate::ui::top_bar::{TopBarState, TopBarView};
use crate::ui::{
    banners, corpus_view, detail, dialogs, profiles_bar, results, settings_panel, status_bar,
    top_bar,
};

/// The bundled demo page: every verdict, no network.
pub const DEMO_HTML: &[u8] = include_bytes!("../../assets/demo/acme-home.html");
pub const DEMO_URL: &str = "https://acme.test/";

/// Below this window width the detail pane sits under the table, not beside it.
const NARROW_WIDTH: f32 = 1100.0;

/// What a crawl was made with: when these change, its pages are out of date.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CrawlInputs {
    settings: Settings,
    depth: u32,
    limit_override: Option<usize>,
}

/// The shown pages decided under a second profile (Compare with…).
struct Comparison {
    name: String,
    settings: Settings,
    /// The app's `generation` these were computed for.
    computed_for: Option<u64>,
    /// Bumped on every computation, for the table's cache.
    generation: u64,
    decisions: Vec<PageDecision>,
    /// Per page, the links that change from the current settings to these.
    changes: Vec<Vec<LinkChange>>,
}

impl Comparison {
    fn new(name: String, settings: Settings) -> Self {
        Self {
            name,
            settings,
            computed_for: None,
            generation: 0,
            decisions: Vec::new(),
            changes: Vec::new(),
        }
    }

    /// Decides the pages again when the inspection changed since last time.
    fn refresh(&mut self, inspection: Option<&Inspection>, generation: u64) {
        if self.computed_for == Some(generation) {
            return;
        }
        self.computed_for = Some(generation);
        self.generation += 1;
        let Some(inspection) = inspection else {
            self.decisions.clear();
            self.changes.clear();
            return;
        };
        self.decisions = inspection.decide_under(&self.settings);
        let (ours, theirs) = (inspection.settings.options(), self.settings.options());
        self.changes = inspection
            .pages
            .iter()
            .zip(&self.decisions)
            .map(|(page, decision)| compare_pages(&page.decision, decision, &ours, &theirs))
            .collect();
    }

    fn page(&self, page: usize) -> Option<PageCompare<'_>> {
        Some(PageCompare {
            name: &self.name,
            decision: self.decisions.get(page)?,
            changes: self.changes.get(page)?,
            generation: self.generation,
        })
    }
}

pub struct InspectorApp {
    settings: Settings,
    top: TopBarState,
    inspection: Option<Inspection>,
    /// Bumped whenever `inspection` changes, for the panels' caches.
    generation: u64,
    /// Bumped when a new inspection arrives (not on re-classification).
    loaded: u64,
    /// What the shown crawl was made with; `None` for a saved page or the demo.
    crawled_with: Option<CrawlInputs>,
    source: Source,
    /// The last error, shown in a banner until dismissed or the next load.
    error: Option<String>,
    /// The last load failed, so the table shows the result from before it.
    load_failed: bool,
    task: Option<Task>,
    page: usize,
    selected: Option<usize>,
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
    /// (pages done, pages in all) of the running corpus task.
    corpus_progress: Option<(usize, usize)>,
    /// Measuring start-up: when the window was asked for, and whether the
    /// first frame was reported.
    measuring: Option<(std::time::Instant, bool)>,
}

const STORAGE_KEY: &str = "follow-inspector";

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
        let mut app = Self {
            settings: Settings::default(),
            top,
            inspection: None,
            generation: 0,
            loaded: 0,
            crawled_with: None,
            source: Source::Nothing,
            error: None,
            load_failed: false,
            task: None,
            page: 0,
            selected: None,
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

    /// While measuring start-up: the first frame, then, once the start page
    /// is shown and nothing is pending, the time to that, and close.
    fn report_startup(&mut self, ctx: &egui::Context) {
        let Some((started, first_reported)) = &mut self.measuring else {
            return;
        };
        let ms = started.elapsed().as_secs_f64() * 1e3;
        if !*first_reported {
            *first_reported = true;
            eprintln!("first frame built {ms:.1} ms after the window was asked for");
            return;
        }
        let ready = self.task.is_none() && !self.profiles_busy() && self.start_target.is_none();
        if ready {
            let links = self.inspection.as_ref().map_or(0, |i| {
                i.pages
                    .iter()
                    .map(|p| p.decision.links.len())
                    .sum::<usize>()
            });
            eprintln!("start page shown ({links} links) {ms:.1} ms after the window was asked for");
            self.measuring = None;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
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
        self.error.as_deref()
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

    /// Queues a profile request; the reply is applied in `poll_profiles`.
    fn send_profiles(&mut self, request: Request) {
        let sent = self
            .profiles
            .as_mut()
            .is_some_and(|worker| worker.send(request));
        if !sent {
            self.profile_notices
                .push(crate::copy::PROFILES_NOT_SAVED.into());
        }
    }

    fn send_store(&mut self, request: StoreRequest) {
        self.send_profiles(Request::Store(request));
    }

    /// Applies the profile replies that arrived; never blocks.
    fn poll_profiles(&mut self, ctx: &egui::Context) {
        let replies = match &mut self.profiles {
            Some(worker) => worker.poll(),
            None => return,
        };
        for reply in replies {
            self.profile_notices.extend(reply.notices);
            if let Some(names) = reply.names {
                self.profile_names = names;
            }
            self.apply_outcome(reply.outcome, ctx);
        }
    }

    fn apply_outcome(&mut self, outcome: Outcome, ctx: &egui::Context) {
        match outcome {
            Outcome::Opened { active, settings }
            | Outcome::Switched {
                name: active,
                settings,
            } => {
                self.profile = active;
                self.saved = settings.clone();
                self.settings = settings;
                self.reclassify();
                self.load_start_target(ctx);
            }
            Outcome::Peeked { name, settings } => {
                self.comparison = Some(Comparison::new(name, settings));
            }
            Outcome::OpenFailed(message) => {
                self.profile_notices.push(message);
                self.load_start_target(ctx);
            }
            Outcome::Saved {
                name,
                settings,
                then,
            } => {
                self.saved = settings;
                self.notice = Some(format!("Saved “{name}”."));
                if let Some(after) = then {
                    self.continue_with(after, ctx);
                }
            }
            Outcome::Named {
                stored,
                saved,
                then,
            } => {
                self.dialog = None;
                self.saved = saved;
                self.profile = stored;
                if let Some(after) = then {
                    self.continue_with(after, ctx);
                }
            }
            Outcome::Deleted(name) => {
                self.dialog = None;
                self.notice = Some(format!("Deleted “{name}”."));
                self.saved = self.settings.clone();
                self.switch_profile(BUILT_IN);
            }
            Outcome::Imported { stored, imported } => {
                self.dialog = None;
                self.notice = Some(crate::copy::import_report(
                    &stored,
                    &imported.ignored_keys,
                    &imported.defaulted_keys,
                ));
                self.profile = stored;
                self.saved = imported.settings.clone();
                self.settings = imported.settings;
                self.reclassify();
            }
            Outcome::Exported(path) => {
                self.dialog = None;
                self.notice = Some(format!("Exported to {path}."));
            }
            // Shown in the open dialog when the error is about its input.
            Outcome::Failed(message) => match &mut self.dialog {
                Some(dialog) if matches!(dialog, Dialog::Name { .. } | Dialog::Import { .. }) => {
                    dialog.set_error(message);
                }
                _ => self.error = Some(message),
            },
        }
    }

    /// The URL or file given on the command line loads once the active
    /// profile is known, so it is judged with that profile's settings.
    fn load_start_target(&mut self, ctx: &egui::Context) {
        if let Some(target) = self.start_target.take() {
            self.top.set_target(target);
            self.load(ctx);
        }
    }

    /// Profile work is queued or running on the profiles thread.
    pub fn profiles_busy(&self) -> bool {
        self.profiles.as_ref().is_some_and(ProfileWorker::is_busy)
    }

    fn switch_profile(&mut self, name: &str) {
        self.send_store(StoreRequest::Switch(name.to_owned()));
    }

    /// Goes on with what the unsaved-changes question interrupted.
    fn continue_with(&mut self, after: AfterUnsaved, ctx: &egui::Context) {
        match after {
            AfterUnsaved::Switch(name) => self.switch_profile(&name),
            AfterUnsaved::Quit => {
                self.allow_close = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Saves the current profile, then goes on with `then`.
    fn save_profile(&mut self, then: Option<AfterUnsaved>) {
        let (name, settings) = (self.profile.clone(), self.settings.clone());
        self.send_store(StoreRequest::Save {
            name,
            settings,
            then,
        });
    }

    fn export_to_file(&mut self, path: &str) {
        let json = export_json(&self.settings);
        self.send_profiles(Request::Export {
            path: path.to_owned(),
            json,
        });
    }

    fn set_inspection(&mut self, mut inspection: Inspection, source: Source) {
        if inspection.settings != self.settings {
            inspection.settings = self.settings.clone();
            inspection.reclassify();
        }
        self.crawled_with = matches!(source, Source::Url).then(|| CrawlInputs {
            settings: inspection.settings.clone(),
            depth: inspection.depth,
            limit_override: inspection.limit_override,
        });
        self.inspection = Some(inspection);
        self.source = source;
        self.generation += 1;
        self.loaded += 1;
        self.page = 0;
        self.selected = None;
        self.load_failed = false;
    }

    /// Whether the shown crawl would come out differently now: another depth,
    /// or (for a crawl past the start page) other settings or N.
    fn crawl_is_stale(&self) -> bool {
        let Some(crawled) = &self.crawled_with else {
            return false;
        };
        crawled.depth != self.top.depth
            || (crawled.depth >= 2
                && (crawled.settings != self.settings
                    || crawled.limit_override != self.top.limit_override()))
    }

    fn load_demo(&mut self) {
        let Ok(url) = Url::parse(DEMO_URL) else {
            return;
        };
        let limit = self.top.limit_override();
        match Inspection::saved_page(
            DEMO_HTML,
            Some(url),
            self.top.depth,
            limit,
            self.settings.clone(),
        ) {
            Ok(inspection) => {
                self.error = None;
                self.set_inspection(inspection, Source::Demo);
            }
            Err(e) => self.error = Some(format!("{e:#}")),
        }
    }

    fn load(&mut self, ctx: &egui::Context) {
        let (target, base_url) = (self.top.target.clone(), self.top.base_url.clone());
        self.start(ctx, &target, &base_url);
    }

    fn start(&mut self, ctx: &egui::Context, target: &str, base_url: &str) {
        if target.trim().is_empty() {
            self.error = Some(crate::copy::NOTHING_TO_LOAD.into());
            return;
        }
        let job = Job {
            target: target.trim().to_owned(),
            base_url: base_url.to_owned(),
            depth: self.top.depth,
            limit_override: self.top.limit_override(),
            settings: self.settings.clone(),
            browser: self
                .browser
                .as_ref()
                .filter(|_| self.top.rendered && self.fetcher.is_none())
                .cloned(),
        };
        let repaint_ctx = ctx.clone();
        match Task::spawn(job, self.fetcher.clone(), move || {
            repaint_ctx.request_repaint()
        }) {
            Ok(task) => {
                self.task = Some(task);
                self.error = None;
                self.load_failed = false;
            }
            Err(e) => self.error = Some(format!("cannot start the background task: {e}")),
        }
    }
}

impl InspectorApp {
    fn poll_task(&mut self) {
        let Some(task) = &mut self.task else { return };
        if let Poll::Finished(result) = task.poll() {
            self.task = None;
            match result {
                Ok((inspection, source)) => {
                    self.error = None;
                    self.set_inspection(*inspection, source);
                }
                // The previous result stays on screen, marked as such.
                Err(e) => {
                    self.error = Some(e);
                    self.load_failed = self.inspection.is_some();
                }
            }
        }
    }

    fn poll_corpus(&mut self) {
        let Some(task) = &mut self.corpus_task else {
            return;
        };
        match task.poll() {
            CorpusPoll::Running { done, total } => self.corpus_progress = Some((done, total)),
            CorpusPoll::Finished(result) => {
                self.corpus_task = None;
                self.corpus_progress = None;
                match result {
                    Ok(run) => {
                        self.corpus.error = None;
                        self.corpus.run = Some(*run);
                    }
                    Err(e) => self.corpus.error = Some(e),
                }
            }
        }
    }

    fn run_corpus(&mut self, ctx: &egui::Context) {
        if self.corpus_task.is_some() {
            return;
        }
        let job = CorpusJob {
            path: PathBuf::from(self.corpus.path.trim()),
            a: self.settings.clone(),
            b: self.comparison.as_ref().map(|c| c.settings.clone()),
            depth: self.top.depth,
        };
        let repaint_ctx = ctx.clone();
        match CorpusTask::spawn(job, move || repaint_ctx.request_repaint()) {
            Ok(task) => {
                self.corpus_task = Some(task);
                self.corpus_progress = Some((0, 0));
                self.corpus.error = None;
            }
            Err(e) => {
                self.corpus.error = Some(format!("cannot start the corpus run: {e}"));
            }
        }
    }

    fn take_dropped_file(&mut self, ctx: &egui::Context) -> bool {
        let dropped = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .find_map(|f| Some(f.path().to_path_buf()).filter(|p| !p.as_os_str().is_empty()))
        });
        match dropped {
            Some(path) if self.task.is_none() => {
                self.top.set_target(path.display().to_string());
                true
            }
            _ => false,
        }
    }

    fn poll_file_dialog(&mut self, ctx: &egui::Context) {
        let Some(pending) = &self.file_dialog else {
            return;
        };
        let DialogPoll::Answered(chosen) = pending.poll() else {
            return;
        };
        let purpose = pending.purpose;
        self.file_dialog = None;
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
            FilePurpose::CorpusFolder | FilePurpose::CorpusManifest => self.corpus.path = path,
        }
    }

    /// The selected link, its page and the settings they were decided with.
    fn selected_link(&self) -> Option<(&InspectedPage, &LinkDecision, &Settings)> {
        let inspection = self.inspection.as_ref()?;
        let page = inspection.pages.get(self.page)?;
        Some((
            page,
            page.decision.links.get(self.selected?)?,
            &inspection.settings,
        ))
    }

    /// Puts the selected link's URL or explanation on the clipboard: one place
    /// for the detail pane's buttons and the keyboard shortcuts.
    fn copy_selected(&mut self, what: CopyWhat, ctx: &egui::Context) {
        let what_ifs = self.what_ifs();
        let Some((page, link, settings)) = self.selected_link() else {
            return;
        };
        let (text, noun) = match what {
            CopyWhat::Url => (
                link.url
                    .as_ref()
                    .map_or_else(|| link.href.to_string(), |u| u.to_string()),
                "URL",
            ),
            CopyWhat::Explanation => (
                crate::copy::link_explanation(
                    page.url.as_str(),
                    link,
                    &page.decision,
                    settings,
                    &what_ifs,
                ),
                "explanation",
            ),
        };
        ctx.copy_text(text);
        self.notice = Some(format!(
            "Copied the {noun} of link #{} to the clipboard.",
            link.index
        ));
    }

    fn reclassify(&mut self) {
        if let Some(inspection) = &mut self.inspection {
            inspection.settings = self.settings.clone();
            inspection.depth = self.top.depth;
            inspection.limit_override = self.top.limit_override();
            inspection.reclassify();
            self.generation += 1;
        }
    }

    fn apply(&mut self, command: Command, ctx: &egui::Context) {
        if command.starts_an_action() {
            self.notice = None;
        }
        match command {
            Command::Load => self.load(ctx),
            Command::CrawlAgain => {
                if let Some(start) = self.inspection.as_ref().map(|i| i.start_url.to_string()) {
                    self.start(ctx, &start, "");
                }
            }
            // A request in flight cannot be interrupted, so the task is let
            // go: it stops at its next check and its result is dropped.
            Command::Cancel => {
                if self.task.take().is_some() {
                    self.notice = Some(crate::copy::CANCELLED.into());
                }
            }
            Command::LoadDemo => self.load_demo(),
            Command::SettingsEdited | Command::LimitsEdited => self.reclassify(),
            Command::ResetSettings => {
                self.settings = Settings::default();
                self.reclassify();
            }
            Command::SelectPage(page) => {
                self.page = page;
                self.selected = None;
            }
            Command::SelectLink(link) => self.selected = link,
            Command::CopyToClipboard(text) => {
                ctx.copy_text(text);
                self.notice = Some("Copied to the clipboard.".into());
            }
            Command::CopySelected(what) => self.copy_selected(what, ctx),
            Command::DismissError => {
                self.error = None;
                self.load_failed = false;
            }
            Command::DismissNotice => self.notice = None,
            Command::DismissProfileNotice(i) => {
                if i < self.profile_notices.len() {
                    self.profile_notices.remove(i);
                }
            }
            Command::TogglePanel(SidePanel::Settings) => self.show_settings ^= true,
            Command::TogglePanel(SidePanel::Detail) => self.show_detail ^= true,
            Command::ShowWarnings => {
                self.show_settings = true;
                self.scroll_to_warnings = true;
            }
            Command::BrowseFile(purpose) => {
                if self.file_dialog.is_none() {
                    let repaint_ctx = ctx.clone();
                    match PendingFileDialog::spawn(purpose, move || repaint_ctx.request_repaint()) {
                        Ok(pending) => self.file_dialog = Some(pending),
                        Err(e) => self.error = Some(format!("cannot open a file dialog: {e}")),
                    }
                }
            }
            Command::RevertKey(key) => {
                let defaults = serde_json::to_value(Settings::default()).ok();
                let current = serde_json::to_value(&self.settings).ok();
                if let (Some(d), Some(mut c)) = (defaults, current) {
                    c[key] = d[key].clone();
                    if let Ok(settings) = serde_json::from_value(c) {
                        self.settings = settings;
                        self.reclassify();
                    }
                }
            }
            Command::SwitchProfile(name) => {
                if self.is_dirty() {
                    self.dialog = Some(Dialog::ConfirmDiscard(AfterUnsaved::Switch(name)));
                } else {
                    self.switch_profile(&name);
                }
            }
            Command::SaveProfile => self.save_profile(None),
            Command::OpenDialog(dialog) => self.dialog = Some(dialog),
            Command::CloseDialog => self.dialog = None,
            Command::NameEntered { action, name, then } => {
                let (current, settings) = (self.profile.clone(), self.settings.clone());
                self.send_store(StoreRequest::Named {
                    action,
                    name,
                    current,
                    settings,
                    then,
                });
            }
            Command::DeleteProfile => {
                let name = self.profile.clone();
                self.send_store(StoreRequest::Delete(name));
            }
            Command::Discard(after) => {
                self.dialog = None;
                self.settings = self.saved.clone();
                self.continue_with(after, ctx);
            }
            Command::SaveThen(after) => {
                self.dialog = None;
                self.save_profile(Some(after));
            }
            Command::Import { name, json, path } => {
                self.send_store(StoreRequest::Import { name, json, path });
            }
            Command::ExportToFile(path) => self.export_to_file(&path),
            Command::AddAllowedDomain(domain) => {
                let list = &mut self.settings.follow_allowed_domains;
                if !list.trim().is_empty() {
                    list.push(',');
                }
                list.push_str(&domain);
                self.notice = Some(crate::copy::added_allowed_domain(&domain));
                self.reclassify();
            }
            Command::CompareWith(None) => self.comparison = None,
            Command::CompareWith(Some(name)) => {
                self.send_store(StoreRequest::Peek(name));
            }
            Command::ShowView(view) => self.view = view,
            Command::RunCorpus => self.run_corpus(ctx),
            Command::CancelCorpus => {
                if let Some(task) = &self.corpus_task {
                    task.cancel();
                }
            }
            Command::OpenCorpusPage { path, url } => {
                self.view = MainView::Inspector;
                self.top.set_target(path);
                self.top.base_url = url;
                self.load(ctx);
            }
        }
    }

    /// The selected link under the compared profile.
    fn other_side(&self) -> Option<detail::OtherSide<'_>> {
        let comparison = self.comparison.as_ref()?;
        let selected = self.selected?;
        let decision = comparison.decisions.get(self.page)?;
        let because = comparison
            .changes
            .get(self.page)
            .and_then(|changes| changes.iter().find(|c| c.index == selected))
            .map(|c| &c.because);
        Some(detail::OtherSide {
            name: &comparison.name,
            decision,
            link: decision.links.get(selected)?,
            settings: &comparison.settings,
            because,
        })
    }

    /// The shown page's sibling roots, found again only when the page or its
    /// decisions change (not on every frame).
    fn sibling_roots(&mut self) -> Vec<SiblingRoot> {
        let key = (self.generation, self.page);
        if let Some((cached, roots)) = &self.sibling_roots
            && *cached == key
        {
            return roots.clone();
        }
        let roots = self
            .inspection
            .as_ref()
            .and_then(|i| i.pages.get(self.page))
            .map(|p| sibling_roots(&p.decision.page_host, &p.decision.links))
            .unwrap_or_default();
        self.sibling_roots = Some((key, roots.clone()));
        roots
    }

    fn what_ifs(&mut self) -> Vec<WhatIf> {
        let Some(selected) = self.selected else {
            return Vec::new();
        };
        let key = (self.generation, self.page, selected);
        if let Some((cached, answers)) = &self.what_ifs
            && *cached == key
        {
            return answers.clone();
        }
        let answers = self
            .selected_link()
            .and_then(|(page, link, settings)| {
                let read = page.read.as_ref()?;
                let input = PageInput {
                    candidates: &read.candidates,
                    page_url: &page.url,
                    base_url: &read.base_url,
                    limit: page.decision.limit,
                };
                Some(what_if(input, settings, link))
            })
            .unwrap_or_default();
        self.what_ifs = Some((key, answers.clone()));
        answers
    }
}

impl eframe::App for InspectorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.poll_task();
        self.poll_corpus();
        self.poll_profiles(ui.ctx());
        if let Some(comparison) = &mut self.comparison {
            comparison.refresh(self.inspection.as_ref(), self.generation);
        }
        self.poll_file_dialog(ui.ctx());
        let mut commands = Vec::new();
        if self.take_dropped_file(ui.ctx()) {
            commands.push(Command::Load);
        }

        if self.task.is_some()
            && self.dialog.is_none()
            && ui.input(|i| i.key_pressed(egui::Key::Escape))
        {
            commands.push(Command::Cancel);
        }

        // Closing the window with unsaved changes asks first.
        if ui.input(|i| i.viewport().close_requested()) && self.is_dirty() && !self.allow_close {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.dialog = Some(Dialog::ConfirmDiscard(AfterUnsaved::Quit));
        }

        let lints = self
            .inspection
            .as_ref()
            .map(|i| i.lints.clone())
            .unwrap_or_else(|| lint_settings(&self.settings));
        let dirty = self.is_dirty();
        egui::Panel::top("top_bar").show(ui, |ui| {
            ui.add_space(2.0);
            ui.horizontal_wrapped(|ui| {
                let view = ProfileView {
                    names: &self.profile_names,
                    current: &self.profile,
                    dirty,
                    busy: self.profiles_busy(),
                    comparing: self.comparing(),
                };
                commands.extend(profiles_bar::show(ui, &view));
                ui.separator();
                for (view, label) in [
                    (MainView::Inspector, crate::copy::LABEL_INSPECTOR_VIEW),
                    (MainView::Corpus, crate::copy::LABEL_CORPUS_VIEW),
                ] {
                    let response = ui.selectable_label(self.view == view, label);
                    let response = if view == MainView::Corpus {
                        response.on_hover_text(crate::copy::CORPUS_VIEW_TOOLTIP)
                    } else {
                        response
                    };
                    if response.clicked() && self.view != view {
                        commands.push(Command::ShowView(view));
                    }
                }
                ui.separator();
                let view = TopBarView {
                    loading: self.task.as_ref().map(Task::loading),
                    warnings: lints.len(),
                    show_settings: self.show_settings,
                    show_detail: self.show_detail,
                    browsing: self.file_dialog.is_some(),
                    browser_available: self.browser.is_some(),
                };
                commands.extend(top_bar::show(ui, &mut self.top, &view));
            });
            ui.add_space(2.0);
        });
        egui::Panel::bottom("status_bar").show(ui, |ui| {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                // Dark or light theme (the palette has both).
                let dark = ui.visuals().dark_mode;
                let (label, theme) = if dark {
                    ("☀ Light theme", egui::Theme::Light)
                } else {
                    ("Dark theme", egui::Theme::Dark)
                };
                if ui.small_button(label).clicked() {
                    ui.ctx().set_theme(theme);
                }
                ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                    commands.extend(status_bar::show(
                        ui,
                        self.inspection.as_ref(),
                        &self.source,
                        self.notice.as_deref(),
                    ));
                });
            });
        });
        let width = ui.ctx().content_rect().width();
        if self.show_settings {
            egui::Panel::left("settings")
                .resizable(true)
                .default_size((width * 0.25).clamp(220.0, 300.0))
                .size_range(220.0..=(width * 0.3).max(220.0))
                .show(ui, |ui| {
                    let suggestions = self.sibling_roots();
                    commands.extend(settings_panel::show(
                        ui,
                        &mut self.settings,
                        &lints,
                        &suggestions,
                        self.scroll_to_warnings,
                    ));
                });
            self.scroll_to_warnings = false;
        }
        if self.show_detail && self.view == MainView::Inspector {
            let what_ifs = self.what_ifs();
            let shown = self.selected_link();
            let other = self.other_side();
            let mut draw = |ui: &mut egui::Ui| match shown {
                Some((page, link, settings)) => {
                    commands.extend(detail::show(ui, page, link, settings, &what_ifs, other));
                }
                None => {
                    ui.heading("Link detail");
                    ui.label(
                        "Select a row to see, rule by rule, why the scraper follows it or not.",
                    );
                }
            };
            // A narrow window keeps the table's width: the detail goes under it.
            if width < NARROW_WIDTH {
                egui::Panel::bottom("detail_below")
                    .resizable(true)
                    .default_size(220.0)
                    .size_range(120.0..=600.0)
                    .show(ui, |ui| draw(ui));
            } else {
                egui::Panel::right("detail")
                    .resizable(true)
                    .default_size(340.0)
                    .size_range(260.0..=(width * 0.45).max(260.0))
                    .show(ui, |ui| draw(ui));
            }
        }
        let view = ResultsView {
            inspection: self.inspection.as_ref(),
            generation: self.generation,
            loaded: self.loaded,
            page: self.page,
            selected: self.selected,
            previous_result: self.load_failed && self.error.is_some(),
            stale_crawl: self.crawl_is_stale(),
            saved_file: matches!(self.source, Source::File(_)),
            keyboard: self.dialog.is_none() && self.view == MainView::Inspector,
            comparison: self.comparison.as_ref().and_then(|c| c.page(self.page)),
        };
        let corpus_view = CorpusView {
            running: self.corpus_progress,
            profile: &self.profile,
            compared: self.comparison.as_ref().map(|c| c.name.as_str()),
            depth: self.top.depth,
            browsing: self.file_dialog.is_some(),
        };
        egui::CentralPanel::default().show(ui, |ui| {
            commands.extend(banners::show(
                ui,
                self.error.as_deref(),
                &self.profile_notices,
            ));
            match self.view {
                MainView::Inspector => {
                    commands.extend(results::show(ui, &view, &mut self.results));
                }
                MainView::Corpus => {
                    commands.extend(corpus_view::show(ui, &mut self.corpus, &corpus_view));
                }
            }
        });

        if let Some(dialog) = &mut self.dialog {
            let json = export_json(&self.settings);
            let view = DialogView {
                profile: &self.profile,
                built_in: self.profile == BUILT_IN,
                export_json: &json,
                browsing: self.file_dialog.is_some(),
            };
            commands.extend(dialogs::show(ui.ctx(), dialog, &view));
        }

        for command in commands {
            self.apply(command, ui.ctx());
        }
        self.report_startup(ui.ctx());
        if self.task.is_some() || self.corpus_task.is_some() || self.profiles_busy() {
            // Keep the spinner turning; results arrive with their own repaint.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, STORAGE_KEY, &self.top);
    }
}
