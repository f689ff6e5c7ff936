//! One entry of the package read in place: a stored entry as a byte range
//! of the file, a deflated one as a raw-deflate stream over its range. No
//! read passes the entry's declared size: a deflated entry that holds more
//! (a ZIP bomb declared small) is an error there, and one that holds less
//! (declared huge) ends with an error where its data ends, so what is read
//! never grows past what the directory declares or the data holds.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom, Take};
use std::path::Path;

use flate2::bufread::DeflateDecoder;

use super::model::{WaczEntry, find_entry};

const IO_BUFFER: usize = 64 * 1024;

/// The package's file and its entries, for reading entries by name.
#[derive(Clone, Copy)]
pub(super) struct Files<'a> {
    pub path: &'a Path,
    /// In name order.
    pub entries: &'a [WaczEntry],
}

impl Files<'_> {
    pub fn entry(&self, name: &str) -> Option<&WaczEntry> {
        find_entry(self.entries, name)
    }

    pub fn open(&self, entry: &WaczEntry) -> io::Result<EntryInput> {
        EntryInput::open(self.path, entry)
    }
}

type Inflater = DeflateDecoder<Take<BufReader<File>>>;

enum Kind {
    Stored(BufReader<File>),
    Deflated {
        /// Kept to start the stream again on a seek backwards.
        file: File,
        stream: Box<Inflater>,
    },
}

/// An entry's bytes: `Read + Seek + Send`, positions counted from the
/// entry's first uncompressed byte.
pub struct EntryInput {
    name: String,
    data_start: u64,
    compressed_size: u64,
    size: u64,
    pos: u64,
    /// A deflated entry held more than its declared size: every later read
    /// fails as the first did.
    over: bool,
    kind: Kind,
}

impl EntryInput {
    pub(super) fn open(path: &Path, entry: &WaczEntry) -> io::Result<Self> {
        let mut file = File::open(path)?;
        let kind = if entry.stored {
            file.seek(SeekFrom::Start(entry.data_start))?;
            Kind::Stored(BufReader::with_capacity(IO_BUFFER, file))
        } else {
            let stream = inflater(&file, entry.data_start, entry.compressed_size)?;
            Kind::Deflated {
                file,
                stream: Box::new(stream),
            }
        };
        Ok(Self {
            name: entry.name.clone(),
            data_start: entry.data_start,
            compressed_size: entry.compressed_size,
            size: entry.size,
            pos: 0,
            over: false,
            kind,
        })
    }

    /// The entry's declared uncompressed size.
    pub fn len(&self) -> u64 {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The entry's name in the package.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn too_much(&self) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} holds more than the {} bytes the ZIP's directory declares: it is damaged or a decompression bomb",
                self.name, self.size
            ),
        )
    }

    fn ends_early(&self) -> io::Error {
        io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "{} ends after {} of the {} bytes the ZIP's directory declares",
                self.name, self.pos, self.size
            ),
        )
    }

    /// Skips forward by reading, for a seek in a deflated entry.
    fn skip(&mut self, mut n: u64) -> io::Result<()> {
        let mut scratch = vec![0u8; IO_BUFFER.min(usize::try_from(n).unwrap_or(IO_BUFFER))];
        while n > 0 {
            let want = scratch
                .len()
                .min(usize::try_from(n).unwrap_or(scratch.len()));
            let got = self.read(&mut scratch[..want])?;
            if got == 0 {
                return Err(self.ends_early());
            }
            n -= got as u64;
        }
        Ok(())
    }
}

fn inflater(file: &File, start: u64, len: u64) -> io::Result<Inflater> {
    let mut file = file.try_clone()?;
    file.seek(SeekFrom::Start(start))?;
    Ok(DeflateDecoder::new(
        BufReader::with_capacity(IO_BUFFER, file).take(len),
    ))
}

impl Read for EntryInput {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.over {
            return Err(self.too_much());
        }
        let left = self.size - self.pos;
        if buf.is_empty() {
            return Ok(0);
        }
        let got = match &mut self.kind {
            Kind::Stored(file) => {
                if left == 0 {
                    return Ok(0);
                }
                let want = buf.len().min(usize::try_from(left).unwrap_or(buf.len()));
                file.read(&mut buf[..want])?
            }
            Kind::Deflated { stream, .. } => {
                if left == 0 {
                    // At the declared end: the stream must end too.
                    let mut one = [0u8; 1];
                    if stream.read(&mut one)? > 0 {
                        self.over = true;
                        return Err(self.too_much());
                    }
                    return Ok(0);
                }
                let want = buf.len().min(usize::try_from(left).unwrap_or(buf.len()));
                stream.read(&mut buf[..want])?
            }
        };
        if got == 0 {
            return Err(self.ends_early());
        }
        self.pos += got as u64;
        Ok(got)
    }
}

impl Seek for EntryInput {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => i128::from(n),
            SeekFrom::End(d) => i128::from(self.size) + i128::from(d),
            SeekFrom::Current(d) => i128::from(self.pos) + i128::from(d),
        };
        let target = u64::try_from(target)
            .ok()
            .filter(|&t| t <= self.size)
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "a seek to {target} is outside {} ({} bytes)",
                        self.name, self.size
                    ),
                )
            })?;
        match &mut self.kind {
            Kind::Stored(file) => {
                file.seek(SeekFrom::Start(self.data_start + target))?;
                self.pos = target;
            }
            Kind::Deflated { file, stream } => {
                if target < self.pos {
                    // Deflate has no way back: start the stream again.
                    **stream = inflater(file, self.data_start, self.compressed_size)?;
                    self.pos = 0;
                    self.over = false;
                }
                let ahead = target - self.pos;
                self.skip(ahead)?;
            }
        }
        Ok(self.pos)
    }
}
