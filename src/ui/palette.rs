//! Every colour the UI uses, for dark and light themes.

use egui::Color32;

use crate::policy::Verdict;

/// How loud a verdict is drawn: the four headline verdicts are strong, the rest quiet.
pub fn is_headline(verdict: Verdict) -> bool {
    matches!(
        verdict,
        Verdict::Followed | Verdict::Blacklisted | Verdict::OffDomain | Verdict::Asset
    )
}

/// The verdict's colour (badge fill, chip, row accent).
pub fn verdict(verdict: Verdict, dark: bool) -> Color32 {
    match (verdict, dark) {
        (Verdict::Followed, true) => Color32::from_rgb(72, 187, 120),
        (Verdict::Followed, false) => Color32::from_rgb(20, 120, 55),
        (Verdict::Blacklisted, true) => Color32::from_rgb(236, 95, 95),
        (Verdict::Blacklisted, false) => Color32::from_rgb(190, 40, 40),
        (Verdict::OffDomain, true) => Color32::from_rgb(100, 160, 240),
        (Verdict::OffDomain, false) => Color32::from_rgb(30, 100, 200),
        (Verdict::Asset, true) => Color32::from_rgb(214, 160, 60),
        (Verdict::Asset, false) => Color32::from_rgb(140, 90, 0),
        (Verdict::RankedOut, true) => Color32::from_rgb(150, 200, 160),
        (Verdict::RankedOut, false) => Color32::from_rgb(60, 115, 75),
        (Verdict::NoKeyword, true) => Color32::from_rgb(165, 165, 175),
        (Verdict::NoKeyword, false) => Color32::from_rgb(105, 105, 115),
        // Quiet verdicts (duplicate, self, not http, invalid): grey, but still
        // readable (WCAG AA) as text on the panel and on striped rows.
        (_, true) => Color32::from_rgb(150, 150, 158),
        (_, false) => Color32::from_rgb(95, 95, 105),
    }
}

/// The fill of a verdict chip above the table: the panel's own colour, so the
/// chip's text contrast does not depend on its state.
pub fn chip_fill(dark: bool) -> Color32 {
    panel(dark)
}

/// The panel background of each theme (egui's defaults, which the app keeps).
pub fn panel(dark: bool) -> Color32 {
    if dark {
        egui::Visuals::dark().panel_fill
    } else {
        egui::Visuals::light().panel_fill
    }
}

/// Text of a chip whose verdict is hidden.
pub fn hidden_chip_text(dark: bool) -> Color32 {
    if dark {
        Color32::from_gray(140)
    } else {
        Color32::from_gray(100)
    }
}

/// A banner that reports an error: its fill, with text in [`error_text`].
pub fn error_banner(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(60, 24, 24)
    } else {
        Color32::from_rgb(253, 232, 232)
    }
}

/// Text on an error banner.
pub fn error_text(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(255, 190, 190)
    } else {
        Color32::from_rgb(140, 20, 20)
    }
}

/// A banner that says the shown result is out of date.
pub fn stale_banner(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(58, 48, 18)
    } else {
        Color32::from_rgb(255, 243, 205)
    }
}

/// Text on a stale banner.
pub fn stale_text(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(250, 220, 150)
    } else {
        Color32::from_rgb(100, 65, 0)
    }
}

/// Text drawn on a filled verdict badge.
/// Light fills in the dark theme take dark text; deep fills in the light theme white.
pub fn on_badge(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(16, 16, 20)
    } else {
        Color32::WHITE
    }
}

/// A rule that passed / failed in the trace.
pub fn pass(dark: bool) -> Color32 {
    verdict(Verdict::Followed, dark)
}

pub fn fail(dark: bool) -> Color32 {
    verdict(Verdict::Blacklisted, dark)
}

/// Background of a highlighted keyword inside a URL or text.
pub fn keyword_highlight(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(110, 90, 20)
    } else {
        Color32::from_rgb(255, 230, 140)
    }
}

/// Rendered mode: links a script added (the chip and the row marker).
pub fn added_by_script(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(120, 200, 255)
    } else {
        Color32::from_rgb(0, 90, 160)
    }
}

/// A link the targets file names (its chip and its kind in the table).
pub fn target(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(230, 140, 230)
    } else {
        Color32::from_rgb(140, 30, 140)
    }
}

/// What changes under the compared profile (Compare with…).
pub fn changed(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(255, 170, 90)
    } else {
        Color32::from_rgb(170, 80, 0)
    }
}

/// Side A and side B in the corpus chart.
pub fn side_a(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(110, 170, 255)
    } else {
        Color32::from_rgb(40, 90, 190)
    }
}

pub fn side_b(dark: bool) -> Color32 {
    changed(dark)
}

