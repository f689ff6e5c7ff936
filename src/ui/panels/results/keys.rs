//! Keyboard navigation of the table: moving the selection, copy shortcuts,
//! marking the selected link as a target.

use egui::{Event, Key, Modifiers, Ui};

use crate::corpus::truth::TargetKind;
use crate::ui::command::{Command, TargetsCommand};
use crate::ui::state::CopyWhat;

/// The keys that move the selection, in the order they are looked for.
const MOVES: [Key; 6] = [
    Key::Home,
    Key::End,
    Key::PageDown,
    Key::PageUp,
    Key::ArrowDown,
    Key::ArrowUp,
];

/// Moves the selection with the keyboard: ↑ ↓ Home End PageUp PageDown.
pub(super) fn keyboard_selection(
    ui: &Ui,
    rows: &[usize],
    selected: Option<usize>,
    page_rows: usize,
) -> Option<usize> {
    let key = MOVES
        .into_iter()
        .find(|&key| ui.input(|i| i.key_pressed(key)))?;
    moved(rows, selected, key, page_rows)
}

/// The link `key` moves the selection to among the shown `rows` (link
/// indexes); from no selection, any move starts at the top (Home, End aside).
fn moved(rows: &[usize], selected: Option<usize>, key: Key, page_rows: usize) -> Option<usize> {
    let last = rows.len().checked_sub(1)?;
    let pos = selected.and_then(|s| rows.iter().position(|&r| r == s));
    let next = match key {
        Key::Home => 0,
        Key::End => last,
        Key::PageDown => pos.map_or(0, |p| (p + page_rows).min(last)),
        Key::PageUp => pos.map_or(0, |p| p.saturating_sub(page_rows)),
        Key::ArrowDown => pos.map_or(0, |p| (p + 1).min(last)),
        Key::ArrowUp => pos.map_or(0, |p| p.saturating_sub(1)),
        _ => return None,
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

/// T opens the kind chooser (and closes it); in it C, I or A mark the link,
/// Enter takes the kind shown chosen (`current`, else contact), Escape
/// closes it. N: not a target. Ctrl+Z undoes the last mark.
pub(super) fn target_keys(ui: &Ui, choosing: bool, current: Option<TargetKind>) -> Option<Command> {
    if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::Z)) {
        return Some(TargetsCommand::UndoMark.into());
    }
    let pressed = |key| ui.input_mut(|i| i.consume_key(Modifiers::NONE, key));
    if pressed(Key::T) {
        return Some(TargetsCommand::ChooseTargetKind(!choosing).into());
    }
    if pressed(Key::N) {
        return Some(TargetsCommand::MarkTarget(None).into());
    }
    if !choosing {
        return None;
    }
    if pressed(Key::Escape) {
        return Some(TargetsCommand::ChooseTargetKind(false).into());
    }
    [
        (Key::C, TargetKind::Contact),
        (Key::Enter, current.unwrap_or(TargetKind::Contact)),
        (Key::I, TargetKind::Imprint),
        (Key::A, TargetKind::About),
    ]
    .into_iter()
    .find(|&(key, _)| pressed(key))
    .map(|(_, kind)| TargetsCommand::MarkTarget(Some(kind)).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shown rows in a sorted order: link indexes, not positions.
    const ROWS: [usize; 5] = [7, 3, 9, 0, 4];

    #[test]
    fn arrows_move_one_shown_row_and_stop_at_the_ends() {
        assert_eq!(moved(&ROWS, Some(3), Key::ArrowDown, 10), Some(9));
        assert_eq!(moved(&ROWS, Some(3), Key::ArrowUp, 10), Some(7));
        assert_eq!(moved(&ROWS, Some(7), Key::ArrowUp, 10), Some(7));
        assert_eq!(moved(&ROWS, Some(4), Key::ArrowDown, 10), Some(4));
    }

    #[test]
    fn page_keys_jump_a_screenful_and_home_end_go_to_the_ends() {
        assert_eq!(moved(&ROWS, Some(7), Key::PageDown, 2), Some(9));
        assert_eq!(moved(&ROWS, Some(9), Key::PageDown, 10), Some(4));
        assert_eq!(moved(&ROWS, Some(0), Key::PageUp, 2), Some(3));
        assert_eq!(moved(&ROWS, Some(9), Key::Home, 2), Some(7));
        assert_eq!(moved(&ROWS, None, Key::End, 2), Some(4));
    }

    #[test]
    fn without_a_shown_selection_a_move_starts_at_the_top() {
        assert_eq!(moved(&ROWS, None, Key::ArrowDown, 2), Some(7));
        // A selected link the filters hide counts as no selection.
        assert_eq!(moved(&ROWS, Some(42), Key::PageUp, 2), Some(7));
    }

    #[test]
    fn nothing_moves_in_an_empty_table_or_on_other_keys() {
        assert_eq!(moved(&[], None, Key::ArrowDown, 2), None);
        assert_eq!(moved(&ROWS, Some(3), Key::Enter, 2), None);
    }
}
