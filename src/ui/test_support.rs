//! What the panels' kittests share: a harness with the fonts the real window
//! has, and the bundled demo page as an inspection.

use egui_kittest::Harness;
use url::Url;

use crate::inspect::{Inspection, Limits};
use crate::policy::Settings;
use crate::ui::state::{DEMO_HTML, DEMO_URL};

// The fonts setup is the integration tests' own file, included here so the
// panels' kittests and the window's draw with the same fonts from one
// definition (the library cannot export it: its font provider is a
// dev-dependency).
#[path = "../../tests/integration/fonts.rs"]
mod fonts;
pub use fonts::with_system_fonts;

/// A harness of `size` drawing `panel` over `state`, with the window's fonts.
pub fn harness<'a, S>(
    size: egui::Vec2,
    panel: impl FnMut(&mut egui::Ui, &mut S) + 'a,
    state: S,
) -> Harness<'a, S> {
    Harness::builder()
        .with_size(size)
        .with_context_setup(with_system_fonts)
        .build_ui_state(panel, state)
}

/// The demo page under the default settings, as the window first shows it.
pub fn demo() -> Inspection {
    let url = Url::parse(DEMO_URL).unwrap();
    Inspection::saved_page(
        DEMO_HTML,
        Some(url),
        Limits::of_depth(2),
        Settings::default(),
    )
    .unwrap()
}
