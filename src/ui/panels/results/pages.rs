//! Above the table: the page header (which page, its level, N and links)
//! and the crawled pages as a tree.

use egui::{RichText, Ui};

use super::elide::ELLIPSIS;
use super::table::{elided_url, text_width};
use super::view::ResultsView;
use crate::archive::wacz::WaczPage;
use crate::copy;
use crate::inspect::{InspectedPage, Inspection, crawl_tree};
use crate::ui::command::{ArchiveCommand, Command, SelectionCommand};
use crate::ui::{palette, widgets};

/// The crawled pages as a tree, each under the page that led to it; a click
/// shows that page. It sits above the table with a split the user can drag,
/// and opens as tall as its lines need (up to 40 % of the room), so a short
/// crawl does not scroll in a box while the table below is empty. `keep` is
/// the room the chips, the search and the table's least rows need below it:
/// the tree gives way to them, down to its title and one line, which
/// scroll. A line too long for the tree keeps its page's host and the end of
/// its path, with "…" for what is left out (the whole line on hover), as the
/// table's URL cells do; the page shown is scrolled into view whenever it or
/// the crawl changes.
pub(super) fn pages_list(
    ui: &mut Ui,
    inspection: &Inspection,
    loaded: u64,
    current: usize,
    stale: bool,
    keep: f32,
) -> Option<Command> {
    let mut command = None;
    let title = copy::crawled_pages_title(inspection.pages.len(), stale);
    let line = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    let room = ui.available_height();
    let needed = line * (inspection.pages.len() as f32 + 1.0) + 8.0;
    // Its title and one whole line in the scrolled box (the panel's frame
    // and the box take about a line more).
    let smallest = line * 3.0 + 8.0;
    let most = (room - keep).min(room * 0.8).max(smallest);
    let least = (line * 3.0).min(room * 0.5).min(most);
    // Which inspection (`loaded`, bumped by every load and crawl, not by
    // re-judging) and page the tree last showed: when either changes, the
    // page shown is brought into view (a tree kept its old scroll offset and
    // opened on another crawl's middle, the page shown out of sight).
    let shown_id = egui::Id::unique("crawled_pages_shown");
    let shown = (loaded, current);
    let scroll_to_current = ui.ctx().data_mut(|d| {
        let changed = d.get_temp::<(u64, usize)>(shown_id) != Some(shown);
        d.insert_temp(shown_id, shown);
        changed
    });
    let panel = ui.scope(|ui| {
        // The split is a wider strip to grab than egui's 5 px, which a drag
        // aimed at the thin line missed.
        ui.style_mut().interaction.resize_grab_radius_side = SPLIT_GRAB;
        egui::Panel::top("crawled_pages")
            .resizable(true)
            .default_size(needed.min(room * 0.4).max(least).min(most))
            .size_range(least..=most)
            .show(ui, |ui| {
                ui.label(RichText::new(title).strong());
                // No taller than the panel leaves it (a scroll area is at least
                // 64 px by default, which a short panel cut, last line unreachable).
                egui::ScrollArea::vertical()
                    .id_salt("pages")
                    .min_scrolled_height(line)
                    .max_height(ui.available_height())
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        for (i, depth) in crawl_tree(inspection) {
                            let clicked = tree_line(
                                ui,
                                inspection,
                                i,
                                depth,
                                i == current,
                                scroll_to_current,
                            );
                            if clicked {
                                command = Some(SelectionCommand::SelectPage(i).into());
                            }
                        }
                    });
            })
            .response
            .rect
    });
    grip(ui, panel.inner);
    command
}

/// How far either side of the tree's split a drag takes hold of it.
const SPLIT_GRAB: f32 = 8.0;

/// A short, thick mark on the split under the tree, so it reads as a handle.
fn grip(ui: &Ui, panel: egui::Rect) {
    let stroke = egui::Stroke::new(3.0, ui.visuals().widgets.noninteractive.fg_stroke.color);
    let y = panel.bottom();
    let x = panel.center().x;
    ui.painter()
        .line_segment([egui::pos2(x - 16.0, y), egui::pos2(x + 16.0, y)], stroke);
}

