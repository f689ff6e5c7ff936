//! Per keyword of A's lists (and B's, below), on the labelled pages: the
//! targets it decided and the other links, white keywords (followed) told
//! apart from black ones (blacklisted).

use egui::Ui;
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
    let rows: Vec<&KeywordTruth> = keywords
        .iter()
        .filter(|k| k.targets + k.others > 0)
        .collect();
    if rows.is_empty() {
        return;
    }
    ui.label(heading);
    let dark = ui.visuals().dark_mode;
    // First keyword at the top.
    let last = rows.len().saturating_sub(1) as f64;
    let series = |list: ListName, target: bool| -> Vec<Bar> {
        rows.iter()
            .enumerate()
            .filter(|(_, k)| k.list == list)
            .map(|(i, k)| {
                let (value, shift) = if target {
                    (k.targets, 0.2)
                } else {
                    (k.others, -0.2)
                };
                Bar::new(last - i as f64 + shift, value as f64)
                    .width(0.38)
                    .name(&k.keyword)
            })
            .collect()
    };
    let labels: Vec<String> = rows
        .iter()
        .map(|k| copy::keyword_axis_label(k.list, &k.keyword))
        .collect();
    super::keywords::keyword_rows_plot(id, labels, 120.0).show(ui, |plot| {
        for (list, target, name) in [
            (ListName::White, true, copy::CHART_WHITE_TARGETS),
            (ListName::White, false, copy::CHART_WHITE_OTHERS),
            (ListName::Black, true, copy::CHART_BLACK_TARGETS),
            (ListName::Black, false, copy::CHART_BLACK_OTHERS),
        ] {
            let black = list == ListName::Black;
            plot.bar_chart(
                BarChart::new(name, series(list, target))
                    .color(palette::keyword_truth(black, target, dark))
                    .horizontal(),
            );
        }
    });
}
