//! Keyboard navigation of the table: moving the selection, copy shortcuts.

use egui::{Event, Key, Ui};

use crate::ui::state::CopyWhat;

/// Moves the selection with the keyboard: ↑ ↓ Home End PageUp PageDown.
pub(super) fn keyboard_selection(
    ui: &Ui,
    rows: &[usize],
    selected: Option<usize>,
    page_rows: usize,
) -> Option<usize> {
    if rows.is_empty() {
        return None;
    }
    let last = rows.len() - 1;
    let pos = selected.and_then(|s| rows.iter().position(|&r| r == s));
    let pressed = |key| ui.input(|i| i.key_pressed(key));
    let next = if pressed(Key::Home) {
        0
    } else if pressed(Key::End) {
        last
    } else if pressed(Key::PageDown) {
        pos.map_or(0, |p| (p + page_rows).min(last))
    } else if pressed(Key::PageUp) {
        pos.map_or(0, |p| p.saturating_sub(page_rows))
    } else if pressed(Key::ArrowDown) {
        pos.map_or(0, |p| (p + 1).min(last))
    } else if pressed(Key::ArrowUp) {
        pos.map_or(0, |p| p.saturating_sub(1))
    } else {
        return None;
    };
    rows.get(next).copied()
}

/// Ctrl+C (egui reports it as a copy event) and Ctrl+Shift+C.
pub(super) fn copy_shortcut(ui: &Ui) -> Option<CopyWhat> {
    ui.input(|i| {
        i.events.iter().find_map(|event| match event {
            Event::Copy => Some(CopyWhat::Url),
            Event::Key {
                key: Key::C,
                pressed: true,
                modifiers,
                ..
            } if modifiers.command && modifiers.shift => Some(CopyWhat::Explanation),
            Event::Key {
                key: Key::C,
                pressed: true,
                modifiers,
                ..
            } if modifiers.command_only() => Some(CopyWhat::Url),
            _ => None,
        })
    })
}
