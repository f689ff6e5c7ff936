//! WARC records read one at a time from a file, plain or one gzip member per
//! record, with the offset each starts at; a damaged record is reported and
//! reading goes on at the next record when one can be found.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use warcat::compress::Format;
use warcat::warc::{DecStateHeader, Decoder, DecoderConfig};

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
    decoder: Option<Decoder<DecStateHeader, BufReader<File>>>,
}

impl RecordReader {
    pub fn open(path: &Path) -> Result<Self, ArchiveError> {
        let read_error = |source: std::io::Error| ArchiveError::Read {
            path: path.to_owned(),
            source: Arc::new(source),
        };
        let mut magic = [0u8; 2];
        let mut file = File::open(path).map_err(read_error)?;
        let n = file.read(&mut magic).map_err(read_error)?;
        let file = File::open(path).map_err(read_error)?;
        let mut config = DecoderConfig::default();
        if n == 2 && magic == [0x1f, 0x8b] {
            config.decompressor.format = Format::Gzip;
        }
        let decoder = Decoder::new(BufReader::new(file), config).map_err(read_error)?;
        Ok(Self {
            decoder: Some(decoder),
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
        let mut decoder = self.decoder.take()?;
        let offset = decoder.record_boundary_position();
        let damaged = |detail: String| Some(Err(Damaged { offset, detail }));
        match decoder.has_next_record() {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => return damaged(e.to_string()),
        }
        let (header, mut block) = match decoder.read_header() {
            Ok(read) => read,
            Err(e) => return damaged(e.to_string()),
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
        let mut bytes = Vec::new();
        let mut block_cut = false;
        if wants(&head) {
            let limit = u64::try_from(max_block).unwrap_or(u64::MAX);
            if let Err(e) = (&mut block).take(limit).read_to_end(&mut bytes) {
                return damaged(e.to_string());
            }
            let mut probe = [0u8; 1];
            block_cut = matches!(block.read(&mut probe), Ok(n) if n > 0);
        }
        match block.finish_block() {
            Ok(next) => self.decoder = Some(next),
            Err(e) => return damaged(e.to_string()),
        }
        Some(Ok(Record {
            head,
            block: bytes,
            block_cut,
        }))
    }
}
