//! The bottom bar: the last status message, and what was loaded and how (final
//! URL, redirects, status, charset, size, time, what scripts changed, crawled
//! and failed pages), the host mapping in use and the theme switch. Errors are
//! not here: they get a banner above the table.
//!
//! The right-hand end is laid out first (theme switch, host mapping, the
//! facts), so it always has its room; the facts are one label elided to what
//! is left after the URL's share, so the URL's start is always seen; the
//! message, the file and the URL get the rest and are elided to it, the full
//! text on hover.

use egui::text::LayoutJob;
use egui::{Label, RichText, Ui};

use crate::copy;
use crate::inspect::{InspectedPage, Inspection, LinkSource};
use crate::ui::command::{Command, ViewCommand};
use crate::ui::palette;
use crate::ui::state::Source;

/// What the status bar shows.
pub struct StatusView<'a> {
    pub inspection: Option<&'a Inspection>,
    pub source: &'a Source,
    pub notice: Option<&'a str>,
    /// The host mappings as typed (Settings › Advanced): marked when they do
    /// not parse, as the next fetch would be refused.
    pub host_mapping: &'a str,
    /// The host mappings the shown pages were fetched with.
    pub host_mapping_used: &'a [crate::fetch::Resolve],
}

/// How a fact is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tone {
    Normal,
    Error,
    Warning,
}

/// One fact about the loaded page, with its words on hover.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fact {
    text: String,
    tone: Tone,
    hover: Option<String>,
}

impl Fact {
    fn plain(text: String) -> Self {
        Self {
            text,
            tone: Tone::Normal,
            hover: None,
        }
    }

    fn hover(mut self, hover: String) -> Self {
        self.hover = Some(hover);
        self
    }
}

/// The links scripts added to the start page and the ones they removed, when
/// the served HTML could be compared with the DOM.
fn script_changes(page: &InspectedPage) -> Option<(usize, usize)> {
    let read = page.read()?;
    let rendered = read.rendered.as_ref()?;
    let sources: Vec<Option<LinkSource>> =
        (0..read.candidates.len()).map(|i| read.source(i)).collect();
    // Without the served HTML no link has a source: nothing was compared.
    if sources.first().is_some_and(Option::is_none) {
        return None;
    }
    let added = sources
        .iter()
        .filter(|s| **s == Some(LinkSource::RenderedOnly))
        .count();
    Some((added, rendered.static_only.len()))
}

/// The facts after the URL, in reading order.
fn facts(inspection: &Inspection) -> Vec<Fact> {
    let mut out = Vec::new();
    let Some(start) = inspection.pages.first() else {
        return out;
    };
    let rendered = start.rendered();
    if let Some(fetch) = &start.fetch {
        if !fetch.redirects.is_empty() {
            let chain: Vec<String> = fetch
                .redirects
                .iter()
                .map(|h| format!("{} {}", h.status, h.url))
                .collect();
            out.push(Fact::plain(copy::redirects(fetch.redirects.len())).hover(chain.join("\n")));
        }
        // A saved file cut at the size cap has a summary but no HTTP answer.
        if let Some(status) = start.status {
            out.push(Fact {
                tone: if status >= 400 {
                    Tone::Error
                } else {
                    Tone::Normal
                },
                ..Fact::plain(copy::http_status(status))
            });
        }
        out.push(Fact::plain(copy::page_size(fetch.bytes, fetch.truncated)));
        // A rendered page's time is its render time, said below.
        if start.status.is_some() && rendered.is_none() {
            out.push(Fact::plain(copy::fetch_time(fetch.elapsed_ms)));
        }
    }
    if let Some(read) = start.read() {
        out.push(Fact::plain(copy::charset_line(
            read.encoding,
            read.charset_source.describe(),
        )));
        if let Some(r) = &read.rendered {
            let summary = copy::rendered_summary(r.wait.id(), r.network_idle, r.render_ms);
            let marks =
                copy::rendered_marks(r.dialogs, r.scripts_stopped, r.dom_read, r.blocked_requests);
            out.push(
                Fact::plain(copy::rendered_status(r.wait.id(), r.network_idle))
                    .hover(format!("{summary}{marks}")),
            );
            out.push(Fact::plain(copy::render_time(r.render_ms)));
            // Nothing changed says nothing worth its room.
            if let Some((added, removed)) =
                script_changes(start).filter(|&(added, removed)| added + removed > 0)
            {
                out.push(
                    Fact::plain(copy::script_changes(added, removed))
                        .hover(copy::SCRIPT_CHANGES_TOOLTIP.to_owned()),
                );
            }
        }
        if read.replaced_bytes {
            out.push(Fact {
                tone: Tone::Warning,
                ..Fact::plain(copy::BYTES_REPLACED.to_owned())
                    .hover(copy::replaced_bytes(read.encoding))
            });
        }
    }
    if inspection.pages.len() > 1 {
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
        out.push(Fact::plain(copy::crawl_summary(
            inspection.pages.len(),
            failed,
            http_errors,
        )));
    }
    out
}

