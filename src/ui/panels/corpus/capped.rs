//! The tables below the page table are drawn at their own height, so the
//! wheel scrolls the whole view, never a table; so that a long one stays
//! cheap to draw, it shows its first rows and says so.

use egui::{RichText, Ui};

use crate::copy;

/// The most rows such a table draws.
const MOST_ROWS: usize = 200;

/// How many of `all` rows a table draws; when not all, a line says so.
pub fn rows(ui: &mut Ui, all: usize) -> usize {
    if all > MOST_ROWS {
        ui.label(RichText::new(copy::rows_capped(MOST_ROWS, all)).weak());
    }
    all.min(MOST_ROWS)
}
