//! The centre: page header, crawled pages, verdict chips (click to hide,
//! double-click or right-click for "only this"), search, and the virtualized,
//! sortable table of every candidate link with keyboard navigation.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use egui::{Event, Key, Modifiers, RichText, Sense, Ui};
use egui_extras::{Column, TableBuilder};

use crate::copy;
use crate::inspect::LinkSource;
use crate::inspect::{InspectedPage, Inspection};
use crate::policy::compare::LinkChange;
use crate::policy::{LinkDecision, PageDecision, Region, Verdict};
use crate::ui::command::Command;
use crate::ui::state::CopyWhat;
use crate::ui::{palette, widgets};

/// A column the table can be sorted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortColumn {
    Index,
    Verdict,
    Score,
    Rank,
    Url,
    Text,
    Keyword,
    Region,
    /// The compared profile's verdict.
    Compared,
}

/// How the rows are ordered: document order, or by a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sort {
    pub column: SortColumn,
    pub descending: bool,
}

/// What the shown rows depend on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RowsKey {
    generation: u64,
    page: usize,
    hidden: BTreeSet<Verdict>,
    search: String,
    sort: Option<Sort>,
    only_added_by_script: bool,
    only_changed: bool,
    region: Option<Region>,
    compared: Option<u64>,
}

#[derive(Default)]
pub struct ResultsState {
    pub hidden: BTreeSet<Verdict>,
    pub search: String,
    pub sort: Option<Sort>,
    /// Rendered mode: show only the links scripts added.
    pub only_added_by_script: bool,
    /// Comparing: show only the links that change under the other profile.
    pub only_changed: bool,
    /// Show only the links in this part of the page.
    pub region: Option<Region>,
    /// Rows shown, cached until the inspection, page, filter, search or sort change.
    cache_key: Option<RowsKey>,
    rows: Vec<usize>,
    /// The (load, page) drawn last: a new page opens scrolled to the top.
    shown: Option<(u64, usize)>,
}

/// What the results show besides their own state.
pub struct ResultsView<'a> {
    pub inspection: Option<&'a Inspection>,
    /// Bumped on every change of the inspection (re-classification included).
    pub generation: u64,
    /// Bumped when a new inspection arrives.
    pub loaded: u64,
    pub page: usize,
    pub selected: Option<usize>,
    /// The last load failed and this is what was shown before it.
    pub previous_result: bool,
    /// The crawl was made with other settings or another depth.
    pub stale_crawl: bool,
    /// The inspection is a saved file (its page URL may be a typed base URL).
    pub saved_file: bool,
    /// The keyboard belongs to the table (no dialog is open).
    pub keyboard: bool,
    /// The shown page decided under the compared profile.
    pub comparison: Option<PageCompare<'a>>,
}

/// The shown page under a second profile (Compare with…).
#[derive(Clone, Copy)]
pub struct PageCompare<'a> {
    pub name: &'a str,
    pub decision: &'a PageDecision,
    /// The links that change, in document order.
    pub changes: &'a [LinkChange],
    /// Bumped whenever the comparison is computed again.
    pub generation: u64,
}

impl<'a> PageCompare<'a> {
    fn change(self, index: usize) -> Option<&'a LinkChange> {
        self.changes
            .binary_search_by_key(&index, |c| c.index)
            .ok()
            .and_then(|i| self.changes.get(i))
    }
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

/// Followed first, as the chips read.
fn verdict_order(v: Verdict) -> usize {
    Verdict::ALL.len() - Verdict::ALL.iter().position(|&a| a == v).unwrap_or(0)
}

fn compare(
    column: SortColumn,
    a: &LinkDecision,
    b: &LinkDecision,
    other: Option<&PageDecision>,
) -> Ordering {
    match column {
        SortColumn::Index => a.index.cmp(&b.index),
        SortColumn::Verdict => verdict_order(a.verdict).cmp(&verdict_order(b.verdict)),
        SortColumn::Score => a.score.cmp(&b.score),
        SortColumn::Rank => a.rank.cmp(&b.rank),
        SortColumn::Url => {
            let url =
                |l: &LinkDecision| l.url.as_ref().map_or(l.href.to_string(), |u| u.to_string());
            url(a).cmp(&url(b))
        }
        SortColumn::Text => a.text.to_lowercase().cmp(&b.text.to_lowercase()),
        SortColumn::Keyword => {
            let kw = |l: &LinkDecision| l.keyword().map(|k| k.keyword.clone());
            kw(a).cmp(&kw(b))
        }
        SortColumn::Region => a.region.cmp(&b.region),
        SortColumn::Compared => {
            let theirs = |l: &LinkDecision| {
                other
                    .and_then(|d| d.links.get(l.index))
                    .map(|o| verdict_order(o.verdict))
            };
            theirs(a).cmp(&theirs(b))
        }
    }
}

