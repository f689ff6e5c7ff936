//! The keyword table (A's keywords, then those only B has) and the chart of
//! pages decided per keyword for A and B.

use egui::{RichText, Ui};
use egui_plot::{AxisHints, Bar, BarChart, Legend, Plot};

use crate::copy;
use crate::corpus::{CorpusRun, KeywordStats};
use crate::policy::compare::ListName;
use crate::ui::palette;

pub fn grid(ui: &mut Ui, run: &CorpusRun) {
    let b_pages = |k: &KeywordStats| {
        run.keywords_b.as_ref().and_then(|stats| {
            stats
                .iter()
                .find(|s| s.list == k.list && s.keyword == k.keyword)
                .map(|s| s.pages)
        })
    };
    egui::Grid::new("corpus_keywords")
        .striped(true)
        .num_columns(8)
        .show(ui, |ui| {
            for title in copy::KEYWORD_TABLE_HEADERS {
                ui.label(RichText::new(title).strong());
            }
            ui.end_row();
            for k in &run.keywords_a {
                ui.label(&k.keyword);
                ui.label(k.list.id());
                ui.label(k.pages.to_string());
                ui.label(k.used.links.to_string());
                ui.label(k.used.in_url.to_string());
                ui.label(k.used.in_text.to_string());
                ui.label(k.used.inside_word.to_string());
                ui.label(b_pages(k).map_or_else(|| "—".to_owned(), |n| n.to_string()));
                ui.end_row();
            }
            // B's keywords A does not have: how B used them.
            for k in only_b(run) {
                ui.label(&k.keyword);
                ui.label(format!("{} · {}", k.list.id(), copy::KEYWORD_ONLY_B));
                ui.label("—");
                ui.label("—");
                ui.label(k.used.in_url.to_string());
                ui.label(k.used.in_text.to_string());
                ui.label(k.used.inside_word.to_string());
                ui.label(k.pages.to_string());
                ui.end_row();
            }
        });
}

/// The keywords of B's lists that A's lists do not have.
fn only_b(run: &CorpusRun) -> impl Iterator<Item = &KeywordStats> {
    run.keywords_b.iter().flatten().filter(|b| {
        !run.keywords_a
            .iter()
            .any(|a| a.list == b.list && a.keyword == b.keyword)
    })
}

/// A chart of one horizontal row of bars per keyword, `labels` down the
/// side, the first at the top; it does not zoom or drag.
pub(super) fn keyword_rows_plot(id: &str, labels: Vec<String>, min_height: f32) -> Plot<'static> {
    let last = labels.len().saturating_sub(1) as f64;
    let height = (labels.len() as f32 * 24.0 + 50.0).clamp(min_height, 800.0);
    let axis = AxisHints::new_y()
        .min_thickness(90.0)
        // Rows are 24 points apart: every keyword gets its label.
        .label_spacing(12.0..=16.0)
        .formatter(move |mark, _| {
            let i = (last - mark.value).round();
            if (last - mark.value - i).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            labels.get(i as usize).cloned().unwrap_or_default()
        });
    Plot::new(id)
        .height(height)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_drag(false)
        .include_x(0.0)
        .custom_y_axes(vec![axis])
        .y_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
}

/// Pages decided per keyword, A and B side by side. Keywords are A's, then
/// any only B has.
pub fn chart(ui: &mut Ui, run: &CorpusRun) {
    let dark = ui.visuals().dark_mode;
    let mut names: Vec<(ListName, String)> = run
        .keywords_a
        .iter()
        .map(|k| (k.list, k.keyword.clone()))
        .collect();
    for k in run.keywords_b.iter().flatten() {
        if !names.contains(&(k.list, k.keyword.clone())) {
            names.push((k.list, k.keyword.clone()));
        }
    }
    let pages = |stats: &[KeywordStats], name: &(ListName, String)| {
        stats
            .iter()
            .find(|k| k.list == name.0 && k.keyword == name.1)
            .map_or(0.0, |k| k.pages as f64)
    };
    let offset = if run.b.is_some() { 0.2 } else { 0.0 };
    let bars = |stats: &[KeywordStats], shift: f64| -> Vec<Bar> {
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                Bar::new(i as f64 + shift, pages(stats, name))
                    .width(0.38)
                    .name(&name.1)
            })
            .collect()
    };
    // Keywords down the side, first at the top: every name has room.
    let last = names.len().saturating_sub(1) as f64;
    let flip = |bars: Vec<Bar>| -> Vec<Bar> {
        bars.into_iter()
            .map(|b| {
                Bar::new(last - b.argument, b.value)
                    .width(0.38)
                    .name(&b.name)
            })
            .collect()
    };
    let labels: Vec<String> = names.iter().map(|(_, k)| k.clone()).collect();
    let plot = keyword_rows_plot("keyword_chart", labels, 160.0).legend(Legend::default());
    plot.show(ui, |plot| {
        plot.bar_chart(
            BarChart::new(copy::CHART_SIDE_A, flip(bars(&run.keywords_a, offset)))
                .color(palette::side_a(dark))
                .horizontal(),
        );
        if let Some(stats) = &run.keywords_b {
            plot.bar_chart(
                BarChart::new(copy::CHART_SIDE_B, flip(bars(stats, -offset)))
                    .color(palette::side_b(dark))
                    .horizontal(),
            );
        }
    });
}
