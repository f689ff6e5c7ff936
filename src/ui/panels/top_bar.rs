//! The top bar: target (URL or file), depth and N, Fetch / Cancel, the
//! warnings count and the side-panel switches. It wraps onto more lines in a
//! narrow window instead of pushing buttons off the edge.

use egui::{Key, RichText, Ui};
use serde::{Deserialize, Serialize};

use crate::copy;
use crate::inspect::Limits;
use crate::ui::command::{
    ArchiveCommand, Command, ComparisonCommand, LoadCommand, SettingsCommand, ViewCommand,
};
use crate::ui::panels::profiles_bar::ProfileView;
use crate::ui::panels::results::elide_start;
use crate::ui::state::{FilePurpose, Loading, SidePanel};

/// What the user typed; persisted between runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TopBarState {
    /// Not restored at start-up: the window opens on the demo page, and the
    /// field shows what is loaded.
    #[serde(skip)]
    pub target: String,
    /// Belongs to the file it was typed for: cleared when the target changes,
    /// and never restored at start-up.
    #[serde(skip)]
    pub base_url: String,
    pub depth: u32,
    pub limit_override: String,
    /// Load URLs in headless Chromium (SPEC 8).
    pub rendered: bool,
}

impl Default for TopBarState {
    fn default() -> Self {
        Self {
            target: String::new(),
            base_url: String::new(),
            depth: 2,
            limit_override: String::new(),
            rendered: false,
        }
    }
}

impl TopBarState {
    /// The override N, when the field holds a number.
    pub fn limit_override(&self) -> Option<usize> {
        self.limit_override.trim().parse().ok()
    }

    /// Whether the target names a local file rather than a URL.
    pub fn is_file_target(&self) -> bool {
        crate::load::looks_like_a_file(&self.target)
    }

    /// Whether the target names a saved page, whose URL a Base URL may
    /// give (a web archive names its own).
    fn takes_base_url(&self) -> bool {
        self.is_file_target() && !crate::archive::is_archive_name(&self.target)
    }

    /// Sets a new target; a base URL typed for the old one does not carry over.
    pub fn set_target(&mut self, target: String) {
        if target != self.target {
            self.base_url.clear();
        }
        self.target = target;
    }

    /// Puts values restored from an older or edited store back in range.
    pub fn validated(mut self) -> Self {
        self.depth = self.depth.clamp(1, 5);
        self.base_url.clear();
        self
    }
}

/// Below this window width the top bar folds its rarely used controls
/// (Override N, Rendered, Demo page, Compare with…) into a menu, so it stays
/// one line.
pub const FOLD_WIDTH: f32 = 1100.0;

/// Whether the window is narrow enough for the top bar to fold.
pub fn folds(ctx: &egui::Context) -> bool {
    ctx.content_rect().width() < FOLD_WIDTH
}

/// What the top bar shows besides the fields it edits.
pub struct TopBarView<'a> {
    /// The load in progress, if any.
    pub loading: Option<&'a Loading>,
    /// Lints on the current settings and page.
    pub warnings: usize,
    pub show_settings: bool,
    pub show_detail: bool,
    /// A file dialog is open.
    pub browsing: bool,
    /// Chromium was found, so the Rendered switch works.
    pub browser_available: bool,
    /// The bundled demo page is shown (the field is empty and says so).
    pub demo_shown: bool,
    /// Folded (narrow window): the Compare with… picker goes in the More menu.
    pub compare: Option<&'a ProfileView<'a>>,
    /// Why Save for ticket is disabled now, or `None` when it can save.
    pub save_refused: Option<&'static str>,
}

/// Enter in a field that was being edited.
fn entered(ui: &Ui, response: &egui::Response) -> bool {
    response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter))
}

/// The page field's least width.
const MIN_FIELD: f32 = 160.0;

/// The width the widgets after the page field took last frame: the field
/// gets what they leave of the line.
fn rest_id(ui: &Ui) -> egui::Id {
    ui.scope_id().with("top_bar_after_target")
}

/// Sums the widths of the widgets drawn after the page field.
struct Rest {
    width: f32,
    spacing: f32,
}

impl Rest {
    fn add(&mut self, response: egui::Response) -> egui::Response {
        self.width += response.rect.width() + self.spacing;
        response
    }
}

