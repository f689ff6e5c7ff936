//! Web archives in the window: Save for ticket… (asked where, written on a
//! named thread, an existing file replaced only when the user says so), and
//! a reopened archive judged under its own settings or the profile's.

use std::path::PathBuf;
use std::time::SystemTime;

use super::InspectorApp;
use super::subjects::archive::SavedArchive;
use crate::archive::SaveFormat;
use crate::copy;
use crate::policy::Settings;
use crate::ui::command::ArchiveCommand;
use crate::ui::panels::banners::ArchiveBanner;
use crate::ui::state::{AfterUnsaved, Dialog, ShownError, Source};
use crate::ui::tasks::save::{SaveJob, SaveOutcome, SaveTask, utc_minute};

impl InspectorApp {
    pub(super) fn carry_out_archive(&mut self, command: ArchiveCommand, ctx: &egui::Context) {
        match command {
            ArchiveCommand::SaveForTicket => self.open_save_dialog(),
            ArchiveCommand::SaveArchive { path, overwrite } => {
                self.save_archive(&path, overwrite, ctx);
            }
            ArchiveCommand::JudgeUnderArchive(archive) => self.judge_under_archive(archive, ctx),
            ArchiveCommand::StartAtPackagePage(url) => {
                // The package's own target stays; the page is its base URL,
                // as `inspect x.wacz --base-url URL` takes it.
                self.top.base_url = url;
                self.load(ctx);
            }
        }
    }

    /// What the status bar shows on hover over the notice: the saved file's
    /// whole path while the notice is the one that named it.
    pub(super) fn notice_hover(&self) -> Option<&str> {
        let (notice, path) = self.archive.saved_notice.as_ref()?;
        (self.notice.as_ref() == Some(notice)).then_some(path.as_str())
    }

