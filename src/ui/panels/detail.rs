//! The selected link: its trace rule by rule, the keyword highlighted where it
//! matched, the same-site explainer, what-if answers, and copy buttons.

use egui::{Grid, RichText, Ui};

use crate::copy::{self, Outcome};
use crate::inspect::{InspectedPage, LinkSource};
use crate::policy::compare::Cause;
use crate::policy::explain::WhatIf;
use crate::policy::lints::registrable_domain;
use crate::policy::{LinkDecision, MatchedIn, PageDecision, Settings};
use crate::ui::command::{Command, SelectionCommand};
use crate::ui::panels::target_mark::{self, TargetMark};
use crate::ui::state::CopyWhat;
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
    ui.label(RichText::new(copy::URL_AS_MATCHED).small().weak());
    ui.add(
        egui::Label::new(widgets::highlighted(
            ui,
            haystack.url_part(),
            span_in(MatchedIn::Url),
        ))
        .wrap(),
    );
    if !link.text.is_empty() {
        ui.label(RichText::new(copy::TEXT_AS_MATCHED).small().weak());
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
    ui.label(RichText::new(copy::SAME_SITE_EXPLAINER).strong());
    Grid::new("site")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(RichText::new(k).weak());
                ui.label(RichText::new(v).monospace());
                ui.end_row();
            };
            row(copy::SITE_LINK_HOST, site.link_host.clone());
            row(copy::SITE_LINK_ROOT, site.link_root.clone());
            row(copy::SITE_PAGE_HOST, site.base_host.clone());
            row(copy::SITE_PAGE_ROOT, site.base_root.clone());
            for (label, host, root) in [
                (
                    copy::SITE_LINK_REGISTRABLE,
                    &site.link_host,
                    &site.link_root,
                ),
                (
                    copy::SITE_PAGE_REGISTRABLE,
                    &site.base_host,
                    &site.base_root,
                ),
            ] {
                if let Some(psl) = registrable_domain(host).filter(|d| d != root) {
                    row(label, copy::registrable_differs(&psl));
                }
            }
            let admitted = if site.admitted_by.is_empty() {
                copy::SITE_ADMITTED_BY_NOTHING.to_owned()
            } else {
                copy::admissions(&site)
            };
            row(copy::SITE_ADMITTED_BY, admitted);
        });
}

/// The selected link under the compared profile (Compare with…).
#[derive(Clone, Copy)]
pub struct OtherSide<'a> {
    pub name: &'a str,
    pub decision: &'a PageDecision,
    pub link: &'a LinkDecision,
    pub settings: &'a Settings,
    /// What made the difference, when the link changes.
    pub because: Option<&'a Cause>,
}

/// One side's trace: each rule on its own line and its detail below at the
/// full width, so host names wrap whole, not inside a narrow grid column.
fn trace(ui: &mut Ui, link: &LinkDecision, decision: &PageDecision, settings: &Settings) {
    let dark = ui.visuals().dark_mode;
    for line in copy::trace_lines(link, decision, settings) {
        let (mark, color) = match line.outcome {
            Outcome::Pass => ("✔", palette::pass(dark)),
            Outcome::Fail => ("✖", palette::fail(dark)),
            Outcome::NotChecked => ("–", ui.visuals().weak_text_color()),
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("{} {mark}", line.step)).color(color));
            ui.label(line.rule);
        });
        ui.indent(("trace", line.step), |ui| {
            ui.add(egui::Label::new(line.detail).wrap());
        });
    }
}

/// Both traces side by side: the current settings (A) and the compared ones (B).
fn both_traces(
    ui: &mut Ui,
    link: &LinkDecision,
    page: &InspectedPage,
    settings: &Settings,
    other: OtherSide<'_>,
) {
    let dark = ui.visuals().dark_mode;
    match other.because {
        Some(cause) => {
            ui.label(
                RichText::new(copy::changed_because(other.name, &copy::because(cause)))
                    .color(palette::changed(dark)),
            );
        }
        None => {
            ui.label(RichText::new(copy::SAME_UNDER_B).weak());
        }
    }
    ui.columns(2, |columns| {
        // Left-aligned, not justified: narrow columns of justified text read badly.
        let top_down = egui::Layout::top_down(egui::Align::Min);
        // Each side's verdict chip on a line of its own under its title: after
        // a long profile name a chip has no room left on the title's line.
        columns[0].with_layout(top_down, |ui| {
            ui.label(RichText::new(copy::TRACE_A).strong());
            widgets::badge(ui, link.verdict);
            trace(ui, link, &page.decision, settings);
        });
        columns[1].with_layout(top_down, |ui| {
            ui.label(RichText::new(copy::compared_column(other.name)).strong());
            widgets::badge(ui, other.link.verdict);
            trace(ui, other.link, other.decision, other.settings);
        });
    });
}

