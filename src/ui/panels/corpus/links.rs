//! The followed links gained and lost from A to B across the corpus, in one
//! table: sortable by its headers, narrowed by text, to targets, or by the
//! filter; a click opens the link's page in the inspector.

use egui::{RichText, Sense, Ui};
use egui_extras::{Column, TableBuilder};

use super::filter::{LinkRow, followed_on_one_side, link_rows};
use super::pages::open_page;
use super::sort;
use super::state::{CorpusState, LinkColumn};
use crate::copy;
use crate::corpus::CorpusRun;
use crate::ui::command::Command;
use crate::ui::widgets;

const COLUMNS: [LinkColumn; 6] = [
    LinkColumn::Page,
    LinkColumn::Url,
    LinkColumn::Text,
    LinkColumn::Target,
    LinkColumn::Change,
    LinkColumn::Because,
];

fn cells(row: &LinkRow<'_>) -> [String; 6] {
    let target = match row.target {
        Some(true) => copy::TARGET_MARK,
        _ => "",
    };
    let change = if row.gained {
        copy::LINK_GAINED
    } else {
        copy::LINK_LOST
    };
    [
        row.page.id.clone(),
        row.change.url.clone().unwrap_or_default(),
        row.change.text.clone(),
        target.to_owned(),
        change.to_owned(),
        copy::because(&row.change.because),
    ]
}

fn sort_rows(rows: &mut [LinkRow<'_>], state: &CorpusState) {
    let sort = state.link_sort;
    rows.sort_by(|x, y| {
        let order = match sort.column {
            // Corpus order, then the page's link order.
            LinkColumn::Page => std::cmp::Ordering::Equal,
            LinkColumn::Url => x.change.url.cmp(&y.change.url),
            LinkColumn::Text => x.change.text.cmp(&y.change.text),
            LinkColumn::Target => y.target.cmp(&x.target),
            LinkColumn::Change => y.gained.cmp(&x.gained),
            LinkColumn::Because => x.change.because.cmp(&y.change.because),
        };
        sort.apply(order)
    });
}

/// The text filter and the "only targets" toggle.
fn narrowing(ui: &mut Ui, state: &mut CorpusState, truth: bool) {
    ui.horizontal(|ui| {
        widgets::labelled_field(
            ui,
            copy::LABEL_LINK_FILTER,
            &mut state.link_text,
            "corpus_link_filter",
            copy::LINK_FILTER_HINT,
            240.0,
        );
        if truth {
            ui.checkbox(&mut state.only_targets, copy::LABEL_ONLY_TARGETS);
        }
    });
}

pub fn show(ui: &mut Ui, run: &CorpusRun, state: &mut CorpusState) -> Option<Command> {
    let truth = run.evaluation.is_some();
    narrowing(ui, state, truth);
    let all: usize = run
        .pages
        .iter()
        .flat_map(|p| &p.changes)
        .filter(|c| followed_on_one_side(c))
        .count();
    let mut rows = link_rows(
        run,
        state.filter.as_ref(),
        &state.link_text,
        state.only_targets && truth,
    );
    // Stable: within a column's ties, corpus and link order.
    sort_rows(&mut rows, state);
    ui.label(RichText::new(copy::links_shown(rows.len(), all)).weak());
    if rows.is_empty() {
        ui.label(RichText::new(copy::NO_LINKS_SHOWN).weak());
        return None;
    }
    let mut command = None;
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let shown_rows = super::capped::rows(ui, rows.len());
    let sort = &mut state.link_sort;
    TableBuilder::new(ui)
        .id_salt("corpus_changed_links")
        .striped(true)
        .sense(Sense::click())
        .vscroll(false)
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        .column(Column::auto().at_least(48.0))
        .column(Column::initial(300.0).at_least(80.0).clip(true))
        .column(Column::initial(160.0).at_least(60.0).clip(true))
        .column(Column::auto().at_least(60.0))
        .column(Column::auto().at_least(80.0))
        .column(Column::remainder().at_least(120.0).clip(true))
        .header(row_height, |mut header| {
            for (title, column) in copy::LINK_COLUMNS.iter().zip(COLUMNS) {
                header.col(|ui| sort::header(ui, title, column, sort));
            }
        })
        .body(|body| {
            body.rows(row_height, shown_rows, |mut row| {
                let Some(shown) = rows.get(row.index()) else {
                    return;
                };
                for cell in cells(shown) {
                    row.col(|ui| {
                        ui.add(egui::Label::new(cell).truncate().selectable(false));
                    });
                }
                let response = row.response().on_hover_text(copy::OPEN_CORPUS_PAGE);
                command = command
                    .take()
                    .or_else(|| open_page(&response, shown.page, Some(shown.change.index)));
            });
        });
    command
}