impl ResultsState {
    fn rows(
        &mut self,
        inspection: &Inspection,
        generation: u64,
        page: usize,
        comparison: Option<PageCompare<'_>>,
    ) -> &[usize] {
        // Without a comparison there is nothing to show "only changed" of.
        let only_changed = self.only_changed && comparison.is_some();
        let key = RowsKey {
            generation,
            page,
            hidden: self.hidden.clone(),
            search: self.search.clone(),
            sort: self.sort,
            only_added_by_script: self.only_added_by_script,
            only_changed,
            region: self.region,
            compared: comparison.map(|c| c.generation),
        };
        if self.cache_key.as_ref() != Some(&key) {
            let needle = self.search.trim().to_lowercase();
            let current = inspection.pages.get(page);
            let links = current
                .map(|p| p.decision.links.as_slice())
                .unwrap_or_default();
            let added = |l: &LinkDecision| {
                current.and_then(|p| p.source(l)) == Some(LinkSource::RenderedOnly)
            };
            let mut rows: Vec<usize> = links
                .iter()
                .filter(|l| !self.hidden.contains(&l.verdict) && matches(l, &needle))
                .filter(|l| !self.only_added_by_script || added(l))
                .filter(|l| self.region.is_none_or(|r| l.region == r))
                .filter(|l| {
                    !only_changed || comparison.is_some_and(|c| c.change(l.index).is_some())
                })
                .map(|l| l.index)
                .collect();
            if let Some(sort) = self.sort {
                // A stable sort: ties stay in document order either way.
                rows.sort_by(|&a, &b| match (links.get(a), links.get(b)) {
                    (Some(a), Some(b)) => {
                        let order = compare(sort.column, a, b, comparison.map(|c| c.decision));
                        if sort.descending {
                            order.reverse()
                        } else {
                            order
                        }
                    }
                    _ => Ordering::Equal,
                });
            }
            self.rows = rows;
            self.cache_key = Some(key);
        }
        &self.rows
    }

    /// Shows only `verdict`, or everything again when it already is the only one.
    fn show_only(&mut self, verdict: Verdict) {
        let only: BTreeSet<Verdict> = Verdict::ALL
            .iter()
            .copied()
            .filter(|&v| v != verdict)
            .collect();
        if self.hidden == only {
            self.hidden.clear();
        } else {
            self.hidden = only;
        }
    }

    fn click_header(&mut self, column: SortColumn) {
        self.sort = match self.sort {
            Some(s) if s.column == column && !s.descending => Some(Sort {
                column,
                descending: true,
            }),
            // A third click goes back to document order.
            Some(s) if s.column == column => None,
            _ => Some(Sort {
                column,
                descending: false,
            }),
        };
    }
}

/// A chip that narrows the table to one kind of link while it is on.
fn toggle_chip(ui: &mut Ui, text: String, color: egui::Color32, on: bool, tooltip: &str) -> bool {
    let dark = ui.visuals().dark_mode;
    ui.add(
        egui::Button::new(RichText::new(text).color(color))
            .fill(palette::chip_fill(dark))
            .selected(on)
            .stroke(egui::Stroke::new(if on { 2.0 } else { 1.0 }, color)),
    )
    .on_hover_text(tooltip)
    .clicked()
}

/// Rendered mode: the chip that shows only the links scripts added.
fn added_by_script_chip(ui: &mut Ui, page: &InspectedPage, state: &mut ResultsState) {
    let added = page
        .decision
        .links
        .iter()
        .filter(|l| page.source(l) == Some(LinkSource::RenderedOnly))
        .count();
    let color = palette::added_by_script(ui.visuals().dark_mode);
    let on = state.only_added_by_script;
    if toggle_chip(
        ui,
        copy::added_by_script_chip(added),
        color,
        on,
        copy::ADDED_BY_SCRIPT_TOOLTIP,
    ) {
        state.only_added_by_script = !on;
    }
}

