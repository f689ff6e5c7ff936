//! The parts the dialogs are made of: OK and Cancel, a path field with its
//! Browse… button, and the keyboard as a dialog opens.

use egui::{Id, Key};

use crate::copy;

pub(super) fn buttons(ui: &mut egui::Ui, ok: &str) -> (bool, bool) {
    ui.horizontal(|ui| {
        let ok = ui.button(ok).clicked();
        let cancel = ui.button(copy::LABEL_CANCEL).clicked();
        (ok, cancel)
    })
    .inner
}

/// Whether the dialog `kind` appears this pass (it was not drawn the pass
/// before), so its text field takes the keyboard once, as it opens.
pub(super) fn opens_now(ui: &egui::Ui, kind: &str) -> bool {
    let id = Id::unique(("follow-inspector-dialog-shown", kind));
    let pass = ui.ctx().cumulative_pass_nr();
    let last = ui.ctx().data_mut(|d| {
        let last = d.get_temp::<u64>(id);
        d.insert_temp(id, pass);
        last
    });
    last.is_none_or(|last| last + 1 < pass)
}

/// Puts the cursor in `field` with its text selected, so typing replaces a
/// suggested name and Enter confirms it.
pub(super) fn take_keyboard(ui: &egui::Ui, field: &egui::Response, text: &str) {
    let mut state = egui::TextEdit::load_state(ui.ctx(), field.id).unwrap_or_default();
    state
        .cursor
        .set_char_range(Some(egui::text::CCursorRange::select_all_str(text)));
    egui::TextEdit::store_state(ui.ctx(), field.id, state);
    field.request_focus();
}

/// Enter was pressed in the one-line `field`. The field keeps the keyboard,
/// so after a refused name or path the next keys still go to it.
pub(super) fn enter_pressed(ui: &egui::Ui, field: &egui::Response) -> bool {
    let entered = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
    if entered {
        field.request_focus();
    }
    entered
}

/// A file's path typed in one line, named by `label` for screen readers.
pub(super) fn path_field(
    ui: &mut egui::Ui,
    label: egui::Id,
    path: &mut String,
    hint: &str,
    width: f32,
) -> egui::Response {
    ui.add(
        egui::TextEdit::singleline(path)
            .hint_text(hint)
            .desired_width(width),
    )
    .labelled_by(label)
}

pub(super) fn browse_button(ui: &mut egui::Ui, browsing: bool) -> bool {
    ui.add_enabled(!browsing, egui::Button::new(copy::LABEL_BROWSE))
        .on_hover_text(copy::BROWSE_TOOLTIP)
        .clicked()
}
