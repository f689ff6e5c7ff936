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
        (Verdict::Followed, false) => Color32::from_rgb(22, 130, 60),
        (Verdict::Blacklisted, true) => Color32::from_rgb(236, 95, 95),
        (Verdict::Blacklisted, false) => Color32::from_rgb(190, 40, 40),
        (Verdict::OffDomain, true) => Color32::from_rgb(100, 160, 240),
        (Verdict::OffDomain, false) => Color32::from_rgb(30, 100, 200),
        (Verdict::Asset, true) => Color32::from_rgb(214, 160, 60),
        (Verdict::Asset, false) => Color32::from_rgb(160, 105, 0),
        (Verdict::RankedOut, true) => Color32::from_rgb(150, 200, 160),
        (Verdict::RankedOut, false) => Color32::from_rgb(80, 135, 95),
        (Verdict::NoKeyword, true) => Color32::from_rgb(165, 165, 175),
        (Verdict::NoKeyword, false) => Color32::from_rgb(105, 105, 115),
        (_, true) => Color32::from_rgb(120, 120, 128),
        (_, false) => Color32::from_rgb(150, 150, 158),
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
