//! The app: owns the state, draws the panels, and carries out the commands
//! they return. Work that can take time runs on a background task.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use url::Url;

use crate::crawl::{CrawlRequest, DEFAULT_PARALLELISM};
use crate::fetch::{FetchOptions, Fetcher, HttpFetcher};
use crate::inspect::{InspectedPage, Inspection};
use crate::policy::explain::{PageInput, WhatIf, what_if};
use crate::policy::{LinkDecision, Settings, lint_settings};
use crate::profiles::{BUILT_IN, ProfileStore, export_json};
use crate::target::{Target, parse_page_url};
use crate::ui::command::{Command, CopyWhat, SidePanel};
use crate::ui::dialogs::{AfterUnsaved, Dialog, DialogView, NameAction};
use crate::ui::file_dialog::{DialogPoll, FilePurpose, PendingFileDialog};
use crate::ui::profiles_bar::ProfileView;
use crate::ui::results::{ResultsState, ResultsView};
use crate::ui::status_bar::Source;
use crate::ui::task::{Job, Poll, Task};
use crate::ui::top_bar::{TopBarState, TopBarView};
use crate::ui::{
    banners, detail, dialogs, profiles_bar, results, settings_panel, status_bar, top_bar,
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
    /// Where the running task's result will come from.
    pending_source: Option<Source>,
    /// The last error, shown in a banner until dismissed or the next load.
    error: Option<String>,
    /// The last load failed, so the table shows the result from before it.
    load_failed: bool,
    task: Option<Task>,
    page: usize,
    selected: Option<usize>,
    what_ifs: Option<((u64, usize, usize), Vec<WhatIf>)>,
    results: ResultsState,
    /// A fetcher given by the embedder (tests); otherwise one is built per load.
    fetcher: Option<Arc<dyn Fetcher>>,
    /// `None` when the profiles file could not be opened (the error says why).
    store: Option<ProfileStore>,
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
            pending_source: None,
            error: None,
            load_failed: false,
            task: None,
            page: 0,
            selected: None,
            what_ifs: None,
            results: ResultsState::default(),
            fetcher: None,
            store: None,
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
        };
        app.open_profiles(config_dir.as_deref());
        app.load_demo();
        if let Some(target) = start {
            app.top.target = target;
            app.load(&cc.egui_ctx);
        }
        app
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

    fn open_profiles(&mut self, config_dir: Option<&Path>) {
        match ProfileStore::open(config_dir) {
            Ok(store) => {
                self.profile_notices.extend(store.take_notices());
                let active = store.active().unwrap_or_else(|_| BUILT_IN.to_owned());
                match store.load(&active) {
                    Ok(settings) => {
                        self.profile = active;
                        self.saved = settings.clone();
                        self.settings = settings;
                    }
                    Err(e) => self.profile_notices.push(format!("{e:#}")),
                }
                self.store = Some(store);
                self.refresh_profile_names();
            }
            Err(e) => self
                .profile_notices
                .push(format!("unavailable, the built-in profile is used: {e:#}")),
        }
    }

    fn refresh_profile_names(&mut self) {
        if let Some(store) = &self.store {
            match store.list() {
                Ok(names) => self.profile_names = names,
                Err(e) => self.profile_notices.push(format!("{e:#}")),
            }
        }
    }

    /// Runs a profile operation; on failure the error is shown (in the open
    /// dialog when there is one) and `None` returned.
    fn with_store<T>(
        &mut self,
        op: impl FnOnce(&ProfileStore) -> Result<T, crate::profiles::ProfileError>,
    ) -> Option<T> {
        let Some(store) = &self.store else {
            self.profile_notices
                .push("unavailable: nothing can be saved (see above).".into());
            return None;
        };
        let result = op(store);
        self.profile_notices.extend(store.take_notices());
        match result {
            Ok(value) => {
                self.refresh_profile_names();
                Some(value)
            }
            Err(e) => {
                let message = format!("{e:#}");
                match &mut self.dialog {
                    Some(dialog)
                        if matches!(dialog, Dialog::Name { .. } | Dialog::Import { .. }) =>
                    {
                        dialog.set_error(message);
                    }
                    _ => self.error = Some(message),
                }
                None
            }
        }
    }

    fn switch_profile(&mut self, name: &str) {
        if let Some(settings) = self.with_store(|s| {
            let settings = s.load(name)?;
            s.set_active(name)?;
            Ok(settings)
        }) {
            self.profile = name.to_owned();
            self.saved = settings.clone();
            self.settings = settings;
            self.reclassify();
        }
    }

    /// Whether the name was taken.
    fn name_entered(&mut self, action: NameAction, name: &str) -> bool {
        let (current, settings) = (self.profile.clone(), self.settings.clone());
        let stored = self.with_store(|s| {
            let stored = match action {
                NameAction::SaveAs => s.save_as(name, &settings)?,
                NameAction::Rename => s.rename(&current, name)?,
                NameAction::Duplicate => s.duplicate(&current, name)?,
            };
            s.set_active(&stored)?;
            Ok(stored)
        });
        if let Some(stored) = stored {
            self.dialog = None;
            // Save as and Rename carry the current edits along; Duplicate copies
            // the saved profile and leaves the edits unsaved in the copy.
            self.saved = match action {
                NameAction::SaveAs => settings,
                NameAction::Rename | NameAction::Duplicate => {
                    self.with_store(|s| s.load(&stored)).unwrap_or_default()
                }
            };
            self.profile = stored;
            return true;
        }
        false
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

    /// Saves the current profile; whether it was saved.
    fn save_profile(&mut self) -> bool {
        let (name, settings) = (self.profile.clone(), self.settings.clone());
        if self.with_store(|s| s.save(&name, &settings)).is_some() {
            self.saved = settings;
            self.notice = Some(format!("Saved “{name}”."));
            return true;
        }
        false
    }

    fn export_to_file(&mut self, path: &str) {
        let json = export_json(&self.settings);
        match std::fs::write(path.trim(), json + "\n") {
            Ok(()) => {
                self.dialog = None;
                self.notice = Some(format!("Exported to {}.", path.trim()));
            }
            Err(e) => self.error = Some(format!("cannot write {}: {e}", path.trim())),
        }
    }

    fn import(&mut self, name: &str, json: &str, path: &str) {
        let text = if path.trim().is_empty() {
            Ok(json.to_owned())
        } else {
            std::fs::read_to_string(path.trim())
                .map_err(|e| format!("cannot read {}: {e}", path.trim()))
        };
        let text = match text {
            Ok(t) => t,
            Err(e) => {
                if let Some(d) = &mut self.dialog {
                    d.set_error(e);
                }
                return;
            }
        };
        if let Some((stored, imported)) = self.with_store(|s| {
            let out = s.import(name, &text)?;
            s.set_active(&out.0)?;
            Ok(out)
        }) {
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

    /// The job for `target` (a URL or file) with `base_url` for a file.
    fn job(&self, target: &str, base_url: &str) -> Result<(Job, Source), String> {
        let raw = target.trim();
        if raw.is_empty() {
            return Err("Enter a URL or the path of a saved .html file first.".into());
        }
        let limit_override = self.top.limit_override();
        match Target::parse(raw).map_err(|e| format!("{e:#}"))? {
            Target::File(path) => {
                let page_url = match base_url.trim() {
                    "" => None,
                    base => Some(parse_page_url(base).map_err(|e| format!("base URL: {e:#}"))?),
                };
                let source = Source::File(path.display().to_string());
                Ok((
                    Job::File {
                        path,
                        page_url,
                        depth: self.top.depth,
                        limit_override,
                        settings: self.settings.clone(),
                    },
                    source,
                ))
            }
            Target::Url(url) => Ok((
                Job::Url(CrawlRequest {
                    start_url: url,
                    depth: self.top.depth,
                    limit_override,
                    settings: self.settings.clone(),
                    parallelism: DEFAULT_PARALLELISM,
                }),
                Source::Url,
            )),
        }
    }

    fn load(&mut self, ctx: &egui::Context) {
        let (target, base_url) = (self.top.target.clone(), self.top.base_url.clone());
        self.start(ctx, &target, &base_url);
    }

    fn start(&mut self, ctx: &egui::Context, target: &str, base_url: &str) {
        let started = self.job(target, base_url).and_then(|(job, source)| {
            let fetcher: Arc<dyn Fetcher> = match &self.fetcher {
                Some(f) => Arc::clone(f),
                None => {
                    Arc::new(HttpFetcher::new(FetchOptions::default()).map_err(|e| e.to_string())?)
                }
            };
            let repaint_ctx = ctx.clone();
            Task::spawn(job, fetcher, move || repaint_ctx.request_repaint())
                .map(|task| (task, source))
                .map_err(|e| format!("cannot start the background task: {e}"))
        });
        match started {
            Ok((task, source)) => {
                self.pending_source = Some(source);
                self.task = Some(task);
                self.error = None;
                self.load_failed = false;
            }
            Err(e) => self.error = Some(e),
        }
    }
}

impl InspectorApp {
    fn poll_task(&mut self) {
        let Some(task) = &mut self.task else { return };
        if let Poll::Finished(result) = task.poll() {
            self.task = None;
            let source = self.pending_source.take().unwrap_or_default();
            match result {
                Ok(inspection) => {
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
                    .map_or_else(|| link.href.clone(), |u| u.to_string()),
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
            Command::Cancel => {
                if let Some(task) = &self.task {
                    task.cancel();
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
            Command::SaveProfile => {
                self.save_profile();
            }
            Command::OpenDialog(dialog) => self.dialog = Some(dialog),
            Command::CloseDialog => self.dialog = None,
            Command::NameEntered { action, name, then } => {
                if self.name_entered(action, &name)
                    && let Some(after) = then
                {
                    self.continue_with(after, ctx);
                }
            }
            Command::DeleteProfile => {
                let name = self.profile.clone();
                if self.with_store(|s| s.delete(&name)).is_some() {
                    self.dialog = None;
                    self.notice = Some(format!("Deleted “{name}”."));
                    self.saved = self.settings.clone();
                    self.switch_profile(BUILT_IN);
                }
            }
            Command::Discard(after) => {
                self.dialog = None;
                self.settings = self.saved.clone();
                self.continue_with(after, ctx);
            }
            Command::SaveThen(after) => {
                self.dialog = None;
                if self.save_profile() {
                    self.continue_with(after, ctx);
                }
            }
            Command::Import { name, json, path } => self.import(&name, &json, &path),
            Command::ExportToFile(path) => self.export_to_file(&path),
        }
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
        self.poll_file_dialog(ui.ctx());
        let mut commands = Vec::new();
        if self.take_dropped_file(ui.ctx()) {
            commands.push(Command::Load);
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
                };
                commands.extend(profiles_bar::show(ui, &view));
                ui.separator();
                let view = TopBarView {
                    task: self.task.as_ref(),
                    warnings: lints.len(),
                    show_settings: self.show_settings,
                    show_detail: self.show_detail,
                    browsing: self.file_dialog.is_some(),
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
                    commands.extend(settings_panel::show(
                        ui,
                        &mut self.settings,
                        &lints,
                        self.scroll_to_warnings,
                    ));
                });
            self.scroll_to_warnings = false;
        }
        if self.show_detail {
            let what_ifs = self.what_ifs();
            let shown = self.selected_link();
            let mut draw = |ui: &mut egui::Ui| match shown {
                Some((page, link, settings)) => {
                    commands.extend(detail::show(ui, page, link, settings, &what_ifs));
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
            keyboard: self.dialog.is_none(),
        };
        egui::CentralPanel::default().show(ui, |ui| {
            commands.extend(banners::show(
                ui,
                self.error.as_deref(),
                &self.profile_notices,
            ));
            commands.extend(results::show(ui, &view, &mut self.results));
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
        if self.task.is_some() {
            // Keep the spinner turning; results arrive with their own repaint.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, STORAGE_KEY, &self.top);
    }
}
