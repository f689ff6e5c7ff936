//! What the command line says when a load fails: the error in one line, then
//! what to do about it, chosen from the kind of error (never from its text),
//! and the exit code of that kind. The window's banner shows the same advice
//! (`ui_advice::`).

use std::collections::HashMap;
use std::time::Duration;

use crate::rendered::{BROWSER, browser_turn};
use crate::server::{Route, Sending, Server};
use crate::{repo_path, run, stderr, stdout};

fn site(port: u16) -> HashMap<String, Route> {
    let mut r = HashMap::new();
    let mut add = |path: &str, route: Route| {
        r.insert(format!("acme.test{path}"), route);
    };
    add("/loop-a", Route::redirect(302, "/loop-b"));
    add("/loop-b", Route::redirect(302, "/loop-a"));
    for i in 0..12 {
        add(
            &format!("/r/{i}"),
            Route::redirect(302, &format!("/r/{}", i + 1)),
        );
    }
    add(
        "/slow",
        Route::html("<a href=/x>x</a>").delay(Duration::from_secs(5)),
    );
    add(
        "/report.pdf",
        Route::html("%PDF-1.4").header("Content-Type", "application/pdf"),
    );
    add(
        "/broken",
        Route::html(&"<a href=/contact>Contact</a>".repeat(2000)).sending(Sending::ResetAfter(100)),
    );
    add("/bad-redirect", Route::redirect(302, "http://[::1"));
    add(
        "/gzip-garbage",
        Route::html("")
            .header("Content-Encoding", "gzip")
            .bytes(b"\x1f\x8b\x08\x00 this is not a gzip stream at all".repeat(50)),
    );
    for (name, location) in [
        ("file", "file:///etc/passwd"),
        ("ftp", "ftp://acme.test/page.html"),
        ("javascript", "javascript:alert(1)"),
        ("data", "data:text/html,<a href=/x>x</a>"),
    ] {
        add(&format!("/to-{name}"), Route::redirect(302, location));
    }
    let _ = port;
    r
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("an address").port()
}

