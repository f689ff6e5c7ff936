//! Bytes to text (SPEC section 3): BOM, then the HTTP charset, then a `<meta>`
//! prescan of the first 1024 bytes, else detection with chardetng.

use std::borrow::Cow;
use std::sync::LazyLock;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};
use regex::bytes::Regex;
use serde::Serialize;

/// Which source decided the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CharsetSource {
    Bom,
    ContentType,
    Meta,
    Detected,
}

impl CharsetSource {
    pub fn describe(self) -> &'static str {
        match self {
            CharsetSource::Bom => "byte order mark",
            CharsetSource::ContentType => "HTTP Content-Type",
            CharsetSource::Meta => "<meta> in the page",
            CharsetSource::Detected => "detected (chardetng)",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// Borrowed from the bytes when they are already valid UTF-8.
    pub text: Cow<'a, str>,
    pub encoding: &'static Encoding,
    pub source: CharsetSource,
    /// Bytes that did not decode and became U+FFFD.
    pub had_errors: bool,
}

/// Decodes a page. `http_charset` is the `charset` parameter of the Content-Type
/// header, if any; `tld` (e.g. `b"jp"`) helps the detector when nothing declares.
pub fn decode<'a>(bytes: &'a [u8], http_charset: Option<&str>, tld: Option<&[u8]>) -> Decoded<'a> {
    let (encoding, source) = choose_encoding(bytes, http_charset, tld);
    let (text, _, had_errors) = encoding.decode(bytes);
    Decoded {
        text,
        encoding,
        source,
        had_errors,
    }
}

fn choose_encoding(
    bytes: &[u8],
    http_charset: Option<&str>,
    tld: Option<&[u8]>,
) -> (&'static Encoding, CharsetSource) {
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return (encoding, CharsetSource::Bom);
    }
    if let Some(encoding) = http_charset.and_then(|c| Encoding::for_label(c.trim().as_bytes())) {
        return (encoding, CharsetSource::ContentType);
    }
    if let Some(encoding) = prescan_meta(&bytes[..bytes.len().min(1024)]) {
        return (encoding, CharsetSource::Meta);
    }
    (detect(bytes, tld), CharsetSource::Detected)
}

/// How much of an undeclared page the detector reads: what Firefox feeds
/// chardetng for a `file:` URL before it decides (`LOCAL_FILE_UTF_8_BUFFER_SIZE`,
/// 4 MiB, in `parser/html/nsHtml5StreamParser.cpp`: the guess is made there or
/// at the end of the file, whichever comes first). A saved page is read as a
/// `file:` URL is, so UTF-8 is a permissible guess. Over the network Firefox
/// guesses at 1024 bytes (`UNCONDITIONAL_META_SCAN_BOUNDARY`) but goes on
/// feeding the detector and reloads at the end if the guess changed; Chromium
/// runs its own detector (CED, not chardetng) on each chunk it decodes until
/// one gives an answer (`TextResourceDecoder::AutoDetectEncodingIfAllowed`,
/// blink), in practice the first. Firefox's local-file rule is the one that
/// uses chardetng as we do. The default `--max-bytes` is 10 MiB, so the bound
/// matters only for an undeclared page of more than 4 MiB of which the first
/// 4 MiB are not enough; no page of the corpora is that large.
pub const DETECTOR_BYTES: usize = 4 * 1024 * 1024;

