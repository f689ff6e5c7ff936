//! The `inspect` JSON report (SPEC section 7), in serde_json's pretty layout.
//! The pages and their links, the bulk of a report, are laid out here field
//! by field (serde's generic pretty printer was a tenth of a 10,000-link
//! `inspect`); the small nested values (settings, lints, counts, redirects)
//! are serde's, indented to where they sit. Strings are escaped by
//! serde_json, with DEL, C1 and the bidi overrides as `\uXXXX` too
//! ([`JsonEscaping`](super::escape::JsonEscaping)): otherwise the bytes are the
//! same as `to_writer_pretty` would write.

use std::io::{self, Write};

use serde::Serialize;

use super::escape::{json_compact, json_pretty};
use super::{SCHEMA, counts};
use crate::inspect::{InspectedPage, Inspection};
use crate::policy::{LinkDecision, sibling_roots};

const SPACES: &[u8; 64] = b"                                                                ";

/// A JSON object being written at nesting `level` (its keys at `level + 1`).
struct Object<'w, W: Write> {
    out: &'w mut W,
    level: usize,
    empty: bool,
}

impl<'w, W: Write> Object<'w, W> {
    fn begin(out: &'w mut W, level: usize) -> io::Result<Self> {
        out.write_all(b"{")?;
        Ok(Self {
            out,
            level,
            empty: true,
        })
    }

    /// Starts a field: the separator, the indentation and `"key": `.
    fn key(&mut self, key: &str) -> io::Result<&mut W> {
        let separator: &[u8] = if self.empty { b"\n" } else { b",\n" };
        self.empty = false;
        self.out.write_all(separator)?;
        indent(self.out, self.level + 1)?;
        self.out.write_all(b"\"")?;
        self.out.write_all(key.as_bytes())?;
        self.out.write_all(b"\": ")?;
        Ok(self.out)
    }

    fn str(&mut self, key: &str, value: &str) -> io::Result<()> {
        let out = self.key(key)?;
        string(out, value)
    }

    fn opt_str(&mut self, key: &str, value: Option<&str>) -> io::Result<()> {
        let out = self.key(key)?;
        match value {
            Some(value) => string(out, value),
            None => out.write_all(b"null"),
        }
    }

    fn number(&mut self, key: &str, value: Option<u64>) -> io::Result<()> {
        let out = self.key(key)?;
        match value {
            Some(n) => out.write_all(itoa::Buffer::new().format(n).as_bytes()),
            None => out.write_all(b"null"),
        }
    }

    fn bool(&mut self, key: &str, value: Option<bool>) -> io::Result<()> {
        let out = self.key(key)?;
        out.write_all(match value {
            Some(true) => b"true",
            Some(false) => b"false",
            None => b"null",
        })
    }

    /// A value serde lays out, indented to this field's depth.
    fn nested<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> io::Result<()> {
        let level = self.level + 1;
        let out = self.key(key)?;
        nested(out, value, level)
    }

    fn end(self) -> io::Result<()> {
        if !self.empty {
            self.out.write_all(b"\n")?;
            indent(self.out, self.level)?;
        }
        self.out.write_all(b"}")
    }
}

fn indent(out: &mut impl Write, level: usize) -> io::Result<()> {
    let mut n = level * 2;
    while n > 0 {
        let step = n.min(SPACES.len());
        out.write_all(&SPACES[..step])?;
        n -= step;
    }
    Ok(())
}

fn string(out: &mut impl Write, value: &str) -> io::Result<()> {
    json_compact(out, value).map_err(io::Error::from)
}

/// `value` pretty-printed by serde, its lines after the first indented to `level`.
fn nested<T: Serialize + ?Sized>(out: &mut impl Write, value: &T, level: usize) -> io::Result<()> {
    let mut text = Vec::with_capacity(128);
    json_pretty(&mut text, value).map_err(io::Error::from)?;
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.write_all(b"\n")?;
            indent(out, level)?;
        }
        out.write_all(line)?;
    }
    Ok(())
}

/// Writes the items of an array at `level` (each item at `level + 1`).
fn array<W: Write, T>(
    out: &mut W,
    level: usize,
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut W, T) -> io::Result<()>,
) -> io::Result<()> {
    out.write_all(b"[")?;
    let mut empty = true;
    for value in items {
        out.write_all(if empty { b"\n" } else { b",\n" })?;
        empty = false;
        indent(out, level + 1)?;
        item(out, value)?;
    }
    if !empty {
        out.write_all(b"\n")?;
        indent(out, level)?;
    }
    out.write_all(b"]")
}

