//! The bottom bar: the last status message, and what was loaded and how (final
//! URL, redirects, status, charset, size, time, what scripts changed, crawled
//! and failed pages), the host mapping in use and the theme switch. Errors are
//! not here: they get a banner above the table.
//!
//! The right-hand end is laid out first (theme switch, host mapping, the
//! facts), so it always has its room. The left keeps the least room of its
//! parts: the URL its share of the bar, the message and the file's name
//! theirs (each less when shorter); the facts are one label elided to what
//! is left after that, and what they leave goes to the message, then the
//! file, then the URL. Each is elided to its room, the full text on hover.

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
    /// Shown on hover over the notice instead of its words (the whole path
    /// of a file it names by its name).
    pub notice_hover: Option<&'a str>,
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

/// The share of the bar the URL keeps at least (less only when it is
/// shorter), however much else there is to say: at 800 px a notice and the
/// facts left it 12%.
const URL_SHARE: f32 = 0.3;
/// The most of the bar the notice is sure of (more when the facts leave
/// it): at 800 px, 240 px, a ticket archive's name for a usual host (a
/// quarter of the bar cut `acme.test-2026-12-02.warc.gz`).
const NOTICE_SHARE: f32 = 0.3;
/// The most of the bar the file or archive name is sure of; the whole
/// name and path are on hover.
const SOURCE_SHARE: f32 = 0.15;

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

/// `text`'s width on one line.
fn text_width(ui: &Ui, text: impl Into<egui::WidgetText>) -> f32 {
    text.into()
        .into_galley(
            ui,
            Some(egui::TextWrapMode::Extend),
            f32::INFINITY,
            egui::TextStyle::Body,
        )
        .size()
        .x
}

/// The room a separator takes in a row, its spacing included.
fn separator_width(ui: &Ui) -> f32 {
    6.0 + ui.spacing().item_spacing.x
}

/// What the bar says of where the pages came from, before the URL, with
/// its words on hover; `None` for a fetched page.
fn source_words(source: &Source) -> Option<(String, String)> {
    match source {
        Source::Demo => Some((copy::DEMO_SOURCE.to_owned(), copy::DEMO_SOURCE.to_owned())),
        // The file's name; the whole path on hover.
        Source::File(path) => Some((copy::file_source(&file_name(path)), path.clone())),
        // The file's name; the whole path and the capture date on hover.
        Source::Archive { path, info } => {
            let captured = info.captured.as_deref();
            Some((
                copy::archive_source(&file_name(path), captured),
                copy::archive_source(path, captured),
            ))
        }
        Source::Url | Source::Nothing => None,
    }
}

/// The least room the left of the bar keeps for each of its parts, each
/// with the gap after it: the URL its share (or all of it, when shorter),
/// the notice and the source name theirs.
struct LeftRoom {
    notice: f32,
    /// Of `notice`, what its Close button and the gaps take.
    notice_close: f32,
    source: f32,
    url: f32,
}

impl LeftRoom {
    fn of(ui: &Ui, bar: f32, view: &StatusView<'_>, source: Option<&str>) -> Self {
        let gap = ui.spacing().item_spacing.x;
        let notice_close = view.notice.map_or(0.0, |_| {
            let close = text_width(ui, copy::LABEL_DISMISS) + 2.0 * ui.spacing().button_padding.x;
            gap + close + gap + separator_width(ui)
        });
        let notice = view.notice.map_or(0.0, |notice| {
            let words = text_width(ui, RichText::new(copy::notice_line(notice)).strong());
            words.min(bar * NOTICE_SHARE) + notice_close
        });
        let Some(inspection) = view.inspection else {
            return Self {
                notice,
                notice_close,
                source: text_width(ui, copy::NOTHING_LOADED) + gap,
                url: 0.0,
            };
        };
        let source = source.map_or(0.0, |words| {
            text_width(ui, words).min(bar * SOURCE_SHARE) + gap
        });
        let url = text_width(ui, RichText::new(inspection.final_url.as_str()).strong());
        Self {
            notice,
            notice_close,
            source,
            url: url.min(bar * URL_SHARE),
        }
    }

    fn total(&self) -> f32 {
        self.notice + self.source + self.url
    }
}

pub fn show(ui: &mut Ui, view: &StatusView<'_>) -> Vec<Command> {
    let mut commands = Vec::new();
    let bar = ui.available_width();
    let source = view.inspection.and_then(|_| source_words(view.source));
    let left = LeftRoom::of(
        ui,
        bar,
        view,
        source.as_ref().map(|(words, _)| words.as_str()),
    );
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
        theme_switch(ui);
        ui.separator();
        host_mapping_mark(ui, view.host_mapping, view.host_mapping_used);
        let facts = view.inspection.map(facts).unwrap_or_default();
        if !facts.is_empty() {
            // The facts have their words on hover: they give way first.
            let room = ui.available_width()
                - left.total()
                - separator_width(ui)
                - ui.spacing().item_spacing.x;
            let label = Label::new(facts_line(ui, &facts)).show_tooltip_when_elided(false);
            elided(ui, label, room).on_hover_text(facts_hover(&facts));
            ui.separator();
        }
        ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
            if let Some(notice) = view.notice {
                // What the facts left beyond the others' least room is the
                // notice's first, then the source's, then the URL's.
                let room = ui.available_width() - left.source - left.url - left.notice_close;
                let words = RichText::new(copy::notice_line(notice)).strong();
                match view.notice_hover {
                    Some(hover) => {
                        let label = Label::new(words).show_tooltip_when_elided(false);
                        elided(ui, label, room).on_hover_text(hover);
                    }
                    None => {
                        elided(ui, Label::new(words), room);
                    }
                }
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
            if let Some((words, hover)) = &source {
                let room = ui.available_width() - left.url - ui.spacing().item_spacing.x;
                let label = Label::new(words.as_str()).show_tooltip_when_elided(false);
                elided(ui, label, room).on_hover_text(hover.as_str());
            }
            let url = RichText::new(inspection.final_url.as_str()).strong();
            ui.add(Label::new(url).truncate());
        });
    });
    commands
}

