use std::io::Write as _;

use flate2::Compression;

use super::*;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn raw_deflate(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        w.write_all(bytes).unwrap();
    }
    out
}

fn chunked(bytes: &[u8], size: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in bytes.chunks(size) {
        out.extend_from_slice(format!("{:x};ext=1\r\n", chunk.len()).as_bytes());
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\nX-Trailer: t\r\n\r\n");
    out
}

fn response(head: &str, body: &[u8]) -> Vec<u8> {
    [head.as_bytes(), b"\r\n\r\n", body].concat()
}

const PAGE: &[u8] = b"<html><body><a href=\"/contact\">Contact</a></body></html>";

#[test]
fn status_headers_and_a_plain_body() {
    let block = response(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 56",
        PAGE,
    );
    let parsed = parse_response(block.to_vec(), 1000).unwrap();
    assert_eq!(parsed.status, 200);
    assert_eq!(
        parsed.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(parsed.body, PAGE);
    assert!(!parsed.truncated);
}

#[test]
fn http_1_0_and_a_status_line_without_a_reason() {
    let parsed = parse_response(response("HTTP/1.0 404", b"gone").to_vec(), 100).unwrap();
    assert_eq!(parsed.status, 404);
    assert_eq!(parsed.body, b"gone");
    let parsed = parse_response(b"HTTP/1.0 200 OK\n\nbare lf".to_vec(), 100).unwrap();
    assert_eq!(parsed.body, b"bare lf");
}

#[test]
fn every_content_coding_is_undone() {
    for (coding, body) in [
        ("gzip", gzip(PAGE)),
        ("x-gzip", gzip(PAGE)),
        ("deflate", zlib(PAGE)),
        ("deflate", raw_deflate(PAGE)),
        ("br", brotli(PAGE)),
        ("identity", PAGE.to_vec()),
    ] {
        let block = response(
            &format!("HTTP/1.1 200 OK\r\nContent-Encoding: {coding}"),
            &body,
        );
        let parsed = parse_response(block.to_vec(), 1000).unwrap();
        assert_eq!(parsed.body, PAGE, "{coding}");
    }
}

#[test]
fn chunked_then_gzip_then_br_are_undone_in_reverse_order() {
    // Applied gzip first, then br; sent chunked.
    let body = chunked(&brotli(&gzip(PAGE)), 7);
    let block = response(
        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip, br\r\nTransfer-Encoding: chunked",
        &body,
    );
    assert_eq!(parse_response(block.to_vec(), 1000).unwrap().body, PAGE);
    let block = response(
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked",
        &chunked(&gzip(PAGE), 5),
    );
    assert_eq!(parse_response(block.to_vec(), 1000).unwrap().body, PAGE);
}

#[test]
fn headers_our_writer_renamed_are_not_undone_again() {
    let block = response(
        "HTTP/1.1 200 OK\r\nX-Archive-Orig-Content-Encoding: gzip\r\n\
         X-Archive-Orig-Transfer-Encoding: chunked\r\nX-Archive-Orig-Content-Length: 12\r\n\
         Content-Length: 56",
        PAGE,
    );
    let parsed = parse_response(block.to_vec(), 1000).unwrap();
    assert_eq!(parsed.body, PAGE);
}

#[test]
fn a_gzip_bomb_is_cut_at_the_cap() {
    let bomb = gzip(&vec![0u8; 20 * 1024 * 1024]);
    let block = response("HTTP/1.1 200 OK\r\nContent-Encoding: gzip", &bomb);
    let parsed = parse_response(block.to_vec(), 1000).unwrap();
    assert_eq!(parsed.body.len(), 1000);
    assert!(parsed.truncated);
    assert!(parsed.body.into_vec().capacity() < 64 * 1024);
}

#[test]
fn a_body_cut_inside_its_gzip_stream_keeps_what_decoded_and_says_it_ended_early() {
    let long: Vec<u8> = (0..20_000u32).flat_map(|i| i.to_le_bytes()).collect();
    let packed = gzip(&long);
    let block = response(
        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip",
        &packed[..packed.len() / 2],
    );
    let mut parsed = parse_response(block.to_vec(), 1_000_000).unwrap();
    // Not cut at the cap: the record ended before its body.
    assert!(!parsed.truncated);
    assert!(!parsed.body.is_empty() && long.starts_with(&parsed.body));
    assert!(parsed.ended_early());
    let said = parsed.quirks[0].to_string();
    assert!(
        said.starts_with("the record ended before its body: its gzip stream stops after "),
        "{said}"
    );
    // A record the capture cut (`WARC-Truncated`) is that cut, no quirk.
    parsed.mark_record_cut();
    assert!(parsed.truncated && parsed.quirks.is_empty());
}

#[test]
fn a_body_short_of_its_content_length_ended_early() {
    let block = response(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100",
        PAGE,
    );
    let parsed = parse_response(block.to_vec(), 1000).unwrap();
    assert_eq!(parsed.body, PAGE);
    assert!(!parsed.truncated);
    assert_eq!(
        parsed.quirks,
        [ReadQuirk::EarlyEnd(EarlyEnd::ShortOfLength {
            claimed: 100,
            got: PAGE.len() as u64
        })]
    );
    assert_eq!(
        parsed.quirks[0].to_string(),
        format!(
            "the record ended before its body: its Content-Length says 100 bytes, the record holds {}",
            PAGE.len()
        )
    );
    // Cut at the cap, or a 304 with no body: nothing odd.
    assert!(
        parse_response(block.to_vec(), 10)
            .unwrap()
            .quirks
            .is_empty()
    );
    let not_modified = response("HTTP/1.1 304 Not Modified\r\nContent-Length: 100", b"");
    assert!(
        parse_response(not_modified.to_vec(), 1000)
            .unwrap()
            .quirks
            .is_empty()
    );
}

#[test]
fn a_coding_not_undone_here_is_read_as_stored() {
    let block = response(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: zstd",
        PAGE,
    );
    let parsed = parse_response(block.to_vec(), 1000).unwrap();
    assert_eq!(parsed.body, PAGE);
    assert_eq!(
        parsed.quirks,
        [ReadQuirk::UnknownCoding {
            coding: "zstd".to_owned()
        }]
    );
    assert_eq!(parsed.quirks[0].id(), "unknown_coding");
}

#[test]
fn skipped_header_lines_are_named_cut_to_a_line() {
    let long = "x".repeat(200);
    let block = response(
        &format!("HTTP/1.1 200 OK\r\nno colon\r\n{long}\r\nContent-Type: text/javascript"),
        b"var a;",
    );
    let parsed = parse_response(block.to_vec(), 1000).unwrap();
    assert_eq!(parsed.header("Content-Type"), Some("text/javascript"));
    assert_eq!(
        parsed.quirks,
        [ReadQuirk::HeaderLinesSkipped {
            count: 2,
            line: "no colon".to_owned()
        }]
    );
    assert_eq!(
        parsed.quirks[0].to_string(),
        "2 lines of its HTTP header are not fields (the first: \"no colon\"): skipped, the rest kept"
    );
    let one = parse_response(
        response(&format!("HTTP/1.1 200 OK\r\n{long}"), b"").to_vec(),
        10,
    )
    .unwrap();
    let said = one.quirks[0].to_string();
    assert!(
        said.starts_with(&format!(
            "its HTTP header line \"{}…\" is not a field",
            "x".repeat(80)
        )),
        "{said}"
    );
}

#[test]
fn what_does_not_parse_says_why() {
    let detail = |block: &[u8]| parse_response(block.to_vec(), 100).unwrap_err().detail;
    assert!(detail(b"").contains("empty"));
    assert!(detail(b"<html>no header").contains("no blank line"));
    assert!(detail(b"HTTP/1.1 OK\r\n\r\n").contains("status line"));
    assert!(detail(b"GET / HTTP/1.1\r\n\r\n").contains("request"));
}

#[test]
fn a_long_stack_of_codings_is_refused_before_any_decoder_is_built() {
    let codings = vec!["gzip"; 50_000].join(",");
    let block = response(
        &format!("HTTP/1.1 200 OK\r\nContent-Encoding: {codings}"),
        &gzip(b"<a href=/x>x</a>"),
    );
    let err = parse_response(block.to_vec(), 1 << 20).unwrap_err();
    assert!(
        err.to_string()
            .contains("50000 content codings are stacked"),
        "{err}"
    );
}

#[test]
fn a_chunked_body_without_its_last_chunk_ended_early() {
    let whole = chunked(PAGE, 7);
    let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked";
    let parsed = parse_response(response(head, &whole).to_vec(), 1000).unwrap();
    assert!(!parsed.truncated && parsed.quirks.is_empty());
    // Every chunk there, the empty last one missing: the capture was cut.
    let without_last = &whole[..whole.len() - b"0\r\nX-Trailer: t\r\n\r\n".len()];
    let parsed = parse_response(response(head, without_last).to_vec(), 1000).unwrap();
    assert_eq!(parsed.body, PAGE);
    assert!(!parsed.truncated);
    assert_eq!(
        parsed.quirks,
        [ReadQuirk::EarlyEnd(EarlyEnd::BeforeLastChunk)]
    );
    // Inside a chunk: how much of it is there.
    let inside = &whole[..b"7;ext=1\r\n<ht".len()];
    let parsed = parse_response(response(head, inside).to_vec(), 1000).unwrap();
    assert_eq!(parsed.body, b"<ht");
    assert_eq!(
        parsed.quirks[0].to_string(),
        "the record ended before its body: a chunk of 7 bytes holds 3"
    );
    assert!(
        parse_response(response(head, b"").to_vec(), 1000)
            .unwrap()
            .ended_early()
    );
}

#[test]
fn the_head_is_read_without_the_body_and_codings_are_told() {
    let block = response(
        "HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Encoding: gzip",
        &gzip(PAGE),
    );
    let (status, headers) = parse_head(&block).unwrap();
    assert_eq!(status, 302);
    assert!(is_coded(&headers));
    let (_, plain) = parse_head(&response("HTTP/1.1 200 OK", PAGE)).unwrap();
    assert!(!is_coded(&plain));
}

fn response_with(headers: &str, body: &[u8]) -> Vec<u8> {
    let mut block = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
    block.extend_from_slice(body);
    block
}

#[test]
fn a_chunked_header_over_a_body_stored_dechunked_reads_the_body_as_stored() {
    let page = b"<!doctype html><a href=/about>About</a>";
    let block = response_with(
        "Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n",
        page,
    );
    let read = parse_response(block.to_vec(), 1 << 20).unwrap();
    assert_eq!(read.body, page);
    assert_eq!(read.quirks, [ReadQuirk::NotChunked]);
    assert!(!read.truncated);
    // Then gzip under it, as Chrome-based recorders store a gzip body.
    let block = response_with(
        "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n",
        &gzip(page),
    );
    let read = parse_response(block.to_vec(), 1 << 20).unwrap();
    assert_eq!(read.body, page);
    assert_eq!(read.quirks, [ReadQuirk::NotChunked]);
}

#[test]
fn a_content_encoding_over_a_body_stored_decoded_reads_the_body_as_stored() {
    let page = b"<html><a href=/contact>Contact</a></html>";
    let block = response_with("Content-Encoding: gzip\r\n", page);
    let read = parse_response(block.to_vec(), 1 << 20).unwrap();
    assert_eq!(read.body, page);
    assert_eq!(
        read.quirks,
        [ReadQuirk::NotEncoded {
            coding: "gzip".to_owned()
        }]
    );
    // Still capped at the body's limit.
    let read = parse_response(block.to_vec(), 10).unwrap();
    assert_eq!(read.body, &page[..10]);
    assert!(read.truncated);
}

#[test]
fn bodies_that_have_their_coding_say_nothing() {
    let page = b"<html>fine</html>";
    let block = response_with(
        "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n",
        &chunked(&gzip(page), 7),
    );
    let read = parse_response(block.to_vec(), 1 << 20).unwrap();
    assert_eq!(read.body, page);
    assert!(read.quirks.is_empty());
}

#[test]
fn only_one_whole_sound_gzip_member_is_inflated_at_once_the_rest_go_to_the_stream() {
    let gz = |c: &str| vec![c.to_owned()];
    let page = gzip(PAGE);
    assert_eq!(gzip_whole(&gz("gzip"), &page, 1000).as_deref(), Some(PAGE));
    assert_eq!(
        gzip_whole(&gz("x-gzip"), &page, 1000).as_deref(),
        Some(PAGE)
    );
    // Exactly one byte over the cap is inflated (it says the body was cut);
    // more is left to the stream, which stops at the cap.
    assert!(gzip_whole(&gz("gzip"), &page, PAGE.len() - 1).is_some());
    assert!(gzip_whole(&gz("gzip"), &page, PAGE.len() - 2).is_none());
    let mut bad_crc = page.clone();
    let at = bad_crc.len() - 8;
    bad_crc[at] ^= 1;
    let mut header_crc = page.clone();
    header_crc[3] |= 0x02;
    let mut lying_size = page.clone();
    let at = lying_size.len() - 4;
    lying_size[at] ^= 1;
    for (why, coding, body) in [
        ("two members", "gzip", [page.clone(), page.clone()].concat()),
        ("bytes after it", "gzip", [&page[..], b"junk"].concat()),
        ("cut", "gzip", page[..page.len() / 2].to_vec()),
        ("a bad CRC", "gzip", bad_crc),
        ("a header CRC", "gzip", header_crc),
        ("a lying length", "gzip", lying_size),
        ("empty", "gzip", gzip(b"")),
        ("not gzip", "deflate", raw_deflate(PAGE)),
    ] {
        assert_eq!(gzip_whole(&gz(coding), &body, 1000), None, "{why}");
    }
    assert_eq!(
        gzip_whole(&["gzip".to_owned(), "br".to_owned()], &page, 1000),
        None
    );
    // What went to the stream reads as before.
    let two = response(
        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip",
        &[page.clone(), page].concat(),
    );
    assert_eq!(
        parse_response(two, 1000).unwrap().body,
        [PAGE, PAGE].concat()
    );
}
