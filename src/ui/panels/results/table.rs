//! The table of every candidate link: virtualized, sortable by clicking a
//! header, one row per link in the shown order.

use egui::text::{LayoutJob, TextFormat};
use egui::{FontId, RichText, Sense, TextStyle, Ui};
use egui_extras::{Column, TableBuilder};
use url::Url;

use super::elide::{ELLIPSIS, elide_middle};
use super::rows::{PageCompare, PageTargets, Sort, SortColumn};
use super::view::{ResultsState, ResultsView};
use crate::copy;
use crate::inspect::{InspectedPage, LinkSource};
use crate::policy::compare::LinkChange;
use crate::policy::{LinkDecision, Verdict};
use crate::ui::command::{Command, SelectionCommand};
use crate::ui::{palette, widgets};

fn header_title(title: &str, column: SortColumn, sort: Option<Sort>) -> String {
    match sort {
        Some(s) if s.column == column => {
            format!("{title} {}", if s.descending { "▼" } else { "▲" })
        }
        _ => title.to_owned(),
    }
}

/// The table's columns, with the compared profile's verdict after the
/// current one when comparing, then the target kind with a targets file,
/// and the region when the table is `wide`.
fn columns(compared: Option<&str>, targets: bool, wide: bool) -> Vec<(SortColumn, String)> {
    let mut columns = vec![
        (SortColumn::Index, copy::COLUMN_INDEX.to_owned()),
        (SortColumn::Verdict, copy::COLUMN_VERDICT.to_owned()),
    ];
    if targets {
        columns.push((SortColumn::Target, copy::COLUMN_TARGET.to_owned()));
    }
    if let Some(name) = compared {
        columns.push((SortColumn::Compared, copy::compared_column(name)));
    }
    columns.extend([
        (SortColumn::Score, copy::COLUMN_SCORE.to_owned()),
        (SortColumn::Rank, copy::COLUMN_RANK.to_owned()),
        (SortColumn::Url, copy::COLUMN_URL.to_owned()),
        (SortColumn::Text, copy::COLUMN_TEXT.to_owned()),
        (SortColumn::Keyword, copy::COLUMN_KEYWORD.to_owned()),
    ]);
    // A narrow table keeps its width for URLs: the region stays in the
    // filter and the detail pane.
    if wide {
        columns.push((SortColumn::Region, copy::LABEL_REGION.to_owned()));
    }
    columns
}

/// Below this room for the URL and Text columns, Score and Rank are left
/// out: the URL's 60% then holds a host and the end of a path.
const URL_AND_TEXT_ROOM: f32 = 360.0;

/// The Text column's least width: a word or two.
const TEXT_LEAST: f32 = 60.0;

/// The width the URL column needs to show a host: the widest host (with its
/// port) of the first rows, "…" and a short end of a path ("/kontakt/#").
/// Only the first rows are measured, as they are what is drawn first.
fn url_least(ui: &Ui, links: &[LinkDecision], rows: &[usize]) -> f32 {
    let font = FontId::proportional(ui.text_style_height(&TextStyle::Body) - 2.0);
    let mut hosts: Vec<String> = rows
        .iter()
        .take(500)
        .filter_map(|&r| links.get(r)?.url.as_ref())
        .filter_map(|url| {
            let host = url.host_str()?;
            Some(match url.port() {
                Some(port) => format!("{host}:{port}"),
                None => host.to_owned(),
            })
        })
        .collect();
    hosts.sort_unstable();
    hosts.dedup();
    let widest = hosts
        .into_iter()
        .map(|h| text_width(ui, &h, font.clone()))
        .fold(0.0, f32::max);
    let end = text_width(ui, &format!("{ELLIPSIS}/kontakt/#"), font);
    // As elide_middle draws it, with its slack for kerning.
    (widest + end + 4.0).clamp(90.0, 320.0)
}