/// Draws the detail of `link` on `page`, beside its trace under the compared
/// profile when there is one, and whether it is a target (`target`).
pub fn show(
    ui: &mut Ui,
    page: &InspectedPage,
    link: &LinkDecision,
    settings: &Settings,
    what_ifs: &[WhatIf],
    other: Option<OtherSide<'_>>,
    target: Option<&TargetMark<'_>>,
) -> Vec<Command> {
    let mut commands = Vec::new();
    // Another link opens at its heading, not where the last one was scrolled to.
    let shown = (page.url.as_str().to_owned(), link.index);
    let memory = ui.make_persistent_id("detail_shown");
    let last = ui.data_mut(|d| d.get_temp::<(String, usize)>(memory));
    let another = last.as_ref() != Some(&shown);
    if another {
        ui.data_mut(|d| d.insert_temp(memory, shown));
    }
    let area = egui::ScrollArea::vertical().id_salt("detail");
    let area = if another {
        area.vertical_scroll_offset(0.0)
    } else {
        area
    };
    area.show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.heading(copy::link_heading(link.index));
            widgets::badge(ui, link.verdict);
        });
        widgets::note(ui, copy::verdict_meaning(link.verdict));
        if page.source(link) == Some(LinkSource::RenderedOnly) {
            let color = palette::added_by_script(ui.visuals().dark_mode);
            let line = RichText::new(copy::added_by_script_line()).color(color);
            ui.add(egui::Label::new(line).wrap())
                .on_hover_text(copy::ADDED_BY_SCRIPT_TOOLTIP);
        }
        ui.add_space(4.0);
        ui.label(RichText::new(copy::LABEL_HREF).small().weak());
        ui.add(egui::Label::new(RichText::new(&*link.href).monospace()).wrap());
        ui.label(RichText::new(copy::link_annotations(link.region.id(), link.nofollow)).small())
            .on_hover_text(copy::REGION_TOOLTIP);
        highlighted_parts(ui, link);
        ui.horizontal_wrapped(|ui| {
            if let Some(url) = &link.url {
                if ui
                    .button(copy::LABEL_COPY_URL)
                    .on_hover_text(copy::COPY_URL_SHORTCUT)
                    .clicked()
                {
                    commands.push(SelectionCommand::CopySelected(CopyWhat::Url).into());
                }
                if matches!(url.scheme(), "http" | "https") {
                    ui.hyperlink_to(copy::LABEL_OPEN_IN_BROWSER, url.as_str())
                        .on_hover_text(url.as_str());
                }
            }
            if ui
                .button(copy::LABEL_COPY_EXPLANATION)
                .on_hover_text(copy::COPY_EXPLANATION_SHORTCUT)
                .clicked()
            {
                commands.push(SelectionCommand::CopySelected(CopyWhat::Explanation).into());
            }
        });
        if let Some(target) = target {
            ui.separator();
            commands.extend(target_mark::section(ui, target));
        }
        ui.separator();

        ui.label(RichText::new(copy::TRACE_HEADING).strong());
        match other {
            Some(other) => both_traces(ui, link, page, settings, other),
            None => trace(ui, link, &page.decision, settings),
        }
        ui.separator();
        site_explainer(ui, link, &page.decision.page_host, settings);
        if !what_ifs.is_empty() {
            ui.separator();
            ui.label(RichText::new(copy::WHAT_IF_HEADING).strong());
            for w in what_ifs {
                ui.label(copy::what_if_line(&copy::what_if_text(w)));
            }
        }
    });
    commands
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable as _;

    use super::*;
    use crate::inspect::Inspection;
    use crate::policy::compare::{LinkChange, compare_pages};
    use crate::policy::explain::{PageInput, what_if};
    use crate::ui::test_support;

    /// The pane's inputs and what it gave back.
    struct Pane {
        inspection: Inspection,
        /// Under the compared profile, when comparing: its settings, its
        /// decisions and the shown page's changed links.
        other: Option<(Settings, Vec<PageDecision>, Vec<LinkChange>)>,
        link: usize,
        what_ifs: Vec<WhatIf>,
        commands: Vec<Command>,
    }

    fn pane(link: usize, other: Option<Settings>) -> Harness<'static, Pane> {
        let inspection = test_support::demo();
        let page = &inspection.pages[0];
        let read = page.read().unwrap();
        let input = PageInput {
            candidates: &read.candidates,
            page_url: &page.url,
            base_url: &read.base_url,
            limit: page.decision.limit,
        };
        let what_ifs = what_if(input, inspection.settings(), &page.decision.links[link]);
        let other = other.map(|settings| {
            let decisions = inspection.decide_under(&settings);
            let (ours, theirs) = (inspection.settings().options(), settings.options());
            let changes = compare_pages(&page.decision, &decisions[0], &ours, &theirs);
            (settings, decisions, changes)
        });
        let pane = Pane {
            inspection,
            other,
            link,
            what_ifs,
            commands: Vec::new(),
        };
        let mut harness = test_support::harness(
            egui::vec2(900.0, 1200.0),
            |ui, pane: &mut Pane| {
                let page = &pane.inspection.pages[0];
                let link = &page.decision.links[pane.link];
                let other = pane
                    .other
                    .as_ref()
                    .map(|(settings, decisions, changes)| OtherSide {
                        name: "Lenient",
                        decision: &decisions[0],
                        link: &decisions[0].links[pane.link],
                        settings,
                        because: changes
                            .iter()
                            .find(|c| c.index == pane.link)
                            .map(|c| &c.because),
                    });
                let settings = pane.inspection.settings();
                pane.commands
                    .extend(show(ui, page, link, settings, &pane.what_ifs, other, None));
            },
            pane,
        );
        harness.run();
        harness
    }

    #[test]
    fn the_trace_of_a_link_reads_rule_by_rule() {
        let harness = pane(11, None);
        harness.get_by_label("Link #11");
        harness.get_by_label("No black keyword");
        harness.get_by_label("`tag` in the url, inside `heritage`");
        harness.get_by_label("Trace");
        harness.get_by_label("• no keyword if `tag` is removed from the black keywords");
        assert!(harness.state().commands.is_empty());
    }

    #[test]
    fn the_copy_buttons_ask_for_the_url_and_the_explanation() {
        let mut harness = pane(11, None);
        harness.get_by_label("Copy URL").click();
        harness.run();
        assert_eq!(
            harness.state().commands,
            [Command::from(SelectionCommand::CopySelected(CopyWhat::Url))]
        );
        harness.get_by_label("Copy explanation").click();
        harness.run();
        assert_eq!(
            harness.state().commands,
            [
                Command::from(SelectionCommand::CopySelected(CopyWhat::Url)),
                Command::from(SelectionCommand::CopySelected(CopyWhat::Explanation))
            ]
        );
    }

    /// In debug builds a command notes where it was made: the button's line
    /// in this panel, not the app that carries it out.
    #[cfg(debug_assertions)]
    #[test]
    fn a_clicked_button_command_says_it_came_from_this_panel() {
        let mut harness = pane(11, None);
        harness.get_by_label("Copy URL").click();
        harness.run();
        let sent_from = harness.state().commands.first().map(Command::sent_from);
        assert_eq!(sent_from.map(|at| at.file()), Some(file!()));
    }

    #[test]
    fn comparing_shows_both_traces_side_by_side() {
        let lenient = Settings {
            follow_keywords_black: String::new(),
            ..Settings::default()
        };
        let harness = pane(11, Some(lenient));
        harness.get_by_label("A: current");
        harness.get_by_label("B: Lenient");
        // Without black keywords the link is no longer blacklisted.
        let (_, decisions, changes) = harness.state().other.as_ref().unwrap();
        let change = changes.iter().find(|c| c.index == 11).unwrap();
        let why = copy::changed_because("Lenient", &copy::because(&change.because));
        harness.get_by_label(&why);
        assert!(harness.query_by_label(copy::SAME_UNDER_B).is_none());
        // The heading's badge and A's say blacklisted; B's says what B decides.
        assert_eq!(harness.query_all_by_label("⊘ blacklisted").count(), 2);
        let theirs = decisions[0].links[11].verdict;
        assert_ne!(theirs, crate::policy::Verdict::Blacklisted);
        harness.get_by_label(copy::verdict_badge(theirs));
    }
}
