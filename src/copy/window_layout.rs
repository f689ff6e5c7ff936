//! Words of the window's layout: the Corpus view's folded sections and
//! capped tables, and its charts.

/// A table drawn at its own height shows this many rows; the line below says
/// how to see the rest.
pub fn rows_capped(shown: usize, all: usize) -> String {
    format!("First {shown} of {all} rows: narrow the table to see the others.")
}

pub const CHARTS_HEADING: &str = "Charts";

/// The coloured mark before a chart's series name, in its colour.
pub const LEGEND_SWATCH: &str = "■";

/// The mark of a banner folded to one line (a click unfolds it) and of one
/// unfolded in a short window (a click folds it again).
pub const BANNER_FOLDED: &str = "▸";
pub const BANNER_UNFOLDED: &str = "▾";
pub const BANNER_UNFOLD_TOOLTIP: &str = "Show the whole message";
pub const BANNER_FOLD_TOOLTIP: &str = "Fold to one line, to leave the room to the table";
