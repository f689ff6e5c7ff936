//! WARC records read one at a time from a file, plain or one gzip member per
//! record, with the offset each starts at; a damaged record is reported and
//! reading goes on at the next record when one can be found.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use warcat::header::WarcHeader;

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
pub struct RecordReader {
    bytes: Vec<u8>,
    at: usize,
}

impl RecordReader {
    pub fn open(path: &Path) -> Result<Self, ArchiveError> {
        let read_error = |source: std::io::Error| ArchiveError::Read {
            path: path.to_owned(),
            source: Arc::new(source),
        };
        let raw = std::fs::read(path).map_err(read_error)?;
        let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
            let mut out = Vec::new();
            flate2::read::MultiGzDecoder::new(&raw[..])
                .read_to_end(&mut out)
                .map_err(read_error)?;
            out
        } else {
            raw
        };
        if !bytes.starts_with(b"WARC/") {
            return Err(ArchiveError::NotWarc {
                path: path.to_owned(),
            });
        }
        Ok(Self { bytes, at: 0 })
    }

    /// The next record, or why the one there is damaged; `None` at the end.
    /// `wants` says from the header whether to read the block (else it is
    /// skipped); at most `max_block` bytes of it are kept.
    pub fn next_record(
        &mut self,
        wants: &dyn Fn(&RecordHead) -> bool,
        max_block: usize,
    ) -> Option<Result<Record, Damaged>> {
        let rest = self.bytes.get(self.at..)?;
        if rest.is_empty() {
            return None;
        }
        let offset = self.at as u64;
        let damaged = |detail: &str| {
            Some(Err(Damaged {
                offset,
                detail: detail.to_owned(),
            }))
        };
        let Some(end) = rest.windows(4).position(|w| w == b"\r\n\r\n") else {
            self.at = self.bytes.len();
            return damaged("the record's header does not end");
        };
        let header = match WarcHeader::parse(&rest[..end + 4]) {
            Ok(header) => header,
            Err(e) => {
                self.at = self.bytes.len();
                return damaged(&e.to_string());
            }
        };
        let Ok(length) = header.content_length() else {
            self.at = self.bytes.len();
            return damaged("no Content-Length");
        };
        let block_start = end + 4;
        let block_end = usize::try_from(length)
            .ok()
            .and_then(|n| block_start.checked_add(n))
            .filter(|&e| e <= rest.len());
        let Some(block_end) = block_end else {
            self.at = self.bytes.len();
            return damaged("Content-Length is longer than the file");
        };
        let head = RecordHead {
            offset,
            version: header.version.trim_start_matches("WARC/").to_owned(),
            fields: header
                .fields
                .iter()
                .map(|(n, v)| (n.clone(), v.clone()))
                .collect(),
        };
        let block = &rest[block_start..block_end];
        let (block, block_cut) = if wants(&head) {
            (
                block[..block.len().min(max_block)].to_vec(),
                block.len() > max_block,
            )
        } else {
            (Vec::new(), false)
        };
        let mut next = block_end;
        while rest.get(next..next + 2) == Some(b"\r\n") {
            next += 2;
        }
        self.at += next;
        Some(Ok(Record {
            head,
            block,
            block_cut,
        }))
    }
}
