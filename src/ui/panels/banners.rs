//! Banners above the table: the last error in full with what to do about it,
//! and notices about the profiles file. Each stays until the user closes it.

use egui::Ui;

use crate::copy;
use crate::ui::command::{ArchiveCommand, Command, ProfileCommand, ViewCommand};
use crate::ui::state::ShownError;
use crate::ui::{palette, widgets};

/// Draws the error and the profile notices; returns the dismiss commands.
pub fn show(ui: &mut Ui, error: Option<&ShownError>, profile_notices: &[String]) -> Vec<Command> {
    let mut commands = Vec::new();
    let dark = ui.visuals().dark_mode;
    let (fill, text) = (palette::error_banner(dark), palette::error_text(dark));
    if let Some(error) = error {
        let message = copy::error_banner(&error.message, error.advice);
        if widgets::banner(ui, fill, text, &message, Some(copy::LABEL_DISMISS)) {
            commands.push(ViewCommand::DismissError.into());
        }
    }
    for (i, notice) in profile_notices.iter().enumerate() {
        let message = copy::profile_notice_banner(&copy::profile_notice(notice));
        if widgets::banner(ui, fill, text, &message, Some(copy::LABEL_DISMISS)) {
            commands.push(ProfileCommand::DismissProfileNotice(i).into());
        }
    }
    commands
}

/// A reopened archive's settings, and whether they judge its pages now.
pub struct ArchiveBanner<'a> {
    pub info: &'a crate::archive::CaptureInfo,
    /// The settings on screen are the archive's.
    pub as_archived: bool,
    /// The current profile.
    pub profile: &'a str,
}

/// Says under whose settings a reopened archive is judged, with the button
/// that judges it under the others.
pub fn archive_settings(ui: &mut Ui, banner: &ArchiveBanner<'_>) -> Option<Command> {
    let dark = ui.visuals().dark_mode;
    let (profile, captured) = (
        banner.info.profile.as_deref(),
        banner.info.captured.as_deref(),
    );
    let (text, button) = if banner.as_archived {
        (
            copy::archive_settings_banner(profile, captured, banner.profile),
            copy::judge_under_profile(banner.profile),
        )
    } else {
        (
            copy::judged_not_as_archived(profile, captured),
            copy::JUDGE_UNDER_ARCHIVE.to_owned(),
        )
    };
    let (fill, color) = (palette::stale_banner(dark), palette::stale_text(dark));
    widgets::banner(ui, fill, color, &text, Some(&button))
        .then_some(ArchiveCommand::JudgeUnderArchive(!banner.as_archived).into())
}
