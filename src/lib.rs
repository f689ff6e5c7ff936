//! Follow Inspector: reproduces the scraper's in-site link-following policy
//! (`SPEC.md`) on real pages and explains every verdict.

pub mod cli;
pub mod copy;
pub mod corpus;
pub mod crawl;
pub mod diff;
pub mod fetch;
pub mod inspect;
pub mod page;
pub mod policy;
pub mod profiles;
pub mod render;
pub mod report;
pub mod target;
pub mod ui;