    /// Why Save for ticket cannot run now (the tooltip of its disabled
    /// button), or `None` when it can: only pages that were fetched (or
    /// reopened from an archive) hold the HTTP exchanges an archive keeps.
    pub(super) fn save_refused(&self) -> Option<&'static str> {
        if self.tasks.load.is_some() {
            return Some(copy::WAIT_FOR_THE_LOAD);
        }
        if self.tasks.save.is_some() {
            return Some(copy::SAVING_ARCHIVE);
        }
        match (&self.load.inspection, &self.load.source) {
            (None, _) | (_, Source::Nothing) => Some(copy::NOTHING_FETCHED_TO_SAVE),
            (_, Source::Demo) => Some(copy::DEMO_NOT_SAVED),
            (_, Source::File(_)) => Some(copy::SAVED_PAGE_NOT_SAVED),
            (Some(_), Source::Url | Source::Archive { .. }) => None,
        }
    }

    /// Opens the Save for ticket dialog on a file named for the host and
    /// the day, in the home folder: a WACZ package for a rendered
    /// inspection (its pages replay in ReplayWeb.page as the browser showed
    /// them), a WARC otherwise.
    pub(super) fn open_save_dialog(&mut self) {
        let Some(inspection) = self
            .load
            .inspection
            .as_ref()
            .filter(|_| self.save_refused().is_none())
        else {
            return;
        };
        let now = utc_minute(SystemTime::now());
        let date = now.split(' ').next().unwrap_or_default();
        let rendered = inspection.pages.iter().any(|p| p.rendered().is_some());
        let format = if rendered {
            SaveFormat::Wacz
        } else {
            SaveFormat::Warc
        };
        let name =
            copy::ticket_archive_name(inspection.start_url.host_str().unwrap_or(""), date, format);
        let path = match std::env::home_dir() {
            Some(home) => home.join(&name).display().to_string(),
            None => name,
        };
        self.dialog = Some(Dialog::SaveArchive { path, error: None });
    }

    /// The profile the shown pages were judged under, for the archive's
    /// inspection record: none for unsaved edits, the archive's own for a
    /// reopened archive still judged as it was captured.
    fn judged_under_profile(&self) -> Option<String> {
        let settings = self.load.inspection.as_ref()?.settings();
        if let Source::Archive { info, .. } = &self.load.source
            && info.settings.as_ref() == Some(settings)
        {
            return info.profile.clone();
        }
        (*settings == self.profiles.saved).then(|| self.profiles.name.clone())
    }

    /// Writes the shown inspection to `path` on a named thread.
    pub(super) fn save_archive(&mut self, path: &str, overwrite: bool, ctx: &egui::Context) {
        if self.tasks.save.is_some() || path.trim().is_empty() {
            return;
        }
        let Some(inspection) = &self.load.inspection else {
            return;
        };
        let job = SaveJob {
            path: PathBuf::from(path.trim()),
            inspection: inspection.clone(),
            profile: self.judged_under_profile(),
            overwrite,
        };
        self.archive.saving_pages = pages_identity(inspection);
        let repaint_ctx = ctx.clone();
        match SaveTask::spawn(job, move || repaint_ctx.request_repaint()) {
            Ok(task) => self.tasks.save = Some(task),
            Err(e) => {
                self.error = Some(ShownError::plain(copy::cannot_start_background_task(&e)));
            }
        }
    }

    /// The save finished (`tasks.poll` took it out of its slot).
    pub(super) fn save_finished(&mut self, outcome: SaveOutcome) {
        match outcome {
            SaveOutcome::Saved { saved, at } => {
                if matches!(
                    self.dialog,
                    Some(Dialog::SaveArchive { .. } | Dialog::ConfirmOverwrite { .. })
                ) {
                    self.dialog = None;
                }
                // The file's name in the bar, where a whole path left the
                // page URL no room; the path is on hover.
                let path = saved.path.display().to_string();
                let notice = copy::saved_for_ticket(
                    &crate::ui::panels::status_bar::file_name(&path),
                    saved.pages,
                    saved.bytes,
                );
                self.archive.saved_notice = Some((notice.clone(), path));
                self.notice = Some(notice);
                // A load that ended meanwhile shows other pages: the file
                // is not theirs.
                if self.load.inspection.as_ref().and_then(pages_identity)
                    == self.archive.saving_pages
                {
                    self.archive.saved = Some(SavedArchive {
                        file_name: crate::ui::panels::status_bar::file_name(
                            &saved.path.display().to_string(),
                        ),
                        at,
                    });
                }
            }
            SaveOutcome::Exists(path) => {
                self.dialog = Some(Dialog::ConfirmOverwrite {
                    path: path.display().to_string(),
                });
            }
            SaveOutcome::Failed(err) => {
                let shown = ShownError {
                    message: copy::error_text(&err),
                    advice: Some(copy::archive_advice(&err)),
                };
                let words = copy::error_banner(&shown.message, shown.advice);
                // Shown where the path can be changed: a refused replace goes
                // back to the path it was for.
                match &mut self.dialog {
                    Some(dialog @ Dialog::SaveArchive { .. }) => dialog.set_error(words),
                    Some(Dialog::ConfirmOverwrite { path }) => {
                        self.dialog = Some(Dialog::SaveArchive {
                            path: std::mem::take(path),
                            error: Some(words),
                        });
                    }
                    _ => self.error = Some(shown),
                }
            }
        }
    }

    /// Judges a reopened archive's pages under its own settings, or under
    /// the current profile's as saved; nothing is fetched. The archive's
    /// settings replace those on screen, so unsaved edits are asked about
    /// first (Save / Discard / Keep editing), as leaving the profile does:
    /// the issue 30 report lost them here. Back under the profile, the
    /// settings replaced are the archive's own, which its banner brings back.
    pub(super) fn judge_under_archive(&mut self, archive: bool, ctx: &egui::Context) {
        let Source::Archive { path, info } = &self.load.source else {
            return;
        };
        if archive {
            let after = AfterUnsaved::UseArchiveSettings(path.clone());
            self.leave_profile(after, ctx);
        } else if info.settings.as_ref() == Some(&self.settings) {
            self.settings = self.profiles.saved.clone();
            self.reclassify();
        }
    }

    /// The reopened archive at `path`, still shown, judged under its own
    /// settings (the unsaved-changes question answered, or not needed).
    pub(super) fn use_archive_settings(&mut self, path: &str) {
        let settings = match &self.load.source {
            Source::Archive { path: shown, info } if shown == path => info.settings.clone(),
            _ => None,
        };
        if let Some(settings) = settings {
            self.settings = settings;
            self.reclassify();
        }
    }
}

/// The banner over a reopened archive whose inspection record has settings;
/// `settings` are those on screen, under `profile` (saved as `saved`).
pub(super) fn archive_banner<'a>(
    source: &'a Source,
    settings: &Settings,
    profile: &'a str,
    saved: &Settings,
) -> Option<ArchiveBanner<'a>> {
    let Source::Archive { info, .. } = source else {
        return None;
    };
    let archived = info.settings.as_ref()?;
    Some(ArchiveBanner {
        info,
        as_archived: archived == settings,
        same_as_profile: archived == saved,
        profile,
    })
}

/// Which fetched pages an inspection shows: its first page's capture, which
/// re-judging keeps and a new load replaces.
fn pages_identity(inspection: &crate::inspect::Inspection) -> Option<usize> {
    let capture = inspection.pages.first()?.capture.as_ref()?;
    Some(std::sync::Arc::as_ptr(capture) as usize)
}
