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
    /// The archive's settings are the current profile's as saved: judging
    /// under either gives the same verdicts.
    pub same_as_profile: bool,
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
    let (text, button) = if banner.as_archived && banner.same_as_profile {
        // Nothing shows as edited, and the profile's button would change
        // nothing on screen: none is offered.
        let text = copy::archive_settings_are_profile(profile, captured, banner.profile);
        (text, None)
    } else if banner.as_archived {
        (
            copy::archive_settings_banner(profile, captured, banner.profile),
            Some(copy::judge_under_profile(banner.profile)),
        )
    } else {
        (
            copy::judged_not_as_archived(profile, captured),
            Some(copy::JUDGE_UNDER_ARCHIVE.to_owned()),
        )
    };
    let (fill, color) = (palette::stale_banner(dark), palette::stale_text(dark));
    widgets::banner(ui, fill, color, &text, button.as_deref())
        .then_some(ArchiveCommand::JudgeUnderArchive(!banner.as_archived).into())
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable as _;

    use super::*;
    use crate::archive::CaptureInfo;
    use crate::ui::command::{ArchiveCommand, ProfileCommand, Subject, ViewCommand};
    use crate::ui::test_support;

    /// What the banners are given, and the commands they gave back.
    struct Banners {
        error: Option<ShownError>,
        notices: Vec<String>,
        commands: Vec<Command>,
    }

    fn banners(error: Option<ShownError>, notices: &[&str]) -> Harness<'static, Banners> {
        let banners = Banners {
            error,
            notices: notices.iter().map(|n| (*n).to_owned()).collect(),
            commands: Vec::new(),
        };
        let mut harness = test_support::harness(
            egui::vec2(900.0, 400.0),
            |ui, b: &mut Banners| {
                let commands = show(ui, b.error.as_ref(), &b.notices);
                b.commands.extend(commands);
            },
            banners,
        );
        harness.run();
        harness
    }

    /// The archive banner over an archive saved under "Strict", with the
    /// current profile "Mine"; what its button asked.
    fn archive_banner(as_archived: bool) -> Harness<'static, (CaptureInfo, bool, Vec<Command>)> {
        archive_banner_of(as_archived, false)
    }

    /// The same, `same_as_profile`: the archive's settings are "Mine" as saved.
    fn archive_banner_of(
        as_archived: bool,
        same_as_profile: bool,
    ) -> Harness<'static, (CaptureInfo, bool, Vec<Command>)> {
        let info = CaptureInfo {
            profile: Some("Strict".into()),
            captured: Some("2026-12-01T15:37:24Z".into()),
            ..CaptureInfo::default()
        };
        let mut harness = test_support::harness(
            egui::vec2(900.0, 400.0),
            move |ui, (info, as_archived, commands): &mut (CaptureInfo, bool, Vec<Command>)| {
                let banner = ArchiveBanner {
                    info,
                    as_archived: *as_archived,
                    same_as_profile,
                    profile: "Mine",
                };
                commands.extend(archive_settings(ui, &banner));
            },
            (info, as_archived, Vec::new()),
        );
        harness.run();
        harness
    }

    // What the banners asked, one helper per kind: the only lines that name
    // `Command`'s variants, so a change of its shape is mended here.
    fn dismissed_error(c: &Command) -> bool {
        matches!(c.subject(), Subject::View(ViewCommand::DismissError))
    }
    fn dismissed_notice(c: &Command) -> Option<usize> {
        match c.subject() {
            Subject::Profile(ProfileCommand::DismissProfileNotice(i)) => Some(*i),
            _ => None,
        }
    }
    fn judged_under_archive(c: &Command) -> Option<bool> {
        match c.subject() {
            Subject::Archive(ArchiveCommand::JudgeUnderArchive(archive)) => Some(*archive),
            _ => None,
        }
    }

    #[test]
    fn an_error_is_shown_whole_with_what_to_do_and_close_asks_to_dismiss_it() {
        let error = ShownError {
            message: "DNS: cannot resolve nowhere.test".into(),
            advice: Some("Check the host name."),
        };
        let mut harness = banners(Some(error), &[]);
        harness.get_by_label("✖ DNS: cannot resolve nowhere.test\nCheck the host name.");
        assert!(harness.state().commands.is_empty());
        harness.get_by_label("Close").click();
        harness.run();
        assert_eq!(harness.state().commands.len(), 1);
        assert!(harness.state().commands.iter().all(dismissed_error));
    }

    #[test]
    fn nothing_to_say_draws_no_banner() {
        let harness = banners(None, &[]);
        assert!(harness.query_by_label("Close").is_none());
        assert!(harness.query_by_label_contains("✖").is_none());
    }

    #[test]
    fn each_profiles_notice_has_its_own_close_button() {
        let error = ShownError {
            message: "HTTP 503".into(),
            advice: None,
        };
        let notices = ["the file was damaged", "“Typo” was skipped"];
        let mut harness = banners(Some(error), &notices);
        harness.get_by_label("✖ HTTP 503");
        harness.get_by_label("⚠ Profiles: the file was damaged");
        harness.get_by_label("⚠ Profiles: “Typo” was skipped");
        // The error's Close first, then one per notice, top to bottom.
        assert_eq!(harness.query_all_by_label("Close").count(), 3);
        harness.get_all_by_label("Close").nth(2).unwrap().click();
        harness.run();
        let closed: Vec<_> = harness
            .state()
            .commands
            .iter()
            .filter_map(dismissed_notice)
            .collect();
        assert_eq!(closed, [1]);
        assert!(!harness.state().commands.iter().any(dismissed_error));
    }

    #[test]
    fn an_archive_judged_as_archived_says_so_and_offers_the_current_profile() {
        let mut harness = archive_banner(true);
        harness.get_by_label_contains(
            "Settings from the archive (profile “Strict”, captured 2026-12-01 15:37:24 UTC)",
        );
        harness.get_by_label("Judge under “Mine”").click();
        harness.run();
        let asked: Vec<_> = harness
            .state()
            .2
            .iter()
            .filter_map(judged_under_archive)
            .collect();
        assert_eq!(asked, [false]);
    }

    #[test]
    fn an_archive_judged_under_other_settings_offers_its_own_back() {
        let mut harness = archive_banner(false);
        harness.get_by_label(
            "Judged under your settings, not the archive's (profile “Strict”, captured \
             2026-12-01 15:37:24 UTC).",
        );
        harness.get_by_label("Use the archive's settings").click();
        harness.run();
        let asked: Vec<_> = harness
            .state()
            .2
            .iter()
            .filter_map(judged_under_archive)
            .collect();
        assert_eq!(asked, [true]);
    }

    #[test]
    fn an_archive_judged_under_the_profiles_own_settings_calls_nothing_unsaved() {
        let harness = archive_banner_of(true, true);
        harness.get_by_label(
            "Settings from the archive (profile “Strict”, captured 2026-12-01 15:37:24 UTC): \
             these are the verdicts it was saved with, and they are your profile “Mine” as \
             saved; nothing is fetched.",
        );
        assert!(harness.query_by_label_contains("unsaved").is_none());
        // Judging under "Mine" would change nothing on screen: no button.
        assert!(harness.query_by_label("Judge under “Mine”").is_none());
        // The one button left is the fold mark of a short window's banner.
        use egui_kittest::kittest::NodeT as _;
        for button in harness.query_all_by_role(egui::accesskit::Role::Button) {
            let label = button.accesskit_node().label().unwrap_or_default();
            assert!(
                [copy::BANNER_FOLDED, copy::BANNER_UNFOLDED].contains(&label.as_str()),
                "a button “{label}”"
            );
        }
    }

    #[test]
    fn the_profiles_settings_on_an_archive_that_has_them_too_still_offer_the_archives() {
        let mut harness = archive_banner_of(false, true);
        harness.get_by_label("Use the archive's settings").click();
        harness.run();
        let asked: Vec<_> = harness
            .state()
            .2
            .iter()
            .filter_map(judged_under_archive)
            .collect();
        assert_eq!(asked, [true]);
    }
}
