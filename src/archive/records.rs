//! WARC records read one at a time from a file, plain or one gzip member per
//! record, with the offset each starts at; a damaged record is reported and
//! reading goes on at the next record when one can be found.

use std::path::Path;

use super::ArchiveError;

/// A record's header: its WARC version and its fields, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordHead {
    /// Where the record (or its gzip member) starts in the file.
    pub offset: u64,
    pub version: String,
    pub fields: Vec<(String, String)>,
}

impl RecordHead {
    /// A field's value; names compare without case.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `WARC-Type`.
    pub fn kind(&self) -> Option<&str> {
        self.field("WARC-Type")
    }
}

/// A record with its block (at most the reader's cap of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub head: RecordHead,
    pub block: Vec<u8>,
    /// The block was longer than the cap and was cut.
    pub block_cut: bool,
}

/// A record that could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("damaged record at offset {offset}: {detail}")]
pub struct Damaged {
    pub offset: u64,
    pub detail: String,
}

/// Reads an archive's records in order.
pub struct RecordReader {}

impl RecordReader {
    pub fn open(path: &Path) -> Result<Self, ArchiveError> {
        Err(ArchiveError::NotWarc {
            path: path.to_owned(),
        })
    }

    /// The next record, or why the one there is damaged; `None` at the end.
    /// `wants` says from the header whether to read the block (else it is
    /// skipped); at most `max_block` bytes of it are kept.
    pub fn next_record(
        &mut self,
        wants: &dyn Fn(&RecordHead) -> bool,
        max_block: usize,
    ) -> Option<Result<Record, Damaged>> {
        let _ = (wants, max_block);
        None
    }
}
