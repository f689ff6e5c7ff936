//! The frame: polls the background work, lays out the panels and carries out
//! the commands they returned.

use super::{InspectorApp, STORAGE_KEY, WINDOW_OPTIONS_KEY};
use crate::policy::{Lint, lint_settings};
use crate::profiles::{BUILT_IN, export_json};
use crate::ui::command::{Command, LoadCommand, ViewCommand};
use crate::ui::panels::corpus::CorpusView;
use crate::ui::panels::dialogs::DialogView;
use crate::ui::panels::profiles_bar::ProfileView;
use crate::ui::panels::results::ResultsView;
use crate::ui::panels::top_bar::TopBarView;
use crate::ui::panels::{
    banners, corpus, detail, dialogs, profiles_bar, results, settings as settings_panel,
    status_bar, top_bar,
};
use crate::ui::state::{AfterUnsaved, Dialog, MainView, Source};
use crate::ui::tasks::load::Task;

/// Below this window width the detail pane sits under the table, not beside it.
const NARROW_WIDTH: f32 = 1100.0;

impl InspectorApp {
    /// While measuring start-up: the first frame, then, once the start page
    /// is shown and nothing is pending, the time to that, and close.
    fn report_startup(&mut self, ctx: &egui::Context) {
        let Some((started, first_reported)) = &mut self.measuring else {
            return;
        };
        let ms = started.elapsed().as_secs_f64() * 1e3;
        if !*first_reported {
            *first_reported = true;
            eprintln!("{}", crate::copy::first_frame_measured(ms));
            return;
        }
        let ready =
            self.tasks.load.is_none() && !self.profiles_busy() && self.load.start_target.is_none();
        if ready {
            let links = self.load.inspection.as_ref().map_or(0, |i| {
                i.pages
                    .iter()
                    .map(|p| p.decision.links.len())
                    .sum::<usize>()
            });
            eprintln!("{}", crate::copy::start_page_measured(links, ms));
            self.measuring = None;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

impl eframe::App for InspectorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let events = self.tasks.poll();
        self.take_in(events, ui.ctx());
        // After the events: a load, or a profile read for Compare with, may
        // have changed what is compared.
        if let Some(comparison) = &mut self.comparison {
            comparison.refresh(self.load.inspection.as_ref(), self.load.generation);
        }
        let mut commands = self.window_input(ui);

        // Settings past the limits are not applied, so their lint comes from them.
        let lints = match &self.load.inspection {
            Some(inspection) if self.settings_apply() => inspection.lints().to_vec(),
            _ => lint_settings(&self.settings),
        };
        // The order matters: egui gives each panel what the ones before it left.
        commands.extend(self.top_panel(ui, lints.len()));
        commands.extend(self.status_panel(ui));
        let width = ui.ctx().content_rect().width();
        if self.view.show_settings {
            commands.extend(self.settings_side(ui, &lints, width));
        }
        if self.view.show_detail && self.view.main == MainView::Inspector {
            commands.extend(self.detail_side(ui, width));
        }
        commands.extend(self.central_panel(ui));
        commands.extend(self.open_dialog(ui.ctx()));

        for command in commands {
            self.apply(command, ui.ctx());
        }
        self.report_startup(ui.ctx());
        if self.tasks.busy() {
            // Keep the spinner turning; results arrive with their own repaint.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, STORAGE_KEY, &self.top);
        eframe::set_value(storage, WINDOW_OPTIONS_KEY, &self.window_options);
    }
}

impl InspectorApp {
    /// What the window itself was given: a dropped file, Escape while
    /// loading, a request to close.
    fn window_input(&mut self, ui: &egui::Ui) -> Vec<Command> {
        let mut commands = Vec::new();
        if self.take_dropped_file(ui.ctx()) {
            commands.push(LoadCommand::Load.into());
        }
        if self.tasks.load.is_some()
            && self.dialog.is_none()
            && ui.input(|i| i.key_pressed(egui::Key::Escape))
        {
            commands.push(LoadCommand::Cancel.into());
        }
        // Closing the window with unsaved changes asks first.
        if ui.input(|i| i.viewport().close_requested()) && self.is_dirty() && !self.view.allow_close
        {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.dialog = Some(Dialog::ConfirmDiscard(AfterUnsaved::Quit));
        }
        commands
    }

    /// The profiles bar, the view switch and the top bar, in one wrapping row.
    fn top_panel(&mut self, ui: &mut egui::Ui, warnings: usize) -> Vec<Command> {
        let mut commands = Vec::new();
        let dirty = self.is_dirty();
        egui::Panel::top("top_bar").show(ui, |ui| {
            ui.add_space(2.0);
            ui.horizontal_wrapped(|ui| {
                let profiles = ProfileView {
                    names: &self.profiles.names,
                    current: &self.profiles.name,
                    dirty,
                    busy: self.profiles_busy(),
                    comparing: self.comparison.as_ref().map(|c| c.name.as_str()),
                };
                let folded = top_bar::folds(ui.ctx());
                commands.extend(profiles_bar::show(ui, &profiles));
                if !folded {
                    commands.extend(profiles_bar::compare_picker(ui, &profiles));
                }
                ui.separator();
                // Folded, one switch: Corpus, and clicked again, back to the inspector.
                let views: &[(MainView, &str)] = if folded {
                    &[(MainView::Corpus, crate::copy::LABEL_CORPUS_VIEW)]
                } else {
                    &[
                        (MainView::Inspector, crate::copy::LABEL_INSPECTOR_VIEW),
                        (MainView::Corpus, crate::copy::LABEL_CORPUS_VIEW),
                    ]
                };
                for &(view, label) in views {
                    let response = ui.selectable_label(self.view.main == view, label);
                    let response = if view == MainView::Corpus {
                        response.on_hover_text(crate::copy::CORPUS_VIEW_TOOLTIP)
                    } else {
                        response
                    };
                    if response.clicked() {
                        if self.view.main != view {
                            commands.push(ViewCommand::ShowView(view).into());
                        } else if folded {
                            commands.push(ViewCommand::ShowView(MainView::Inspector).into());
                        }
                    }
                }
                if !folded {
                    ui.separator();
                }
                let view = TopBarView {
                    loading: self.tasks.load.as_ref().map(Task::loading),
                    warnings,
                    show_settings: self.view.show_settings,
                    show_detail: self.view.show_detail,
                    browsing: self.tasks.file_dialog.is_some(),
                    browser_available: self.load.browser.is_some(),
                    demo_shown: self.load.source == Source::Demo && self.top.target.is_empty(),
                    save_refused: self.save_refused(),
                    compare: folded.then_some(&profiles),
                };
                commands.extend(top_bar::show(ui, &mut self.top, &view));
            });
            ui.add_space(2.0);
        });
        commands
    }

    /// The status bar, with the theme switch at its right end.
    fn status_panel(&self, ui: &mut egui::Ui) -> Vec<Command> {
        let view = status_bar::StatusView {
            inspection: self.load.inspection.as_ref(),
            source: &self.load.source,
            notice: self.notice.as_deref(),
            notice_hover: self.notice_hover(),
            host_mapping: &self.window_options.host_mapping,
            host_mapping_used: &self.load.host_mapping,
        };
        egui::Panel::bottom("status_bar")
            .show(ui, |ui| status_bar::show(ui, &view))
            .inner
    }

    fn settings_side(&mut self, ui: &mut egui::Ui, lints: &[Lint], width: f32) -> Vec<Command> {
        let mut commands = Vec::new();
        egui::Panel::left("settings")
            .resizable(true)
            .default_size((width * 0.25).clamp(220.0, 300.0))
            .size_range(220.0..=(width * 0.3).max(220.0))
            .show(ui, |ui| {
                let suggestions = self.sibling_roots();
                commands.extend(settings_panel::show(
                    ui,
                    &mut self.settings,
                    &mut self.window_options,
                    lints,
                    &suggestions,
                    self.view.scroll_to_warnings,
                ));
            });
        self.view.scroll_to_warnings = false;
        commands
    }

    /// The selected link's detail: beside the table, or under it in a narrow
    /// window so the table keeps its width.
    fn detail_side(&mut self, ui: &mut egui::Ui, width: f32) -> Vec<Command> {
        let mut commands = Vec::new();
        let what_ifs = self.what_ifs();
        let shown = self.selected_link();
        let other = self.other_side();
        let target = self.target_mark();
        // In a sideways scroll: a line wider than the pane (a long URL
        // in the trace) scrolls instead of widening the pane, which went from
        // ~300 to 470 px on the first selection at 1280×800.
        let mut draw = |ui: &mut egui::Ui| {
            egui::ScrollArea::horizontal()
                .id_salt("detail_sideways")
                .auto_shrink([false, false])
                .show(ui, |ui| match shown {
                    Some((page, link, settings)) => {
                        commands.extend(detail::show(
                            ui,
                            page,
                            link,
                            settings,
                            &what_ifs,
                            other,
                            Some(&target),
                        ));
                    }
                    None => {
                        ui.heading(crate::copy::LINK_DETAIL_TITLE);
                        ui.label(crate::copy::SELECT_A_ROW);
                    }
                });
        };
        if width < NARROW_WIDTH {
            // A fifth of a short window (120 px at 600, 140 at 700): with
            // 220 px at 800×600 the table above kept no row under a crawl's
            // banners; the pane's own area scrolls, and its split drags.
            let height = ui.ctx().content_rect().height();
            egui::Panel::bottom("detail_below")
                .resizable(true)
                .default_size((height * 0.2).clamp(120.0, 220.0))
                .size_range(120.0..=600.0)
                .show(ui, |ui| draw(ui));
        } else {
            egui::Panel::right("detail")
                .resizable(true)
                .default_size(340.0)
                .size_range(260.0..=(width * 0.45).max(260.0))
                .show(ui, |ui| draw(ui));
        }
        commands
    }

    /// The banners, then the inspector's results or the corpus view.
    fn central_panel(&mut self, ui: &mut egui::Ui) -> Vec<Command> {
        let mut commands = Vec::new();
        let archive_banner = super::archive::archive_banner(
            &self.load.source,
            &self.settings,
            &self.profiles.name,
            &self.profiles.saved,
        );
        let (archive_name, archive_info) = match &self.load.source {
            Source::Archive { path, info } => (Some(status_bar::file_name(path)), Some(info)),
            _ => (None, None),
        };
        let page_id = self.target_page_id();
        let view = ResultsView {
            inspection: self.load.inspection.as_ref(),
            generation: self.load.generation,
            loaded: self.load.loaded,
            page: self.selection.page,
            selected: self.selection.selected,
            previous_result: self.load.failed && self.error.is_some(),
            stale_crawl: self.crawl_is_stale(),
            saved_file: matches!(self.load.source, Source::File(_)),
            archive: archive_name
                .as_deref()
                .zip(archive_info.map(|info| &**info)),
            keyboard: self.dialog.is_none() && self.view.main == MainView::Inspector,
            comparison: self
                .comparison
                .as_ref()
                .and_then(|c| c.page(self.selection.page)),
            targets: self.targets.of_page(page_id.as_deref()),
            choosing_kind: self.choosing_kind(),
        };
        let corpus_view = CorpusView {
            running: self.corpus.progress,
            profile: &self.profiles.name,
            edited: self.is_dirty(),
            compared: self.comparison.as_ref().map(|c| c.name.as_str()),
            a: &self.settings,
            b: self.comparison.as_ref().map(|c| &c.settings),
            depth: self.top.depth,
            browsing: self.tasks.file_dialog.is_some(),
            keyboard: self.dialog.is_none(),
        };
        egui::CentralPanel::default().show(ui, |ui| {
            commands.extend(banners::show(
                ui,
                self.error.as_ref(),
                &self.profiles.notices,
            ));
            match self.view.main {
                MainView::Inspector => {
                    if let Some(banner) = &archive_banner {
                        commands.extend(banners::archive_settings(ui, banner));
                    }
                    commands.extend(results::show(ui, &view, &mut self.view.results));
                }
                MainView::Corpus => {
                    commands.extend(corpus::show(ui, &mut self.corpus.panel, &corpus_view));
                }
            }
        });
        commands
    }

    fn open_dialog(&mut self, ctx: &egui::Context) -> Vec<Command> {
        let Some(dialog) = &mut self.dialog else {
            return Vec::new();
        };
        let json = export_json(&self.settings);
        let view = DialogView {
            profile: &self.profiles.name,
            built_in: self.profiles.name == BUILT_IN,
            export_json: &json,
            browsing: self.tasks.file_dialog.is_some(),
            saving: self.tasks.save.is_some(),
            measured_on: self.corpus.panel.saving_measured_on.as_deref(),
        };
        dialogs::show(ctx, dialog, &view)
    }
}
