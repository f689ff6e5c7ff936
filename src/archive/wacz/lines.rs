//! Lines read with a cap: a line's first `cap` bytes are kept and the rest
//! is passed over as it streams by, so a 100 MB line holds `cap` bytes.

use std::io::{self, BufRead};

/// Reads the next line into `buf` (its `\n`, and a `\r` before it, left
/// out), keeping at most `cap` bytes of it. Gives the line's whole length,
/// or `None` at the end.
pub(super) fn next_line<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<u64>> {
    buf.clear();
    let mut len: u64 = 0;
    let mut any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any.then(|| strip_cr(buf, len)));
        }
        any = true;
        let (take, ended) = match memchr::memchr(b'\n', available) {
            Some(at) => (at, true),
            None => (available.len(), false),
        };
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&available[..take.min(room)]);
        len += take as u64;
        reader.consume(take + usize::from(ended));
        if ended {
            return Ok(Some(strip_cr(buf, len)));
        }
    }
}

/// A `\r\n` line's `\r` left out (only when the kept bytes end with it).
fn strip_cr(buf: &mut Vec<u8>, len: u64) -> u64 {
    if buf.len() as u64 == len && buf.last() == Some(&b'\r') {
        buf.pop();
        return len - 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8], cap: usize) -> Vec<(Vec<u8>, u64)> {
        let mut reader = io::BufReader::with_capacity(4, text);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(len) = next_line(&mut reader, &mut buf, cap).unwrap() {
            out.push((buf.clone(), len));
        }
        out
    }

    #[test]
    fn a_long_line_keeps_its_first_bytes_and_its_length() {
        let got = lines(b"short\r\nmuch longer line\n\nlast", 6);
        assert_eq!(
            got,
            vec![
                (b"short".to_vec(), 5),
                (b"much l".to_vec(), 16),
                (Vec::new(), 0),
                (b"last".to_vec(), 4),
            ]
        );
    }
}