/// chardetng's guess for an undeclared page, over its first [`DETECTOR_BYTES`].
///
/// Valid UTF-8 is answered without running the detector: chardetng returns
/// UTF-8 whenever its UTF-8 candidate is still qualified and UTF-8 is allowed
/// (`EncodingDetector::guess`; the ISO-2022-JP answer before it needs that
/// candidate, which `Iso2022JpDetection::Deny` disqualifies from the start),
/// and that candidate is encoding_rs's UTF-8 decoder without replacement:
/// qualified exactly when the bytes are valid UTF-8 (a sequence cut at the
/// end counts only when the input is not complete), the same test as
/// `std::str::from_utf8`. Running the 27 candidates over a whole page was 20%
/// of a corpus run's instructions on real homepages, most of them UTF-8.
pub fn detect(bytes: &[u8], tld: Option<&[u8]>) -> &'static Encoding {
    let fed = &bytes[..bytes.len().min(DETECTOR_BYTES)];
    let last = fed.len() == bytes.len();
    let utf8 = match std::str::from_utf8(fed) {
        Ok(_) => true,
        Err(e) => !last && e.error_len().is_none(),
    };
    if utf8 {
        return UTF_8;
    }
    // A saved page is read like a `file:` URL, so UTF-8 is a permissible guess;
    // ISO-2022-JP is refused as browsers do for pages that run scripts.
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(fed, last);
    detector.guess(valid_tld(tld), Utf8Detection::Allow)
}

/// The TLD if chardetng takes it: it panics on one that is not a lowercase
/// ASCII label.
fn valid_tld(tld: Option<&[u8]>) -> Option<&[u8]> {
    tld.filter(|t| {
        t.iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
    })
}

/// chardetng's own guess over the whole page, fed at once: what [`detect`]
/// must agree with on every page of the corpora (`tests/integration`).
#[doc(hidden)]
pub fn detect_unbounded(bytes: &[u8], tld: Option<&[u8]>) -> &'static Encoding {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    detector.guess(valid_tld(tld), Utf8Detection::Allow)
}

static META: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i-u)<meta[\s/]([^>]*)").ok());
static CHARSET_ATTR: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"(?i-u)(?:^|[\s/"'])charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'/>;]+))"#).ok()
});
static CONTENT_ATTR: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"(?i-u)(?:^|[\s/"'])content\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"#).ok()
});
static HTTP_EQUIV_CT: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"(?i-u)http-equiv\s*=\s*["']?\s*content-type"#).ok());
static CHARSET_IN_CONTENT: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"(?i-u)charset\s*=\s*["']?([^\s"';]+)"#).ok());

fn first_group<'a>(re: &Regex, hay: &'a [u8]) -> Option<&'a [u8]> {
    let caps = re.captures(hay)?;
    (1..caps.len())
        .find_map(|i| caps.get(i))
        .map(|m| m.as_bytes())
}

