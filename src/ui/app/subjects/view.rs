//! What the window shows around the pages; changed by `app/view.rs`.

use crate::ui::panels::results::ResultsState;
use crate::ui::state::MainView;

/// What the window shows around the pages: the main view, the side panels,
/// the table's own state.
pub struct ViewState {
    pub main: MainView,
    pub show_settings: bool,
    pub show_detail: bool,
    /// The warnings button was clicked: scroll the settings panel to them.
    pub scroll_to_warnings: bool,
    pub results: ResultsState,
    /// Unsaved changes were discarded for quitting: let the window close.
    pub allow_close: bool,
}

impl ViewState {
    pub fn new() -> Self {
        Self {
            main: MainView::Inspector,
            show_settings: true,
            show_detail: true,
            scroll_to_warnings: false,
            results: ResultsState::default(),
            allow_close: false,
        }
    }
}
