//! Profile glue: requests to the profiles thread, and what their replies
//! change (save, switch, name, delete, import, export).

use super::InspectorApp;
use super::subjects::comparison::Comparison;
use crate::policy::{ImportedSettings, Settings};
use crate::profiles::{BUILT_IN, ProfileError, export_json, validate_name};
use crate::ui::command::ProfileCommand;
use crate::ui::state::{AfterUnsaved, Dialog, NameAction, ShownError};
use crate::ui::tasks::profiles::{Outcome, Reply, Request, StoreRequest};

impl InspectorApp {
    pub(super) fn carry_out_profile(&mut self, command: ProfileCommand, ctx: &egui::Context) {
        match command {
            ProfileCommand::SwitchProfile(name) => {
                self.leave_profile(AfterUnsaved::Switch(name), ctx);
            }
            ProfileCommand::SaveProfile => self.save_profile(None),
            // Save as keeps the changes (in the new profile); Rename and
            // Duplicate leave the edited profile as it is saved. The built-in
            // profile holds no edits, so its duplicate is the settings on
            // screen; a rename to the same name changes nothing.
            ProfileCommand::NameEntered { action, name, then } => {
                let from = self.profiles.name.clone();
                match action {
                    NameAction::SaveAs => self.save_as(from, name, then),
                    NameAction::SaveSuggestion => self.save_suggestion(name),
                    NameAction::Duplicate if from == BUILT_IN => {
                        let settings = self.settings.clone();
                        self.send_named(NameAction::Duplicate, from, name, settings, then);
                    }
                    NameAction::Rename if name.trim() == from => self.dialog = None,
                    NameAction::Rename => {
                        self.leave_profile(AfterUnsaved::Rename { from, to: name }, ctx);
                    }
                    NameAction::Duplicate => {
                        self.leave_profile(AfterUnsaved::Duplicate { from, to: name }, ctx);
                    }
                }
            }
            ProfileCommand::DeleteProfile => {
                let name = self.profiles.name.clone();
                self.leave_profile(AfterUnsaved::Delete(name), ctx);
            }
            ProfileCommand::Discard(after) => {
                self.dialog = None;
                self.continue_with(after, self.settings.clone(), ctx);
            }
            ProfileCommand::SaveThen(after) => {
                self.dialog = None;
                self.save_profile(Some(after));
            }
            ProfileCommand::Import { name, json, path } => {
                self.leave_profile(AfterUnsaved::Import { name, json, path }, ctx);
            }
            ProfileCommand::ExportToFile(path) => self.export_to_file(&path),
            ProfileCommand::DismissProfileNotice(i) => {
                if i < self.profiles.notices.len() {
                    self.profiles.notices.remove(i);
                }
            }
        }
    }

    /// Queues a profile request; the reply comes back as a task event
    /// (`BackgroundTasks::poll`, then `take_in`) and is applied in
    /// `profiles_replied`.
    pub(super) fn send_profiles(&mut self, request: Request) {
        let sent = self
            .tasks
            .profiles
            .as_mut()
            .is_some_and(|worker| worker.send(request));
        if !sent {
            self.profiles
                .notices
                .push(crate::copy::PROFILES_NOT_SAVED.into());
        }
    }

    pub(super) fn send_store(&mut self, request: StoreRequest) {
        self.send_profiles(Request::Store(request));
    }

    /// Applies a reply of the profiles thread.
    pub(super) fn profiles_replied(&mut self, reply: Reply, ctx: &egui::Context) {
        self.profiles.notices.extend(reply.notices);
        if let Some(names) = reply.names {
            self.profiles.names = names;
        }
        self.apply_outcome(reply.outcome, ctx);
    }