/// Comparing: the chip that shows only the changed links.
fn changed_chip(ui: &mut Ui, comparison: PageCompare<'_>, state: &mut ResultsState) {
    let color = palette::changed(ui.visuals().dark_mode);
    let on = state.only_changed;
    let text = format!("{} {}", copy::LABEL_ONLY_CHANGED, comparison.changes.len());
    if toggle_chip(ui, text, color, on, copy::ONLY_CHANGED_TOOLTIP) {
        state.only_changed = !on;
    }
}

fn verdict_chips(
    ui: &mut Ui,
    page: &InspectedPage,
    comparison: Option<PageCompare<'_>>,
    state: &mut ResultsState,
) {
    let dark = ui.visuals().dark_mode;
    ui.horizontal_wrapped(|ui| {
        if page.rendered().is_some() {
            added_by_script_chip(ui, page, state);
            ui.separator();
        }
        if let Some(comparison) = comparison {
            changed_chip(ui, comparison, state);
            ui.separator();
        }
        for verdict in Verdict::ALL.iter().rev().copied() {
            let n = page.decision.count(verdict);
            let shown = !state.hidden.contains(&verdict);
            let color = palette::verdict(verdict, dark);
            let mut text = RichText::new(format!("{} {n}", copy::verdict_badge(verdict)));
            text = if shown {
                text.color(color)
            } else {
                text.color(palette::hidden_chip_text(dark)).strikethrough()
            };
            let response = ui
                .add(
                    egui::Button::new(text)
                        .fill(palette::chip_fill(dark))
                        .stroke(egui::Stroke::new(if shown { 1.5 } else { 0.5 }, color)),
                )
                .on_hover_text(format!(
                    "{}\nClick to {} these links; double-click or right-click to show only them.",
                    copy::verdict_meaning(verdict),
                    if shown { "hide" } else { "show" }
                ));
            if response.double_clicked() {
                state.show_only(verdict);
            } else if response.clicked() {
                if shown {
                    state.hidden.insert(verdict);
                } else {
                    state.hidden.remove(&verdict);
                }
            }
            response.context_menu(|ui| {
                if ui.button(copy::LABEL_SHOW_ONLY).clicked() {
                    state.show_only(verdict);
                    ui.close();
                }
                if ui
                    .add_enabled(
                        !state.hidden.is_empty(),
                        egui::Button::new(copy::LABEL_SHOW_ALL),
                    )
                    .clicked()
                {
                    state.hidden.clear();
                    ui.close();
                }
            });
        }
    });
}

/// The crawled pages in tree order: each page, then the pages its followed
/// links led to (depth first), with its depth in the tree.
fn crawl_tree(inspection: &Inspection) -> Vec<(usize, usize)> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); inspection.pages.len()];
    let mut roots = Vec::new();
    for (i, page) in inspection.pages.iter().enumerate() {
        match page.via.filter(|v| v.page < i) {
            Some(via) => children[via.page].push(i),
            None => roots.push(i),
        }
    }
    let mut order = Vec::with_capacity(inspection.pages.len());
    let mut stack: Vec<(usize, usize)> = roots.into_iter().rev().map(|r| (r, 0)).collect();
    while let Some((page, depth)) = stack.pop() {
        order.push((page, depth));
        stack.extend(children[page].iter().rev().map(|&c| (c, depth + 1)));
    }
    order
}

fn pages_list(
    ui: &mut Ui,
    inspection: &Inspection,
    current: usize,
    stale: bool,
) -> Option<Command> {
    let mut command = None;
    let title = copy::crawled_pages_title(inspection.pages.len(), stale);
    egui::CollapsingHeader::new(title)
        .id_salt("crawled_pages")
        .default_open(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("pages")
                .max_height(140.0)
                .show(ui, |ui| {
                    for (i, depth) in crawl_tree(inspection) {
                        let page = &inspection.pages[i];
                        let status = page
                            .status
                            .map_or_else(|| "—".to_owned(), |s| s.to_string());
                        let via = page
                            .via
                            .and_then(|v| {
                                let link =
                                    inspection.pages.get(v.page)?.decision.links.get(v.link)?;
                                Some(copy::crawl_tree_via(v.link, &link.text))
                            })
                            .unwrap_or_default();
                        let error = page
                            .error
                            .as_deref()
                            .map(|e| format!("  ✖ {e}"))
                            .unwrap_or_default();
                        let branch = if depth == 0 { "" } else { "↳ " };
                        let label = format!("{branch}{via}{}  {status}{error}", page.url);
                        let mut text = RichText::new(label);
                        if page.status.is_some_and(|s| s >= 400) || page.error.is_some() {
                            text = text.color(palette::error(ui.visuals().dark_mode));
                        }
                        ui.horizontal(|ui| {
                            ui.add_space(18.0 * depth as f32);
                            if ui.selectable_label(i == current, text).clicked() {
                                command = Some(Command::SelectPage(i));
                            }
                        });
                    }
                });
        });
    command
}

