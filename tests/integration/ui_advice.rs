//! The window's banner for every kind of failed load: the whole message and
//! what to do, chosen from the error's kind (egui_kittest, by label).

use std::path::PathBuf;
use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use follow_inspector::fetch::{FetchError, FetchedPage, Fetcher};
use follow_inspector::ui::InspectorApp;
use url::Url;

use crate::repo_path;
use crate::temp_dir;
use crate::ui::{app_in, clear_field, settle, type_into};

/// Fails every fetch with one error.
struct Failing(FetchError);

impl Fetcher for Failing {
    fn fetch(&self, _url: &Url) -> Result<FetchedPage, FetchError> {
        Err(self.0.clone())
    }
}

fn harness(name: &str, fetcher: Arc<dyn Fetcher>) -> Harness<'static, InspectorApp> {
    app_in(temp_dir(&format!("advice-{name}")), Some(fetcher))
}

/// Loads `target` (with `base_url` for a saved page) and checks the banner:
/// the message, a line break, the advice.
fn banner_says(
    harness: &mut Harness<'_, InspectorApp>,
    target: &str,
    base_url: Option<&str>,
    message: &str,
    advice: Option<&str>,
) {
    type_into(harness, "Page", target);
    if let Some(base) = base_url {
        type_into(harness, "Base URL", base);
    }
    harness.get_by_label("Fetch").click();
    settle(harness);
    // A label's text is its AccessKit value.
    let text = harness
        .get_by_label_contains(&format!("✖ {message}"))
        .accesskit_node()
        .value()
        .unwrap_or_default();
    match advice {
        Some(advice) => assert!(text.ends_with(&format!("\n{advice}")), "{target}: {text}"),
        None => assert!(!text.contains('\n'), "{target}: {text}"),
    }
    harness.get_by_label("Close").click();
    harness.run();
    // The next target types into an empty field.
    clear_field(harness, "Page");
}