/// A simplified form of the HTML prescan: `<meta charset=…>`, or
/// `<meta http-equiv="Content-Type" content="…; charset=…">`. As in browsers, a
/// declared UTF-16 means UTF-8 (the bytes were read as ASCII to find it) and
/// x-user-defined means windows-1252.
fn prescan_meta(head: &[u8]) -> Option<&'static Encoding> {
    let meta = META.as_ref()?;
    for tag in meta.captures_iter(head) {
        let attrs = tag.get(1)?.as_bytes();
        let label = CHARSET_ATTR
            .as_ref()
            .and_then(|re| first_group(re, attrs))
            .or_else(|| {
                HTTP_EQUIV_CT.as_ref()?.is_match(attrs).then_some(())?;
                let content = first_group(CONTENT_ATTR.as_ref()?, attrs)?;
                first_group(CHARSET_IN_CONTENT.as_ref()?, content)
            });
        if let Some(encoding) = label.and_then(|l| Encoding::for_label(l.trim_ascii())) {
            return Some(match encoding.name() {
                "UTF-16LE" | "UTF-16BE" => UTF_8,
                "x-user-defined" => WINDOWS_1252,
                _ => encoding,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_wins_over_everything() {
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice(b"<meta charset=gbk>caf\xC3\xA9");
        let d = decode(&bytes, Some("iso-8859-1"), None);
        assert_eq!(d.source, CharsetSource::Bom);
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.ends_with("café"));
    }

    #[test]
    fn http_charset_beats_meta() {
        let bytes = b"<meta charset=utf-8><a>\xC1\xAA\xCF\xB5</a>";
        let d = decode(bytes, Some("GBK"), None);
        assert_eq!(d.source, CharsetSource::ContentType);
        assert!(d.text.contains("联系"));
    }

    #[test]
    fn unknown_http_charset_falls_through_to_meta() {
        let d = decode(
            b"<meta charset=\"gb2312\">\xC1\xAA\xCF\xB5",
            Some("bogus"),
            None,
        );
        assert_eq!(d.source, CharsetSource::Meta);
        assert!(d.text.contains("联系"));
    }

    #[test]
    fn meta_http_equiv_form() {
        let page = b"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=Shift_JIS\"></head>\x83\x65\x83\x58\x83\x67";
        let d = decode(page, None, None);
        assert_eq!(d.source, CharsetSource::Meta);
        assert_eq!(d.encoding.name(), "Shift_JIS");
        assert!(d.text.contains("テスト"));
    }

    #[test]
    fn meta_utf16_means_utf8() {
        let d = decode(b"<meta charset=utf-16>caf\xC3\xA9", None, None);
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Meta));
    }

    #[test]
    fn meta_after_1024_bytes_is_not_seen() {
        let mut page = vec![b' '; 1100];
        page.extend_from_slice(b"<meta charset=windows-1252>");
        assert_eq!(decode(&page, None, None).source, CharsetSource::Detected);
    }

    #[test]
    fn detection_reads_gbk_and_windows_1252() {
        let gbk = "<html><body><a href=/c>联系我们</a><p>欢迎访问我们的公司网站，我们提供优质的产品和服务。</p></body></html>";
        let (bytes, _, _) = encoding_rs::GBK.encode(gbk);
        let d = decode(&bytes, None, None);
        assert_eq!(d.source, CharsetSource::Detected);
        assert!(d.text.contains("联系我们"), "{}", d.encoding.name());

        let latin = b"<p>Willkommen bei unserer Gesellschaft f\xFCr M\xF6bel und Gr\xFC\xDFe</p>";
        let d = decode(latin, None, Some(b"de"));
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.contains("Möbel"));
    }

    #[test]
    fn valid_utf8_is_answered_as_chardetng_answers_it() {
        let cases: [&[u8]; 7] = [
            b"",
            b"plain ascii",
            "caf\u{e9} \u{8054}\u{7cfb}".as_bytes(),
            b"\x1b$B escape then ascii",
            b"caf\xE9 latin-1",
            b"cut \xE8\x81",
            b"\xED\xA0\x80 surrogate",
        ];
        for bytes in cases {
            for tld in [None, Some(&b"jp"[..]), Some(b"ru")] {
                assert_eq!(
                    detect(bytes, tld),
                    detect_unbounded(bytes, tld),
                    "{bytes:?}"
                );
            }
        }
    }

    /// Past [`DETECTOR_BYTES`] the detector is not fed: a Latin-1 byte there
    /// no longer disqualifies UTF-8 (Firefox's rule for a local file).
    #[test]
    fn the_detector_reads_the_first_four_mebibytes() {
        let mut page = "\u{8054}".repeat(DETECTOR_BYTES / 3 + 1).into_bytes();
        page.extend_from_slice(b"caf\xE9");
        assert_eq!(detect(&page, None), UTF_8);
        assert_ne!(detect_unbounded(&page, None), UTF_8);
    }

    proptest::proptest! {
        /// On any bytes under the bound, the short cut agrees with chardetng.
        #[test]
        fn detect_agrees_with_the_whole_detector(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::num::u8::ANY,
                    0x20u8..0x7f,
                    proptest::strategy::Just(0x1b),
                ],
                0..400,
            ),
            utf8 in ".{0,40}",
        ) {
            let mut mixed = utf8.into_bytes();
            mixed.extend_from_slice(&bytes);
            proptest::prop_assert_eq!(detect(&mixed, None), detect_unbounded(&mixed, None));
            let text = String::from_utf8_lossy(&bytes).into_owned();
            proptest::prop_assert_eq!(detect(text.as_bytes(), None), UTF_8);
        }
    }
}
