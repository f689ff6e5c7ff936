//! The SURT key a CDXJ line starts with, as pywb and py-wacz compute it
//! (Python `surt` 0.3.1, `surt.surt(url)` with its defaults: the Google
//! then the Internet Archive canonicalizer, no scheme). A replay tool finds
//! a URL by this key, so it must be theirs byte for byte:
//! `https://www.Acme.test:8080/A/?b=1&a=2#x` is `test,acme:8080)/a?a=2&b=1`.
//! A key that is not theirs only costs a replay tool the lookup; our own
//! reader finds a URL by the line's `url`.

use std::sync::LazyLock;

use regex::bytes::Regex;

/// The key of `url` (a `WARC-Target-URI` as written).
pub(super) fn surt(url: &str) -> String {
    if url.is_empty() {
        return "-".to_owned();
    }
    if url.starts_with("filedesc") {
        return url.to_owned();
    }
    match Handy::parse(url.as_bytes()) {
        Some(mut handy) => {
            handy.google();
            handy.internet_archive();
            String::from_utf8_lossy(&handy.key()).into_owned()
        }
        // Python raises here (a port it cannot read) and the indexer keys
        // the line by the URL itself.
        None => url.to_owned(),
    }
}

/// `surt.handyurl`: a URL in parts, as bytes.
struct Handy {
    scheme: Vec<u8>,
    host: Option<Vec<u8>>,
    port: Option<u32>,
    path: Option<Vec<u8>>,
    query: Option<Vec<u8>>,
    /// A `?` with no query after it, kept by the parser (and dropped by the
    /// Internet Archive canonicalizer).
    trailing_question: bool,
}

impl Handy {
    /// `handyurl.parse`: RFC 2396's regular expression, with urllib's
    /// host and port rules.
    fn parse(url: &[u8]) -> Option<Self> {
        let url = url.trim_ascii();
        let mut url: Vec<u8> = url
            .iter()
            .copied()
            .filter(|b| !matches!(b, b'\n' | b'\r' | b'\t'))
            .collect();
        if !has_scheme(&url) {
            url.splice(0..0, b"http://".iter().copied());
        }
        // `http://http://x` is `http://x`.
        while let Some(rest) = strip_protocol(&url).filter(|rest| strip_protocol(rest).is_some()) {
            url = rest.to_vec();
        }
        let trailing_question = url.ends_with(b"?");
        let (before_fragment, _fragment) = split_at_byte(&url, b'#');
        let (scheme, rest) = match before_fragment.iter().position(|&b| b == b':') {
            Some(at) if is_scheme(&before_fragment[..at]) => {
                (&before_fragment[..at], &before_fragment[at + 1..])
            }
            _ => (&b""[..], before_fragment),
        };
        let (rest, query) = split_at_byte(rest, b'?');
        let (netloc, path) = match rest.strip_prefix(b"//") {
            Some(authority) => {
                let end = authority
                    .iter()
                    .position(|&b| b == b'/')
                    .unwrap_or(authority.len());
                (&authority[..end], &authority[end..])
            }
            None => (&b""[..], rest),
        };
        let colons = netloc.iter().rev().take_while(|&&b| b == b':').count();
        let netloc = &netloc[..netloc.len() - colons];
        let (host, port) = host_and_port(netloc)?;
        let mut host = host.filter(|h| !h.is_empty());
        let mut path = Some(path.to_vec()).filter(|p| !p.is_empty());
        if scheme.starts_with(b"http")
            && host.is_none()
            && let Some(whole) = &path
        {
            // `http:////x/y`: the host is the first part of the path.
            let start = whole.iter().position(|&b| b != b'/').unwrap_or(whole.len());
            let (first, after) = split_at_byte(&whole[start..], b'/');
            let mut rest = b"/".to_vec();
            rest.extend_from_slice(after.unwrap_or_default());
            host = Some(first.to_vec());
            path = Some(rest);
        }
        let query = query.filter(|q| !q.is_empty()).map(<[u8]>::to_vec);
        Some(Self {
            scheme: scheme.to_vec(),
            host,
            port: port.filter(|&p| p != 0),
            path,
            trailing_question: trailing_question && query.is_none(),
            query,
        })
    }

