//! The desktop inspector (eframe/egui): a thin front end over the policy.
//!
//! The house, as rerun's viewer is laid out:
//! - `panels/`: one file (or folder) per panel. A panel draws from what it is
//!   given and returns the commands a click asked for; its kittests sit beside it.
//! - `tasks/`: the work that runs off the frame (loading, corpus runs, profiles,
//!   targets, saving, file dialogs), each on a named thread behind a channel.
//! - `app/`: the window's state, grouped by subject (`app/subjects/`), and
//!   the carrying out of the commands and of what the tasks report, by
//!   subject. Only `app/` imports both panels and tasks.
//! - `command.rs`, `state.rs`: what panels and the app share; `palette.rs`
//!   (colours) and `widgets.rs` (small drawing helpers) serve every panel.

pub mod app;
pub mod command;
mod palette;
mod panels;
pub mod state;
mod tasks;
#[cfg(test)]
mod test_support;
mod widgets;

use std::process::ExitCode;

pub use app::InspectorApp;

/// When set, the window reports on stderr how long its first frame and the
/// loading of its start page took, then closes.
pub const MEASURE_ENV: &str = "FOLLOW_INSPECTOR_MEASURE_STARTUP";
pub use command::Command;

/// Opens the window (see [`run`]); when it cannot open, says why on stderr
/// and exits 2.
pub fn open(start: Option<String>, config_dir: Option<std::path::PathBuf>) -> ExitCode {
    match run(start, config_dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // Whatever the error carries is shown escaped, as the CLI's
            // lines are (report::escape).
            let text = crate::copy::error_text(err.as_ref());
            eprintln!("error: {}", crate::report::escape(&text, false));
            ExitCode::from(2)
        }
    }
}

/// Opens the window; `start` is a URL or saved file to load at once; profiles
/// live in `config_dir` (default: the user's configuration directory).
pub fn run(start: Option<String>, config_dir: Option<std::path::PathBuf>) -> anyhow::Result<()> {
    // `scripts/measure-window` times start-up and reads peak memory this way.
    let measure = std::env::var_os(MEASURE_ENV).map(|_| std::time::Instant::now());
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(crate::copy::APP_TITLE)
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 480.0])
            .with_drag_and_drop(true),
        persist_window: true,
        ..Default::default()
    };
    eframe::run_native(
        crate::copy::APP_TITLE,
        options,
        Box::new(move |cc| {
            let app = InspectorApp::new(cc, start, config_dir);
            Ok(Box::new(match measure {
                Some(started) => app.measuring_startup(started),
                None => app,
            }))
        }),
    )
    .map_err(|e| anyhow::anyhow!(crate::copy::cannot_open_window(&e)))
}
