//! The window's layout, one home: what fits in a window of each size and
//! what a click or a key brings into view. Whole-window tests only; a
//! panel's own layout is tested beside the panel (`src/ui/panels/`).
//!
//! - `sizes`: the window from 1920×1080 down to 800×600 and zero size: the
//!   top bar's controls and the table's columns on screen, the settings
//!   panel's width steady.
//! - `at_1024`: the window at 1024×700 as a new user sees it: a one-line top
//!   bar, every control in reach, each link's URL end and verdict readable.
//! - `into_view`: a click or a key brings its target into view: a Corpus
//!   view row opens its page with the link selected, T scrolls the kind
//!   chooser into a short window.
//! - `tree`: the crawl's page tree at 800×600: lines fitted with their host,
//!   end and status; the page shown in view when a crawl opens.
//! - `walk`: every view and dialog at 800×600, 1024×700 and 1280×800, one
//!   `Scene` each (as egui_demo_lib's `Demo`): controls whole and apart (or
//!   a wheel away), five link rows, a URL cell with its host, the detail
//!   pane's width kept. A new view or dialog adds a scene there.

mod at_1024;
mod into_view;
mod sizes;
mod tree;
mod walk;