    pub(super) fn apply_outcome(&mut self, outcome: Outcome, ctx: &egui::Context) {
        match outcome {
            Outcome::Opened { active, settings }
            | Outcome::Switched {
                name: active,
                settings,
            } => {
                self.profiles.name = active;
                self.take_profile(settings);
                self.load_start_target(ctx);
            }
            Outcome::Peeked { name, settings } => {
                self.comparison = Some(Comparison::new(name, settings));
            }
            Outcome::OpenFailed(message) => {
                self.profiles.notices.push(message);
                self.load_start_target(ctx);
            }
            Outcome::Saved {
                name,
                settings,
                then,
            } => {
                self.profiles.saved = settings.clone();
                self.notice = Some(crate::copy::saved_profile(&name));
                if let Some(after) = then {
                    self.continue_with(after, settings, ctx);
                }
            }
            // An edited profile was saved or its edits dropped before a Rename
            // or Duplicate, so the new one opens as stored, unless the settings
            // were edited while the profiles thread worked: those edits stay,
            // unsaved.
            Outcome::Named {
                stored,
                saved,
                replaces,
                copy_of,
                then,
            } => {
                self.dialog = None;
                if let Some(from) = copy_of {
                    self.notice = Some(crate::copy::duplicated_profile(&from, &stored));
                }
                self.profiles.name = stored;
                if self.settings == replaces && self.settings != saved {
                    self.settings = saved.clone();
                    self.reclassify();
                }
                self.profiles.saved = saved.clone();
                if let Some(after) = then {
                    self.continue_with(after, saved, ctx);
                }
            }
            Outcome::Deleted(name) => {
                self.dialog = None;
                self.notice = Some(crate::copy::deleted_profile(&name));
                // After "Save as" its changes are in the new current profile.
                if name == self.profiles.name {
                    self.profiles.saved = self.settings.clone();
                    self.switch_profile(BUILT_IN);
                } else {
                    self.profiles.replaces = None;
                }
            }
            Outcome::Imported { stored, imported } => {
                self.dialog = None;
                self.notice = Some(crate::copy::import_report(
                    &stored,
                    &imported.ignored_keys,
                    &imported.defaulted_keys,
                ));
                self.profiles.name = stored;
                self.take_profile(imported.settings);
            }
            Outcome::SavedCopy { name, settings } => self.suggestion_saved(name, &settings),
            Outcome::Exported(path) => {
                self.dialog = None;
                self.notice = Some(crate::copy::exported_to(&path));
            }
            Outcome::Failed(message) => self.show_refusal(message),
        }
    }

    /// The profile just opened, switched to or imported is current, as
    /// `saved`, on screen unless the settings were edited while the profiles
    /// thread worked (it waits while another window holds the profiles
    /// file's lock, for as long as that takes): those edits stay, unsaved
    /// over it, as after a Rename.
    fn take_profile(&mut self, saved: Settings) {
        let replaces = self
            .profiles
            .replaces
            .take()
            .unwrap_or_else(|| self.profiles.saved.clone());
        if self.settings == replaces {
            self.settings = saved.clone();
            self.reclassify();
        }
        self.profiles.saved = saved;
    }

    /// Profile work is queued or running on the profiles thread.
    pub fn profiles_busy(&self) -> bool {
        self.tasks.profiles_busy()
    }

    pub(super) fn switch_profile(&mut self, name: &str) {
        self.send_store(StoreRequest::Switch(name.to_owned()));
    }

    /// Does an action that leaves the current profile (or replaces the
    /// settings on screen); with unsaved changes, asks first whether to save
    /// them (a name or JSON the action would refuse is shown in its dialog
    /// before that).
    pub(super) fn leave_profile(&mut self, after: AfterUnsaved, ctx: &egui::Context) {
        if !self.is_dirty() {
            return self.continue_with(after, self.settings.clone(), ctx);
        }
        match self.refusal(&after) {
            Some(message) => self.show_refusal(message),
            None => self.dialog = Some(Dialog::ConfirmDiscard(after)),
        }
    }