    /// `GoogleURLCanonicalizer.canonicalize`.
    fn google(&mut self) {
        if let Some(query) = &self.query {
            self.query = Some(escape_once(&unescape_repeatedly(query)));
        }
        if let Some(host) = &self.host {
            let mut host = unescape_repeatedly(host);
            if !host.is_ascii() {
                // Python's `idna` codec, as the url crate's to-ASCII would.
                let text = String::from_utf8_lossy(&host).into_owned();
                if let Ok(ascii) = url::Host::parse(&text) {
                    host = ascii.to_string().into_bytes();
                }
            }
            // Python's `replace(b'..', b'.')`: one pass, left to right.
            let mut once = Vec::with_capacity(host.len());
            let mut at = 0;
            while at < host.len() {
                once.push(host[at]);
                at += if host[at..].starts_with(b"..") { 2 } else { 1 };
            }
            let start = once.iter().position(|&b| b != b'.').unwrap_or(once.len());
            let end = once
                .iter()
                .rposition(|&b| b != b'.')
                .map_or(start, |e| e + 1);
            let host = once[start..end].to_vec();
            self.host = Some(match ip_form(&host) {
                Some(ip) => ip,
                None => escape_once(&host.to_ascii_lowercase()),
            });
        }
        let path = unescape_repeatedly(self.path.as_deref().unwrap_or_default());
        let path = if self.host.as_ref().is_some_and(|h| !h.is_empty()) {
            normalize_path(&path)
        } else {
            path
        };
        self.path = Some(escape_once(&path)).filter(|p| !p.is_empty());
    }

    /// `IAURLCanonicalizer.canonicalize` with its defaults.
    fn internet_archive(&mut self) {
        if let Some(host) = &mut self.host {
            host.make_ascii_lowercase();
            // `www\d*\.` at the start.
            if let Some(rest) = host.strip_prefix(b"www") {
                let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
                if rest.get(digits) == Some(&b'.') {
                    host.drain(..3 + digits + 1);
                }
            }
        }
        let default_port = match self.scheme.to_ascii_lowercase().as_slice() {
            b"http" => 80,
            b"https" => 443,
            _ => 0,
        };
        if self.port == Some(default_port) {
            self.port = None;
        }
        if let Some(path) = &self.path {
            let mut path = strip_path_session_id(&path.to_ascii_lowercase());
            if path.len() > 1 && path.ends_with(b"/") {
                path.pop();
            }
            self.path = Some(path).filter(|p| !p.is_empty());
        }
        match &self.query {
            Some(query) => {
                let query = alpha_reorder(&strip_query_session_id(query).to_ascii_lowercase());
                self.query = Some(query).filter(|q| !q.is_empty());
            }
            None => self.trailing_question = false,
        }
    }

    /// `handyurl.geturl_bytes(surt=True, with_scheme=False)`.
    fn key(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match &self.host {
            Some(host) if !host.is_empty() => {
                let mut parts: Vec<&[u8]> = host.split(|&b| b == b'.').collect();
                parts.reverse();
                out.extend_from_slice(&parts.join(&b","[..]));
                if let Some(port) = self.port {
                    out.extend_from_slice(format!(":{port}").as_bytes());
                }
                out.push(b')');
            }
            _ => {
                out.extend_from_slice(&self.scheme);
                out.push(b':');
            }
        }
        match &self.path {
            Some(path) => out.extend_from_slice(path),
            None if self.query.is_some() => out.push(b'/'),
            None => {}
        }
        if let Some(query) = &self.query {
            out.push(b'?');
            out.extend_from_slice(query);
        }
        if self.trailing_question {
            out.push(b'?');
        }
        out
    }
}