/// The page field, as wide as the line allows. Not being edited, a path too
/// long for it shows its end ("…/pages/kontakt.html"), where the file name
/// is, instead of its start.
fn target_field(ui: &mut Ui, state: &mut TopBarState, view: &TopBarView<'_>) -> egui::Response {
    let label = ui.label(copy::LABEL_TARGET).id;
    let rest = ui.data(|d| d.get_temp::<f32>(rest_id(ui))).unwrap_or(480.0);
    let spacing = ui.spacing().item_spacing.x;
    let room = ui.max_rect().right() - ui.cursor().min.x;
    // When the rest cannot share the line even with a short field, it wraps
    // anyway: the field then takes the line, leaving room for Open….
    let width = if room - rest - spacing >= MIN_FIELD {
        (room - rest - spacing).min(900.0)
    } else {
        (room - 80.0).clamp(MIN_FIELD, 560.0)
    };
    let hint = if view.demo_shown {
        copy::DEMO_SHOWN_HINT
    } else {
        copy::LABEL_URL_HINT
    };
    let response = ui
        .add(
            egui::TextEdit::singleline(&mut state.target)
                .id_salt("target")
                .hint_text(hint)
                .desired_width(width),
        )
        .labelled_by(label);
    if !response.has_focus() && !state.target.is_empty() {
        let font = egui::TextStyle::Body.resolve(ui.style());
        let margin = ui.spacing().button_padding + egui::vec2(1.0, 0.0);
        let inner = response.rect.shrink2(margin);
        let shown = ui.ctx().fonts_mut(|f| {
            let widths: Vec<(char, f32)> = state
                .target
                .chars()
                .chain([crate::ui::panels::results::ELLIPSIS])
                .map(|c| (c, f.glyph_width(&font, c)))
                .collect();
            let width_of = |c: char| {
                widths
                    .iter()
                    .find(|(w, _)| *w == c)
                    .map_or(0.0, |(_, w)| *w)
            };
            // A little slack for kerning, which glyph widths leave out.
            elide_start(&state.target, inner.width() - 4.0, width_of)
                .map(|end| format!("{}{end}", crate::ui::panels::results::ELLIPSIS))
        });
        if let Some(shown) = shown {
            let painter = ui.painter_at(inner);
            painter.rect_filled(inner, 0.0, ui.visuals().text_edit_bg_color());
            painter.text(
                inner.left_center(),
                egui::Align2::LEFT_CENTER,
                shown,
                font,
                ui.visuals().text_color(),
            );
        }
    }
    response.on_hover_text(state.target.as_str())
}

/// Override N and the formula it overrides; returns how wide they are.
fn limit_override(ui: &mut Ui, state: &mut TopBarState) -> f32 {
    let n = Limits {
        depth: state.depth,
        limit_override: None,
    }
    .at(1);
    let spacing = ui.spacing().item_spacing.x;
    let formula = ui
        .add(
            egui::Label::new(
                RichText::new(copy::limit_formula(state.depth, n))
                    .small()
                    .weak(),
            )
            .wrap_mode(egui::TextWrapMode::Extend),
        )
        .on_hover_text(copy::LIMIT_FORMULA_TOOLTIP);
    let label = ui.label(copy::LABEL_LIMIT_OVERRIDE);
    let field = ui
        .add(
            egui::TextEdit::singleline(&mut state.limit_override)
                .id_salt("limit_override")
                .hint_text(copy::LIMIT_OVERRIDE_HINT)
                .desired_width(32.0),
        )
        .labelled_by(label.id)
        .on_hover_text(copy::LIMIT_OVERRIDE_TOOLTIP);
    [formula, label, field]
        .iter()
        .map(|r| r.rect.width() + spacing)
        .sum()
}

/// Compare with… as a submenu of the More menu (a drop-down inside a menu
/// would close it): "(nobody)" and every profile, the compared one ticked.
fn compare_menu(ui: &mut Ui, profiles: &ProfileView<'_>) -> Option<Command> {
    let mut command = None;
    let title = match profiles.comparing {
        Some(name) => copy::compare_menu_title(name),
        None => copy::LABEL_COMPARE_WITH.to_owned(),
    };
    ui.menu_button(title, |ui| {
        let none = profiles.comparing.is_none();
        if ui
            .selectable_label(none, copy::LABEL_COMPARE_NONE)
            .clicked()
            && !none
        {
            command = Some(ComparisonCommand::CompareWith(None).into());
        }
        for name in profiles.names {
            let chosen = profiles.comparing == Some(name.as_str());
            if ui.selectable_label(chosen, name).clicked() && !chosen {
                command = Some(ComparisonCommand::CompareWith(Some(name.clone())).into());
            }
        }
    })
    .response
    .on_hover_text(copy::COMPARE_TOOLTIP);
    command
}