    /// Shown in the open dialog when it has the input the problem is about,
    /// else in the error banner.
    fn show_refusal(&mut self, message: String) {
        match &mut self.dialog {
            Some(dialog) if matches!(dialog, Dialog::Name { .. } | Dialog::Import { .. }) => {
                dialog.set_error(message);
            }
            _ => self.error = Some(ShownError::plain(message)),
        }
    }

    /// Why the profiles thread would refuse `after`, as far as can be told
    /// without reading a file.
    fn refusal(&self, after: &AfterUnsaved) -> Option<String> {
        let names = self.profiles.names.iter().map(String::as_str);
        let checked = match after {
            AfterUnsaved::Rename { from, to } => validate_name(to, names.filter(|n| n != from)),
            AfterUnsaved::Duplicate { to, .. } => validate_name(to, names),
            AfterUnsaved::Import { name, json, path } => {
                // A file is read on the profiles thread; pasted JSON is checked here.
                let pasted = if path.trim().is_empty() {
                    ImportedSettings::from_json(json).map(drop)
                } else {
                    Ok(())
                };
                pasted
                    .map_err(ProfileError::from)
                    .and_then(|()| validate_name(name, names))
            }
            AfterUnsaved::Switch(_)
            | AfterUnsaved::Quit
            | AfterUnsaved::Delete(_)
            | AfterUnsaved::UseArchiveSettings(_) => return None,
        };
        checked.err().map(|e| format!("{e:#}"))
    }

    /// Carries out an action that leaves the current profile, once its unsaved
    /// changes are saved or given up. Given up, they stay on screen until the
    /// action's outcome replaces them, so an action that fails loses nothing.
    /// `answered` are the settings on screen when the question was answered:
    /// the action's outcome replaces only those, not edits made since.
    pub(super) fn continue_with(
        &mut self,
        after: AfterUnsaved,
        answered: Settings,
        ctx: &egui::Context,
    ) {
        if matches!(
            after,
            AfterUnsaved::Switch(_) | AfterUnsaved::Import { .. } | AfterUnsaved::Delete(_)
        ) {
            self.profiles.replaces = Some(answered.clone());
        }
        match after {
            AfterUnsaved::Switch(name) => self.switch_profile(&name),
            AfterUnsaved::Quit => {
                self.view.allow_close = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            AfterUnsaved::Import { name, json, path } => {
                self.send_store(StoreRequest::Import { name, json, path });
            }
            AfterUnsaved::Rename { from, to } => {
                self.send_named(NameAction::Rename, from, to, answered, None);
            }
            AfterUnsaved::Duplicate { from, to } => {
                self.send_named(NameAction::Duplicate, from, to, answered, None);
            }
            AfterUnsaved::Delete(name) => self.send_store(StoreRequest::Delete(name)),
            // Edited again while a save waited: those edits stay, and the
            // banner still offers the archive's settings.
            AfterUnsaved::UseArchiveSettings(path) => {
                if self.settings == answered {
                    self.use_archive_settings(&path);
                }
            }
        }
    }

    /// Saves the settings on screen under the new name `name`, then goes on
    /// with `then`.
    pub(super) fn save_as(&mut self, current: String, name: String, then: Option<AfterUnsaved>) {
        let settings = self.settings.clone();
        self.send_named(NameAction::SaveAs, current, name, settings, then);
    }

    fn send_named(
        &mut self,
        action: NameAction,
        current: String,
        name: String,
        settings: Settings,
        then: Option<AfterUnsaved>,
    ) {
        self.send_store(StoreRequest::Named {
            action,
            name,
            current,
            settings,
            then,
        });
    }

    /// Saves the current profile, then goes on with `then`.
    pub(super) fn save_profile(&mut self, then: Option<AfterUnsaved>) {
        let (name, settings) = (self.profiles.name.clone(), self.settings.clone());
        self.send_store(StoreRequest::Save {
            name,
            settings,
            then,
        });
    }

    pub(super) fn export_to_file(&mut self, path: &str) {
        let json = export_json(&self.settings);
        self.send_profiles(Request::Export {
            path: path.to_owned(),
            json,
        });
    }
}
