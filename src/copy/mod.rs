//! User-facing words, in one place, by subject: lint messages, the window's
//! labels, link explanations, tuning reports, profiles-file notices and
//! advice on errors.

mod advice;
mod archive_corpus;
mod cli;
mod explanation_context;
mod lints;
mod profiles;
mod trace;
mod truth;
mod tuning;
mod window;
mod window_archive;
mod window_layout;
mod window_panels;
mod window_stale_run;
mod window_status;
mod window_targets;
mod window_truth;

pub use advice::*;
pub use archive_corpus::*;
pub use cli::*;
pub use explanation_context::*;
pub use lints::*;
pub use profiles::*;
pub use trace::*;
pub use truth::*;
pub use tuning::*;
pub use window::*;
pub use window_archive::*;
pub use window_layout::*;
pub use window_panels::*;
pub use window_stale_run::*;
pub use window_status::*;
pub use window_targets::*;
pub use window_truth::*;

/// `n` and the noun, singular for one.
fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}