fn link(
    out: &mut impl Write,
    page: &InspectedPage,
    link: &LinkDecision,
    level: usize,
) -> io::Result<()> {
    let mut o = Object::begin(out, level)?;
    let keyword = link.keyword();
    o.number("index", Some(link.index as u64))?;
    o.str("href", &link.href)?;
    o.opt_str("url", link.url.as_ref().map(|u| u.as_str()))?;
    o.str("text", &link.text)?;
    o.str("verdict", link.verdict.id())?;
    o.opt_str("keyword", keyword.map(|k| &*k.keyword))?;
    o.opt_str("matched_in", keyword.map(|k| k.matched_in.as_str()))?;
    o.bool("inside_word", keyword.map(|k| k.inside_word))?;
    o.number("score", link.score.map(|s| s as u64))?;
    o.number("rank", link.rank.map(|r| r as u64))?;
    o.bool("visited", Some(link.visited))?;
    o.bool("nofollow", Some(link.nofollow))?;
    o.str("region", link.region.id())?;
    if let Some(source) = page.source(link) {
        o.str("source", source.id())?;
    }
    o.end()
}

/// What a page rendered from a capture was answered (SPEC 12).
#[derive(Serialize)]
struct Replay<'a> {
    answered: usize,
    missing: usize,
    missing_urls: &'a [String],
}

/// A link of the served HTML that scripts removed.
#[derive(Serialize)]
struct StaticOnly<'a> {
    href: &'a str,
    url: Option<&'a str>,
    text: &'a str,
}

/// SPEC section 7's page fields; the optional ones appear only when they say
/// something (a crawled page's parent link, redirects, a cut body, a failure).
fn page(out: &mut impl Write, page: &InspectedPage, level: usize) -> io::Result<()> {
    let mut o = Object::begin(out, level)?;
    o.str("url", page.url.as_str())?;
    o.number("level", Some(u64::from(page.level)))?;
    o.number("status", page.status.map(u64::from))?;
    o.number("limit", Some(page.decision.limit as u64))?;
    let rendered = page.rendered();
    // `static` or `rendered` (SPEC 8).
    o.str(
        "mode",
        if rendered.is_some() {
            "rendered"
        } else {
            "static"
        },
    )?;
    if let Some(r) = rendered {
        o.bool("network_idle", Some(r.network_idle))?;
        o.number("dialogs", Some(r.dialogs as u64))?;
        o.bool("scripts_stopped", Some(r.scripts_stopped))?;
        o.bool("dom_read", Some(r.dom_read))?;
        o.number("blocked_requests", Some(r.blocked_requests as u64))?;
        if let Some(replay) = &r.replay {
            o.nested(
                "replay",
                &Replay {
                    answered: replay.answered,
                    missing: replay.missing,
                    missing_urls: &replay.missing_urls,
                },
            )?;
        }
    }
    let links_level = level + 1;
    let out = o.key("links")?;
    array(out, links_level, &page.decision.links, |out, l| {
        link(out, page, l, links_level + 1)
    })?;
    if let Some(r) = rendered {
        let gone: Vec<StaticOnly<'_>> = r
            .static_only
            .iter()
            .map(|s| StaticOnly {
                href: &s.href,
                url: s.url.as_ref().map(|u| u.as_str()),
                text: &s.text,
            })
            .collect();
        o.nested("static_only", &gone)?;
    }
    o.nested("counts", &counts(page))?;
    // Other roots of the page's own site, to consider for `followAllowedDomains`.
    let suggestions = sibling_roots(&page.decision.page_host, &page.decision.links);
    if !suggestions.is_empty() {
        o.nested("allow_suggestions", &suggestions)?;
    }
    if let Some(via) = &page.via {
        o.nested("via", via)?;
    }
    if let Some(fetch) = page.fetch.as_ref() {
        if !fetch.redirects.is_empty() {
            o.nested("redirects", &fetch.redirects)?;
        }
        if fetch.truncated {
            o.bool("truncated", Some(true))?;
        }
    }
    if let Some(error) = page.error() {
        o.str("error", &error.to_string())?;
    }
    o.end()
}

#[derive(Serialize)]
struct Lint {
    code: &'static str,
    message: String,
}