/// One page's line in the tree, fitted to the room: `true` when clicked.
fn tree_line(
    ui: &mut Ui,
    inspection: &Inspection,
    i: usize,
    depth: usize,
    selected: bool,
    scroll_to: bool,
) -> bool {
    let page = &inspection.pages[i];
    let via = page
        .via
        .and_then(|v| {
            let link = inspection.pages.get(v.page)?.decision.links.get(v.link)?;
            Some(copy::crawl_tree_via(v.link, &link.text))
        })
        .unwrap_or_default();
    let error = page.error().map(ToString::to_string);
    let whole = copy::crawl_tree_line(
        depth,
        &via,
        page.url.as_str(),
        page.status,
        error.as_deref(),
    );
    let indent = 18.0 * depth as f32;
    let room = ui.available_width() - indent - 2.0 * ui.spacing().button_padding.x;
    let font = egui::TextStyle::Button.resolve(ui.style());
    let rest = copy::crawl_tree_line(depth, &via, "", page.status, error.as_deref());
    let url = match elided_url(
        ui,
        &page.url,
        &font,
        room - text_width(ui, &rest, font.clone()),
    ) {
        (start, None) => start.to_owned(),
        (start, Some(end)) => format!("{start}{ELLIPSIS}{end}"),
    };
    let label = copy::crawl_tree_line(depth, &via, &url, page.status, error.as_deref());
    let mut text = RichText::new(label);
    if page.status.is_some_and(|s| s >= 400) || page.error().is_some() {
        text = text.color(palette::error(ui.visuals().dark_mode));
    }
    ui.horizontal(|ui| {
        ui.add_space(indent);
        // What still does not fit (a long link text) ends in "…".
        let response = ui
            .add(egui::Button::selectable(selected, text).truncate())
            .on_hover_text(&whole);
        if selected && scroll_to {
            response.scroll_to_me(Some(egui::Align::Center));
        }
        response.clicked()
    })
    .inner
}

pub(super) fn header(
    ui: &mut Ui,
    view: &ResultsView<'_>,
    inspection: &Inspection,
    current: &InspectedPage,
) -> Option<Command> {
    let mut command = None;
    ui.horizontal_wrapped(|ui| {
        let which = copy::page_heading(view.page, inspection.pages.len());
        ui.label(RichText::new(which).strong());
        ui.label(RichText::new(current.url.as_str()).strong());
        ui.label(copy::page_facts(
            current.level,
            current.decision.limit,
            current.decision.links.len(),
        ));
        if inspection.cancelled {
            ui.label(RichText::new(copy::CRAWL_CANCELLED).italics());
        }
    });
    if let Some((name, info)) = view.archive {
        let damaged = info.damaged.len() + info.damaged_not_listed;
        let warned = info.read_warnings.count();
        let header = copy::archive_header(name, info.captured.as_deref(), damaged, warned);
        ui.label(RichText::new(header).italics());
        if let Some(package) = info.package.as_ref().filter(|p| p.pages.len() > 1) {
            command = package_pages(ui, &package.pages, &inspection.start_url);
        }
    }
    // Rendered again from the archive (SPEC 12): what it answered, and on
    // hover what it lacked.
    if let Some(replay) = current.rendered().and_then(|r| r.replay.as_ref()) {
        let mut text = RichText::new(copy::replay_summary(replay.answered, replay.missing));
        if replay.missing_scripts > 0 {
            text = text.color(palette::warning(ui.visuals().dark_mode));
        }
        ui.label(text).on_hover_text(copy::replay_missing(
            replay.missing,
            &replay.missing_urls,
            replay.missing_scripts,
        ));
    }
    // A typed base URL that overrides what the saved page says about itself.
    if view.saved_file
        && view.page == 0
        && let Some(says) = current.read().and_then(|r| r.canonical_url.as_ref())
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
    command
}

/// "Start at: [page ▾]": the pages a WACZ package names, the one the crawl
/// started from chosen; choosing another crawls the package from it.
fn package_pages(ui: &mut Ui, pages: &[WaczPage], start: &url::Url) -> Option<Command> {
    let mut chosen = None;
    ui.horizontal(|ui| {
        let label = ui.label(copy::LABEL_PACKAGE_PAGE).id;
        let shown = pages.iter().find(|p| p.url == *start).map_or_else(
            || start.to_string(),
            |p| copy::package_page(p.title.as_deref(), p.url.as_str()),
        );
        egui::ComboBox::from_id_salt("package_page")
            .selected_text(shown)
            .truncate()
            .width(ui.available_width().min(480.0))
            .show_ui(ui, |ui| {
                for page in pages {
                    let text = copy::package_page(page.title.as_deref(), page.url.as_str());
                    if ui.selectable_label(page.url == *start, text).clicked() && page.url != *start
                    {
                        chosen = Some(page.url.to_string());
                    }
                }
            })
            .response
            .labelled_by(label)
            .on_hover_text(copy::PACKAGE_PAGE_TOOLTIP);
    });
    chosen.map(|url| ArchiveCommand::StartAtPackagePage(url).into())
}