/// The share of the bar the URL keeps, however many facts there are.
const URL_SHARE: f32 = 0.3;

/// The facts as one line, each in its tone.
fn facts_line(ui: &Ui, facts: &[Fact]) -> LayoutJob {
    let dark = ui.visuals().dark_mode;
    let mut job = LayoutJob::default();
    for (i, fact) in facts.iter().enumerate() {
        if i > 0 {
            RichText::new(copy::FACT_SEPARATOR).weak().append_to(
                &mut job,
                ui.style(),
                egui::FontSelection::Default,
                egui::Align::Center,
            );
        }
        let color = match fact.tone {
            Tone::Normal => ui.visuals().text_color(),
            Tone::Error => palette::error(dark),
            Tone::Warning => palette::warning(dark),
        };
        RichText::new(&fact.text).color(color).append_to(
            &mut job,
            ui.style(),
            egui::FontSelection::Default,
            egui::Align::Center,
        );
    }
    job
}

/// Every fact on its line, each with its details below it.
fn facts_hover(facts: &[Fact]) -> String {
    let lines: Vec<String> = facts
        .iter()
        .map(|fact| match &fact.hover {
            Some(hover) => format!("{}\n    {}", fact.text, hover.replace('\n', "\n    ")),
            None => fact.text.clone(),
        })
        .collect();
    lines.join("\n")
}

/// Dark or light theme (the palette has both).
fn theme_switch(ui: &mut Ui) {
    let (label, theme) = if ui.visuals().dark_mode {
        (copy::LIGHT_THEME, egui::Theme::Light)
    } else {
        (copy::DARK_THEME, egui::Theme::Dark)
    };
    if ui.small_button(label).clicked() {
        ui.ctx().set_theme(theme);
    }
}

/// The host mappings the shown page was fetched with, and whether the field
/// as typed now does not parse.
fn host_mapping_mark(ui: &mut Ui, typed: &str, used: &[crate::fetch::Resolve]) {
    if let Err(e) = crate::fetch::Resolve::parse_list(typed) {
        let color = palette::warning(ui.visuals().dark_mode);
        ui.colored_label(color, copy::BAD_HOST_MAPPING_MARK)
            .on_hover_text(copy::bad_host_mapping(&e));
        ui.separator();
    }
    if !used.is_empty() {
        ui.label(copy::host_mapping_mark(used))
            .on_hover_text(copy::host_mapping_tooltip(used));
        ui.separator();
    }
}

/// `label` elided to at most `max_width` (egui shows the full text on hover).
fn elided(ui: &mut Ui, label: Label, max_width: f32) -> egui::Response {
    ui.scope(|ui| {
        ui.set_max_width(max_width.max(0.0));
        ui.add(label.truncate())
    })
    .inner
}

/// The last part of a path, as the status bar names a file.
pub fn file_name(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned())
}