fn has_scheme(url: &[u8]) -> bool {
    url.iter()
        .position(|&b| b == b':')
        .is_some_and(|at| is_scheme(&url[..at]))
}

/// `[a-zA-Z][a-zA-Z0-9+.-]*`
fn is_scheme(text: &[u8]) -> bool {
    text.first().is_some_and(u8::is_ascii_alphabetic)
        && text
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// What follows a leading `http://` or `https://`.
fn strip_protocol(url: &[u8]) -> Option<&[u8]> {
    url.strip_prefix(b"http://")
        .or_else(|| url.strip_prefix(b"https://"))
}

fn split_at_byte(text: &[u8], byte: u8) -> (&[u8], Option<&[u8]>) {
    match text.iter().position(|&b| b == byte) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    }
}

/// A host, when there is one, and a port.
type HostAndPort = (Option<Vec<u8>>, Option<u32>);

/// urllib's `hostname` (lowercased, without `[…]`) and `port`; `None`
/// where urllib raises (a port that is not a number up to 65535).
fn host_and_port(netloc: &[u8]) -> Option<HostAndPort> {
    let info = match netloc.iter().rposition(|&b| b == b'@') {
        Some(at) => &netloc[at + 1..],
        None => netloc,
    };
    let (host, port) = if let Some(bracketed) = info.strip_prefix(b"[") {
        let (host, after) = split_at_byte(bracketed, b']');
        let port = after.and_then(|a| a.strip_prefix(b":"));
        (host, port)
    } else {
        split_at_byte(info, b':')
    };
    let port = match port.filter(|p| !p.is_empty()) {
        None => None,
        Some(digits) => {
            let text = std::str::from_utf8(digits).ok()?;
            let port: u32 = text.trim().parse().ok()?;
            if port > 65535 {
                return None;
            }
            Some(port)
        }
    };
    Some((Some(host.to_ascii_lowercase()), port))
}

/// `unquote_to_bytes` until nothing changes.
fn unescape_repeatedly(text: &[u8]) -> Vec<u8> {
    let mut text = text.to_vec();
    loop {
        let once: Vec<u8> = percent_encoding::percent_decode(&text).collect();
        if once == text {
            return text;
        }
        text = once;
    }
}

/// `quote_from_bytes` with the canonicalizer's safe set: everything is
/// kept but control bytes, space, `#`, `%` and bytes past ASCII.
fn escape_once(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for &b in text {
        if b > 0x20 && b < 0x7f && b != b'#' && b != b'%' {
            out.push(b);
        } else {
            out.extend_from_slice(format!("%{b:02X}").as_bytes());
        }
    }
    out
}

/// `normalizePath`: `.` and `..` resolved, empty parts dropped, a trailing
/// `/` kept.
fn normalize_path(path: &[u8]) -> Vec<u8> {
    if path.is_empty() {
        return b"/".to_vec();
    }
    let mut kept: Vec<&[u8]> = Vec::new();
    for part in path.split(|&b| b == b'/').skip(1) {
        match part {
            b"." => {}
            b".." => {
                if kept.pop().is_none() {
                    kept.push(part);
                }
            }
            _ => kept.push(part),
        }
    }
    let mut out = b"/".to_vec();
    if let Some((last, before)) = kept.split_last() {
        for part in before.iter().filter(|p| !p.is_empty()) {
            out.extend_from_slice(part);
            out.push(b'/');
        }
        out.extend_from_slice(last);
    }
    out
}