/// One JSON object, pretty-printed, with a trailing newline, written to `out`
/// as it is produced.
pub fn write_json(inspection: &Inspection, mut out: impl Write) -> io::Result<()> {
    let mut o = Object::begin(&mut out, 0)?;
    o.number("schema", Some(u64::from(SCHEMA)))?;
    o.str("start_url", inspection.start_url.as_str())?;
    o.str("final_url", inspection.final_url.as_str())?;
    o.number("depth", Some(u64::from(inspection.depth())))?;
    o.nested("settings", inspection.settings())?;
    let lints: Vec<Lint> = inspection
        .lints()
        .iter()
        .map(|l| Lint {
            code: l.code.id(),
            message: crate::copy::lint_message(l),
        })
        .collect();
    o.nested("lints", &lints)?;
    let out_pages = o.key("pages")?;
    array(out_pages, 1, &inspection.pages, |out, p| page(out, p, 2))?;
    o.end()?;
    out.write_all(b"\n")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::Limits;
    use crate::policy::Settings;

    /// serde_json's pretty layout of any JSON text, keys in the order written:
    /// two-space indentation, `": "`, one item per line, empty `{}` and `[]`.
    fn pretty(json: &str) -> String {
        let mut out = String::new();
        let mut depth = 0usize;
        let mut chars = json.chars().peekable();
        let newline = |out: &mut String, depth: usize| {
            out.push('\n');
            out.push_str(&"  ".repeat(depth));
        };
        while let Some(c) = chars.next() {
            match c {
                '"' => {
                    out.push('"');
                    while let Some(c) = chars.next() {
                        out.push(c);
                        match c {
                            '\\' => out.extend(chars.next()),
                            '"' => break,
                            _ => {}
                        }
                    }
                }
                '{' | '[' => {
                    out.push(c);
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                    if matches!(chars.peek(), Some('}' | ']')) {
                        out.extend(chars.next());
                    } else {
                        depth += 1;
                        newline(&mut out, depth);
                    }
                }
                '}' | ']' => {
                    depth -= 1;
                    newline(&mut out, depth);
                    out.push(c);
                }
                ',' => {
                    out.push(',');
                    newline(&mut out, depth);
                }
                ':' => out.push_str(": "),
                c if c.is_whitespace() => {}
                c => out.push(c),
            }
        }
        out.push('\n');
        out
    }

    #[test]
    fn the_report_is_laid_out_as_serde_json_would() {
        let html = br#"<html><head><link rel=canonical href="https://www.acme.com/"></head>
            <body><nav><a href="/about" rel=nofollow>About "us" \ </a></nav>
            <a href="https://acme.de/">DE</a><a href="/heritage">Our heritage</a>
            <a href="mailto:x@y">Mail</a><a href="http://[bad">Bad</a></body></html>"#;
        let inspection =
            Inspection::saved_page(html, None, Limits::of_depth(2), Settings::default()).unwrap();
        let mut ours = Vec::new();
        write_json(&inspection, &mut ours).unwrap();
        let ours = String::from_utf8(ours).unwrap();
        assert_eq!(ours, pretty(&ours));
        let value: serde_json::Value = serde_json::from_str(&ours).unwrap();
        let links = &value["pages"][0]["links"];
        assert_eq!(links[0]["text"], r#"About "us" \"#);
        assert_eq!(links[0]["nofollow"], true);
        assert_eq!(links[0]["region"], "nav");
        assert_eq!(links[4]["url"], serde_json::Value::Null);
        assert_eq!(
            value["pages"][0]["allow_suggestions"][0]["domain"],
            "acme.de"
        );
        assert_eq!(value["settings"]["followSkipAssets"], true);
    }

    #[test]
    fn the_layout_check_sees_a_misplaced_space() {
        assert_eq!(
            pretty("{\"a\": [1, {}]}"),
            "{\n  \"a\": [\n    1,\n    {}\n  ]\n}\n"
        );
        assert_ne!(pretty("{\"a\": 1}"), "{\n  \"a\":1\n}\n");
    }

    #[test]
    fn empty_lists_are_written_inline() {
        let inspection = Inspection::saved_page(
            b"<p>no links</p>",
            url::Url::parse("https://a.test/").ok(),
            Limits::of_depth(2),
            Settings::default(),
        )
        .unwrap();
        let mut ours = Vec::new();
        write_json(&inspection, &mut ours).unwrap();
        let text = String::from_utf8(ours).unwrap();
        assert!(text.contains("\"lints\": [],"), "{text}");
        assert!(text.contains("\"links\": [],"), "{text}");
    }
}
