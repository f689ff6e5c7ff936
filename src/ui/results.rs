//! The centre: verdict chips (click to hide), search, crawled pages and the
//! virtualized table of every candidate link.

use std::collections::BTreeSet;

use egui::{Key, Modifiers, RichText, Sense, Ui};
use egui_extras::{Column, TableBuilder};

use crate::copy;
use crate::inspect::Inspection;
use crate::policy::{LinkDecision, Verdict};
use crate::ui::app::Command;
use crate::ui::{palette, widgets};

#[derive(Default)]
pub struct ResultsState {
    pub hidden: BTreeSet<Verdict>,
    pub search: String,
    /// Rows shown, cached until the inspection, page, filter or search change.
    cache_key: Option<(u64, usize, BTreeSet<Verdict>, String)>,
    rows: Vec<usize>,
}

fn matches(link: &LinkDecision, needle: &str) -> bool {
    needle.is_empty()
        || link.text.to_lowercase().contains(needle)
        || link
            .url
            .as_ref()
            .map_or(link.href.to_lowercase().contains(needle), |u| {
                u.as_str().to_lowercase().contains(needle)
            })
}

impl ResultsState {
    fn rows(&mut self, inspection: &Inspection, generation: u64, page: usize) -> &[usize] {
        let key = (generation, page, self.hidden.clone(), self.search.clone());
        if self.cache_key.as_ref() != Some(&key) {
            let needle = self.search.trim().to_lowercase();
            self.rows = inspection
                .pages
                .get(page)
                .map(|p| {
                    p.decision
                        .links
                        .iter()
                        .filter(|l| !self.hidden.contains(&l.verdict) && matches(l, &needle))
                        .map(|l| l.index)
                        .collect()
                })
                .unwrap_or_default();
            self.cache_key = Some(key);
        }
        &self.rows
    }
}

fn verdict_chips(ui: &mut Ui, inspection: &Inspection, page: usize, state: &mut ResultsState) {
    let Some(p) = inspection.pages.get(page) else {
        return;
    };
    let dark = ui.visuals().dark_mode;
    ui.horizontal_wrapped(|ui| {
        for verdict in Verdict::ALL.iter().rev().copied() {
            let n = p.decision.count(verdict);
            let shown = !state.hidden.contains(&verdict);
            let color = palette::verdict(verdict, dark);
            let mut text =
                RichText::new(format!("{} {n}", copy::verdict_badge(verdict))).color(if shown {
                    color
                } else {
                    ui.visuals().weak_text_color()
                });
            if !shown {
                text = text.strikethrough();
            }
            let response = ui
                .add(
                    egui::Button::new(text)
                        .selected(shown)
                        .stroke(egui::Stroke::new(1.0, color)),
                )
                .on_hover_text(format!(
                    "{}\nClick to {} these links.",
                    copy::verdict_meaning(verdict),
                    if shown { "hide" } else { "show" }
                ));
            if response.clicked() {
                if shown {
                    state.hidden.insert(verdict);
                } else {
                    state.hidden.remove(&verdict);
                }
            }
        }
    });
}

fn pages_list(ui: &mut Ui, inspection: &Inspection, current: usize) -> Option<Command> {
    let mut command = None;
    egui::CollapsingHeader::new(format!("Crawled pages ({})", inspection.pages.len()))
        .default_open(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("pages")
                .max_height(120.0)
                .show(ui, |ui| {
                    for (i, page) in inspection.pages.iter().enumerate() {
                        let status = page
                            .status
                            .map_or_else(|| "—".to_owned(), |s| s.to_string());
                        let via = page
                            .via
                            .map(|v| format!("  via page {} link #{}", v.page, v.link))
                            .unwrap_or_default();
                        let error = page
                            .error
                            .as_deref()
                            .map(|e| format!("  ✖ {e}"))
                            .unwrap_or_default();
                        let label = format!(
                            "{i}: level {}  {status}  {}{via}{error}",
                            page.level, page.url
                        );
                        if ui.selectable_label(i == current, label).clicked() {
                            command = Some(Command::SelectPage(i));
                        }
                    }
                });
        });
    command
}

