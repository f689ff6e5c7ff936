//! The bottom bar: what was loaded and how (final URL, redirects, status,
//! charset, size, time), or the error in words with the detail on hover.

use egui::{RichText, Ui};

use crate::inspect::Inspection;
use crate::ui::palette;

/// Where the shown inspection came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Source {
    #[default]
    Nothing,
    Demo,
    File(String),
    Url,
}

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
    error: Option<&str>,
    notice: Option<&str>,
) {
    let dark = ui.visuals().dark_mode;
    ui.horizontal(|ui| {
        if let Some(notice) = notice {
            ui.label(RichText::new(format!("ℹ {notice}")).strong());
            ui.separator();
        }
        if let Some(error) = error {
            let first = error.split(": ").next().unwrap_or(error);
            ui.label(RichText::new(format!("✖ {first}")).color(palette::error(dark)))
                .on_hover_text(error);
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
        }
        if inspection.pages.len() > 1 {
            ui.separator();
            let failed = inspection
                .pages
                .iter()
                .filter(|p| p.error.is_some())
                .count();
            ui.label(format!(
                "{} pages crawled, {failed} failed",
                inspection.pages.len()
            ));
        }
    });
}
