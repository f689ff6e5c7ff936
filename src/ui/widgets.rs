//! Small drawing helpers shared by the panels.

use std::ops::Range;

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, FontId, RichText, Ui};

use crate::copy;
use crate::policy::Verdict;
use crate::ui::palette;

/// A verdict badge: colour plus words, so it reads without colour vision.
pub fn badge(ui: &mut Ui, verdict: Verdict) -> egui::Response {
    badge_with(ui, verdict, copy::verdict_badge(verdict))
}

fn badge_with(ui: &mut Ui, verdict: Verdict, text: &str) -> egui::Response {
    let dark = ui.visuals().dark_mode;
    let fill = palette::verdict(verdict, dark);
    let (fill, color) = if palette::is_headline(verdict) {
        (fill, palette::on_badge(dark))
    } else {
        (Color32::TRANSPARENT, fill)
    };
    egui::Frame::new()
        .fill(fill)
        .stroke(egui::Stroke::new(1.0, palette::verdict(verdict, dark)))
        .corner_radius(4.0)
        .inner_margin(egui::Margin::symmetric(4, 0))
        .show(ui, |ui| {
            // A chip never wraps inside itself (one letter a line in a narrow column).
            ui.add(
                egui::Label::new(RichText::new(text).color(color).small())
                    .wrap_mode(egui::TextWrapMode::Extend),
            );
        })
        .response
        .on_hover_text(format!(
            "{}: {}",
            copy::verdict_badge(verdict),
            copy::verdict_meaning(verdict)
        ))
}

/// `text` with the byte range `span` highlighted (a keyword match).
pub fn highlighted(ui: &Ui, text: &str, span: Option<Range<usize>>) -> LayoutJob {
    let font = FontId::proportional(ui.text_style_height(&egui::TextStyle::Body) - 1.0);
    let normal = TextFormat::simple(font.clone(), ui.visuals().text_color());
    let mut job = LayoutJob::default();
    match span.filter(|s| {
        s.end <= text.len() && text.is_char_boundary(s.start) && text.is_char_boundary(s.end)
    }) {
        Some(s) => {
            job.append(&text[..s.start], 0.0, normal.clone());
            job.append(
                &text[s.clone()],
                0.0,
                TextFormat {
                    background: palette::keyword_highlight(ui.visuals().dark_mode),
                    ..normal.clone()
                },
            );
            job.append(&text[s.end..], 0.0, normal);
        }
        None => job.append(text, 0.0, normal),
    }
    job
}

/// Small explanatory text that wraps.
pub fn note(ui: &mut Ui, text: &str) {
    ui.add(egui::Label::new(RichText::new(text).small()).wrap());
}

/// Below this much room left in the panel, a banner folds to one line
/// (▸, its text cut, its button kept): at 800×600 a reopened archive's
/// crawl, with its two banners of two lines each, the archive line, the tree
/// and three rows of chips, kept one whole row of the links table (ui_walk).
/// At 1280×800 a banner has about 730 px under it and stays whole.
const BANNER_FOLD_BELOW: f32 = 560.0;

/// A banner across the centre: `text` on `fill`, with an optional button.
/// In a short panel it folds to one line, unfolded by a click on its ▸ (the
/// choice is kept, per message, for the session).
pub fn banner(
    ui: &mut Ui,
    fill: egui::Color32,
    text_color: egui::Color32,
    text: &str,
    button: Option<&str>,
) -> bool {
    let mut clicked = false;
    let short = ui.available_height() < BANNER_FOLD_BELOW;
    let unfolded_id = ui.scope_id().with(("banner_unfolded", text));
    let unfolded = ui
        .data(|d| d.get_temp::<bool>(unfolded_id))
        .unwrap_or(false);
    egui::Frame::new()
        .fill(fill)
        .corner_radius(4.0)
        .inner_margin(egui::Margin::symmetric(8, 4))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            let label = egui::Label::new(RichText::new(text).color(text_color));
            if !short {
                ui.horizontal_wrapped(|ui| {
                    ui.add(label.wrap());
                    if let Some(label) = button {
                        clicked = ui.button(label).clicked();
                    }
                });
                return;
            }
            let (mark, tooltip) = if unfolded {
                (copy::BANNER_UNFOLDED, copy::BANNER_FOLD_TOOLTIP)
            } else {
                (copy::BANNER_FOLDED, copy::BANNER_UNFOLD_TOOLTIP)
            };
            let fold = |ui: &mut Ui| {
                let toggle = ui
                    .add(
                        egui::Button::new(RichText::new(mark).color(text_color))
                            .frame(false)
                            // The mark alone is 6 px wide: a target a finger finds.
                            .min_size(egui::vec2(18.0, 0.0)),
                    )
                    .on_hover_text(tooltip);
                if toggle.clicked() {
                    ui.data_mut(|d| d.insert_temp(unfolded_id, !unfolded));
                }
            };
            if unfolded {
                ui.horizontal_wrapped(|ui| {
                    fold(ui);
                    ui.add(label.wrap());
                    if let Some(label) = button {
                        clicked = ui.button(label).clicked();
                    }
                });
                return;
            }
            // One line: the mark, then the button at the right end, and the
            // text cut to what is left between them (whole on hover).
            ui.horizontal(|ui| {
                fold(ui);
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if let Some(label) = button {
                        clicked = ui.button(label).clicked();
                    }
                    ui.add(label.truncate());
                });
            });
        });
    clicked
}

/// A label and the one-line text field it names (screen readers and UI tests
/// find the field by the label's text).
pub fn labelled_field(
    ui: &mut Ui,
    label: &str,
    value: &mut String,
    id_salt: &str,
    hint: &str,
    width: f32,
) -> egui::Response {
    let label = ui.label(label).id;
    ui.add(
        egui::TextEdit::singleline(value)
            .id_salt(id_salt)
            .hint_text(hint)
            .desired_width(width),
    )
    .labelled_by(label)
}