/// `attemptIPFormats`: a host of digits is a 32-bit address; one of
/// dotted decimal or octal numbers is what the resolver makes of it
/// (`inet_aton`: `10.1` is `10.0.0.1`, `010.1` is `8.0.0.1`), and stays as
/// written when it makes nothing of it.
fn ip_form(host: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(host).ok()?;
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        let n: u128 = text.parse().ok()?;
        let n = (n & 0xffff_ffff) as u32;
        return Some(std::net::Ipv4Addr::from(n).to_string().into_bytes());
    }
    let parts: Vec<&str> = text.split('.').collect();
    let (first, rest) = parts.split_first()?;
    let octal = |p: &str| !p.is_empty() && p.bytes().all(|b| (b'0'..=b'7').contains(&b));
    let decimal = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    // `DECIMAL_IP` and `OCTAL_IP`, the forms handed to the resolver.
    let shaped = parts.len() <= 4
        && if first.starts_with('0') {
            octal(first) && rest.iter().all(|p| octal(p))
        } else {
            decimal(first) && rest.iter().all(|p| decimal(p))
        };
    if !shaped {
        return None;
    }
    inet_aton(&parts).map(|ip| ip.to_string().into_bytes())
}

/// glibc's `inet_aton` of one to four numbers (a leading `0` is octal);
/// the last fills the bytes the others leave.
fn inet_aton(parts: &[&str]) -> Option<std::net::Ipv4Addr> {
    let numbers: Vec<u32> = parts
        .iter()
        .map(|p| {
            if p.len() > 1 && p.starts_with('0') {
                u32::from_str_radix(&p[1..], 8).ok()
            } else {
                p.parse().ok()
            }
        })
        .collect::<Option<_>>()?;
    let (last, leading) = numbers.split_last()?;
    if leading.iter().any(|&n| n > 255) {
        return None;
    }
    let room = 8 * (4 - leading.len() as u32);
    if room < 32 && *last >= 1 << room {
        return None;
    }
    let mut value = *last;
    for (at, n) in leading.iter().enumerate() {
        value |= n << (24 - 8 * at as u32);
    }
    Some(std::net::Ipv4Addr::from(value))
}

fn patterns(list: &[&str]) -> Vec<Regex> {
    list.iter()
        .filter_map(|p| Regex::new(&format!("(?i-u){p}")).ok())
        .collect()
}

static PATH_SESSION_IDS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    patterns(&[
        r"^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^\?]+\.aspx.*)$",
        r"^(.*/)(\([0-9a-z]{24}\)/)([^\?]+\.aspx.*)$",
    ])
});

static QUERY_SESSION_IDS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    patterns(&[
        r"^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$",
        r"^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$",
        r"^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$",
        r"^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$",
        r"^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$",
    ])
});

fn strip_path_session_id(path: &[u8]) -> Vec<u8> {
    let mut path = path.to_vec();
    for pattern in PATH_SESSION_IDS.iter() {
        if let Some(m) = pattern.captures(&path) {
            let mut out = m.get(1).map_or(&b""[..], |g| g.as_bytes()).to_vec();
            out.extend_from_slice(m.get(3).map_or(&b""[..], |g| g.as_bytes()));
            path = out;
        }
    }
    path
}

fn strip_query_session_id(query: &[u8]) -> Vec<u8> {
    let mut query = query.to_vec();
    for pattern in QUERY_SESSION_IDS.iter() {
        if let Some(m) = pattern.captures(&query) {
            let mut out = m.get(1).map_or(&b""[..], |g| g.as_bytes()).to_vec();
            if let Some(after) = m.get(2).filter(|g| !g.as_bytes().is_empty()) {
                out.extend_from_slice(after.as_bytes());
            }
            query = out;
        }
    }
    query
}

