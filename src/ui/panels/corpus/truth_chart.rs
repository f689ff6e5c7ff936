//! Per keyword of A's lists (and B's, below), on the labelled pages: the
//! targets it decided and the other links. White keywords (followed) and
//! black ones (blacklisted) in two charts, each to its own scale, so a few
//! targets of a white keyword are not dwarfed by a busy black one; the
//! legend sits above each chart, never over its bars.

use egui::{RichText, Ui};
use egui_plot::{Bar, BarChart};

use crate::copy;
use crate::corpus::truth::{Evaluation, KeywordTruth};
use crate::policy::compare::ListName;
use crate::ui::palette;

pub fn show(ui: &mut Ui, evaluation: &Evaluation) {
    side(
        ui,
        "keyword_truth_chart",
        copy::KEYWORD_TRUTH_HEADING,
        &evaluation.keywords_a,
    );
    if let Some(keywords) = &evaluation.keywords_b {
        side(
            ui,
            "keyword_truth_chart_b",
            copy::KEYWORD_TRUTH_HEADING_B,
            keywords,
        );
    }
}

fn side(ui: &mut Ui, id: &str, heading: &str, keywords: &[KeywordTruth]) {
    if keywords.iter().all(|k| k.targets + k.others == 0) {
        return;
    }
    ui.label(heading);
    for (list, names) in [
        (
            ListName::White,
            [copy::CHART_WHITE_TARGETS, copy::CHART_WHITE_OTHERS],
        ),
        (
            ListName::Black,
            [copy::CHART_BLACK_TARGETS, copy::CHART_BLACK_OTHERS],
        ),
    ] {
        let rows: Vec<&KeywordTruth> = keywords
            .iter()
            .filter(|k| k.list == list && k.targets + k.others > 0)
            .collect();
        if !rows.is_empty() {
            one_list(ui, (id, list), &rows, names);
        }
    }
}

/// One list's keywords: a row each, its targets above its other links.
fn one_list(ui: &mut Ui, (id, list): (&str, ListName), rows: &[&KeywordTruth], names: [&str; 2]) {
    let dark = ui.visuals().dark_mode;
    let black = list == ListName::Black;
    let colors = [true, false].map(|target| palette::keyword_truth(black, target, dark));
    ui.horizontal_wrapped(|ui| {
        for (name, color) in names.iter().zip(colors) {
            ui.label(RichText::new(copy::LEGEND_SWATCH).color(color));
            ui.label(*name);
        }
    });
    // First keyword at the top.
    let last = rows.len().saturating_sub(1) as f64;
    // Filled bars: egui_plot's default fill is too faint on the dark theme.
    let series = |target: bool, color: egui::Color32| -> Vec<Bar> {
        rows.iter()
            .enumerate()
            .map(|(i, k)| {
                let (value, shift) = if target {
                    (k.targets, 0.2)
                } else {
                    (k.others, -0.2)
                };
                Bar::new(last - i as f64 + shift, value as f64)
                    .width(0.38)
                    .fill(color)
                    .stroke(egui::Stroke::new(1.0, color))
                    .name(&k.keyword)
            })
            .collect()
    };
    let labels: Vec<String> = rows
        .iter()
        .map(|k| copy::keyword_axis_label(k.list, &k.keyword))
        .collect();
    let plot_id = format!("{id}_{}", if black { "black" } else { "white" });
    super::keywords::keyword_rows_plot(&plot_id, labels, 90.0).show(ui, |plot| {
        for ((target, name), color) in [true, false].into_iter().zip(names).zip(colors) {
            plot.bar_chart(
                BarChart::new(name, series(target, color))
                    .color(color)
                    .horizontal(),
            );
        }
    });
}
