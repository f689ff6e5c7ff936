//! A gzip member inflated whole, when it fits, and the buffered file that
//! lets it fit.
//!
//! Most gzip archives hold one gzip member per record (Common Crawl's,
//! wget's, most `.warc.gz` files of `../shared/archives`). Inflated as a
//! stream by flate2 over zlib-rs, the members took 13% of a corpus run's
//! time on the real-page archive; libdeflate inflates a member held in
//! memory 2.1-2.5x as fast alone (`Cargo.toml`), and took 9% in the run.
//! So the member at the reader's position is first inflated whole from the
//! buffered file; one that is larger than [`WINDOW`] compressed or
//! [`MAX_INFLATED`] inflated, or that libdeflate refuses (damage, a cut
//! file, a header CRC it would not check), is read as a stream as before,
//! so flate2 tells the damage in the same words.

use std::io::{self, BufRead, Read};
use std::ptr::NonNull;

use super::input::Input;

/// The most of a compressed member looked at whole: past it, the member is
/// read as a stream. Real pages' records compress to 2-60 KB.
pub(super) const WINDOW: usize = 1024 * 1024;
/// What the buffer is first topped up to before a member is tried, reading
/// record after record: most members fit, and topping up to the whole
/// window each time would move more bytes than it saves.
pub(super) const FIRST_LOOK: usize = 256 * 1024;
/// The same for one record read where an index found it (the window's
/// archive fetcher): what `BufReader` read there before the window, so a
/// random read does not read the whole window for a 30 KB member.
pub(super) const ONE_RECORD_LOOK: usize = 64 * 1024;
/// The most a member may inflate to and be held whole (its records are
/// read from memory); past it, the member is read as a stream. Common
/// Crawl cuts a page at 1 MiB.
const MAX_INFLATED: usize = 8 * 1024 * 1024;
/// The inflated buffer a reader starts with, doubled when a member needs it.
const FIRST_INFLATED: usize = 512 * 1024;
/// FLG bit: the header carries a CRC16, which libdeflate skips unchecked and
/// flate2 checks; such members go to flate2.
pub(in crate::archive) const FHCRC: u8 = 0x02;