/// Runs `args`, and checks the exit code and the one stderr line: the
/// error's words, ` — `, and the advice.
fn fails_with(args: &[String], code: i32, error: &str, advice: Option<&str>) {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&refs);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert!(stdout(&out).is_empty(), "{args:?}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    let line = err.trim();
    assert!(line.starts_with("error: "), "{line}");
    assert!(line.contains(error), "{args:?}: {line}");
    match advice {
        Some(advice) => assert!(line.contains(&format!(" — {advice}")), "{args:?}: {line}"),
        None => assert!(!line.contains(" — "), "{args:?}: {line}"),
    }
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn every_kind_of_target_and_file_error_says_what_to_do() {
    let no_canonical = repo_path("tests/fixtures/no-canonical.html");
    let no_canonical = no_canonical.to_string_lossy();
    let unreadable = crate::temp_dir("unreadable");
    let folder = unreadable.to_string_lossy();
    let cases: [(&[&str], &str, &str); 6] = [
        (
            &["inspect", "ftp://acme.test/"],
            "only http and https URLs can be inspected, not `ftp:`",
            "Give an http:// or https:// address, a host name, or the path of a saved page.",
        ),
        (
            &["inspect", "http://exa mple.com/"],
            "is not a valid URL",
            "Check the address: a URL looks like https://acme.com/contact.",
        ),
        (
            &["inspect", "saved/page.html"],
            "no such file: saved/page.html",
            "Check the path, or give a URL or a host name such as acme.com.",
        ),
        (
            &["inspect", &no_canonical],
            "the page has no <link rel=canonical> or og:url",
            "Pass its original URL with --base-url URL.",
        ),
        (
            &["inspect", &no_canonical, "--base-url", "not a url"],
            "`not a url` is not an absolute http(s) URL",
            "Give the page's original URL, e.g. --base-url https://acme.com/.",
        ),
        (
            // A folder exists, so it is a file target, but it cannot be read as one.
            &["inspect", &folder],
            "cannot read",
            "Check the path: the file must exist and be readable.",
        ),
    ];
    for (args, error, advice) in cases {
        fails_with(&strings(args), 2, error, Some(advice));
    }
    let _ = std::fs::remove_dir(&unreadable);
}

#[test]
fn every_kind_of_fetch_error_says_what_to_do_and_exits_3() {
    let s = Server::start(site, Duration::ZERO);
    let p = s.port;
    let closed = closed_port();
    let url = |path: &str| format!("http://acme.test:{p}{path}");
    let resolve = format!("acme.test:{p}:127.0.0.1");
    let cases: [(String, &[&str], &str, &str); 7] = [
        (
            url("/loop-a"),
            &[],
            "redirect loop",
            "The site redirects in a circle: open it in a browser to see where it goes.",
        ),
        (
            url("/r/0"),
            &[],
            "too many redirects",
            "The site redirects too often: open it in a browser to see where it ends.",
        ),
        (
            url("/slow"),
            &["--timeout", "1"],
            "timeout: no complete answer",
            "The server did not answer in time: try again, or check the address.",
        ),
        (
            url("/report.pdf"),
            &[],
            "not HTML",
            "This address is not a web page: enter the URL of the page that links to it.",
        ),
        (
            url("/broken"),
            &[],
            "the connection broke after",
            "The server closed the connection in the middle of the page",
        ),
        (
            url("/bad-redirect"),
            &[],
            "bad redirect from",
            "The site redirects to an address that is not a web page.",
        ),
        (
            format!("http://acme.test:{closed}/"),
            &[],
            "connect: ",
            "The server refused or dropped the connection",
        ),
    ];
    for (target, extra, error, advice) in cases {
        let mut args = strings(&["inspect", &target, "--depth", "1", "--resolve", &resolve]);
        args.extend(strings(&[
            "--resolve",
            &format!("acme.test:{closed}:127.0.0.1"),
        ]));
        args.extend(strings(extra));
        fails_with(&args, 3, error, Some(advice));
    }
}

#[test]
fn an_undecodable_body_and_a_redirect_off_the_web_say_what_they_are() {
    let s = Server::start(site, Duration::ZERO);
    let p = s.port;
    let resolve = format!("acme.test:{p}:127.0.0.1");
    let inspect = |path: &str| {
        let url = format!("http://acme.test:{p}{path}");
        strings(&["inspect", &url, "--depth", "1", "--resolve", &resolve])
    };
    fails_with(
        &inspect("/gzip-garbage"),
        3,
        "could not be decoded after 0 bytes (its gzip, brotli or deflate encoding is damaged)",
        Some("The server sent a compressed page that does not decompress"),
    );
    for (name, location) in [
        ("file", "file:///etc/passwd"),
        ("ftp", "ftp://acme.test/page.html"),
        ("javascript", "javascript:alert(1)"),
        ("data", "data:text/html,<a href=/x>x</a>"),
    ] {
        fails_with(
            &inspect(&format!("/to-{name}")),
            3,
            &format!(
                "bad redirect from http://acme.test:{p}/to-{name}: Location `{location}` is a \
                 {name}: address, not an http(s) page"
            ),
            Some("The site redirects to an address that is not a web page."),
        );
    }
}

#[test]
fn a_name_that_does_not_resolve_is_a_dns_error() {
    // The C library refuses a name with an empty label itself, so no query
    // leaves the machine (checked with strace: no socket but nscd's).
    fails_with(
        &strings(&["inspect", "http://a..b/"]),
        3,
        "DNS: cannot resolve a..b",
        Some(
            "Check the host name. To inspect a saved copy of the page instead, give the path of \
             its .html file.",
        ),
    );
}

#[test]
fn tls_and_connect_errors_are_told_apart_by_type_not_by_the_host_name() {
    let s = Server::start(site, Duration::ZERO);
    let closed = closed_port();
    // A refused connection to a host whose name says "tls" and "certificate".
    let host = "tls-certificate-handshake.test";
    fails_with(
        &strings(&[
            "inspect",
            &format!("http://{host}:{closed}/"),
            "--resolve",
            &format!("{host}:{closed}:127.0.0.1"),
        ]),
        3,
        "connect: ",
        Some("The server refused or dropped the connection"),
    );
    // TLS spoken to a server that closes the connection at the client's hello.
    fails_with(
        &strings(&[
            "inspect",
            &format!("https://acme.test:{}/loop-a", s.port),
            "--resolve",
            &format!("acme.test:{}:127.0.0.1", s.port),
        ]),
        3,
        "TLS: ",
        Some("The secure connection failed: check the certificate, or try the http:// address."),
    );
    // And to one that answers in plain HTTP at once.
    let plain = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = plain.local_addr().expect("an address").port();
    std::thread::spawn(move || {
        for mut stream in plain.incoming().flatten() {
            use std::io::Write as _;
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    fails_with(
        &strings(&[
            "inspect",
            &format!("https://{host}:{port}/"),
            "--resolve",
            &format!("{host}:{port}:127.0.0.1"),
        ]),
        3,
        "TLS: ",
        Some("The secure connection failed"),
    );
}

#[test]
fn browser_errors_say_how_to_install_one_or_what_else_to_do() {
    // No browser where one was asked for: the message itself says how to get one.
    fails_with(
        &strings(&[
            "inspect",
            "http://acme.test/",
            "--render",
            "--browser",
            "/nonexistent/chromium",
        ]),
        3,
        "browser: no browser at /nonexistent/chromium; rendered mode needs Chromium: apt install \
         chromium-headless-shell",
        None,
    );
    // A "browser" that exits at once.
    fails_with(
        &strings(&[
            "inspect",
            "http://acme.test/",
            "--render",
            "--browser",
            "/bin/true",
        ]),
        3,
        "browser: the browser exited as it started, with status 0",
        Some(
            "The browser failed: try again, or leave out --render to read the HTML the server sends.",
        ),
    );
    let Some(_turn) = browser_turn() else {
        return;
    };
    let closed = closed_port();
    fails_with(
        &strings(&[
            "inspect",
            &format!("http://acme.test:{closed}/"),
            "--render",
            "--browser",
            BROWSER,
            "--resolve",
            &format!("acme.test:{closed}:127.0.0.1"),
        ]),
        3,
        "navigation error: ",
        Some("The browser could not open the page: check the address, and that the site is up."),
    );
}