/// Save for ticket… (disabled, saying why, while there is nothing fetched).
fn save_for_ticket(ui: &mut Ui, view: &TopBarView<'_>) -> egui::Response {
    let response = ui
        .add_enabled(
            view.save_refused.is_none(),
            egui::Button::new(copy::LABEL_SAVE_FOR_TICKET),
        )
        .on_hover_text(copy::SAVE_FOR_TICKET_TOOLTIP);
    match view.save_refused {
        Some(why) => response.on_disabled_hover_text(why),
        None => response,
    }
}

/// The Rendered switch (disabled, saying why, without Chromium).
fn rendered_switch(ui: &mut Ui, state: &mut TopBarState, view: &TopBarView<'_>) -> egui::Response {
    let mut rendered = state.rendered && view.browser_available;
    let response = ui
        .add_enabled(
            view.browser_available,
            egui::Checkbox::new(&mut rendered, copy::LABEL_RENDERED),
        )
        .on_hover_text(copy::RENDERED_TOOLTIP)
        .on_disabled_hover_text(copy::NO_BROWSER);
    if view.browser_available {
        state.rendered = rendered;
    }
    response
}

pub fn show(ui: &mut Ui, state: &mut TopBarState, view: &TopBarView<'_>) -> Vec<Command> {
    let mut commands = Vec::new();
    // The caller lays this out in a wrapping row: buttons go to a second line
    // rather than off the edge of a narrow window.
    let running = view.loading.is_some();
    let folded = view.compare.is_some();
    let before = state.target.clone();
    let response = target_field(ui, state, view);
    if state.target != before {
        // The base URL belonged to the old target.
        state.base_url.clear();
    }
    if entered(ui, &response) && !running {
        commands.push(LoadCommand::Load.into());
    }
    let mut rest = Rest {
        width: 0.0,
        spacing: ui.spacing().item_spacing.x,
    };
    let open = ui
        .add_enabled(
            !view.browsing && !running,
            egui::Button::new(copy::LABEL_OPEN_FILE),
        )
        .on_hover_text(copy::OPEN_FILE_TOOLTIP);
    if rest.add(open).clicked() {
        commands.push(ViewCommand::BrowseFile(FilePurpose::OpenPage).into());
    }
    if state.takes_base_url() {
        let label = rest.add(ui.label(copy::LABEL_BASE_URL)).id;
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut state.base_url)
                    .id_salt("base_url")
                    .hint_text(copy::LABEL_BASE_URL_HINT)
                    .desired_width(if folded { 120.0 } else { 180.0 }),
            )
            .labelled_by(label)
            .on_hover_text(copy::BASE_URL_TOOLTIP);
        let field = rest.add(field);
        if entered(ui, &field) && !running {
            commands.push(LoadCommand::Load.into());
        }
    }

    let label = rest.add(ui.label(copy::LABEL_DEPTH)).id;
    let limits_before = (state.depth, state.limit_override.clone());
    let depth = egui::ComboBox::from_id_salt("depth")
        .width(40.0)
        .selected_text(state.depth.to_string())
        .show_ui(ui, |ui| {
            for d in 1..=5 {
                ui.selectable_value(&mut state.depth, d, d.to_string());
            }
        })
        .response
        .labelled_by(label);
    rest.add(depth);
    if !folded {
        rest.width += limit_override(ui, state);
    }

    if !folded {
        rest.add(ui.separator());
    }
    match view.loading {
        Some(loading) => {
            let cancel = ui
                .button(copy::LABEL_CANCEL)
                .on_hover_text(copy::CANCEL_TOOLTIP);
            if rest.add(cancel).clicked() {
                commands.push(LoadCommand::Cancel.into());
            }
            rest.add(ui.spinner());
            let p = &loading.progress;
            let progress = ui
                .label(copy::load_progress(
                    p.done,
                    p.queued.max(1),
                    loading.started.elapsed().as_secs_f32(),
                ))
                .on_hover_text(copy::loading(&loading.label));
            rest.add(progress);
        }
        None => {
            if rest.add(ui.button(copy::LABEL_FETCH)).clicked() {
                commands.push(LoadCommand::Load.into());
            }
            if !folded {
                rest.add(rendered_switch(ui, state, view));
            }
            if !folded && rest.add(ui.button(copy::LABEL_DEMO)).clicked() {
                commands.push(LoadCommand::LoadDemo.into());
            }
        }
    }
    if !folded && rest.add(save_for_ticket(ui, view)).clicked() {
        commands.push(ArchiveCommand::SaveForTicket.into());
    }
    if let Some(profiles) = view.compare {
        let more = ui.menu_button(copy::LABEL_MORE, |ui| {
            ui.horizontal(|ui| limit_override(ui, state));
            if view.loading.is_none() {
                rendered_switch(ui, state, view);
                if ui.button(copy::LABEL_DEMO).clicked() {
                    commands.push(LoadCommand::LoadDemo.into());
                    ui.close();
                }
            }
            if save_for_ticket(ui, view).clicked() {
                commands.push(ArchiveCommand::SaveForTicket.into());
                ui.close();
            }
            commands.extend(compare_menu(ui, profiles));
        });
        rest.add(more.response.on_hover_text(copy::MORE_TOOLTIP));
    }
    if (state.depth, state.limit_override.clone()) != limits_before {
        commands.push(SettingsCommand::LimitsEdited.into());
    }

    if !folded {
        rest.add(ui.separator());
    }
    if view.warnings > 0 {
        let warnings = ui
            .button(
                RichText::new(copy::warnings_button(view.warnings))
                    .color(crate::ui::palette::warning(ui.visuals().dark_mode)),
            )
            .on_hover_text(copy::WARNINGS_TOOLTIP);
        if rest.add(warnings).clicked() {
            commands.push(ViewCommand::ShowWarnings.into());
        }
    }
    // Folded, the panel switches show their symbol alone (the name is on hover).
    for (panel, label, symbol, shown) in [
        (
            SidePanel::Settings,
            copy::LABEL_SETTINGS_PANEL,
            copy::SETTINGS_PANEL_SYMBOL,
            view.show_settings,
        ),
        (
            SidePanel::Detail,
            copy::LABEL_DETAIL_PANEL,
            copy::DETAIL_PANEL_SYMBOL,
            view.show_detail,
        ),
    ] {
        let what = if shown {
            copy::HIDE_PANEL
        } else {
            copy::SHOW_PANEL
        };
        let toggle = if folded {
            ui.selectable_label(shown, symbol)
                .on_hover_text(copy::folded_panel_tooltip(label, what))
        } else {
            ui.selectable_label(shown, label).on_hover_text(what)
        };
        if rest.add(toggle).clicked() {
            commands.push(ViewCommand::TogglePanel(panel).into());
        }
    }
    ui.data_mut(|d| d.insert_temp(rest_id(ui), rest.width));
    commands
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_base_url_are_not_remembered_and_a_stored_depth_is_clamped() {
        let state = TopBarState {
            target: "saved.html".into(),
            base_url: "https://other.example.com/".into(),
            depth: 3,
            limit_override: String::new(),
            rendered: true,
        };
        let stored = serde_json::to_string(&state).unwrap();
        assert!(!stored.contains("other.example.com"), "{stored}");
        assert!(!stored.contains("saved.html"), "{stored}");
        let restored: TopBarState = serde_json::from_str(&stored).unwrap();
        assert_eq!(restored.base_url, "");
        assert_eq!(restored.target, "");
        assert!(restored.rendered);

        let huge: TopBarState = serde_json::from_str(r#"{"depth": 4000000000}"#).unwrap();
        assert_eq!(huge.validated().depth, 5);
        let zero: TopBarState = serde_json::from_str(r#"{"depth": 0}"#).unwrap();
        assert_eq!(zero.validated().depth, 1);
    }

    #[test]
    fn a_new_target_clears_the_base_url() {
        let mut state = TopBarState {
            target: "a.html".into(),
            base_url: "https://a.test/".into(),
            ..TopBarState::default()
        };
        state.set_target("a.html".into());
        assert_eq!(state.base_url, "https://a.test/");
        state.set_target("b.html".into());
        assert_eq!(state.base_url, "");
    }
}
