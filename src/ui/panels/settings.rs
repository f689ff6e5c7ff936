//! The left panel: one control per storage-data key, the copy that says how the
//! options combine, and the live lints.

use egui::{RichText, Ui};

use crate::copy;
use crate::policy::settings::{KEY_ALLOWED, KEY_BLACK, KEY_SKIP_ASSETS, KEY_SUBDOMAIN, KEY_WHITE};
use crate::policy::{Lint, MAX_ITEMS, MAX_LIST_CHARS, Settings, SiblingRoot, parse_list};
use crate::ui::command::{Command, SettingsCommand};
use crate::ui::palette;
use crate::ui::state::RememberedWindowOptions;
use crate::ui::widgets::note;

/// "Changed from the defaults" with a one-click revert; true when clicked.
fn revert_button(ui: &mut Ui, changed: bool) -> bool {
    changed
        && ui
            .add(egui::Button::new(RichText::new(copy::LABEL_REVERT).small()).small())
            .on_hover_text(copy::REVERT_TOOLTIP)
            .clicked()
}

/// A checkbox labelled in plain words with its storage key, and the revert
/// button when it differs from the default: (toggled, revert clicked).
fn checkbox_row(
    ui: &mut Ui,
    value: &mut bool,
    label: &str,
    key: &'static str,
    tooltip: &str,
    changed: &[&str],
) -> (bool, bool) {
    // Wrapped, so the revert button goes to a new line instead of widening the panel.
    ui.horizontal_wrapped(|ui| {
        let toggled = ui
            .checkbox(value, copy::setting_with_key(label, key))
            .on_hover_text(tooltip)
            .changed();
        (toggled, revert_button(ui, changed.contains(&key)))
    })
    .inner
}

/// The plain-words label with the storage key beside it; returns the label's id
/// so the field can be named by it (screen readers, UI tests), and whether the
/// revert button was clicked.
fn key_label(ui: &mut Ui, label: &str, key: &'static str, changed: &[&str]) -> (egui::Id, bool) {
    ui.horizontal_wrapped(|ui| {
        let id = ui.label(RichText::new(label).strong()).id;
        ui.label(
            RichText::new(copy::key_suffix(key))
                .monospace()
                .small()
                .weak(),
        );
        (id, revert_button(ui, changed.contains(&key)))
    })
    .inner
}

/// Chips drawn per list at most: a pasted list of 100,000 keywords would
/// otherwise cost a second a frame in buttons alone.
const MAX_CHIPS: usize = 100;

fn chips(ui: &mut Ui, items: &[String], white: bool) {
    let dark = ui.visuals().dark_mode;
    let fill = if white {
        palette::white_chip(dark)
    } else {
        palette::black_chip(dark)
    };
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing = egui::vec2(4.0, 4.0);
        if items.is_empty() {
            ui.label(RichText::new(copy::EMPTY_LIST).italics().weak());
        }
        let n = items.len();
        for (i, item) in items.iter().enumerate().take(MAX_CHIPS) {
            let text = if white {
                format!("{item} {}", n - i)
            } else {
                item.clone()
            };
            // A button knows its size before it is placed, so the row wraps
            // cleanly; it never wraps inside itself (关于 stays on one line).
            ui.add(
                egui::Button::new(RichText::new(text).small())
                    .wrap_mode(egui::TextWrapMode::Extend)
                    .fill(fill)
                    .corner_radius(8.0)
                    .sense(egui::Sense::hover()),
            )
            .on_hover_text(if white {
                copy::white_keyword_tooltip(n - i)
            } else {
                copy::BLACK_KEYWORD_TOOLTIP.to_owned()
            });
        }
        if n > MAX_CHIPS {
            ui.label(
                RichText::new(copy::more_chips(n - MAX_CHIPS))
                    .small()
                    .weak(),
            );
        }
    });
}

/// A list's text field; a list past the limits in length or items (a paste
/// of 100,000 keywords) is not laid out for editing, which alone would take a
/// fifth of a second a frame: it says how large it is and offers to clear it
/// (its `↺ default` stays beside the label).
fn list_field(ui: &mut Ui, value: &mut String, id: &str, label: egui::Id) -> bool {
    let items = value
        .split(',')
        .filter(|item| !item.trim().is_empty())
        .count();
    if value.chars().count() > MAX_LIST_CHARS || items > MAX_ITEMS {
        let mut cleared = false;
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(copy::list_too_large_to_edit(items, value.len())).weak());
            cleared = ui.small_button(copy::LABEL_CLEAR_LIST).clicked();
        });
        if cleared {
            value.clear();
        }
        return cleared;
    }
    ui.add(
        egui::TextEdit::multiline(value)
            .id_salt(id)
            .desired_rows(2)
            .desired_width(ui.available_width()),
    )
    .labelled_by(label)
    .changed()
}

