//! Banners above the table: the last error in full with what to do about it,
//! and notices about the profiles file. Each stays until the user closes it.

use egui::Ui;

use crate::copy;
use crate::ui::command::Command;
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
            commands.push(Command::DismissError);
        }
    }
    for (i, notice) in profile_notices.iter().enumerate() {
        let message = copy::profile_notice_banner(&copy::profile_notice(notice));
        if widgets::banner(ui, fill, text, &message, Some(copy::LABEL_DISMISS)) {
            commands.push(Command::DismissProfileNotice(i));
        }
    }
    commands
}