#[cfg(test)]
mod tests {
    use egui_kittest::kittest::Queryable as _;

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

    /// What the bar is given in the kittests below.
    struct Bar {
        inspection: Inspection,
        source: Source,
        notice: Option<String>,
        notice_hover: Option<String>,
    }

    /// A fetched page at a long URL, with a redirect and the usual facts.
    fn long_url_page() -> Inspection {
        let long = format!(
            "https://staging.acme.test/{}/index.html",
            "a-very-long-path-segment".repeat(6)
        );
        let body = "<a href=/about>About</a>";
        let page = FetchedPage {
            final_url: url::Url::parse(&long).unwrap(),
            status: 200,
            charset: Some("utf-8".into()),
            body: body.as_bytes().to_vec(),
            summary: FetchSummary {
                redirects: Vec::new(),
                content_type: Some("text/html".into()),
                bytes: body.len(),
                truncated: false,
                elapsed_ms: 87,
            },
            capture: None,
            rendered: None,
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

    fn bar(width: f32, bar: Bar) -> egui_kittest::Harness<'static, Bar> {
        let mut harness = crate::ui::test_support::harness(
            egui::vec2(width, 40.0),
            |ui, bar: &mut Bar| {
                let view = StatusView {
                    inspection: Some(&bar.inspection),
                    source: &bar.source,
                    notice: bar.notice.as_deref(),
                    notice_hover: bar.notice_hover.as_deref(),
                    host_mapping: "",
                    host_mapping_used: &[],
                };
                let _ = show(ui, &view);
            },
            bar,
        );
        harness.run();
        harness
    }

    /// The text a label shows, as drawn (elided or not): its text runs.
    fn shown_text(harness: &egui_kittest::Harness<'_, Bar>, starts: &str) -> String {
        harness
            .query_all_by_role(egui::accesskit::Role::TextRun)
            .filter_map(|n| n.value())
            .find(|v| v.starts_with(starts))
            .unwrap_or_default()
    }

    const SAVED: &str = "Saved acme.test-2026-12-02.warc.gz for the ticket (1 page, 24 B).";

    #[test]
    fn at_800_px_the_saved_notice_names_its_file_and_the_url_keeps_a_fair_share() {
        let inspection = long_url_page();
        let url = inspection.final_url.to_string();
        let mut harness = bar(
            800.0,
            Bar {
                inspection,
                source: Source::Url,
                notice: Some(SAVED.into()),
                notice_hover: Some("/home/ana/tickets/acme.test-2026-12-02.warc.gz".into()),
            },
        );
        let shown = shown_text(&harness, "ℹ Saved");
        assert!(shown.contains("acme.test-2026-12-02.warc.gz"), "{shown:?}");
        let width = harness.get_by_label(&url).rect().width();
        assert!(width >= 800.0 * 0.25, "the URL has only {width} px");
        // The facts are there too, elided after the URL.
        let facts = harness.get_by_label_contains("HTTP 200").rect();
        assert!(facts.width() >= 50.0, "the facts have only {facts:?}");
        // The whole path on hover.
        harness.get_by_label(&format!("ℹ {SAVED}")).hover();
        harness.run();
        harness.get_by_label("/home/ana/tickets/acme.test-2026-12-02.warc.gz");
    }

    #[test]
    fn at_800_px_a_saved_file_a_notice_and_the_facts_leave_the_url_a_fair_share() {
        let inspection = long_url_page();
        let url = inspection.final_url.to_string();
        let harness = bar(
            800.0,
            Bar {
                inspection,
                source: Source::File("/home/ana/pages/a-rather-long-saved-page-name.html".into()),
                notice: Some(SAVED.into()),
                notice_hover: None,
            },
        );
        let width = harness.get_by_label(&url).rect().width();
        assert!(width >= 800.0 * 0.25, "the URL has only {width} px");
        let file = harness
            .get_by_label("File a-rather-long-saved-page-name.html as")
            .rect();
        let notice = harness.get_by_label(&format!("ℹ {SAVED}")).rect();
        assert!(
            notice.max.x <= file.min.x && file.max.x <= harness.get_by_label(&url).rect().min.x
        );
    }

    #[test]
    fn a_short_notice_and_no_facts_to_spare_leave_the_url_whole() {
        let inspection = rendered_page();
        let url = inspection.final_url.to_string();
        let harness = bar(
            1024.0,
            Bar {
                inspection,
                source: Source::Url,
                notice: Some("Copied to the clipboard.".into()),
                notice_hover: None,
            },
        );
        assert_eq!(shown_text(&harness, "ℹ "), "ℹ Copied to the clipboard.");
        assert_eq!(shown_text(&harness, "https://"), url);
    }
}
