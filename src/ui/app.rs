//! The app: owns the state, draws the panels, and carries out the commands
//! they return. Work that can take time runs on a background task.

use std::sync::Arc;

use url::Url;

use crate::crawl::{CrawlRequest, DEFAULT_PARALLELISM};
use crate::fetch::{FetchOptions, Fetcher, HttpFetcher};
use crate::inspect::Inspection;
use crate::policy::explain::{PageInput, WhatIf, what_if};
use crate::policy::{Settings, lint_settings};
use crate::target::{Target, parse_page_url};
use crate::ui::results::ResultsState;
use crate::ui::status_bar::Source;
use crate::ui::task::{Job, Poll, Task};
use crate::ui::top_bar::TopBarState;
use crate::ui::{detail, fonts, results, settings_panel, status_bar, top_bar};

/// The bundled demo page: every verdict, no network.
pub const DEMO_HTML: &[u8] = include_bytes!("../../assets/demo/acme-home.html");
pub const DEMO_URL: &str = "https://acme.test/";

/// What a panel asks the app to do.
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Fetch the URL or read the file in the top bar.
    Load,
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
}

pub struct InspectorApp {
    settings: Settings,
    top: TopBarState,
    inspection: Option<Inspection>,
    /// Bumped whenever `inspection` changes, for the panels' caches.
    generation: u64,
    source: Source,
    /// Where the running task's result will come from.
    pending_source: Option<Source>,
    error: Option<String>,
    task: Option<Task>,
    page: usize,
    selected: Option<usize>,
    what_ifs: Option<((u64, usize, usize), Vec<WhatIf>)>,
    results: ResultsState,
    /// A fetcher given by the embedder (tests); otherwise one is built per load.
    fetcher: Option<Arc<dyn Fetcher>>,
}

const STORAGE_KEY: &str = "follow-inspector";

impl InspectorApp {
    /// The app as eframe creates it: fonts installed, the last inputs restored,
    /// the demo page shown; `start` (a URL or file) is loaded at once.
    pub fn new(cc: &eframe::CreationContext<'_>, start: Option<String>) -> Self {
        fonts::install(&cc.egui_ctx, fonts::fallback_fonts());
        let top: TopBarState = cc
            .storage
            .and_then(|s| eframe::get_value(s, STORAGE_KEY))
            .unwrap_or_default();
        let mut app = Self {
            settings: Settings::default(),
            top,
            inspection: None,
            generation: 0,
            source: Source::Nothing,
            pending_source: None,
            error: None,
            task: None,
            page: 0,
            selected: None,
            what_ifs: None,
            results: ResultsState::default(),
            fetcher: None,
        };
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

    pub fn is_busy(&self) -> bool {
        self.task.is_some()
    }

    fn set_inspection(&mut self, mut inspection: Inspection, source: Source) {
        if inspection.settings != self.settings {
            inspection.settings = self.settings.clone();
            inspection.reclassify();
        }
        self.inspection = Some(inspection);
        self.source = source;
        self.generation += 1;
        self.page = 0;
        self.selected = None;
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
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    fn job(&self) -> Result<(Job, Source), String> {
        let raw = self.top.target.trim();
        if raw.is_empty() {
            return Err("Enter a URL or the path of a saved .html file first.".into());
        }
        let limit_override = self.top.limit_override();
        match Target::parse(raw).map_err(|e| format!("{e:#}"))? {
            Target::File(path) => {
                let page_url = match self.top.base_url.trim() {
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
        let started = self.job().and_then(|(job, source)| {
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
                // The previous result stays on screen.
                Err(e) => self.error = Some(e),
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
                self.top.target = path.display().to_string();
                true
            }
            _ => false,
        }
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
        match command {
            Command::Load => self.load(ctx),
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
            Command::CopyToClipboard(text) => ctx.copy_text(text),
        }
    }

    fn what_ifs(&mut self) -> Vec<WhatIf> {
        let (Some(inspection), Some(selected)) = (&self.inspection, self.selected) else {
            return Vec::new();
        };
        let key = (self.generation, self.page, selected);
        if let Some((cached, answers)) = &self.what_ifs
            && *cached == key
        {
            return answers.clone();
        }
        let answers = inspection
            .pages
            .get(self.page)
            .and_then(|page| {
                let read = page.read.as_ref()?;
                let link = page.decision.links.get(selected)?;
                let input = PageInput {
                    candidates: &read.candidates,
                    page_url: &page.url,
                    base_url: &read.base_url,
                    limit: page.decision.limit,
                };
                Some(what_if(input, &inspection.settings, link))
            })
            .unwrap_or_default();
        self.what_ifs = Some((key, answers.clone()));
        answers
    }
}

impl eframe::App for InspectorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.poll_task();
        let mut commands = Vec::new();
        if self.take_dropped_file(ui.ctx()) {
            commands.push(Command::Load);
        }

        egui::Panel::top("top_bar").show(ui, |ui| {
            ui.add_space(2.0);
            commands.extend(top_bar::show(ui, &mut self.top, self.task.as_ref()));
            ui.add_space(2.0);
        });
        egui::Panel::bottom("status_bar").show(ui, |ui| {
            status_bar::show(
                ui,
                self.inspection.as_ref(),
                &self.source,
                self.error.as_deref(),
            );
        });
        let lints = self
            .inspection
            .as_ref()
            .map(|i| i.lints.clone())
            .unwrap_or_else(|| lint_settings(&self.settings));
        egui::Panel::left("settings")
            .resizable(true)
            .default_size(300.0)
            .size_range(240.0..=520.0)
            .show(ui, |ui| {
                commands.extend(settings_panel::show(ui, &mut self.settings, &lints));
            });
        let what_ifs = self.what_ifs();
        egui::Panel::right("detail")
            .resizable(true)
            .default_size(340.0)
            .size_range(260.0..=700.0)
            .show(ui, |ui| {
                let shown = self.inspection.as_ref().and_then(|i| {
                    let page = i.pages.get(self.page)?;
                    Some((page, page.decision.links.get(self.selected?)?, &i.settings))
                });
                match shown {
                    Some((page, link, settings)) => {
                        commands.extend(detail::show(ui, page, link, settings, &what_ifs));
                    }
                    None => {
                        ui.heading("Link detail");
                        ui.label(
                            "Select a row to see, rule by rule, why the scraper follows it or not.",
                        );
                    }
                }
            });
        egui::CentralPanel::default().show(ui, |ui| {
            commands.extend(results::show(
                ui,
                self.inspection.as_ref(),
                self.generation,
                self.page,
                self.selected,
                &mut self.results,
            ));
        });

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
