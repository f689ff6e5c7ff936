//! What records are read from: a file, or any other seekable stream (a
//! WARC stored inside a WACZ package is a byte range of it; a deflated one a
//! stream that seeks by reading), as jwarc's `WarcReader` takes a channel,
//! a stream or a path.

use std::fs::File;
use std::io::{Read, Seek};

/// A seekable byte stream records are read from.
pub trait RecordInput: Read + Seek + Send {
    /// The first offset at or after `pos` that holds data (a sparse file's
    /// holes read as zeros and hold no record); `None` when nothing follows.
    /// A stream without holes has data everywhere.
    fn next_data(&self, pos: u64) -> Option<u64> {
        Some(pos)
    }
}

impl RecordInput for File {
    fn next_data(&self, pos: u64) -> Option<u64> {
        file_next_data(self, pos)
    }
}

/// A record input of any kind.
pub type Input = Box<dyn RecordInput>;

#[cfg(target_os = "linux")]
fn file_next_data(file: &File, pos: u64) -> Option<u64> {
    use std::os::fd::AsRawFd as _;
    let offset = libc::off_t::try_from(pos).ok()?;
    // SAFETY: lseek on a descriptor this File owns; the cursor it moves is
    // set again by the caller before any read.
    let data = unsafe { libc::lseek(file.as_raw_fd(), offset, libc::SEEK_DATA) };
    if data >= 0 {
        return u64::try_from(data).ok();
    }
    match std::io::Error::last_os_error().raw_os_error() {
        Some(libc::ENXIO) => None,
        // A file system without holes support: read everything.
        _ => Some(pos),
    }
}

#[cfg(not(target_os = "linux"))]
fn file_next_data(_file: &File, pos: u64) -> Option<u64> {
    Some(pos)
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    impl RecordInput for Cursor<Vec<u8>> {}

    #[test]
    fn a_stream_without_holes_has_data_everywhere() {
        let input: Input = Box::new(Cursor::new(b"WARC/1.0\r\n".to_vec()));
        assert_eq!(input.next_data(3), Some(3));
    }
}
