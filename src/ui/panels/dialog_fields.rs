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

/// A dialog's text field, called every pass right after it is drawn: as the
/// dialog opens (`opening`, from [`opens_now`]) the field takes the keyboard
/// with its text selected, and until it has it, keys typed go into `text`.
pub(super) fn keyboard_as_it_opens(
    ui: &egui::Ui,
    field: &egui::Response,
    opening: bool,
    text: &mut String,
) {
    // Whether the field had the keyboard as it was drawn (then it took the
    // keys itself), read before this pass asks for it.
    let had_focus = field.has_focus();
    if opening {
        take_keyboard(ui, field, text);
    }
    keep_early_keys(ui, field, had_focus, text);
}

/// Puts the cursor in `field` with its text selected, so typing replaces a
/// suggested name and Enter confirms it.
fn take_keyboard(ui: &egui::Ui, field: &egui::Response, text: &str) {
    let mut state = egui::TextEdit::load_state(ui.ctx(), field.id).unwrap_or_default();
    state
        .cursor
        .set_char_range(Some(egui::text::CCursorRange::select_all_str(text)));
    egui::TextEdit::store_state(ui.ctx(), field.id, state);
    field.request_focus();
    let opened = ui.ctx().cumulative_pass_nr();
    ui.ctx().data_mut(|d| {
        d.insert_temp(
            early_keys_id(field),
            EarlyKeys {
                opened,
                fresh: true,
            },
        )
    });
}

/// A dialog's field waiting for the keyboard: the pass it opened in, and
/// whether its suggested text is still untouched (the first key replaces it).
#[derive(Clone, Copy)]
struct EarlyKeys {
    opened: u64,
    fresh: bool,
}

/// How many passes a new modal takes before its field has the keyboard:
/// egui draws a new `Modal` invisibly while it measures it, and the field
/// has focus from the third pass on (seen in a kittest: the name field was
/// not in the tree for two passes). A bound, so keys are only ever taken
/// while nothing of the dialog could have been clicked yet.
const EARLY_PASSES: u64 = 6;

fn early_keys_id(field: &egui::Response) -> Id {
    field.id.with("follow-inspector-early-keys")
}

/// Keys typed while the dialog is still appearing go into `text`, as the
/// field would have taken them: a person who types the moment the dialog
/// opens loses no letter (twice a user saw only the last letters kept).
/// `had_focus` is whether the field had the keyboard as it was drawn this
/// pass (then it took the keys itself).
fn keep_early_keys(ui: &egui::Ui, field: &egui::Response, had_focus: bool, text: &mut String) {
    let id = early_keys_id(field);
    let Some(mut early) = ui.ctx().data(|d| d.get_temp::<EarlyKeys>(id)) else {
        return;
    };
    if had_focus || ui.ctx().cumulative_pass_nr() > early.opened + EARLY_PASSES {
        ui.ctx().data_mut(|d| d.remove::<EarlyKeys>(id));
        return;
    }
    let typed: String = ui.input(|i| {
        i.events
            .iter()
            .filter_map(|e| match e {
                egui::Event::Text(t) | egui::Event::Paste(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    });
    if typed.is_empty() {
        return;
    }
    if early.fresh {
        text.clear();
        early.fresh = false;
    }
    text.push_str(&typed);
    ui.ctx().data_mut(|d| d.insert_temp(id, early));
    // Typing goes on after what was kept, not over it.
    let mut state = egui::TextEdit::load_state(ui.ctx(), field.id).unwrap_or_default();
    let end = egui::text::CCursor::new(text.chars().count());
    state
        .cursor
        .set_char_range(Some(egui::text::CCursorRange::one(end)));
    egui::TextEdit::store_state(ui.ctx(), field.id, state);
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
