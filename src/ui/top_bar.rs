//! The top bar: target (URL or file), depth and N, Fetch / Cancel, the
//! warnings count and the side-panel switches. It wraps onto more lines in a
//! narrow window instead of pushing buttons off the edge.

use egui::{Key, RichText, Ui};
use serde::{Deserialize, Serialize};

use crate::copy;
use crate::inspect::Limits;
use crate::ui::command::Command;
use crate::ui::state::{FilePurpose, Loading, SidePanel};
use crate::ui::widgets::labelled_field;

/// What the user typed; persisted between runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TopBarState {
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
}

/// Enter in a field that was being edited.
fn entered(ui: &Ui, response: &egui::Response) -> bool {
    response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter))
}

pub fn show(ui: &mut Ui, state: &mut TopBarState, view: &TopBarView<'_>) -> Vec<Command> {
    let mut commands = Vec::new();
    // The caller lays this out in a wrapping row: buttons go to a second line
    // rather than off the edge of a narrow window.
    {
        let running = view.loading.is_some();
        let window = ui.ctx().content_rect().width();
        let field_width = (window - 1000.0).clamp(200.0, 560.0);
        let before = state.target.clone();
        let response = labelled_field(
            ui,
            copy::LABEL_TARGET,
            &mut state.target,
            "target",
            copy::LABEL_URL_HINT,
            field_width,
        );
        if state.target != before {
            // The base URL belonged to the old target.
            state.base_url.clear();
        }
        if entered(ui, &response) && !running {
            commands.push(Command::Load);
        }
        if ui
            .add_enabled(
                !view.browsing && !running,
                egui::Button::new(copy::LABEL_OPEN_FILE),
            )
            .on_hover_text(copy::OPEN_FILE_TOOLTIP)
            .clicked()
        {
            commands.push(Command::BrowseFile(FilePurpose::OpenPage));
        }
        if state.is_file_target() {
            let response = labelled_field(
                ui,
                copy::LABEL_BASE_URL,
                &mut state.base_url,
                "base_url",
                copy::LABEL_BASE_URL_HINT,
                180.0,
            )
            .on_hover_text(copy::BASE_URL_TOOLTIP);
            if entered(ui, &response) && !running {
                commands.push(Command::Load);
            }
        }

        let label = ui.label(copy::LABEL_DEPTH).id;
        let before = (state.depth, state.limit_override.clone());
        egui::ComboBox::from_id_salt("depth")
            .width(40.0)
            .selected_text(state.depth.to_string())
            .show_ui(ui, |ui| {
                for d in 1..=5 {
                    ui.selectable_value(&mut state.depth, d, d.to_string());
                }
            })
            .response
            .labelled_by(label);
        let n = Limits {
            depth: state.depth,
            limit_override: None,
        }
        .at(1);
        ui.add(
            egui::Label::new(
                RichText::new(copy::limit_formula(state.depth, n))
                    .small()
                    .weak(),
            )
            .wrap_mode(egui::TextWrapMode::Extend),
        )
        .on_hover_text(copy::LIMIT_FORMULA_TOOLTIP);
        labelled_field(
            ui,
            copy::LABEL_LIMIT_OVERRIDE,
            &mut state.limit_override,
            "limit_override",
            copy::LIMIT_OVERRIDE_HINT,
            32.0,
        )
        .on_hover_text(copy::LIMIT_OVERRIDE_TOOLTIP);
        if (state.depth, state.limit_override.clone()) != before {
            commands.push(Command::LimitsEdited);
        }

        ui.separator();
        match view.loading {
            Some(loading) => {
                if ui
                    .button(copy::LABEL_CANCEL)
                    .on_hover_text(copy::CANCEL_TOOLTIP)
                    .clicked()
                {
                    commands.push(Command::Cancel);
                }
                ui.spinner();
                let p = &loading.progress;
                ui.label(copy::load_progress(
                    p.done,
                    p.queued.max(1),
                    loading.started.elapsed().as_secs_f32(),
                ))
                .on_hover_text(copy::loading(&loading.label));
            }
            None => {
                if ui.button(copy::LABEL_FETCH).clicked() {
                    commands.push(Command::Load);
                }
                let mut rendered = state.rendered && view.browser_available;
                ui.add_enabled(
                    view.browser_available,
                    egui::Checkbox::new(&mut rendered, copy::LABEL_RENDERED),
                )
                .on_hover_text(copy::RENDERED_TOOLTIP)
                .on_disabled_hover_text(copy::NO_BROWSER);
                if view.browser_available {
                    state.rendered = rendered;
                }
                if ui.button(copy::LABEL_DEMO).clicked() {
                    commands.push(Command::LoadDemo);
                }
            }
        }

        ui.separator();
        if view.warnings > 0
            && ui
                .button(
                    RichText::new(copy::warnings_button(view.warnings))
                        .color(crate::ui::palette::warning(ui.visuals().dark_mode)),
                )
                .on_hover_text(copy::WARNINGS_TOOLTIP)
                .clicked()
        {
            commands.push(Command::ShowWarnings);
        }
        for (panel, label, shown) in [
            (
                SidePanel::Settings,
                copy::LABEL_SETTINGS_PANEL,
                view.show_settings,
            ),
            (
                SidePanel::Detail,
                copy::LABEL_DETAIL_PANEL,
                view.show_detail,
            ),
        ] {
            if ui
                .selectable_label(shown, label)
                .on_hover_text(if shown {
                    copy::HIDE_PANEL
                } else {
                    copy::SHOW_PANEL
                })
                .clicked()
            {
                commands.push(Command::TogglePanel(panel));
            }
        }
    }
    commands
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_url_is_not_remembered_and_a_stored_depth_is_clamped() {
        let state = TopBarState {
            target: "saved.html".into(),
            base_url: "https://other.example.com/".into(),
            depth: 3,
            limit_override: String::new(),
            rendered: true,
        };
        let stored = serde_json::to_string(&state).unwrap();
        assert!(!stored.contains("other.example.com"), "{stored}");
        let restored: TopBarState = serde_json::from_str(&stored).unwrap();
        assert_eq!(restored.base_url, "");
        assert_eq!(restored.target, "saved.html");

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