/// `alphaReorderQuery`: the arguments sorted as Python sorts their
/// `(name,)` or `(name, value)` tuples.
fn alpha_reorder(query: &[u8]) -> Vec<u8> {
    if query.len() <= 1 {
        return query.to_vec();
    }
    let mut args: Vec<(&[u8], Option<&[u8]>)> = query
        .split(|&b| b == b'&')
        .map(|arg| split_at_byte(arg, b'='))
        .collect();
    args.sort();
    let mut out = Vec::with_capacity(query.len());
    for (at, (name, value)) in args.iter().enumerate() {
        if at > 0 {
            out.push(b'&');
        }
        out.extend_from_slice(name);
        if let Some(value) = value {
            out.push(b'=');
            out.extend_from_slice(value);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::surt;

    /// Each key as Python `surt` 0.3.1 gives it (`surt.surt(url)`), run
    /// on these URLs once and copied here. (Compared once more widely, on
    /// 11,464 URLs: every target of `../shared/archives`, the absolute links
    /// of 400 corpus pages, and schemes × odd hosts × paths × queries; all
    /// the same.)
    #[test]
    fn keys_are_python_surts() {
        for (url, key) in [
            ("http://acme.test:8080/", "test,acme:8080)/"),
            (
                "https://www.Acme.test/a/b?z=1&a=2#frag",
                "test,acme)/a/b?a=2&z=1",
            ),
            (
                "urn:dom:http://acme.test:1234/about?x=1",
                "urn:dom:http://acme.test:1234/about?x=1",
            ),
            ("http://acme.test/%7Efoo/A%20b", "test,acme)/~foo/a%20b"),
            ("https://acme.test", "test,acme)/"),
            ("http://127.0.0.1:80/x", "1,0,0,127)/x"),
            ("http://www2.acme.test/", "test,acme)/"),
            ("https://b%C3%BCcher.de/", "de,xn--bcher-kva)/"),
            (
                "http://acme.test/path;jsessionid=ABC?PHPSESSID=1234567890abcdef1234567890abcdef&x=1",
                "test,acme)/path;jsessionid=abc?x=1",
            ),
            ("http://acme.test/?", "test,acme)/"),
            ("http://acme.test/a?b", "test,acme)/a?b"),
            ("http://xn--bcher-kva.de/Ä", "de,xn--bcher-kva)/%c3%84"),
            ("http://acme.test/a//b/../c", "test,acme)/a/c"),
            (
                "urn:follow-inspector:inspection",
                "urn:follow-inspector:inspection",
            ),
            ("http://ACME.test:80/index.html", "test,acme)/index.html"),
            ("https://acme.test:443/", "test,acme)/"),
            (
                "urn:dom:http://www.acme.test:8080/About/",
                "urn:dom:http://www.acme.test:8080/about",
            ),
            (
                "http://acme.test:1234/Blog/?utm=1&A=b&a",
                "test,acme:1234)/blog?a&a=b&utm=1",
            ),
            ("http://[::1]:8080/x", "::1:8080)/x"),
            ("http://acme.test/a%2520b", "test,acme)/a%20b"),
            ("http://acme.test/x?q=%41%20b#f", "test,acme)/x?q=a%20b"),
            ("http://www.acme.test.:80/", "test,acme)/"),
            (
                "http://acme.test/foo/(abcdefghijklmnopqrstuvwx)/bar.aspx",
                "test,acme)/foo/bar.aspx",
            ),
            (
                "http://acme.test/?sid=0123456789abcdef0123456789abcdef",
                "test,acme)/",
            ),
            (
                "http://acme.test/?a=1&jsessionid=0123456789abcdef0123456789abcdef&b=2",
                "test,acme)/?a=1&b=2",
            ),
            ("http://acme.test/ä?ö=1", "test,acme)/%c3%a4?%c3%b6=1"),
            ("dns:acme.test", "dns:acme.test"),
            ("https://acme.test:8443/a/./b/", "test,acme:8443)/a/b"),
            ("http://10.1/", "1,0,0,10)/"),
            ("http://010.1/", "1,0,0,8)/"),
            ("http://10.08/", "08,10)/"),
            ("http://10.0.65536/", "65536,0,10)/"),
            ("http://4294967296/", "0,0,0,0)/"),
        ] {
            assert_eq!(surt(url), key, "{url}");
        }
    }

    #[test]
    fn every_session_id_pattern_compiles() {
        assert_eq!(super::PATH_SESSION_IDS.len(), 2);
        assert_eq!(super::QUERY_SESSION_IDS.len(), 5);
    }
}