/// Lint warnings.
pub fn warning(dark: bool) -> Color32 {
    verdict(Verdict::Asset, dark)
}

pub fn error(dark: bool) -> Color32 {
    fail(dark)
}

/// A keyword chip's fill in the settings panel.
pub fn white_chip(dark: bool) -> Color32 {
    verdict(Verdict::Followed, dark).gamma_multiply(0.35)
}

pub fn black_chip(dark: bool) -> Color32 {
    verdict(Verdict::Blacklisted, dark).gamma_multiply(0.35)
}

/// Host part of a URL, emphasised in the table.
pub fn host(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(235, 235, 240)
    } else {
        Color32::from_rgb(10, 10, 15)
    }
}

/// The corpus charts of targets per keyword: targets in the followed
/// colour (white keywords) or the blacklisted one (black keywords); the
/// other links in a neutral grey, so the two never differ by shade alone.
pub fn keyword_truth(black: bool, target: bool, dark: bool) -> Color32 {
    if !target {
        return other_links(dark);
    }
    verdict(
        if black {
            Verdict::Blacklisted
        } else {
            Verdict::Followed
        },
        dark,
    )
}

/// The other links' bars: light enough on the dark theme's near-black plot.
fn other_links(dark: bool) -> Color32 {
    if dark {
        Color32::from_gray(170)
    } else {
        Color32::from_gray(120)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG 2 relative luminance of an sRGB colour.
    fn luminance(c: Color32) -> f64 {
        let channel = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(c.r()) + 0.7152 * channel(c.g()) + 0.0722 * channel(c.b())
    }

    fn contrast(a: Color32, b: Color32) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    /// What a table row is drawn on: the panel, and the panel with egui's stripe.
    fn row_backgrounds(dark: bool) -> [Color32; 2] {
        let visuals = if dark {
            egui::Visuals::dark()
        } else {
            egui::Visuals::light()
        };
        let panel = visuals.panel_fill;
        let stripe = visuals.faint_bg_color;
        let striped = Color32::from_rgb(
            panel.r().saturating_add(stripe.r()),
            panel.g().saturating_add(stripe.g()),
            panel.b().saturating_add(stripe.b()),
        );
        [panel, striped]
    }

    const AA: f64 = 4.5;

    #[test]
    fn the_keyword_charts_bars_stand_out_from_the_plot_and_each_other() {
        for dark in [true, false] {
            let [panel, _] = row_backgrounds(dark);
            for black in [false, true] {
                let target = keyword_truth(black, true, dark);
                let other = keyword_truth(black, false, dark);
                assert_ne!(target, other);
                for bar in [target, other] {
                    let c = contrast(bar, panel);
                    assert!(c >= 3.0, "bar {bar:?}, dark={dark}: {c:.2}:1");
                }
            }
        }
    }

    #[test]
    fn contrast_of_known_pairs() {
        assert!((contrast(Color32::BLACK, Color32::WHITE) - 21.0).abs() < 0.01);
        assert!((contrast(Color32::WHITE, Color32::WHITE) - 1.0).abs() < 0.01);
    }

    #[test]
    fn every_chip_and_badge_reaches_wcag_aa_in_both_themes() {
        for dark in [true, false] {
            for v in Verdict::ALL {
                let color = verdict(v, dark);
                // Chips: verdict-coloured text on the chip fill, or the hidden grey.
                for text in [color, hidden_chip_text(dark)] {
                    let c = contrast(text, chip_fill(dark));
                    assert!(c >= AA, "{v:?} chip, dark={dark}: {c:.2}:1");
                }
                // Badges: headline ones are filled with the verdict colour, the
                // rest are verdict-coloured text on the row.
                if is_headline(v) {
                    let c = contrast(on_badge(dark), color);
                    assert!(c >= AA, "{v:?} badge, dark={dark}: {c:.2}:1");
                } else {
                    for bg in row_backgrounds(dark) {
                        let c = contrast(color, bg);
                        assert!(c >= AA, "{v:?} badge on {bg:?}, dark={dark}: {c:.2}:1");
                    }
                }
            }
            for bg in row_backgrounds(dark) {
                let c = contrast(added_by_script(dark), bg);
                assert!(c >= AA, "added-by-script marker, dark={dark}: {c:.2}:1");
            }
            for (name, text, fill) in [
                ("error banner", error_text(dark), error_banner(dark)),
                ("stale banner", stale_text(dark), stale_banner(dark)),
                (
                    "added-by-script chip",
                    added_by_script(dark),
                    chip_fill(dark),
                ),
            ] {
                let c = contrast(text, fill);
                assert!(c >= AA, "{name}, dark={dark}: {c:.2}:1");
            }
        }
    }
}
