//! Loading pages: the demo, a typed or dropped target, a chosen file; the
//! load task's result and the file dialogs' answers.

use url::Url;

use super::InspectorApp;
use super::subjects::load::CrawlInputs;
use crate::fetch::Resolve;
use crate::inspect::{Inspection, Limits};
use crate::load::FromCapture;
use crate::policy::over_limits;
use crate::ui::command::LoadCommand;
use crate::ui::state::{DEMO_HTML, DEMO_URL};
use crate::ui::state::{ShownError, Source};
use crate::ui::tasks::load::{Job, LoadedPage, Task};

/// An archive judged under the window's settings and depth, not its own.
const OWN_SETTINGS: FromCapture = FromCapture {
    settings: false,
    depth: false,
    limit: false,
};

impl InspectorApp {
    pub(super) fn carry_out_load(&mut self, command: LoadCommand, ctx: &egui::Context) {
        match command {
            LoadCommand::Load => self.load(ctx),
            LoadCommand::CrawlAgain => self.crawl_again(ctx),
            // A request in flight cannot be interrupted, so the task is let
            // go: it stops at its next check and its result is dropped.
            LoadCommand::Cancel => {
                if self.tasks.load.take().is_some() {
                    self.notice = Some(crate::copy::CANCELLED.into());
                }
            }
            LoadCommand::LoadDemo => self.load_demo(),
        }
    }

    /// The URL or file given on the command line loads once the active
    /// profile is known, so it is judged with that profile's settings.
    pub(super) fn load_start_target(&mut self, ctx: &egui::Context) {
        if let Some(target) = self.load.start_target.take() {
            self.top.set_target(target);
            self.load(ctx);
        }
    }

    /// Shows `inspection`, had from `source` with the host mappings `host_mapping`.
    pub(super) fn set_inspection(
        &mut self,
        mut inspection: Inspection,
        source: Source,
        host_mapping: Vec<Resolve>,
    ) {
        // What the crawl was made with, before it is judged under settings
        // edited while it ran (then it is out of date).
        let crawled = matches!(source, Source::Url | Source::Archive { .. });
        self.load.crawled_with = crawled.then(|| CrawlInputs {
            settings: inspection.settings().clone(),
            depth: inspection.depth(),
            limit_override: inspection.limit_override(),
        });
        if self.settings_apply() {
            inspection.rejudge(self.settings.clone(), inspection.limits());
        }
        // Crawling again keeps the page that was shown, when the new crawl has it.
        let reopen = self.load.reopen.take().filter(|_| crawled);
        self.selection.page = reopen
            .and_then(|url| inspection.pages.iter().position(|p| p.url == url))
            .unwrap_or(0);
        self.load.inspection = Some(inspection);
        self.load.source = source;
        self.load.host_mapping = host_mapping;
        self.load.generation += 1;
        self.load.loaded += 1;
        // A link chosen in the Corpus view is selected on its page.
        self.selection.selected = self.selection.select_when_loaded.take().filter(|&link| {
            self.load
                .inspection
                .as_ref()
                .and_then(|i| i.pages.get(self.selection.page))
                .is_some_and(|p| link < p.decision.links.len())
        });
        self.load.failed = false;
        // An archive saved of the pages shown before is not of these.
        self.archive.saved = None;
    }

    /// A reopened archive arrives judged under its own settings and limits:
    /// the settings panel and the top bar show them (the settings as unsaved
    /// edits over the current profile), so what is shown is what was saved.
    /// Edits of the user's own that are not saved are not replaced unasked:
    /// then the pages are judged under them, and the banner offers the
    /// archive's settings.
    fn adopt_capture(&mut self, inspection: &Inspection) {
        if !self.is_dirty() {
            self.settings = inspection.settings().clone();
        }
        self.top.depth = inspection.depth();
        self.top.limit_override = inspection
            .limit_override()
            .map(|n| n.to_string())
            .unwrap_or_default();
    }

    /// Whether the shown crawl would come out differently now: another depth,
    /// or (for a crawl past the start page) other settings or N.
    pub(super) fn crawl_is_stale(&self) -> bool {
        let Some(crawled) = &self.load.crawled_with else {
            return false;
        };
        crawled.depth != self.top.depth
            || (crawled.depth >= 2
                && (crawled.settings != self.settings
                    || crawled.limit_override != self.top.limit_override()))
    }

