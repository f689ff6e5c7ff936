//! The top bar: profile, target (URL or file), depth and N, Fetch / Cancel.

use egui::{Key, RichText, Ui};
use serde::{Deserialize, Serialize};

use crate::copy;
use crate::inspect::page_limit;
use crate::ui::app::Command;
use crate::ui::task::Task;

/// What the user typed; persisted between runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TopBarState {
    pub target: String,
    pub base_url: String,
    pub depth: u32,
    pub limit_override: String,
}

impl Default for TopBarState {
    fn default() -> Self {
        Self {
            target: String::new(),
            base_url: String::new(),
            depth: 2,
            limit_override: String::new(),
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
        crate::target::names_a_file(&self.target)
    }
}

pub fn show(ui: &mut Ui, state: &mut TopBarState, task: Option<&Task>) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.horizontal(|ui| {
        let running = task.is_some();
        // Leave room for what follows the field: depth, N, buttons (and the base URL).
        let reserved = if state.is_file_target() {
            1230.0
        } else {
            950.0
        };
        let field_width = (ui.available_width() - reserved).max(160.0);
        let label = ui.label(copy::LABEL_TARGET).id;
        let response = ui
            .add(
                egui::TextEdit::singleline(&mut state.target)
                    .id_salt("target")
                    .hint_text(copy::LABEL_URL_HINT)
                    .desired_width(field_width),
            )
            .labelled_by(label);
        if response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) && !running {
            commands.push(Command::Load);
        }
        if state.is_file_target() {
            let label = ui.label(copy::LABEL_BASE_URL).id;
            ui.add(
                egui::TextEdit::singleline(&mut state.base_url)
                    .id_salt("base_url")
                    .hint_text(copy::LABEL_BASE_URL_HINT)
                    .desired_width(180.0),
            )
            .labelled_by(label);
        }

        ui.separator();
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
        let n = page_limit(state.depth, 1, None);
        ui.label(
            RichText::new(copy::limit_formula(state.depth, n))
                .small()
                .weak(),
        )
        .on_hover_text(
            "SPEC section 4: N links with the best scores are followed from the start page.",
        );
        let label = ui.label(copy::LABEL_LIMIT_OVERRIDE).id;
        ui.add(
            egui::TextEdit::singleline(&mut state.limit_override)
                .id_salt("limit_override")
                .hint_text("N")
                .desired_width(32.0),
        )
        .labelled_by(label)
        .on_hover_text("Follow this many links on every page instead of (depth − 1) × 3.");
        if (state.depth, state.limit_override.clone()) != before {
            commands.push(Command::LimitsEdited);
        }

        ui.separator();
        match task {
            Some(task) => {
                if task.is_cancelling() {
                    ui.label("Cancelling…");
                } else if ui.button(copy::LABEL_CANCEL).clicked() {
                    commands.push(Command::Cancel);
                }
                ui.spinner();
                let p = &task.progress;
                ui.label(format!(
                    "{}/{} pages · {:.1} s",
                    p.done,
                    p.queued.max(1),
                    task.started.elapsed().as_secs_f32()
                ))
                .on_hover_text(format!("Loading {}", task.label));
            }
            None => {
                if ui.button(copy::LABEL_FETCH).clicked() {
                    commands.push(Command::Load);
                }
                if ui.button(copy::LABEL_DEMO).clicked() {
                    commands.push(Command::LoadDemo);
                }
            }
        }
    });
    commands
}
