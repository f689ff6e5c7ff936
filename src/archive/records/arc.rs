//! ARC records (the Internet Archive's format before WARC, read by warcio
//! and by Heritrix's tools): a one-line header, `URL IP-address
//! Archive-date Content-type [... v2 fields] Archive-length`, then that
//! many bytes, then a newline. Each is given the WARC header warcio gives
//! it, so the rest of the tool reads an ARC as a WARC: the `filedesc://`
//! record is the `warcinfo`, every other record a `response` of its URL.

use std::io::{self, BufRead, Read as _};

/// Why an ARC record's header line cannot be read.
#[derive(Debug)]
pub(super) enum BadLine {
    Io(io::Error),
    TooLong,
    /// The input ends inside the line.
    Cut,
    /// Not `URL IP date type … length`: the line, shown.
    Malformed(String),
}

/// An ARC record's header, as WARC fields, and its block's length.
pub(super) struct ArcHead {
    pub fields: Vec<(String, String)>,
    pub length: u64,
}

/// The version a record read from an ARC is given.
pub(super) const ARC_VERSION: &str = "ARC";

/// The header line, up to and with its newline.
pub(super) fn read_line(input: &mut impl BufRead, max: usize) -> Result<Vec<u8>, BadLine> {
    let mut line = Vec::new();
    let got = input
        .take(max as u64 + 1)
        .read_until(b'\n', &mut line)
        .map_err(BadLine::Io)?;
    if line.last() != Some(&b'\n') {
        return Err(if got > max {
            BadLine::TooLong
        } else {
            BadLine::Cut
        });
    }
    Ok(line)
}

/// The record's head, as WARC fields, and its block's length.
pub(super) fn parse_line(line: &[u8]) -> Result<ArcHead, BadLine> {
    let shown = || {
        BadLine::Malformed(
            String::from_utf8_lossy(line.trim_ascii_end())
                .chars()
                .take(80)
                .collect(),
        )
    };
    let text = std::str::from_utf8(line).map_err(|_| shown())?.trim_end();
    let tokens: Vec<&str> = text.split(' ').filter(|t| !t.is_empty()).collect();
    // v1 has five fields, v2 ten; the length is always last.
    let (&[url, ip, date, mime, ..], Some(length)) = (tokens.as_slice(), tokens.last()) else {
        return Err(shown());
    };
    if tokens.len() < 5 || !length.bytes().all(|b| b.is_ascii_digit()) {
        return Err(shown());
    }
    let length: u64 = length.parse().map_err(|_| shown())?;
    let is_http = url.starts_with("http:") || url.starts_with("https:");
    let kind = if url.starts_with("filedesc:") {
        "warcinfo"
    } else {
        "response"
    };
    let content_type = if is_http {
        "application/http; msgtype=response"
    } else {
        mime
    };
    let mut fields = vec![
        ("WARC-Type".to_owned(), kind.to_owned()),
        ("WARC-Target-URI".to_owned(), url.to_owned()),
        ("WARC-Date".to_owned(), warc_date(date)),
        ("WARC-IP-Address".to_owned(), ip.to_owned()),
        ("Content-Type".to_owned(), content_type.to_owned()),
        ("Content-Length".to_owned(), length.to_string()),
    ];
    fields.retain(|(_, value)| !value.is_empty());
    Ok(ArcHead { fields, length })
}

/// `20140216050221` as a WARC date, `2014-02-16T05:02:21Z`; kept as it is
/// when it is not 14 digits.
fn warc_date(date: &str) -> String {
    let d = date.as_bytes();
    if d.len() != 14 || !d.iter().all(u8::is_ascii_digit) {
        return date.to_owned();
    }
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        &date[0..4],
        &date[4..6],
        &date[6..8],
        &date[8..10],
        &date[10..12],
        &date[12..14]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field<'a>(head: &'a ArcHead, name: &str) -> Option<&'a str> {
        head.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn a_v1_line_is_a_response_with_a_warc_header() {
        let line = b"http://example.com/ 93.184.216.119 20140216050221 text/html 1591\n";
        let head = parse_line(line).unwrap();
        assert_eq!(head.length, 1591);
        assert_eq!(field(&head, "WARC-Type"), Some("response"));
        assert_eq!(field(&head, "WARC-Target-URI"), Some("http://example.com/"));
        assert_eq!(field(&head, "WARC-Date"), Some("2014-02-16T05:02:21Z"));
    }

    #[test]
    fn the_filedesc_record_is_the_warcinfo_and_v2_lines_read() {
        let line = b"filedesc://live-web-example.arc.gz 127.0.0.1 20140216050221 text/plain 75\n";
        assert_eq!(
            field(&parse_line(line).unwrap(), "WARC-Type"),
            Some("warcinfo")
        );
        let v2 = b"http://a.example/ 1.2.3.4 20080430204825 text/html 200 ABC - 123 x.arc 42\n";
        assert_eq!(parse_line(v2).unwrap().length, 42);
    }

    #[test]
    fn a_malformed_line_is_shown() {
        for line in [
            &b"http://a/ 1.2.3.4\n"[..],
            b"http://a/ 1 2 text/html many\n",
            b"\xff\n",
        ] {
            assert!(matches!(parse_line(line), Err(BadLine::Malformed(_))));
        }
    }
}
