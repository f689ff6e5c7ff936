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