/// What a row's cells show besides the link: the compared side, the
/// targets.
#[derive(Clone, Copy)]
struct Beside<'a> {
    comparison: Option<PageCompare<'a>>,
    change: Option<&'a LinkChange>,
    targets: Option<PageTargets<'a>>,
}

/// One cell of a link's row.
fn cell(
    ui: &mut Ui,
    column: SortColumn,
    link: &LinkDecision,
    page: &InspectedPage,
    beside: Beside<'_>,
) {
    let Beside {
        comparison,
        change,
        targets,
    } = beside;
    let dark = ui.visuals().dark_mode;
    let badge = |ui: &mut Ui, verdict| {
        widgets::badge(ui, verdict);
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
        // Elided in the middle: the end of the path tells links apart.
        SortColumn::Url => match &link.url {
            Some(url) => {
                let job = url_cell(ui, url, ui.available_width());
                ui.add(egui::Label::new(job).truncate().selectable(false))
                    .on_hover_text(url.as_str());
            }
            None => {
                ui.add(
                    egui::Label::new(RichText::new(&*link.href).italics())
                        .truncate()
                        .selectable(false),
                )
                .on_hover_text(&*link.href);
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
                (Some(hit), _) => RichText::new(copy::keyword_cell(
                    &hit.keyword,
                    hit.matched_in.as_str(),
                    hit.inside_word,
                )),
                // Not decided by a keyword, but it would be blacklisted too.
                (None, Some(hit)) => RichText::new(copy::also_blacklisted(&hit.keyword)).weak(),
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
        SortColumn::Target => {
            if let Some(kind) = targets.and_then(|t| t.kind_of(link)) {
                ui.label(RichText::new(kind.id()).color(palette::target(dark)));
            }
        }
    }
}

/// Links scripts removed: listed below the table, with no verdict.
pub(super) fn removed_by_scripts(ui: &mut Ui, current: &InspectedPage) {
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
}

/// Draws the table of `rows` (link indexes); `moved_to` is a selection the
/// keyboard moved, scrolled into view. Returns the row clicked, as a command.
pub(super) fn show(
    ui: &mut Ui,
    view: &ResultsView<'_>,
    state: &mut ResultsState,
    current: &InspectedPage,
    rows: &[usize],
    row_height: f32,
    moved_to: Option<usize>,
) -> Vec<Command> {
    let mut commands = Vec::new();
    let links = &current.decision.links;
    if links.is_empty() {
        ui.add_space(12.0);
        ui.label(RichText::new(copy::no_links(current.status)).italics());
        return commands;
    }
    let mut columns = columns(
        view.comparison.map(|c| c.name),
        view.targets.is_some(),
        ui.available_width() >= 900.0,
    );
    // The URL and Text columns share what the fixed ones leave, recomputed every
    // frame so they follow the window: URL gets the larger part. The verdict
    // columns are as wide as their widest word, whatever the window.
    let (verdict, compared) = verdict_widths(ui);
    let width = |column: SortColumn, narrow: bool| match column {
        SortColumn::Index => 34.0,
        SortColumn::Verdict => verdict,
        SortColumn::Compared => compared,
        SortColumn::Score => 46.0,
        SortColumn::Rank => 42.0,
        SortColumn::Region => 46.0,
        SortColumn::Target => 64.0,
        SortColumn::Keyword if narrow => 76.0,
        _ => 90.0,
    };
    let spacing = ui.spacing().item_spacing.x;
    let available = ui.available_width();
    let flexible_room = |columns: &[(SortColumn, String)], narrow: bool| {
        let fixed: f32 = columns
            .iter()
            .filter(|(c, _)| !matches!(c, SortColumn::Url | SortColumn::Text))
            .map(|(c, _)| width(*c, narrow) + spacing)
            .sum();
        available - fixed - 2.0 * spacing
    };
    let mut narrow = available < 700.0;
    // Score and Rank (empty on most rows, and in the detail pane) give their
    // room to the URL first, so it keeps its host.
    if flexible_room(&columns, narrow) < URL_AND_TEXT_ROOM {
        columns.retain(|(c, _)| !matches!(c, SortColumn::Score | SortColumn::Rank));
    }
    // The URL column holds the widest host, "…" and the end of a path; the
    // keyword and then the text give way to it, and when that is not enough
    // the table scrolls sideways (Compare and a targets file at 1280×800 with
    // both panels left the URL ~130 px, "…p.com/US/en/kontakt/#", no host).
    let url_least = url_least(ui, links, rows);
    if flexible_room(&columns, narrow) < url_least + TEXT_LEAST {
        narrow = true;
    }
    let flexible = flexible_room(&columns, narrow).max(150.0);
    let text = (flexible * 0.4).min(flexible - url_least).max(TEXT_LEAST);
    let sideways = flexible < url_least + text;
    // One stored layout per column set: widths kept while comparing (or in a
    // wide window) never apply to the table without those columns.
    let column_set = (
        view.comparison.is_some(),
        view.targets.is_some(),
        columns.len(),
    );
    // A new page opens at the top, or at a link selected with it (one
    // opened from the Corpus view).
    let mut scroll_to = moved_to;
    let new_page = state.shown != Some((view.loaded, view.page));
    if new_page {
        state.shown = Some((view.loaded, view.page));
        scroll_to = scroll_to.or(view.selected);
    }
    let mut clicked_header = None;
    let sort = state.filter.sort;
    let mut draw = |ui: &mut Ui| {
        let mut table = TableBuilder::new(ui)
            .id_salt(("links", column_set))
            .striped(true)
            .sense(Sense::click())
            .cell_layout(egui::Layout::left_to_right(egui::Align::Center));
        for (column, _) in &columns {
            table = table.column(match column {
                SortColumn::Url => Column::remainder().at_least(url_least).clip(true),
                SortColumn::Text => Column::exact(text).clip(true),
                other => Column::exact(width(*other, narrow)).clip(true),
            });
        }
        if new_page {
            table = table.vertical_scroll_offset(0.0);
        }
        if let Some(pos) = scroll_to.and_then(|s| rows.iter().position(|&r| r == s)) {
            table = table.scroll_to_row(pos, None);
        }
        table
            .header(row_height, |mut header| {
                for (column, title) in &columns {
                    header.col(|ui| {
                        let text = RichText::new(header_title(title, *column, sort)).strong();
                        if ui
                            .add(egui::Button::new(text).frame(false))
                            .on_hover_text(copy::SORT_TOOLTIP)
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
                    let beside = Beside {
                        comparison: view.comparison,
                        change: view.comparison.and_then(|c| c.change(link.index)),
                        targets: view.targets,
                    };
                    for (column, _) in &columns {
                        row.col(|ui| cell(ui, *column, link, current, beside));
                    }
                    if row.response().clicked() {
                        commands.push(SelectionCommand::SelectLink(Some(link.index)).into());
                    }
                });
            });
    };
    // Always inside the same scroll area, scrolling sideways only when the
    // columns need it: the table's stored state (its scroll offset, its
    // widths) is keyed to the ui it is drawn in, so a table drawn inside the
    // area only some of the time jumped to another offset whenever the need
    // flipped (a resize, the detail pane opening, a filter).
    egui::ScrollArea::new([sideways, false])
        .id_salt(("links_sideways", column_set))
        .auto_shrink([false, false])
        .show(ui, |ui| draw(ui));
    if let Some(column) = clicked_header {
        state.filter.click_header(column);
    }
    commands
}

/// How wide text is in `font`.
pub(super) fn text_width(ui: &Ui, text: &str, font: FontId) -> f32 {
    // Only measured: the colour is the text's own, never drawn.
    let color = ui.visuals().text_color();
    ui.ctx()
        .fonts_mut(|f| f.layout_no_wrap(text.to_owned(), font, color).size().x)
}

/// The widths of the Verdict column and the compared one, from the widest
/// verdict word as a badge draws it (its margins and stroke) and the headers.
fn verdict_widths(ui: &Ui) -> (f32, f32) {
    let small = TextStyle::Small.resolve(ui.style());
    let body = TextStyle::Body.resolve(ui.style());
    let badge = Verdict::ALL
        .iter()
        .map(|&v| text_width(ui, copy::verdict_badge(v), small.clone()))
        .fold(0.0, f32::max)
        + 10.0;
    let header = text_width(ui, &format!("{} ▼", copy::COLUMN_VERDICT), body.clone());
    let spacing = ui.spacing().item_spacing.x;
    // Δ, the badge and the rank ("#12") side by side.
    let compared = text_width(ui, "Δ", body) + badge + text_width(ui, "#99", small) + 2.0 * spacing;
    (badge.max(header) + spacing, compared + spacing)
}

/// `url` in `max` points of `font`: whole, or elided in the middle (host …
/// end of the path, see `elide_middle`), as (the kept start, the kept end).
/// The table's URL cells and the crawl tree's lines fit their URLs with it.
pub(super) fn elided_url<'a>(
    ui: &Ui,
    url: &'a Url,
    font: &FontId,
    max: f32,
) -> (&'a str, Option<&'a str>) {
    let text = url.as_str();
    let host = url.host_str().unwrap_or("");
    // The port belongs with the host: it too tells sites apart.
    let host_end = text
        .find(host)
        .filter(|_| !host.is_empty())
        .map_or(0, |at| {
            let end = at + host.len();
            let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
            end + if text[end..].starts_with(&port) {
                port.len()
            } else {
                0
            }
        });
    let widths: std::collections::HashMap<char, f32, foldhash::fast::RandomState> =
        ui.ctx().fonts_mut(|f| {
            text.chars()
                .chain([ELLIPSIS])
                .map(|c| (c, f.glyph_width(font, c)))
                .collect()
        });
    // A little slack for kerning, which glyph widths leave out.
    elide_middle(text, host_end, max - 4.0, |c| {
        widths.get(&c).copied().unwrap_or_default()
    })
}

/// A URL in `max` points, its host emphasised and the scheme quiet, elided in
/// the middle (host … end of the path) when it does not fit.
fn url_cell(ui: &Ui, url: &Url, max: f32) -> LayoutJob {
    let dark = ui.visuals().dark_mode;
    let font = FontId::proportional(ui.text_style_height(&TextStyle::Body) - 2.0);
    let text = url.as_str();
    let host = url.host_str().unwrap_or("");
    let host_at = text.find(host).filter(|_| !host.is_empty());
    let (start, end) = elided_url(ui, url, &font, max);
    let weak = TextFormat::simple(font.clone(), ui.visuals().weak_text_color());
    let normal = TextFormat::simple(font.clone(), ui.visuals().text_color());
    let host_format = TextFormat::simple(font, palette::host(dark));
    let mut job = LayoutJob::default();
    // The kept start: scheme (quiet), host (emphasised), and any path.
    match host_at {
        Some(at) => {
            // The start is the URL's own start, or the host on when the scheme went.
            let offset = if text.starts_with(start) { 0 } else { at };
            let scheme_end = at.saturating_sub(offset).min(start.len());
            let host_end = (at + host.len()).saturating_sub(offset).min(start.len());
            job.append(&start[..scheme_end], 0.0, weak.clone());
            job.append(&start[scheme_end..host_end], 0.0, host_format);
            job.append(&start[host_end..], 0.0, normal.clone());
        }
        None => job.append(start, 0.0, normal.clone()),
    }
    if let Some(end) = end {
        job.append(&ELLIPSIS.to_string(), 0.0, weak);
        job.append(end, 0.0, normal);
    }
    job
}