/// The file read through a buffer that can be topped up to hold a whole
/// member (std's `BufReader` only refills once it is empty).
pub(super) struct Window {
    input: Input,
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl Window {
    pub(super) fn new(input: Input) -> Self {
        Self {
            input,
            // Grown by `top_up` as far as the members need.
            buf: vec![0; ONE_RECORD_LOOK],
            start: 0,
            end: 0,
        }
    }

    /// The file, at an unspecified position (callers seek).
    pub(super) fn into_inner(self) -> Input {
        self.input
    }

    /// At least `want` bytes buffered (at most the window), fewer only at the
    /// end of the file.
    fn top_up(&mut self, want: usize) -> io::Result<&[u8]> {
        let want = want.min(WINDOW);
        if self.buf.len() < want {
            self.buf.resize(want, 0);
        }
        if self.end - self.start < want {
            // Room after what is buffered, else move it to the front: at
            // most a quarter of the window moves per three quarters read.
            if self.buf.len() - self.start < want {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            }
            while self.end - self.start < want {
                match self.input.read(&mut self.buf[self.end..]) {
                    Ok(0) => break,
                    Ok(n) => self.end += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(&self.buf[self.start..self.end])
    }
}

impl Read for Window {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        // A large read with nothing buffered goes straight to the file, as
        // `BufReader` does.
        if self.start == self.end && out.len() >= self.buf.len() {
            return self.input.read(out);
        }
        let n = {
            let bytes = self.fill_buf()?;
            let n = bytes.len().min(out.len());
            out[..n].copy_from_slice(&bytes[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Window {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end {
            self.start = 0;
            self.end = self.input.read(&mut self.buf)?;
        }
        Ok(&self.buf[self.start..self.end])
    }

    fn consume(&mut self, amt: usize) {
        self.start = (self.start + amt).min(self.end);
    }
}

/// A member's inflated bytes, read from memory.
pub(super) struct Inflated {
    buf: Vec<u8>,
    pos: usize,
    len: usize,
}

impl Read for Inflated {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = (self.len - self.pos).min(out.len());
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl BufRead for Inflated {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(&self.buf[self.pos..self.len])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.len);
    }
}

/// libdeflate's decompressor and the buffer members are inflated into,
/// kept from member to member.
pub(super) struct WholeMembers {
    decompressor: Decompressor,
    spare: Vec<u8>,
    first_look: usize,
}

impl WholeMembers {
    /// `first_look`: [`FIRST_LOOK`] reading record after record,
    /// [`ONE_RECORD_LOOK`] for one record.
    pub(super) fn new(first_look: usize) -> Option<Self> {
        Some(Self {
            decompressor: Decompressor::new()?,
            spare: Vec::new(),
            first_look,
        })
    }

    /// The member at the start of `window`, inflated whole; `taken` is how
    /// many bytes of the file it took. `None` when it is to be read as a
    /// stream (too large, or not one libdeflate reads: flate2 tells why);
    /// nothing is consumed then.
    pub(super) fn inflate(&mut self, window: &mut Window) -> Option<(Inflated, usize)> {
        let mut want = self.first_look;
        let mut buf = std::mem::take(&mut self.spare);
        if buf.is_empty() {
            buf = vec![0; FIRST_INFLATED];
        }
        loop {
            let bytes = window.top_up(want).ok()?;
            let whole_file = bytes.len() < want;
            if bytes.get(3).is_some_and(|flags| flags & FHCRC != 0) {
                self.spare = buf;
                return None;
            }
            match self.decompressor.gzip(bytes, &mut buf) {
                Ok((taken, len)) => {
                    return Some((Inflated { buf, pos: 0, len }, taken));
                }
                Err(Refused::TooSmall) if buf.len() < MAX_INFLATED => {
                    buf = vec![0; buf.len() * 2];
                }
                // Bad data, or a member cut by the end of what is buffered.
                Err(Refused::Bad) if !whole_file && want < WINDOW => {
                    want = want.saturating_mul(4).min(WINDOW);
                }
                Err(_) => {
                    self.spare = buf;
                    return None;
                }
            }
        }
    }

    /// A member's buffer, back for the next member.
    pub(super) fn give_back(&mut self, inflated: Inflated) {
        self.spare = inflated.buf;
    }
}

/// Why libdeflate did not inflate a member.
pub(in crate::archive) enum Refused {
    /// The output buffer is too small.
    TooSmall,
    /// Not a whole valid gzip member (or a cut one).
    Bad,
}

/// A libdeflate decompressor (about 10 KB of tables, allocated once).
pub(in crate::archive) struct Decompressor(NonNull<libdeflate_sys::libdeflate_decompressor>);

// SAFETY: the decompressor is plain memory owned by this value; libdeflate
// keeps no thread-local or shared state, and `&mut self` serialises use.
unsafe impl Send for Decompressor {}

impl Decompressor {
    pub(in crate::archive) fn new() -> Option<Self> {
        // SAFETY: no arguments; a null result (out of memory) is checked.
        NonNull::new(unsafe { libdeflate_sys::libdeflate_alloc_decompressor() }).map(Self)
    }

    /// Inflates the gzip member at the start of `input` (what follows it is
    /// not read) into `out`: (bytes of `input` it took, bytes inflated).
    /// The CRC32 and length in its trailer are checked.
    pub(in crate::archive) fn gzip(
        &mut self,
        input: &[u8],
        out: &mut [u8],
    ) -> Result<(usize, usize), Refused> {
        let (mut taken, mut len) = (0usize, 0usize);
        // SAFETY: the pointers and lengths are those of live slices that
        // libdeflate reads (`input`) and writes (`out`) only within; the two
        // counts are written through valid `&mut usize`.
        let result = unsafe {
            libdeflate_sys::libdeflate_gzip_decompress_ex(
                self.0.as_ptr(),
                input.as_ptr().cast(),
                input.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                &mut taken,
                &mut len,
            )
        };
        match result {
            libdeflate_sys::libdeflate_result_LIBDEFLATE_SUCCESS => Ok((taken, len)),
            libdeflate_sys::libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE => {
                Err(Refused::TooSmall)
            }
            _ => Err(Refused::Bad),
        }
    }
}

impl Drop for Decompressor {
    fn drop(&mut self) {
        // SAFETY: allocated by `libdeflate_alloc_decompressor`, freed once.
        unsafe { libdeflate_sys::libdeflate_free_decompressor(self.0.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Write};

    use flate2::Compression;
    use flate2::write::GzEncoder;

    use super::*;

    /// A file that gives at most 100 KB a read, as a pipe may.
    struct Trickle(Cursor<Vec<u8>>);

    impl Read for Trickle {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = out.len().min(100_000);
            self.0.read(&mut out[..n])
        }
    }

    impl io::Seek for Trickle {
        fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
            self.0.seek(to)
        }
    }

    impl super::super::input::RecordInput for Trickle {}

    /// Bytes that do not compress.
    fn noise(n: usize) -> Vec<u8> {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    fn window(bytes: Vec<u8>) -> Window {
        Window::new(Box::new(Cursor::new(bytes)))
    }

    #[test]
    fn members_are_inflated_one_at_a_time_and_say_what_they_took() {
        let (a, b) = (gzip(b"first member"), gzip(&[b'x'; 5000]));
        let mut file = window([a.clone(), b.clone()].concat());
        let mut whole = WholeMembers::new(FIRST_LOOK).unwrap();
        let (mut inflated, taken) = whole.inflate(&mut file).unwrap();
        assert_eq!(taken, a.len());
        let mut text = Vec::new();
        inflated.read_to_end(&mut text).unwrap();
        assert_eq!(text, b"first member");
        whole.give_back(inflated);
        file.consume(taken);
        let (inflated, taken) = whole.inflate(&mut file).unwrap();
        assert_eq!((taken, inflated.len - inflated.pos), (b.len(), 5000));
    }

    #[test]
    fn a_member_past_the_first_buffers_is_inflated_in_larger_ones() {
        // 600 KB that do not compress, then 3 MB that do: past the first
        // look at the file (read 100 KB at a time) and the first output.
        let data = [noise(600_000), vec![b'z'; 3_000_000]].concat();
        let member = gzip(&data);
        assert!(member.len() > FIRST_LOOK);
        let mut file = Window::new(Box::new(Trickle(Cursor::new(member.clone()))));
        let mut whole = WholeMembers::new(FIRST_LOOK).unwrap();
        let (mut inflated, taken) = whole.inflate(&mut file).unwrap();
        assert_eq!(taken, member.len());
        let mut text = Vec::new();
        inflated.read_to_end(&mut text).unwrap();
        assert_eq!(text, data);
        // Past the window compressed: left to the stream.
        let big = gzip(&noise(WINDOW + 1000));
        let mut file = Window::new(Box::new(Trickle(Cursor::new(big))));
        assert!(whole.inflate(&mut file).is_none());
    }

    #[test]
    fn what_libdeflate_does_not_read_whole_is_left_to_the_stream() {
        let member = gzip(b"a page");
        let mut whole = WholeMembers::new(FIRST_LOOK).unwrap();
        // Cut, bad CRC, and a header CRC flag: nothing consumed.
        let cut = member[..member.len() - 3].to_vec();
        let mut bad_crc = member.clone();
        let n = bad_crc.len();
        bad_crc[n - 8] ^= 1;
        let mut fhcrc = member.clone();
        fhcrc[3] |= FHCRC;
        for bytes in [cut, bad_crc, fhcrc] {
            let mut file = window(bytes.clone());
            assert!(whole.inflate(&mut file).is_none());
            assert_eq!(file.fill_buf().unwrap(), &bytes[..]);
        }
        // Over MAX_INFLATED inflated.
        let mut file = window(gzip(&vec![0; MAX_INFLATED + 1]));
        assert!(whole.inflate(&mut file).is_none());
    }

    #[test]
    fn the_window_reads_like_the_file() {
        let bytes: Vec<u8> = (0..3 * WINDOW as u32).map(|i| (i % 253) as u8).collect();
        let mut file = window(bytes.clone());
        let mut got = vec![0; 10];
        file.read_exact(&mut got).unwrap();
        file.top_up(WINDOW).unwrap();
        let mut rest = Vec::new();
        file.read_to_end(&mut rest).unwrap();
        got.extend(rest);
        assert_eq!(got, bytes);
    }

    #[test]
    fn the_window_reads_no_more_of_the_file_than_it_is_asked_for() {
        let bytes: Vec<u8> = (0..3 * WINDOW as u32).map(|i| (i % 253) as u8).collect();
        let mut file = window(bytes);
        // One record read where an index found it: a first look, not a window.
        assert_eq!(file.fill_buf().unwrap().len(), ONE_RECORD_LOOK);
        assert_eq!(file.top_up(FIRST_LOOK).unwrap().len(), FIRST_LOOK);
        assert_eq!(file.top_up(10 * WINDOW).unwrap().len(), WINDOW);
    }
}
