//! The bottom bar: the last status message, and what was loaded and how (final
//! URL, redirects, status, charset, size, time, crawled and failed pages).
//! Errors are not here: they get a banner above the table.

use egui::{RichText, Ui};

use crate::copy;
use crate::inspect::Inspection;
use crate::ui::command::Command;
use crate::ui::palette;
use crate::ui::state::Source;

fn human_bytes(n: usize) -> String {
    if n >= 1024 * 1024 {
        format!("{:.1} MB", n as f64 / (1024.0 * 1024.0))
    } else if n >= 1024 {
        format!("{:.0} KB", n as f64 / 1024.0)
    } else {
        format!("{n} B")
    }
}

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
            ui.label(RichText::new(format!("ℹ {notice}")).strong());
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
            ui.label("Nothing loaded.");
            return;
        };
        match source {
            Source::Demo => {
                ui.label("Demo page (bundled, no network):");
            }
            Source::File(path) => {
                ui.label(format!("File {path} as"));
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
                ui.label(format!("← {} redirect(s)", fetch.redirects.len()))
                    .on_hover_text(chain.join("\n"));
            }
            ui.separator();
            let status = start.status.unwrap_or(0);
            let color = if status >= 400 {
                palette::error(dark)
            } else {
                ui.visuals().text_color()
            };
            ui.label(RichText::new(format!("HTTP {status}")).color(color));
            ui.separator();
            ui.label(format!(
                "{}{}",
                human_bytes(fetch.bytes),
                if fetch.truncated {
                    " (cut at the size cap)"
                } else {
                    ""
                }
            ));
            ui.separator();
            ui.label(format!("{} ms", fetch.elapsed_ms));
        }
        if let Some(read) = &start.read {
            ui.separator();
            ui.label(format!(
                "{} ({})",
                read.encoding,
                read.charset_source.describe()
            ));
            if let Some(r) = &read.rendered {
                ui.separator();
                ui.label(copy::rendered_status(r.wait.id(), r.network_idle))
                    .on_hover_text(copy::rendered_summary(
                        r.wait.id(),
                        r.network_idle,
                        r.render_ms,
                    ));
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
                .filter(|p| p.error.is_some())
                .count();
            let http_errors = inspection
                .pages
                .iter()
                .filter(|p| p.error.is_none() && p.status.is_some_and(|s| s >= 400))
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
