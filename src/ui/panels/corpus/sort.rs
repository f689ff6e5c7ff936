//! A table header that sorts: click a column's title, again for the other
//! way round; the sorted column carries an arrow.

use egui::{RichText, Ui};

use super::state::Sort;
use crate::copy;

/// Draws `title` as a header that sorts `sort` by `column`.
pub fn header<C: Copy + PartialEq>(ui: &mut Ui, title: &str, column: C, sort: &mut Sort<C>) {
    let arrow = match (sort.column == column, sort.descending) {
        (false, _) => "",
        (true, false) => " ▲",
        (true, true) => " ▼",
    };
    let button = egui::Button::new(RichText::new(format!("{title}{arrow}")).strong()).frame(false);
    if ui.add(button).on_hover_text(copy::SORT_TOOLTIP).clicked() {
        sort.click(column);
    }
}
