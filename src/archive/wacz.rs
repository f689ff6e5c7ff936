//! WACZ packages (SPEC 12, Webrecorder's WACZ 1.1.1): a ZIP holding
//! `archive/*.warc[.gz]`, an index (`indexes/*.cdxj`, `index.cdx[.gz]`),
//! `pages/pages.jsonl` and `datapackage.json`; and written, an inspection
//! saved as one ([`write_package`]).
//!
//! Opening reads the ZIP's central directory, the pages and the index (each
//! bounded) and never a WARC: a WARC entry is read in place as a
//! [`EntryInput`] (a byte range of the file, or a raw-deflate stream over
//! one), and a URL is found through the index, so a multi-GB crawl opens in
//! the time its index takes to read.

mod directory;
mod entry;
mod hashes;
mod index;
mod lines;
mod model;
mod package;
mod pages;
mod surt;
#[cfg(test)]
mod tests;
mod write;

pub use entry::EntryInput;
pub use hashes::HashScope;
pub use index::IndexHit;
pub use model::{WaczEntry, WaczError, WaczWarning, looks_like_zip};
pub use package::Wacz;
pub use pages::{MAX_PAGES, WaczPage};
pub use write::{is_package_name, write_package};
