//! Carrying out what the panels asked for.

use super::InspectorApp;
use crate::policy::Settings;
use crate::profiles::BUILT_IN;
use crate::ui::command::Command;
use crate::ui::state::{
    AfterUnsaved, Dialog, FilePurpose, MainView, NameAction, ShownError, SidePanel,
};
use crate::ui::tasks::file_dialog::PendingFileDialog;
use crate::ui::tasks::profiles::StoreRequest;

impl InspectorApp {
    pub(super) fn apply(&mut self, command: Command, ctx: &egui::Context) {
        if command.starts_an_action() {
            self.notice = None;
        }
        match command {
            Command::Load => self.load(ctx),
            Command::CrawlAgain => self.crawl_again(ctx),
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
                self.notice = Some(crate::copy::COPIED.into());
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
                    // Save for ticket proposes the file its dialog names.
                    let suggested = match &self.dialog {
                        Some(Dialog::SaveArchive { path, .. })
                            if purpose == FilePurpose::SaveArchive =>
                        {
                            Some(std::path::PathBuf::from(path.trim()))
                        }
                        _ => None,
                    };
                    let repaint = move || repaint_ctx.request_repaint();
                    match PendingFileDialog::spawn(purpose, suggested, repaint) {
                        Ok(pending) => self.file_dialog = Some(pending),
                        Err(e) => {
                            self.error =
                                Some(ShownError::plain(crate::copy::cannot_open_file_dialog(&e)));
                        }
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
            Command::SwitchProfile(name) => self.leave_profile(AfterUnsaved::Switch(name), ctx),
            Command::SaveProfile => self.save_profile(None),
            Command::OpenDialog(dialog) => self.dialog = Some(dialog),
            Command::CloseDialog => self.dialog = None,
            // Save as keeps the changes (in the new profile); Rename and
            // Duplicate leave the edited profile as it is saved. The built-in
            // profile holds no edits, so its duplicate is the settings on
            // screen; a rename to the same name changes nothing.
            Command::NameEntered { action, name, then } => {
                let from = self.profile.clone();
                match action {
                    NameAction::SaveAs => self.save_as(from, name, then),
                    NameAction::SaveSuggestion => self.save_suggestion(name),
                    NameAction::Duplicate if from == BUILT_IN => self.save_as(from, name, then),
                    NameAction::Rename if name.trim() == from => self.dialog = None,
                    NameAction::Rename => {
                        self.leave_profile(AfterUnsaved::Rename { from, to: name }, ctx);
                    }
                    NameAction::Duplicate => {
                        self.leave_profile(AfterUnsaved::Duplicate { from, to: name }, ctx);
                    }
                }
            }
            Command::DeleteProfile => {
                let name = self.profile.clone();
                self.leave_profile(AfterUnsaved::Delete(name), ctx);
            }
            Command::Discard(after) => {
                self.dialog = None;
                self.continue_with(after, self.settings.clone(), ctx);
            }
            Command::SaveThen(after) => {
                self.dialog = None;
                self.save_profile(Some(after));
            }
            Command::Import { name, json, path } => {
                self.leave_profile(AfterUnsaved::Import { name, json, path }, ctx);
            }
            Command::ExportToFile(path) => self.export_to_file(&path),
            Command::SaveForTicket => self.open_save_dialog(),
            Command::SaveArchive { path, overwrite } => self.save_archive(&path, overwrite, ctx),
            Command::JudgeUnderArchive(archive) => self.judge_under_archive(archive),
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
            Command::TrySuggestion(index) => self.try_suggestion(index, ctx),
            Command::SaveSuggestion(index) => self.ask_suggestion_name(index),
            Command::CancelCorpus => {
                if let Some(task) = &self.corpus_task {
                    task.cancel();
                }
            }
            Command::OpenCorpusPage { path, url, link } => {
                self.opened_corpus_page(&path);
                self.select_when_loaded = link;
                self.view = MainView::Inspector;
                self.top.set_target(path);
                self.top.base_url = url;
                self.load(ctx);
            }
            Command::UseTargetsFile { path, create } => {
                self.dialog = None;
                self.send_targets(crate::ui::tasks::targets::TargetsRequest::Open {
                    path: std::path::PathBuf::from(path),
                    create,
                });
            }
            Command::ChooseTargetKind(open) => self.choose_target_kind(open),
            Command::MarkTarget(kind) => self.mark_selected(kind),
            Command::UndoMark => self.undo_mark(),
        }
    }
}
