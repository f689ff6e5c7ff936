//! Follow Inspector: reproduces the scraper's in-site link-following policy
//! (`SPEC.md`) on real pages and explains every verdict.
//!
//! Layers, each importing only those before it (`tests/integration/architecture.rs`
//! guards this): `policy` and `error_text` ← `page` ← `fetch` ← `inspect` ← `render` ← `par` ←
//! `crawl` ← `diff` ← `corpus` ← `load` ← `copy` ← `report` ← `profiles` ←
//! `cli` | `ui` ← the binary's `main`.

pub mod archive;
pub mod cli;
pub mod copy;
pub mod corpus;
pub mod crawl;
pub mod diff;
pub mod error_text;
pub mod fetch;
pub mod inspect;
pub mod load;
pub mod page;
pub mod par;
pub mod policy;
pub mod profiles;
pub mod render;
pub mod report;
pub mod ui;
