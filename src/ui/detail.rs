//! The selected link: its trace rule by rule, the keyword highlighted where it
//! matched, the same-site explainer, what-if answers, and copy buttons.

use egui::{Grid, RichText, Ui};

use crate::copy::{self, Outcome};
use crate::inspect::InspectedPage;
use crate::policy::explain::WhatIf;
use crate::policy::lints::registrable_domain;
use crate::policy::{LinkDecision, MatchedIn, Settings};
use crate::ui::command::{Command, CopyWhat};
use crate::ui::{palette, widgets};

fn highlighted_parts(ui: &mut Ui, link: &LinkDecision) {
    let Some(haystack) = link.haystack() else {
        return;
    };
    let hit = link
        .keyword()
        .or(link.trace.black.as_ref())
        .or(link.trace.white.as_ref());
    let span_in = |place| {
        hit.filter(|h| h.matched_in == place)
            .map(|h| h.span.clone())
    };
    ui.label(
        RichText::new("URL as matched (decoded, lowercased)")
            .small()
            .weak(),
    );
    ui.add(
        egui::Label::new(widgets::highlighted(
            ui,
            haystack.url_part(),
            span_in(MatchedIn::Url),
        ))
        .wrap(),
    );
    if !link.text.is_empty() {
        ui.label(RichText::new("Link text as matched").small().weak());
        ui.add(
            egui::Label::new(widgets::highlighted(
                ui,
                haystack.text_part(),
                span_in(MatchedIn::Text),
            ))
            .wrap(),
        );
    }
}

fn site_explainer(ui: &mut Ui, link: &LinkDecision, page_host: &str, settings: &Settings) {
    let Some(site) = link.site_check(page_host, &settings.options()) else {
        return;
    };
    ui.label(RichText::new("Same-site explainer").strong());
    Grid::new("site")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(RichText::new(k).weak());
                ui.label(RichText::new(v).monospace());
                ui.end_row();
            };
            row("link host", site.link_host.clone());
            row("link root (naive)", site.link_root.clone());
            row("page host", site.base_host.clone());
            row("page root (naive)", site.base_root.clone());
            for (label, host, root) in [
                ("link registrable (PSL)", &site.link_host, &site.link_root),
                ("page registrable (PSL)", &site.base_host, &site.base_root),
            ] {
                if let Some(psl) = registrable_domain(host).filter(|d| d != root) {
                    row(label, format!("{psl}  (differs from the naive root)"));
                }
            }
            let admitted = if site.admitted_by.is_empty() {
                "nothing: off-domain".to_owned()
            } else {
                copy::admissions(&site)
            };
            row("admitted by", admitted);
        });
}

/// Draws the detail of `link` on `page`.
pub fn show(
    ui: &mut Ui,
    page: &InspectedPage,
    link: &LinkDecision,
    settings: &Settings,
    what_ifs: &[WhatIf],
) -> Vec<Command> {
    let mut commands = Vec::new();
    let dark = ui.visuals().dark_mode;
    egui::ScrollArea::vertical()
        .id_salt("detail")
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading(format!("Link #{}", link.index));
                widgets::badge(ui, link.verdict);
            });
            widgets::note(ui, copy::verdict_meaning(link.verdict));
            ui.add_space(4.0);
            ui.label(RichText::new("href").small().weak());
            ui.add(egui::Label::new(RichText::new(&*link.href).monospace()).wrap());
            highlighted_parts(ui, link);
            ui.horizontal_wrapped(|ui| {
                if let Some(url) = &link.url {
                    if ui
                        .button(copy::LABEL_COPY_URL)
                        .on_hover_text("Ctrl+C")
                        .clicked()
                    {
                        commands.push(Command::CopySelected(CopyWhat::Url));
                    }
                    if matches!(url.scheme(), "http" | "https") {
                        ui.hyperlink_to(copy::LABEL_OPEN_IN_BROWSER, url.as_str())
                            .on_hover_text(url.as_str());
                    }
                }
                if ui
                    .button(copy::LABEL_COPY_EXPLANATION)
                    .on_hover_text("Ctrl+Shift+C")
                    .clicked()
                {
                    commands.push(Command::CopySelected(CopyWhat::Explanation));
                }
            });
            ui.separator();

            ui.label(RichText::new("Trace").strong());
            // Each rule on its own line and its detail below at the full width of
            // the pane, so host names wrap whole, not inside a narrow grid column.
            for line in copy::trace_lines(link, &page.decision, settings) {
                let (mark, color) = match line.outcome {
                    Outcome::Pass => ("✔", palette::pass(dark)),
                    Outcome::Fail => ("✖", palette::fail(dark)),
                    Outcome::NotChecked => ("–", ui.visuals().weak_text_color()),
                };
                ui.horizontal(|ui| {
                    ui.label(RichText::new(format!("{} {mark}", line.step)).color(color));
                    ui.label(line.rule);
                });
                ui.indent(("trace", line.step), |ui| {
                    ui.add(egui::Label::new(line.detail).wrap());
                });
            }
            ui.separator();
            site_explainer(ui, link, &page.decision.page_host, settings);
            if !what_ifs.is_empty() {
                ui.separator();
                ui.label(RichText::new("What if").strong());
                for w in what_ifs {
                    ui.label(format!("• {}", copy::what_if_text(w)));
                }
            }
        });
    commands
}