#[test]
fn every_kind_of_fetch_error_gets_its_advice_in_the_banner() {
    let host = || "acme.test".to_owned();
    let url = || "https://acme.test/".to_owned();
    let cases: Vec<(FetchError, &str, Option<&str>)> = vec![
        (
            FetchError::Dns { host: host() },
            "DNS: cannot resolve acme.test",
            Some(
                "Check the host name. To inspect a saved copy of the page instead, enter the path of its .html file.",
            ),
        ),
        (
            FetchError::Connect {
                detail: "tls-certificate.test: connection refused".into(),
            },
            "connect: tls-certificate.test: connection refused",
            Some(
                "The server refused or dropped the connection: check the address and port, and that the site is up.",
            ),
        ),
        (
            FetchError::Tls {
                detail: "invalid peer certificate".into(),
            },
            "TLS: invalid peer certificate",
            Some(
                "The secure connection failed: check the certificate, or try the http:// address.",
            ),
        ),
        (
            FetchError::Timeout {
                url: url(),
                seconds: 30,
            },
            "timeout: no complete answer from https://acme.test/ within 30 s",
            Some("The server did not answer in time: try again, or check the address."),
        ),
        (
            FetchError::TooManyRedirects {
                max: 10,
                chain: "a → b".into(),
            },
            "too many redirects (more than 10): a → b",
            Some("The site redirects too often: open it in a browser to see where it ends."),
        ),
        (
            FetchError::RedirectLoop {
                chain: "a → b → a".into(),
            },
            "redirect loop: a → b → a",
            Some("The site redirects in a circle: open it in a browser to see where it goes."),
        ),
        (
            FetchError::BadRedirect {
                url: url(),
                detail: "Location `http://[::1`".into(),
            },
            "bad redirect from https://acme.test/",
            Some("The site redirects to an address that is not a web page."),
        ),
        (
            FetchError::NotHtml {
                url: url(),
                content_type: "application/pdf".into(),
            },
            "not HTML: https://acme.test/ is application/pdf",
            Some("This address is not a web page: enter the URL of the page that links to it."),
        ),
        (
            FetchError::Scheme {
                url: "ftp://acme.test/".into(),
            },
            "only http and https URLs can be fetched, not ftp://acme.test/",
            Some("Enter an http:// or https:// address, a host name, or the path of a saved page."),
        ),
        (
            FetchError::Http {
                detail: "builder error".into(),
            },
            "HTTP: builder error",
            Some("The request failed before the server answered: check the address, or try again."),
        ),
        (
            FetchError::Body {
                url: url(),
                bytes: 100,
                detail: "connection reset".into(),
            },
            "the connection broke after 100 bytes of https://acme.test/",
            Some(
                "The server closed the connection in the middle of the page: try again, or save the page from a browser and open the file.",
            ),
        ),
        (
            FetchError::NoBrowser { path: None },
            "browser: rendered mode needs Chromium: apt install chromium-headless-shell",
            None,
        ),
        (
            FetchError::Browser {
                detail: "the browser exited".into(),
            },
            "browser: the browser exited",
            Some(
                "The browser failed: try again, or untick Rendered to read the HTML the server sends.",
            ),
        ),
        (
            FetchError::Navigation {
                url: url(),
                error: "net::ERR_CONNECTION_REFUSED".into(),
            },
            "navigation error: https://acme.test/: net::ERR_CONNECTION_REFUSED",
            Some(
                "The browser could not open the page: check the address, and that the site is up.",
            ),
        ),
        (
            FetchError::ClientRedirectLoop {
                max: 20,
                chain: "https://acme.test/ (200) → https://acme.test/?1".into(),
            },
            "client-side redirect loop (more than 20 redirects by script or meta refresh): \
             https://acme.test/ (200) → https://acme.test/?1",
            Some(
                "The page's scripts or meta refresh send the browser on and on: open it in a \
                 browser to see where it goes, or untick Rendered to read the HTML the server sends.",
            ),
        ),
        (
            FetchError::PrivateRedirect {
                url: url(),
                to: "http://127.0.0.1/".into(),
            },
            "redirect into a private network refused: https://acme.test/ → http://127.0.0.1/",
            Some(
                "A public site redirects into a private network, which the inspector does not \
                 follow: inspect the private address itself if you mean to.",
            ),
        ),
    ];
    for (i, (error, message, advice)) in cases.into_iter().enumerate() {
        let mut h = harness(&format!("fetch-{i}"), Arc::new(Failing(error)));
        banner_says(&mut h, "https://acme.test/", None, message, advice);
        // The demo page is still shown, marked as the previous result.
        h.get_by_label("✔ followed 3");
    }
}

#[test]
fn every_kind_of_target_and_file_error_gets_its_advice_in_the_banner() {
    let never = Arc::new(Failing(FetchError::Cancelled));
    let mut h = harness("targets", never);
    let no_canonical = repo_path("tests/fixtures/no-canonical.html");
    let no_canonical = no_canonical.to_string_lossy();
    let folder: PathBuf = temp_dir("unreadable");
    let folder = folder.to_string_lossy();
    let no_url = format!("{no_canonical}: the page has no <link rel=canonical> or og:url");
    let unreadable = format!("cannot read {folder}: ");
    let cases: [(&str, Option<&str>, &str, &str); 6] = [
        (
            "ftp://acme.test/",
            None,
            "`ftp://acme.test/`: only http and https URLs can be inspected, not `ftp:`",
            "Enter an http:// or https:// address, a host name, or the path of a saved page.",
        ),
        (
            "http://exa mple.com/",
            None,
            "`http://exa mple.com/` is not a valid URL",
            "Check the address: a URL looks like https://acme.com/contact.",
        ),
        (
            "saved/page.html",
            None,
            "no such file: saved/page.html",
            "Check the path, or enter a URL or a host name such as acme.com.",
        ),
        (
            &no_canonical,
            None,
            &no_url,
            "Enter the page's original URL in the Base URL field.",
        ),
        (
            &no_canonical,
            Some("not a url"),
            "`not a url` is not an absolute http(s) URL",
            "Enter the page's original URL in the Base URL field, e.g. https://acme.com/.",
        ),
        (
            &folder,
            None,
            &unreadable,
            "Check the path: the file must exist and be readable.",
        ),
    ];
    for (target, base_url, message, advice) in cases {
        banner_says(&mut h, target, base_url, message, Some(advice));
    }
}
