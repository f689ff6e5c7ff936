//! The panels: each draws from what the app gives it and returns the
//! commands a click asked for (see `ui/command.rs`). A panel imports no task
//! and no part of the app; its kittests sit beside it.

pub mod banners;
pub mod corpus;
pub mod detail;
pub mod dialog_fields;
pub mod dialogs;
pub mod profiles_bar;
pub mod results;
pub mod settings;
pub mod status_bar;
pub mod target_mark;
pub mod targets_dialog;
pub mod top_bar;
