//! Above the table: the page header (which page, its level, N and links)
//! and the crawled pages as a tree.

use egui::{RichText, Ui};

use super::ResultsView;
use crate::copy;
use crate::inspect::{InspectedPage, Inspection};
use crate::ui::command::Command;
use crate::ui::{palette, widgets};

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

pub(super) fn pages_list(
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
                        let via = page
                            .via
                            .and_then(|v| {
                                let link =
                                    inspection.pages.get(v.page)?.decision.links.get(v.link)?;
                                Some(copy::crawl_tree_via(v.link, &link.text))
                            })
                            .unwrap_or_default();
                        let label = copy::crawl_tree_line(
                            depth,
                            &via,
                            page.url.as_str(),
                            page.status,
                            page.error.as_deref(),
                        );
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

pub(super) fn header(
    ui: &mut Ui,
    view: &ResultsView<'_>,
    inspection: &Inspection,
    current: &InspectedPage,
) {
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
