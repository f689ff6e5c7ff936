//! Each subject's part of the window's state, one file per subject: what it
//! holds and the small methods of its own. The app's files of the same names
//! (`app/loading.rs` for `load`, …) change them; these import nothing of the
//! app, so the app's own file can hold them without an import circle.

pub mod archive;
pub mod comparison;
pub mod corpus;
pub mod load;
pub mod profiles;
pub mod selection;
pub mod view;
