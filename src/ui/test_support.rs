//! What the panels' kittests share: a harness with the fonts the real window
//! has, and the bundled demo page as an inspection.

use std::sync::Arc;

use egui_kittest::Harness;
use url::Url;

use crate::inspect::{Inspection, Limits};
use crate::policy::Settings;
use crate::ui::app::{DEMO_HTML, DEMO_URL};

/// The system font fallback eframe's `system_fonts` gives the real window (the
/// harness has none), so symbols and CJK text are drawn as in the app.
pub fn with_system_fonts(ctx: &egui::Context) {
    ctx.add_font_provider(Arc::new(
        egui_system_font_provider::SystemFontProvider::new(),
    ));
}

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
