//! The bottom bar: the last status message, and what was loaded and how (final
//! URL, redirects, status, charset, size, time, crawled and failed pages).
//! Errors are not here: they get a banner above the table.

use egui::{RichText, Ui};

use crate::copy;
use crate::inspect::Inspection;
use crate::ui::command::Command;
use crate::ui::palette;
use crate::ui::state::Source;

pub fn show(
    ui: &mut Ui,
    inspection: Option<&Inspection>,
    source: &Source,
    notice: Option<&str>,
) -> Vec<Command> {
    let dark = ui.visuals().dark_mode;
    let mut commands = Vec::new();
    ui.horizontal(|ui| {
        if let Some(notice) = notice {
            ui.label(RichText::new(copy::notice_line(notice)).strong());
            if ui
                .small_button(copy::LABEL_DISMISS)
                .on_hover_text(copy::DISMISS_TOOLTIP)
                .clicked()
            {
                commands.push(Command::DismissNotice);
            }
            ui.separator();
        }
        let Some(inspection) = inspection else {
            ui.label(copy::NOTHING_LOADED);
            return;
        };
        match source {
            Source::Demo => {
                ui.label(copy::DEMO_SOURCE);
            }
            Source::File(path) => {
                ui.label(copy::file_source(path));
            }
            Source::Url | Source::Nothing => {}
        }
        ui.label(RichText::new(inspection.final_url.as_str()).strong());
        let Some(start) = inspection.pages.first() else {
            return;
        };
        if let Some(fetch) = &start.fetch {
            if !fetch.redirects.is_empty() {
                let chain: Vec<String> = fetch
                    .redirects
                    .iter()
                    .map(|h| format!("{} {}", h.status, h.url))
                    .collect();
                ui.label(copy::redirects(fetch.redirects.len()))
                    .on_hover_text(chain.join("\n"));
            }
            // A saved file cut at the size cap has a summary but no HTTP answer.
            if let Some(status) = start.status {
                ui.separator();
                let color = if status >= 400 {
                    palette::error(dark)
                } else {
                    ui.visuals().text_color()
                };
                ui.label(RichText::new(copy::http_status(status)).color(color));
            }
            ui.separator();
            ui.label(copy::page_size(fetch.bytes, fetch.truncated));
            if start.status.is_some() {
                ui.separator();
                ui.label(copy::elapsed_ms(fetch.elapsed_ms));
            }
        }
        if let Some(read) = start.read() {
            ui.separator();
            ui.label(copy::charset_line(
                read.encoding,
                read.charset_source.describe(),
            ));
            if let Some(r) = &read.rendered {
                ui.separator();
                let summary = copy::rendered_summary(r.wait.id(), r.network_idle, r.render_ms);
                let marks = copy::rendered_marks(
                    r.dialogs,
                    r.scripts_stopped,
                    r.dom_read,
                    r.blocked_requests,
                );
                ui.label(copy::rendered_status(r.wait.id(), r.network_idle))
                    .on_hover_text(format!("{summary}{marks}"));
            }
            if read.replaced_bytes {
                let warning = palette::warning(ui.visuals().dark_mode);
                ui.colored_label(warning, copy::BYTES_REPLACED)
                    .on_hover_text(copy::replaced_bytes(read.encoding));
            }
        }
        if inspection.pages.len() > 1 {
            ui.separator();
            let failed = inspection
                .pages
                .iter()
                .filter(|p| p.error().is_some())
                .count();
            let http_errors = inspection
                .pages
                .iter()
                .filter(|p| p.error().is_none() && p.status.is_some_and(|s| s >= 400))
                .count();
            ui.label(copy::crawl_summary(
                inspection.pages.len(),
                failed,
                http_errors,
            ));
        }
    });
    commands
}