    pub(super) fn load_demo(&mut self) {
        let Ok(url) = Url::parse(DEMO_URL) else {
            return;
        };
        let limits = Limits {
            depth: self.top.depth,
            limit_override: self.top.limit_override(),
        };
        match Inspection::saved_page(DEMO_HTML, Some(url), limits, self.settings.clone()) {
            Ok(inspection) => {
                self.error = None;
                // The field shows what is loaded: empty, its hint naming the demo.
                self.top.set_target(String::new());
                self.set_inspection(inspection, Source::Demo, Vec::new());
            }
            Err(e) => self.error = Some(ShownError::plain(e.to_string())),
        }
    }

    /// Crawls the shown start page again with the current settings and depth;
    /// the page shown now stays shown.
    pub(super) fn crawl_again(&mut self, ctx: &egui::Context) {
        let Some(inspection) = &self.load.inspection else {
            return;
        };
        self.load.reopen = inspection
            .pages
            .get(self.selection.page)
            .map(|p| p.url.clone());
        // An archive is crawled again from itself, under the settings and
        // depth on screen: nothing is fetched from the network.
        let (start, from_capture) = match &self.load.source {
            Source::Archive { path, .. } => (path.clone(), OWN_SETTINGS),
            _ => (inspection.start_url.to_string(), FromCapture::ALL),
        };
        self.top.set_target(start.clone());
        self.start(ctx, &start, "", from_capture);
    }

    pub(super) fn load(&mut self, ctx: &egui::Context) {
        self.load.reopen = None;
        let (target, base_url) = (self.top.target.clone(), self.top.base_url.clone());
        self.start(ctx, &target, &base_url, FromCapture::ALL);
    }

    pub(super) fn start(
        &mut self,
        ctx: &egui::Context,
        target: &str,
        base_url: &str,
        from_capture: FromCapture,
    ) {
        if target.trim().is_empty() {
            self.error = Some(ShownError::plain(crate::copy::NOTHING_TO_LOAD));
            return;
        }
        // Settings past the limits are refused, as the command line refuses them.
        if let Some(over) = over_limits(&self.settings).into_iter().next() {
            self.error = Some(ShownError::plain(over.to_string()));
            return;
        }
        let job = Job {
            target: target.trim().to_owned(),
            base_url: base_url.to_owned(),
            depth: self.top.depth,
            limit_override: self.top.limit_override(),
            settings: self.settings.clone(),
            browser: self
                .load
                .browser
                .as_ref()
                .filter(|_| self.top.rendered && self.load.fetcher.is_none())
                .cloned(),
            // A mapping that does not parse refuses only a fetch: the task
            // knows whether the target is a file.
            resolve: self.window_options.host_mapping(),
            from_capture,
        };
        let repaint_ctx = ctx.clone();
        match Task::spawn(job, self.load.fetcher.clone(), move || {
            repaint_ctx.request_repaint()
        }) {
            Ok(task) => {
                self.tasks.load = Some(task);
                self.error = None;
                self.load.failed = false;
            }
            Err(e) => {
                self.error = Some(ShownError::plain(
                    crate::copy::cannot_start_background_task(&e),
                ));
            }
        }
    }

    /// The load task finished (`tasks.poll` took it out of its slot).
    pub(super) fn load_finished(&mut self, result: Result<LoadedPage, ShownError>) {
        match result {
            Ok(loaded) => {
                self.error = None;
                if loaded.as_captured {
                    self.adopt_capture(&loaded.inspection);
                }
                self.set_inspection(*loaded.inspection, loaded.source, loaded.host_mapping);
            }
            // The previous result stays on screen, marked as such.
            Err(e) => {
                self.selection.select_when_loaded = None;
                self.error = Some(e);
                self.load.failed = self.load.inspection.is_some();
            }
        }
    }

    pub(super) fn take_dropped_file(&mut self, ctx: &egui::Context) -> bool {
        let dropped = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .find_map(|f| Some(f.path().to_path_buf()).filter(|p| !p.as_os_str().is_empty()))
        });
        match dropped {
            Some(path) if self.tasks.load.is_none() => {
                self.top.set_target(path.display().to_string());
                true
            }
            _ => false,
        }
    }

    /// Whether the settings are within the limits, so pages are decided under
    /// them (past the limits the table keeps its verdicts).
    pub(super) fn settings_apply(&self) -> bool {
        over_limits(&self.settings).is_empty()
    }

    /// Decides the shown pages again under the current settings, unless they
    /// are past the limits: then the table keeps its verdicts, and the settings
    /// panel's lint says which list is too large (deciding would take seconds
    /// on every keystroke).
    pub(super) fn reclassify(&mut self) {
        if !self.settings_apply() {
            return;
        }
        if let Some(inspection) = &mut self.load.inspection {
            let limits = Limits {
                depth: self.top.depth,
                limit_override: self.top.limit_override(),
            };
            inspection.rejudge(self.settings.clone(), limits);
            self.load.generation += 1;
        }
    }
}
