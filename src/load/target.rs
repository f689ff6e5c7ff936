//! What the user pointed the inspector at: a saved file or a URL.

use std::path::PathBuf;

use url::Url;

/// What `inspect` was pointed at.
#[derive(Debug, PartialEq, Eq)]
pub enum Target {
    File(PathBuf),
    Url(Url),
}

/// Why typed text names neither a page URL nor a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    #[error("`{raw}` is not a valid URL: {detail}")]
    BadUrl {
        raw: String,
        detail: url::ParseError,
    },
    #[error("`{raw}`: only http and https URLs can be inspected, not `{scheme}:`")]
    Scheme { raw: String, scheme: String },
    #[error("no such file: {0}")]
    NoSuchFile(String),
    #[error("`{raw}` is neither a file nor a host name: {detail}")]
    NotAHost {
        raw: String,
        detail: url::ParseError,
    },
    /// A typed page URL (`--base-url`, the Base URL field) that is not one.
    #[error("`{0}` is not an absolute http(s) URL")]
    NotAPageUrl(String),
}

impl Target {
    /// A path that exists is a file; `scheme://…` must be http(s); a bare host
    /// name means `https://host/`.
    pub fn parse(raw: &str) -> Result<Target, TargetError> {
        let raw = raw.trim();
        // Not `exists()`: a symlink loop exists too, and reading it says so.
        if std::fs::symlink_metadata(raw).is_ok() {
            return Ok(Target::File(PathBuf::from(raw)));
        }
        if let Some((scheme, _)) = raw.split_once("://") {
            let url = Url::parse(raw).map_err(|detail| TargetError::BadUrl {
                raw: raw.to_owned(),
                detail,
            })?;
            return match scheme.to_ascii_lowercase().as_str() {
                "http" | "https" => Ok(Target::Url(url)),
                _ => Err(TargetError::Scheme {
                    raw: raw.to_owned(),
                    scheme: scheme.to_owned(),
                }),
            };
        }
        if looks_like_path(raw) || !raw.contains('.') || raw.contains(char::is_whitespace) {
            return Err(TargetError::NoSuchFile(raw.to_owned()));
        }
        let url =
            Url::parse(&format!("https://{raw}/")).map_err(|detail| TargetError::NotAHost {
                raw: raw.to_owned(),
                detail,
            })?;
        Ok(Target::Url(url))
    }
}

/// Whether typed text looks like a file's path rather than a URL. It asks
/// nothing of the file system, so the window can call it every frame.
pub fn looks_like_a_file(raw: &str) -> bool {
    let raw = raw.trim();
    !raw.contains("://") && looks_like_path(raw)
}

fn looks_like_path(raw: &str) -> bool {
    raw.starts_with(['.', '/', '~'])
        || raw.contains(std::path::MAIN_SEPARATOR)
        || [".html", ".htm", ".xhtml", ".warc", ".warc.gz"]
            .iter()
            .any(|ext| raw.to_ascii_lowercase().ends_with(ext))
}

/// A page URL typed by a user: absolute http(s) only.
pub fn parse_page_url(raw: &str) -> Result<Url, TargetError> {
    Url::parse(raw.trim())
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .ok_or_else(|| TargetError::NotAPageUrl(raw.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        assert_eq!(
            Target::parse("acme.com").unwrap(),
            Target::Url(Url::parse("https://acme.com/").unwrap())
        );
        assert_eq!(
            Target::parse("http://acme.com/x").unwrap(),
            Target::Url(Url::parse("http://acme.com/x").unwrap())
        );
        assert!(
            Target::parse("ftp://acme.com/")
                .unwrap_err()
                .to_string()
                .contains("only http and https")
        );
        assert!(
            Target::parse("missing/page.html")
                .unwrap_err()
                .to_string()
                .contains("no such file")
        );
        assert!(matches!(
            Target::parse("Cargo.toml").unwrap(),
            Target::File(_)
        ));
        // The kinds the advice is chosen from.
        assert!(matches!(
            Target::parse("ftp://acme.com/"),
            Err(TargetError::Scheme { scheme, .. }) if scheme == "ftp"
        ));
        assert!(matches!(
            Target::parse("missing/page.html"),
            Err(TargetError::NoSuchFile(_))
        ));
        // A mistyped archive is not taken for a host name.
        assert!(matches!(
            Target::parse("ticket-4711.warc.gz"),
            Err(TargetError::NoSuchFile(_))
        ));
        assert!(matches!(
            Target::parse("http://exa mple.com/"),
            Err(TargetError::BadUrl { .. })
        ));
        assert!(matches!(
            parse_page_url("/relative"),
            Err(TargetError::NotAPageUrl(_))
        ));
    }

    #[test]
    fn typed_text_that_looks_like_a_file() {
        assert!(looks_like_a_file("./Cargo.toml"));
        assert!(looks_like_a_file("saved/page.html"));
        assert!(looks_like_a_file("page.HTM"));
        assert!(looks_like_a_file("capture.warc.gz"));
        assert!(looks_like_a_file("capture.WARC"));
        assert!(!looks_like_a_file("acme.com"));
        assert!(!looks_like_a_file("https://acme.com/about.html"));
    }

    #[test]
    fn page_urls_must_be_absolute_http() {
        assert!(parse_page_url("https://acme.test/x").is_ok());
        assert!(parse_page_url("/x").is_err());
        assert!(parse_page_url("file:///tmp/x.html").is_err());
    }
}