/// Draws the results; `selected` is the selected link on page `page`.
pub fn show(
    ui: &mut Ui,
    inspection: Option<&Inspection>,
    generation: u64,
    page: usize,
    selected: Option<usize>,
    state: &mut ResultsState,
) -> Vec<Command> {
    let mut commands = Vec::new();
    let Some(inspection) = inspection else {
        ui.centered_and_justified(|ui| {
            ui.label("Enter a URL or a saved page above, or open the demo page.");
        });
        return commands;
    };
    let Some(current) = inspection.pages.get(page) else {
        return commands;
    };

    ui.horizontal_wrapped(|ui| {
        let which = if inspection.pages.len() > 1 {
            format!("Page {page} of {}: ", inspection.pages.len())
        } else {
            "Page: ".to_owned()
        };
        ui.label(RichText::new(which).strong());
        ui.label(RichText::new(current.url.as_str()).strong());
        ui.label(format!(
            "— level {}, N = {}, {} links",
            current.level,
            current.decision.limit,
            current.decision.links.len()
        ));
        if inspection.cancelled {
            ui.label(RichText::new("(crawl cancelled: partial)").italics());
        }
    });
    if inspection.pages.len() > 1
        && let Some(c) = pages_list(ui, inspection, page)
    {
        commands.push(c);
    }
    if let Some(error) = &current.error {
        ui.colored_label(
            palette::error(ui.visuals().dark_mode),
            format!("This page failed: {error}"),
        );
    }
    verdict_chips(ui, inspection, page, state);

    let search = ui
        .horizontal(|ui| {
            let label = ui.label(copy::LABEL_SEARCH).id;
            ui.add(
                egui::TextEdit::singleline(&mut state.search)
                    .id_salt("search")
                    .hint_text(copy::LABEL_SEARCH_HINT)
                    .desired_width(300.0),
            )
            .labelled_by(label)
        })
        .inner;
    if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::F)) {
        search.request_focus();
    }

    let rows = state.rows(inspection, generation, page).to_vec();
    // Arrow keys move the selection when no text field has the keyboard.
    let typing = ui.ctx().memory(|m| m.focused().is_some());
    if !typing && !rows.is_empty() {
        let pos = selected.and_then(|s| rows.iter().position(|&r| r == s));
        let (down, up) = ui.input(|i| (i.key_pressed(Key::ArrowDown), i.key_pressed(Key::ArrowUp)));
        let next = match (down, up, pos) {
            (true, _, Some(p)) => Some(rows[(p + 1).min(rows.len() - 1)]),
            (true, _, None) => Some(rows[0]),
            (_, true, Some(p)) => Some(rows[p.saturating_sub(1)]),
            _ => None,
        };
        if let Some(n) = next {
            commands.push(Command::SelectLink(Some(n)));
        }
    }

    let links = &current.decision.links;
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let mut table = TableBuilder::new(ui)
        .id_salt("links")
        .striped(true)
        .sense(Sense::click())
        .resizable(true)
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        .column(Column::exact(34.0))
        .column(Column::initial(108.0).at_least(90.0))
        .column(Column::exact(40.0))
        .column(Column::exact(36.0))
        .column(Column::initial(210.0).at_least(120.0).clip(true))
        .column(Column::initial(120.0).at_least(60.0).clip(true))
        .column(Column::remainder().at_least(60.0).clip(true));
    if let Some(pos) = selected.and_then(|s| rows.iter().position(|&r| r == s))
        && commands.iter().any(|c| matches!(c, Command::SelectLink(_)))
    {
        table = table.scroll_to_row(pos, None);
    }
    table
        .header(row_height, |mut header| {
            for title in ["#", "Verdict", "Score", "Rank", "URL", "Text", "Keyword"] {
                header.col(|ui| {
                    ui.strong(title);
                });
            }
        })
        .body(|body| {
            body.rows(row_height, rows.len(), |mut row| {
                let Some(link) = links.get(rows[row.index()]) else {
                    return;
                };
                row.set_selected(selected == Some(link.index));
                row.col(|ui| {
                    ui.label(RichText::new(link.index.to_string()).weak());
                });
                row.col(|ui| {
                    widgets::badge(ui, link.verdict);
                });
                row.col(|ui| {
                    ui.label(link.score.map(|s| s.to_string()).unwrap_or_default());
                });
                row.col(|ui| {
                    let visited = if link.visited { "↺" } else { "" };
                    ui.label(format!(
                        "{}{visited}",
                        link.rank.map(|s| s.to_string()).unwrap_or_default()
                    ));
                });
                row.col(|ui| match &link.url {
                    Some(url) => {
                        ui.add(
                            egui::Label::new(widgets::url_job(ui, url))
                                .truncate()
                                .selectable(false),
                        );
                    }
                    None => {
                        ui.add(
                            egui::Label::new(RichText::new(&link.href).italics())
                                .truncate()
                                .selectable(false),
                        );
                    }
                });
                row.col(|ui| {
                    ui.add(egui::Label::new(&link.text).truncate().selectable(false));
                });
                row.col(|ui| {
                    let text = match (&link.keyword, &link.trace.black) {
                        (Some(hit), _) => {
                            RichText::new(format!("{} ({})", hit.keyword, hit.matched_in.as_str()))
                        }
                        // Not decided by a keyword, but it would be blacklisted too.
                        (None, Some(hit)) => {
                            RichText::new(format!("also ⊘ {}", hit.keyword)).weak()
                        }
                        (None, None) => return,
                    };
                    ui.add(egui::Label::new(text).truncate().selectable(false));
                });
                if row.response().clicked() {
                    commands.push(Command::SelectLink(Some(link.index)));
                }
            });
        });
    commands
}
