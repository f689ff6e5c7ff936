//! The one fonts setup of every kittest: the integration tests' window
//! harnesses use it from here, and the library's panel harness
//! (`src/ui/test_support.rs`) includes this same file by `#[path]`, so the
//! two can never draw with different fonts. It must compile in both crates:
//! it names nothing but `egui` and `egui_system_font_provider`.

use std::sync::Arc;

/// The system font fallback eframe's `system_fonts` gives the real window (the
/// harness has none), so symbols and CJK text are drawn as in the app.
pub fn with_system_fonts(ctx: &egui::Context) {
    ctx.add_font_provider(Arc::new(
        egui_system_font_provider::SystemFontProvider::new(),
    ));
}