fn header(ui: &mut Ui, view: &ResultsView<'_>, inspection: &Inspection, current: &InspectedPage) {
    ui.horizontal_wrapped(|ui| {
        let which = if inspection.pages.len() > 1 {
            format!("Page {} of {}: ", view.page + 1, inspection.pages.len())
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
    // A typed base URL that overrides what the saved page says about itself.
    if view.saved_file
        && view.page == 0
        && let Some(says) = current.read.as_ref().and_then(|r| r.canonical_url.as_ref())
        && *says != current.url
    {
        let dark = ui.visuals().dark_mode;
        widgets::banner(
            ui,
            palette::stale_banner(dark),
            palette::stale_text(dark),
            &copy::judged_as(current.url.as_str(), says.as_str()),
            None,
        );
    }
}

/// Moves the selection with the keyboard: ↑ ↓ Home End PageUp PageDown.
fn keyboard_selection(
    ui: &Ui,
    rows: &[usize],
    selected: Option<usize>,
    page_rows: usize,
) -> Option<usize> {
    if rows.is_empty() {
        return None;
    }
    let last = rows.len() - 1;
    let pos = selected.and_then(|s| rows.iter().position(|&r| r == s));
    let pressed = |key| ui.input(|i| i.key_pressed(key));
    let next = if pressed(Key::Home) {
        0
    } else if pressed(Key::End) {
        last
    } else if pressed(Key::PageDown) {
        pos.map_or(0, |p| (p + page_rows).min(last))
    } else if pressed(Key::PageUp) {
        pos.map_or(0, |p| p.saturating_sub(page_rows))
    } else if pressed(Key::ArrowDown) {
        pos.map_or(0, |p| (p + 1).min(last))
    } else if pressed(Key::ArrowUp) {
        pos.map_or(0, |p| p.saturating_sub(1))
    } else {
        return None;
    };
    rows.get(next).copied()
}

/// Ctrl+C (egui reports it as a copy event) and Ctrl+Shift+C.
fn copy_shortcut(ui: &Ui) -> Option<CopyWhat> {
    ui.input(|i| {
        i.events.iter().find_map(|event| match event {
            Event::Copy => Some(CopyWhat::Url),
            Event::Key {
                key: Key::C,
                pressed: true,
                modifiers,
                ..
            } if modifiers.command && modifiers.shift => Some(CopyWhat::Explanation),
            Event::Key {
                key: Key::C,
                pressed: true,
                modifiers,
                ..
            } if modifiers.command_only() => Some(CopyWhat::Url),
            _ => None,
        })
    })
}

fn header_title(title: &str, column: SortColumn, sort: Option<Sort>) -> String {
    match sort {
        Some(s) if s.column == column => {
            format!("{title} {}", if s.descending { "▼" } else { "▲" })
        }
        _ => title.to_owned(),
    }
}

/// The table's columns, with the compared profile's verdict after the
/// current one when comparing, and the region when the table is `wide`.
fn columns(compared: Option<&str>, wide: bool) -> Vec<(SortColumn, String)> {
    let mut columns = vec![
        (SortColumn::Index, "#".to_owned()),
        (SortColumn::Verdict, "Verdict".to_owned()),
    ];
    if let Some(name) = compared {
        columns.push((SortColumn::Compared, copy::compared_column(name)));
    }
    columns.extend([
        (SortColumn::Score, "Score".to_owned()),
        (SortColumn::Rank, "Rank".to_owned()),
        (SortColumn::Url, "URL".to_owned()),
        (SortColumn::Text, "Text".to_owned()),
        (SortColumn::Keyword, "Keyword".to_owned()),
    ]);
    // A narrow table keeps its width for URLs: the region stays in the
    // filter and the detail pane.
    if wide {
        columns.push((SortColumn::Region, copy::LABEL_REGION.to_owned()));
    }
    columns
}

/// "Region: all / nav / header / …": a filter by the part of the page.
fn region_filter(ui: &mut Ui, state: &mut ResultsState) {
    let label = ui.label(copy::LABEL_REGION).id;
    egui::ComboBox::from_id_salt("region_filter")
        .selected_text(state.region.map_or(copy::LABEL_ALL_REGIONS, |r| r.id()))
        .width(80.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut state.region, None, copy::LABEL_ALL_REGIONS);
            for region in Region::ALL {
                ui.selectable_value(&mut state.region, Some(region), region.id());
            }
        })
        .response
        .labelled_by(label)
        .on_hover_text(copy::REGION_TOOLTIP);
}

/// One cell of a link's row.
fn cell(
    ui: &mut Ui,
    column: SortColumn,
    link: &LinkDecision,
    page: &InspectedPage,
    comparison: Option<PageCompare<'_>>,
    change: Option<&LinkChange>,
    compact: bool,
) {
    let dark = ui.visuals().dark_mode;
    let badge = |ui: &mut Ui, verdict| {
        if compact {
            widgets::badge_symbol(ui, verdict);
        } else {
            widgets::badge(ui, verdict);
        }
    };
    match column {
        SortColumn::Index => {
            ui.label(RichText::new(link.index.to_string()).weak());
        }
        SortColumn::Verdict => badge(ui, link.verdict),
        SortColumn::Compared => {
            let Some(theirs) = comparison.and_then(|c| c.decision.links.get(link.index)) else {
                return;
            };
            match change {
                Some(change) => {
                    ui.label(RichText::new("Δ").color(palette::changed(dark)))
                        .on_hover_text(copy::because(&change.because));
                    badge(ui, theirs.verdict);
                    let rank = theirs.rank.map(|r| format!("#{r}")).unwrap_or_default();
                    ui.label(RichText::new(rank).small().color(palette::changed(dark)))
                        .on_hover_text(copy::because(&change.because));
                }
                None => {
                    ui.label(RichText::new("=").weak())
                        .on_hover_text(copy::SAME_UNDER_B);
                }
            }
        }
        SortColumn::Score => {
            ui.label(link.score.map(|s| s.to_string()).unwrap_or_default());
        }
        SortColumn::Rank => {
            let visited = if link.visited { "↺" } else { "" };
            ui.label(format!(
                "{}{visited}",
                link.rank.map(|s| s.to_string()).unwrap_or_default()
            ));
        }
        SortColumn::Url => match &link.url {
            Some(url) => {
                ui.add(
                    egui::Label::new(widgets::url_job(ui, url))
                        .truncate()
                        .selectable(false),
                );
            }
            None => {
                ui.add(
                    egui::Label::new(RichText::new(&*link.href).italics())
                        .truncate()
                        .selectable(false),
                );
            }
        },
        SortColumn::Text => {
            if page.source(link) == Some(LinkSource::RenderedOnly) {
                ui.label(
                    RichText::new(copy::ADDED_BY_SCRIPT)
                        .small()
                        .color(palette::added_by_script(dark)),
                )
                .on_hover_text(copy::ADDED_BY_SCRIPT_TOOLTIP);
            }
            if link.nofollow {
                ui.label(RichText::new(copy::NOFOLLOW_MARK).small().weak())
                    .on_hover_text(copy::NOFOLLOW_TOOLTIP);
            }
            ui.add(egui::Label::new(&*link.text).truncate().selectable(false));
        }
        SortColumn::Keyword => {
            let text = match (link.keyword(), &link.trace.black) {
                (Some(hit), _) => {
                    let inside = if hit.inside_word { " ⚠" } else { "" };
                    RichText::new(format!(
                        "{} ({}){inside}",
                        hit.keyword,
                        hit.matched_in.as_str()
                    ))
                }
                // Not decided by a keyword, but it would be blacklisted too.
                (None, Some(hit)) => RichText::new(format!("also ⊘ {}", hit.keyword)).weak(),
                (None, None) => return,
            };
            let response = ui.add(egui::Label::new(text).truncate().selectable(false));
            if link.keyword().is_some_and(|k| k.inside_word) {
                response.on_hover_text(copy::INSIDE_WORD_TOOLTIP);
            }
        }
        SortColumn::Region => {
            ui.label(RichText::new(link.region.id()).weak());
        }
    }
}

/// Draws the results.
pub fn show(ui: &mut Ui, view: &ResultsView<'_>, state: &mut ResultsState) -> Vec<Command> {
    let mut commands = Vec::new();
    let Some(inspection) = view.inspection else {
        ui.centered_and_justified(|ui| {
            ui.label("Enter a URL or a saved page above, or open the demo page.");
        });
        return commands;
    };
    let Some(current) = inspection.pages.get(view.page) else {
        return commands;
    };
    let dark = ui.visuals().dark_mode;

    if view.previous_result {
        ui.label(
            RichText::new(copy::PREVIOUS_RESULT)
                .italics()
                .color(palette::error_text(dark)),
        );
    }
    header(ui, view, inspection, current);
    if view.stale_crawl
        && widgets::banner(
            ui,
            palette::stale_banner(dark),
            palette::stale_text(dark),
            copy::STALE_CRAWL,
            Some(copy::LABEL_CRAWL_AGAIN),
        )
    {
        commands.push(Command::CrawlAgain);
    }
    if inspection.pages.len() > 1
        && let Some(c) = pages_list(ui, inspection, view.page, view.stale_crawl)
    {
        commands.push(c);
    }
    if let Some(error) = &current.error {
        ui.colored_label(palette::error(dark), format!("This page failed: {error}"));
    }
    if let Some(comparison) = view.comparison {
        ui.label(
            RichText::new(copy::comparison_line(
                comparison.name,
                &crate::policy::compare::summarize(comparison.changes),
            ))
            .color(palette::changed(dark)),
        );
    }
    verdict_chips(ui, current, view.comparison, state);

    let search = ui
        .horizontal(|ui| {
            let search = widgets::labelled_field(
                ui,
                copy::LABEL_SEARCH,
                &mut state.search,
                "search",
                copy::LABEL_SEARCH_HINT,
                260.0,
            );
            region_filter(ui, state);
            ui.label(RichText::new("⌨").weak())
                .on_hover_text(copy::KEYBOARD_HELP);
            search
        })
        .inner;
    if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::F)) {
        search.request_focus();
    }

    let rows = state
        .rows(inspection, view.generation, view.page, view.comparison)
        .to_vec();
    // The detail pane shows nothing that the filters hide.
    if let Some(s) = view.selected
        && !rows.contains(&s)
    {
        commands.push(Command::SelectLink(None));
    }
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let page_rows = ((ui.available_height() / row_height).floor() as usize)
        .saturating_sub(1)
        .max(1);
    // The keyboard moves the selection when no text field has it.
    let typing = ui.ctx().text_edit_focused();
    if view.keyboard && !typing {
        if let Some(n) = keyboard_selection(ui, &rows, view.selected, page_rows) {
            commands.push(Command::SelectLink(Some(n)));
        }
        if view.selected.is_some()
            && let Some(what) = copy_shortcut(ui)
        {
            commands.push(Command::CopySelected(what));
        }
    }

    // Links scripts removed: listed below the table, with no verdict.
    if let Some(rendered) = current.rendered().filter(|r| !r.static_only.is_empty()) {
        egui::Panel::bottom("static_only")
            .resizable(true)
            .default_size(120.0)
            .show(ui, |ui| {
                egui::CollapsingHeader::new(copy::removed_by_scripts(rendered.static_only.len()))
                    .id_salt("static_only_list")
                    .show(ui, |ui| {
                        egui::ScrollArea::vertical().show(ui, |ui| {
                            for gone in &rendered.static_only {
                                let target = gone
                                    .url
                                    .as_ref()
                                    .map_or_else(|| gone.href.to_string(), |u| u.to_string());
                                ui.horizontal(|ui| {
                                    ui.label(RichText::new(target).monospace());
                                    ui.label(RichText::new(&*gone.text).weak());
                                });
                            }
                        });
                    });
            });
    }

    let links = &current.decision.links;
    if links.is_empty() {
        ui.add_space(12.0);
        ui.label(RichText::new(copy::no_links(current.status)).italics());
        return commands;
    }
    let columns = columns(
        view.comparison.map(|c| c.name),
        ui.available_width() >= 900.0,
    );
    // The URL and Text columns share what the fixed ones leave, recomputed every
    // frame so they follow the window: URL gets the larger part. A narrow table
    // shows verdicts by their symbol alone (the word is on hover).
    let compact = ui.available_width()
        < 640.0
            + if view.comparison.is_some() {
                100.0
            } else {
                0.0
            };
    let width = |column: SortColumn| match (column, compact) {
        (SortColumn::Index, _) => 34.0,
        (SortColumn::Verdict, true) => 34.0,
        (SortColumn::Compared, true) => 60.0,
        (SortColumn::Verdict, false) => 104.0,
        (SortColumn::Compared, false) => 140.0,
        (SortColumn::Score, _) => 46.0,
        (SortColumn::Rank, _) => 42.0,
        (SortColumn::Region, _) => 46.0,
        (SortColumn::Keyword, true) => 76.0,
        _ => 90.0,
    };
    let fixed: f32 = columns
        .iter()
        .filter(|(c, _)| !matches!(c, SortColumn::Url | SortColumn::Text))
        .map(|(c, _)| width(*c))
        .sum();
    let spacing = ui.spacing().item_spacing.x * (columns.len() as f32);
    let flexible = (ui.available_width() - fixed - spacing).max(150.0);
    let mut table = TableBuilder::new(ui)
        .id_salt("links")
        .striped(true)
        .sense(Sense::click())
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center));
    for (column, _) in &columns {
        table = table.column(match column {
            SortColumn::Url => Column::remainder().at_least(90.0).clip(true),
            SortColumn::Text => Column::exact((flexible * 0.4).max(60.0)).clip(true),
            other => Column::exact(width(*other)).clip(true),
        });
    }
    if state.shown != Some((view.loaded, view.page)) {
        state.shown = Some((view.loaded, view.page));
        table = table.vertical_scroll_offset(0.0);
    }
    // A selection moved by the keyboard is scrolled into view.
    let moved_to = commands.iter().find_map(|c| match c {
        Command::SelectLink(Some(link)) => Some(*link),
        _ => None,
    });
    if let Some(pos) = moved_to.and_then(|s| rows.iter().position(|&r| r == s)) {
        table = table.scroll_to_row(pos, None);
    }
    let mut clicked_header = None;
    table
        .header(row_height, |mut header| {
            for (column, title) in &columns {
                header.col(|ui| {
                    let text = RichText::new(header_title(title, *column, state.sort)).strong();
                    if ui
                        .add(egui::Button::new(text).frame(false))
                        .on_hover_text("Sort by this column; click again to reverse, a third time for page order.")
                        .clicked()
                    {
                        clicked_header = Some(*column);
                    }
                });
            }
        })
        .body(|body| {
            body.rows(row_height, rows.len(), |mut row| {
                let Some(link) = links.get(rows[row.index()]) else {
                    return;
                };
                row.set_selected(view.selected == Some(link.index));
                let change = view.comparison.and_then(|c| c.change(link.index));
                for (column, _) in &columns {
                    row.col(|ui| cell(ui, *column, link, current, view.comparison, change, compact));
                }
                if row.response().clicked() {
                    commands.push(Command::SelectLink(Some(link.index)));
                }
            });
        });
    if let Some(column) = clicked_header {
        state.click_header(column);
    }
    commands
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::{InspectedPage, Via};
    use crate::policy::Settings;
    use url::Url;

    #[test]
    fn the_crawl_tree_puts_each_page_under_the_page_that_led_to_it() {
        let page = |path: &str, level, via: Option<(usize, usize)>| {
            let url = Url::parse(&format!("https://acme.test{path}")).unwrap();
            let via = via.map(|(page, link)| Via { page, link });
            InspectedPage::failed(url, level, via, String::new())
        };
        // Level by level: the start, its two children, then a grandchild of each.
        let inspection = Inspection {
            start_url: Url::parse("https://acme.test/").unwrap(),
            final_url: Url::parse("https://acme.test/").unwrap(),
            depth: 3,
            limit_override: None,
            settings: Settings::default(),
            lints: Vec::new(),
            pages: vec![
                page("/", 1, None),
                page("/contact", 2, Some((0, 1))),
                page("/about", 2, Some((0, 2))),
                page("/about/team", 3, Some((2, 0))),
                page("/contact/form", 3, Some((1, 4))),
            ],
            cancelled: false,
        };
        assert_eq!(
            crawl_tree(&inspection),
            [(0, 0), (1, 1), (4, 2), (2, 1), (3, 2)]
        );
    }
}