/// The window's own options, folded away at the bottom: the host mapping,
/// and why it does not parse.
fn advanced(ui: &mut Ui, window_options: &mut RememberedWindowOptions) {
    egui::CollapsingHeader::new(RichText::new(copy::ADVANCED_HEADING).strong())
        .id_salt("advanced")
        .default_open(!window_options.host_mapping.trim().is_empty())
        .show(ui, |ui| {
            let label = ui.label(copy::LABEL_HOST_MAPPING).id;
            ui.add(
                egui::TextEdit::singleline(&mut window_options.host_mapping)
                    .id_salt("host_mapping")
                    .hint_text(copy::HOST_MAPPING_HINT)
                    .desired_width(ui.available_width()),
            )
            .labelled_by(label);
            if let Err(e) = window_options.host_mapping() {
                let color = palette::error(ui.visuals().dark_mode);
                ui.add(egui::Label::new(RichText::new(copy::error_line(&e)).color(color)).wrap());
            }
            note(ui, copy::HOST_MAPPING_NOTE);
        });
}

/// Draws the settings and, at the bottom, the window's own options; returns
/// what the app should do. With `scroll_to_warnings` the warnings are
/// scrolled into view.
pub fn show(
    ui: &mut Ui,
    settings: &mut Settings,
    window_options: &mut RememberedWindowOptions,
    lints: &[Lint],
    suggestions: &[SiblingRoot],
    scroll_to_warnings: bool,
) -> Vec<Command> {
    let mut edited = false;
    let mut commands = Vec::new();
    let changed = settings.changed_keys();
    let revert = |commands: &mut Vec<Command>, clicked: bool, key: &'static str| {
        if clicked {
            commands.push(SettingsCommand::RevertKey(key).into());
        }
    };
    egui::ScrollArea::vertical().show(ui, |ui| {
        ui.heading(copy::SETTINGS_HEADING);
        note(ui, copy::SETTINGS_NOTE);
        ui.add_space(6.0);

        ui.label(RichText::new(copy::SAME_SITE_HEADING).strong().size(15.0));
        let (e, clicked) = checkbox_row(
            ui,
            &mut settings.follow_subdomain,
            copy::LABEL_SUBDOMAIN,
            KEY_SUBDOMAIN,
            &copy::subdomain_tooltip(),
            &changed,
        );
        edited |= e;
        revert(&mut commands, clicked, KEY_SUBDOMAIN);
        let (label, clicked) = key_label(ui, copy::LABEL_ALLOWED, KEY_ALLOWED, &changed);
        revert(&mut commands, clicked, KEY_ALLOWED);
        edited |= list_field(ui, &mut settings.follow_allowed_domains, "allowed", label);
        if !suggestions.is_empty() {
            ui.label(RichText::new(copy::SIBLING_ROOTS_HEADING).small())
                .on_hover_text(copy::SIBLING_ROOTS_TOOLTIP);
            ui.horizontal_wrapped(|ui| {
                for sibling in suggestions {
                    if ui
                        .small_button(copy::add_sibling_root(&sibling.domain, sibling.links))
                        .clicked()
                    {
                        commands
                            .push(SettingsCommand::AddAllowedDomain(sibling.domain.clone()).into());
                    }
                }
            });
        }
        note(ui, copy::HOW_DOMAINS_STACK);
        note(ui, copy::ROOT_DOMAIN_NOTE);
        ui.separator();

        ui.label(
            RichText::new(copy::KEYWORDS_SETTINGS_HEADING)
                .strong()
                .size(15.0),
        );
        let (label, clicked) = key_label(ui, copy::LABEL_BLACK, KEY_BLACK, &changed);
        revert(&mut commands, clicked, KEY_BLACK);
        edited |= list_field(ui, &mut settings.follow_keywords_black, "black", label);
        chips(ui, &parse_list(&settings.follow_keywords_black), false);
        ui.add_space(4.0);
        let (label, clicked) = key_label(ui, copy::LABEL_WHITE, KEY_WHITE, &changed);
        revert(&mut commands, clicked, KEY_WHITE);
        edited |= list_field(ui, &mut settings.follow_keywords_white, "white", label);
        chips(ui, &parse_list(&settings.follow_keywords_white), true);
        note(ui, copy::HOW_KEYWORDS_WORK);
        ui.separator();

        let (e, clicked) = checkbox_row(
            ui,
            &mut settings.follow_skip_assets,
            copy::LABEL_SKIP_ASSETS,
            KEY_SKIP_ASSETS,
            &copy::skip_assets_tooltip(),
            &changed,
        );
        edited |= e;
        revert(&mut commands, clicked, KEY_SKIP_ASSETS);
        note(ui, copy::HOW_ASSETS_WORK);
        ui.separator();

        let dark = ui.visuals().dark_mode;
        if lints.is_empty() {
            ui.label(RichText::new(copy::NO_WARNINGS).weak());
        } else {
            let heading = ui.label(RichText::new(copy::warnings_heading(lints.len())).strong());
            if scroll_to_warnings {
                heading.scroll_to_me(Some(egui::Align::TOP));
            }
            for lint in lints {
                ui.horizontal_top(|ui| {
                    ui.label(RichText::new("⚠").color(palette::warning(dark)));
                    ui.add(egui::Label::new(copy::lint_message(lint)).wrap())
                        .on_hover_text(lint.code.id());
                });
            }
        }
        ui.add_space(8.0);
        if ui
            .add_enabled(
                *settings != Settings::default(),
                egui::Button::new(copy::LABEL_RESET),
            )
            .clicked()
        {
            commands.push(SettingsCommand::ResetSettings.into());
        }
        ui.separator();
        advanced(ui, window_options);
    });
    if edited {
        commands.push(SettingsCommand::SettingsEdited.into());
    }
    commands
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT as _, Queryable as _};

    use super::*;
    use crate::policy::lint_settings;
    use crate::ui::command::{SettingsCommand, Subject};
    use crate::ui::test_support;

    /// What the panel is given, and the commands it gave back.
    struct Panel {
        settings: Settings,
        window_options: RememberedWindowOptions,
        suggestions: Vec<SiblingRoot>,
        commands: Vec<Command>,
    }

    /// The panel alone over `settings`, tall enough that nothing scrolls away.
    fn panel(settings: Settings, suggestions: Vec<SiblingRoot>) -> Harness<'static, Panel> {
        let panel = Panel {
            settings,
            window_options: RememberedWindowOptions::default(),
            suggestions,
            commands: Vec::new(),
        };
        let mut harness = test_support::harness(
            egui::vec2(360.0, 1600.0),
            |ui, panel: &mut Panel| {
                // The lints of the settings on screen, as the app hands them over.
                let lints = lint_settings(&panel.settings);
                let commands = show(
                    ui,
                    &mut panel.settings,
                    &mut panel.window_options,
                    &lints,
                    &panel.suggestions,
                    false,
                );
                panel.commands.extend(commands);
            },
            panel,
        );
        harness.run();
        harness
    }

    // What the panel asked, one helper per kind: the only lines that name
    // `Command`'s variants, so a change of its shape is mended here.
    fn edited(c: &Command) -> bool {
        matches!(
            c.subject(),
            Subject::Settings(SettingsCommand::SettingsEdited)
        )
    }
    fn reverted(c: &Command) -> Option<&'static str> {
        match c.subject() {
            Subject::Settings(SettingsCommand::RevertKey(key)) => Some(key),
            _ => None,
        }
    }
    fn reset(c: &Command) -> bool {
        matches!(
            c.subject(),
            Subject::Settings(SettingsCommand::ResetSettings)
        )
    }
    fn added_domain(c: &Command) -> Option<&str> {
        match c.subject() {
            Subject::Settings(SettingsCommand::AddAllowedDomain(domain)) => Some(domain),
            _ => None,
        }
    }

    fn type_into(harness: &mut Harness<'_, Panel>, label: &str, text: &str) {
        harness.get_by_label(label).focus();
        harness.run();
        harness.get_by_label(label).type_text(text);
        harness.run();
    }

    #[test]
    fn ticking_a_setting_marks_it_changed_and_its_default_button_asks_for_the_default() {
        let mut harness = panel(Settings::default(), Vec::new());
        assert!(harness.query_by_label("↺ default").is_none());
        assert!(harness.state().commands.is_empty());
        harness
            .get_by_label("Allow subdomains · followSubdomain")
            .click();
        harness.run();
        assert!(harness.state().settings.follow_subdomain);
        assert!(harness.state().commands.iter().any(edited));
        harness.get_by_label("↺ default").click();
        harness.run();
        let reverts: Vec<_> = harness
            .state()
            .commands
            .iter()
            .filter_map(reverted)
            .collect();
        assert_eq!(reverts, ["followSubdomain"]);
    }

    #[test]
    fn a_typed_allowed_domain_is_a_settings_edit() {
        let mut harness = panel(Settings::default(), Vec::new());
        type_into(&mut harness, "Allowed domains", "acmecorp.test");
        assert_eq!(
            harness.state().settings.follow_allowed_domains,
            "acmecorp.test"
        );
        assert!(harness.state().commands.iter().any(edited));
        // A list that differs from the default gets its revert button too.
        harness.get_by_label("↺ default");
    }

    #[test]
    fn a_suggested_sibling_root_asks_to_be_allowed_with_one_click() {
        let suggestions = vec![
            SiblingRoot {
                domain: "acme.co.uk".into(),
                links: 1,
            },
            SiblingRoot {
                domain: "acme.de".into(),
                links: 2,
            },
        ];
        let mut harness = panel(Settings::default(), suggestions);
        harness.get_by_label("+ acme.co.uk (1 link)");
        harness.get_by_label("+ acme.de (2 links)").click();
        harness.run();
        let added: Vec<_> = harness
            .state()
            .commands
            .iter()
            .filter_map(added_domain)
            .collect();
        assert_eq!(added, ["acme.de"]);
        // Adding is the app's: the field itself is not touched.
        assert_eq!(harness.state().settings.follow_allowed_domains, "");
    }

    #[test]
    fn an_empty_white_list_is_warned_about_below_the_settings() {
        let mut harness = panel(Settings::default(), Vec::new());
        harness.get_by_label("No warnings for these settings.");
        let settings = Settings {
            follow_keywords_white: String::new(),
            ..Settings::default()
        };
        harness.state_mut().settings = settings;
        harness.run();
        harness.get_by_label("Warnings (1)");
        harness.get_by_label_contains("The white list is empty: nothing will be followed");
        assert!(
            harness
                .query_by_label("No warnings for these settings.")
                .is_none()
        );
    }

    #[test]
    fn reset_to_defaults_is_offered_only_when_something_changed() {
        let mut harness = panel(Settings::default(), Vec::new());
        assert!(
            harness
                .get_by_label("Reset to defaults")
                .accesskit_node()
                .is_disabled()
        );
        harness
            .get_by_label("Skip assets · followSkipAssets")
            .click();
        harness.run();
        harness.get_by_label("Reset to defaults").click();
        harness.run();
        assert!(harness.state().commands.iter().any(reset));
    }

    #[test]
    fn a_list_past_the_item_limit_is_not_edited_in_place_and_clears_in_one_click() {
        let many: Vec<String> = (0..10_001).map(|i| format!("b{i}")).collect();
        let settings = Settings {
            follow_keywords_black: many.join(","),
            ..Settings::default()
        };
        let mut harness = panel(settings, Vec::new());
        harness.get_by_label_contains("10001 items, 57 KB: too large to edit here");
        harness.get_by_label_contains("Settings too large");
        assert!(harness.state().commands.is_empty());
        harness.get_by_label("Clear list").click();
        harness.run();
        assert!(
            harness
                .query_by_label_contains("too large to edit here")
                .is_none()
        );
        assert!(
            harness
                .query_by_label_contains("Settings too large")
                .is_none()
        );
        assert_eq!(harness.state().settings.follow_keywords_black, "");
        assert!(harness.state().commands.iter().any(edited));
    }

    #[test]
    fn a_host_mapping_that_does_not_parse_says_why_under_the_field() {
        let mut harness = panel(Settings::default(), Vec::new());
        // Folded while empty.
        assert!(harness.query_by_label("Host mapping").is_none());
        harness.get_by_label("Advanced").click();
        harness.run();
        type_into(&mut harness, "Host mapping", "acme.test:443");
        harness.get_by_label_contains("✖ ");
        assert_eq!(harness.state().window_options.host_mapping, "acme.test:443");
        // The window's own option is no edit of the profile's settings.
        assert!(!harness.state().commands.iter().any(edited));
    }
}