pub fn show(ui: &mut Ui, view: &StatusView<'_>) -> Vec<Command> {
    let mut commands = Vec::new();
    let url_room = ui.available_width() * URL_SHARE;
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
        theme_switch(ui);
        ui.separator();
        host_mapping_mark(ui, view.host_mapping, view.host_mapping_used);
        let facts = view.inspection.map(facts).unwrap_or_default();
        if !facts.is_empty() {
            let room = ui.available_width() - url_room;
            let label = Label::new(facts_line(ui, &facts)).show_tooltip_when_elided(false);
            elided(ui, label, room).on_hover_text(facts_hover(&facts));
            ui.separator();
        }
        ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
            if let Some(notice) = view.notice {
                let room = ui.available_width() * 0.4;
                let notice = RichText::new(copy::notice_line(notice)).strong();
                elided(ui, Label::new(notice), room);
                if ui
                    .small_button(copy::LABEL_DISMISS)
                    .on_hover_text(copy::DISMISS_TOOLTIP)
                    .clicked()
                {
                    commands.push(ViewCommand::DismissNotice.into());
                }
                ui.separator();
            }
            let Some(inspection) = view.inspection else {
                ui.label(copy::NOTHING_LOADED);
                return;
            };
            match view.source {
                Source::Demo => {
                    ui.label(copy::DEMO_SOURCE);
                }
                Source::File(path) => {
                    let name = file_name(path);
                    let room = ui.available_width() * 0.5;
                    // The whole path on hover, elided or not.
                    let label =
                        Label::new(copy::file_source(&name)).show_tooltip_when_elided(false);
                    elided(ui, label, room).on_hover_text(path);
                }
                Source::Archive { path, info } => {
                    let room = ui.available_width() * 0.5;
                    let captured = info.captured.as_deref();
                    let words = copy::archive_source(&file_name(path), captured);
                    let label = Label::new(words).show_tooltip_when_elided(false);
                    // The whole path and the capture date on hover.
                    elided(ui, label, room).on_hover_text(copy::archive_source(path, captured));
                }
                Source::Url | Source::Nothing => {}
            }
            let url = RichText::new(inspection.final_url.as_str()).strong();
            ui.add(Label::new(url).truncate());
        });
    });
    commands
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::{FetchSummary, FetchedPage, Rendered, Wait};
    use crate::inspect::Limits;
    use crate::policy::Settings;

    fn rendered_page() -> Inspection {
        rendered_from("<a href=/about>About</a><a href=/blog>Blog</a>")
    }

    /// A rendered page whose server sent `served`.
    fn rendered_from(served: &str) -> Inspection {
        let body = "<a href=/about>About</a><a href=/kontakt>Kontakt</a>";
        let page = FetchedPage {
            final_url: url::Url::parse("https://acme.test/").unwrap(),
            status: 200,
            charset: Some("utf-8".into()),
            body: body.as_bytes().to_vec(),
            summary: FetchSummary {
                redirects: Vec::new(),
                content_type: Some("text/html".into()),
                bytes: body.len(),
                truncated: false,
                elapsed_ms: 1234,
            },
            capture: None,
            rendered: Some(Rendered {
                served_html: Some(served.into()),
                network_idle: true,
                wait: Wait::Load,
                render_ms: 1234,
                ..Default::default()
            }),
        };
        let url = page.final_url.clone();
        let pages = vec![InspectedPage::fetched(page, 1, None)];
        Inspection::new(
            url.clone(),
            url,
            Limits::of_depth(2),
            Settings::default(),
            pages,
            false,
        )
    }

    #[test]
    fn a_rendered_page_says_its_render_time_and_what_scripts_changed() {
        let texts: Vec<String> = facts(&rendered_page())
            .into_iter()
            .map(|f| f.text)
            .collect();
        assert!(texts.contains(&"rendered in 1.2 s".to_owned()), "{texts:?}");
        assert!(
            texts.contains(&"scripts added 1, removed 1".to_owned()),
            "{texts:?}"
        );
        // The time is said once, labelled: no bare "1234 ms".
        assert!(!texts.iter().any(|t| t.contains("1234")), "{texts:?}");
    }

    #[test]
    fn scripts_that_changed_no_link_are_not_mentioned() {
        let page = rendered_from("<a href=/about>About</a><a href=/kontakt>Kontakt</a>");
        let texts: Vec<String> = facts(&page).into_iter().map(|f| f.text).collect();
        assert!(texts.contains(&"rendered in 1.2 s".to_owned()), "{texts:?}");
        assert!(!texts.iter().any(|t| t.contains("scripts")), "{texts:?}");
    }
}
