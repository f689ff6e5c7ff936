//! Rendered mode (SPEC 8) against the local server, in the real
//! chromium-headless-shell. Skipped with a printed SKIPPED when the browser is
//! not installed; `.ci/run` installs it and sets FOLLOW_INSPECTOR_REQUIRE_BROWSER.

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::server::{Route, Server};
use crate::{run, stderr, stdout};

pub const BROWSER: &str = "/usr/lib/chromium/chromium-headless-shell";

/// Real-browser tests take turns. A page that eats memory, or a loaded
/// machine, can make another test's browser exit while it starts: that is a
/// finding about the machine, not about the inspector.
static BROWSER_TURN: Mutex<()> = Mutex::new(());

/// This test's turn with the real browser, held until dropped; `None` when
/// the browser is not installed (panics when CI requires it).
pub fn browser_turn() -> Option<MutexGuard<'static, ()>> {
    if !std::path::Path::new(BROWSER).is_file() {
        assert!(
            std::env::var_os("FOLLOW_INSPECTOR_REQUIRE_BROWSER").is_none(),
            "{BROWSER} is required (apt install chromium-headless-shell)"
        );
        eprintln!("SKIPPED: rendered-mode tests need {BROWSER}");
        return None;
    }
    // A failed test poisons the lock; the next one still gets its turn.
    Some(BROWSER_TURN.lock().unwrap_or_else(PoisonError::into_inner))
}

pub fn site(port: u16) -> HashMap<String, Route> {
    let mut r = HashMap::new();
    let mut add = |path: &str, route: Route| {
        r.insert(format!("acme.test{path}"), route);
    };
    add(
        "/",
        Route::html(
            "<!DOCTYPE html><body><a href=/about>About us</a><a href=/blog id=gone>Blog</a>\
             <nav id=menu></nav><script>\
             document.getElementById('menu').innerHTML = \
               '<a href=/kontakt>Kontakt</a><a href=/impressum>Impressum</a>';\
             document.getElementById('gone').remove();</script>",
        ),
    );
    add(
        "/js-redirect",
        Route::html("<script>location.replace('/')</script><a href=/never>never</a>"),
    );
    add(
        "/meta-refresh",
        Route::html("<meta http-equiv=refresh content='0;url=/'><a href=/old>old</a>"),
    );
    add(
        "/moved",
        Route::redirect(301, &format!("http://acme.test:{port}/")),
    );
    add(
        "/missing",
        Route::html("<h1>Not here</h1><a href=/contact>Contact us</a>").status(404),
    );
    // A request that stays open: the network never goes idle.
    add(
        "/busy",
        Route::html("<a href=/contact>Contact</a><script>fetch('/slow').catch(() => {});</script>"),
    );
    add("/slow", Route::html("late").delay(Duration::from_secs(30)));
    add(
        "/oom",
        Route::html(
            "<a href=/x>x</a><script>let a = [];\
             while (true) a.push(new Array(1e6).fill(Math.random()));</script>",
        ),
    );
    let hang = Route::html("<a href=/x>x</a>").delay(Duration::from_secs(30));
    add("/hang", hang.clone());
    // The window has no --resolve: the same page by address.
    r.insert("127.0.0.1/hang".to_owned(), hang);
    r
}

/// `inspect --render` of `path`, as JSON unless `extra` names a format.
fn rendered(server: &Server, path: &str, extra: &[&str]) -> std::process::Output {
    let target = format!("http://acme.test:{}{path}", server.port);
    let mut args: Vec<String> = vec!["inspect".into(), target, "--render".into()];
    if !extra.contains(&"--format") {
        args.extend(["--format".into(), "json".into()]);
    }
    args.extend(server.resolve_args(&["acme.test"]));
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args)
}

fn report(out: &std::process::Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    serde_json::from_str(&stdout(out)).expect("valid JSON")
}

fn sources(page: &Value) -> Vec<(String, String)> {
    page["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["href"].as_str().unwrap().to_owned(),
                l["source"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn scripts_add_and_remove_links_and_the_report_says_which() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(site, Duration::ZERO);
    let r = report(&rendered(&s, "/", &["--depth", "1"]));
    let page = &r["pages"][0];
    assert_eq!(page["mode"], "rendered");
    assert_eq!(page["network_idle"], true);
    assert_eq!(
        sources(page),
        [
            ("/about".to_owned(), "both".to_owned()),
            ("/kontakt".to_owned(), "rendered_only".to_owned()),
            ("/impressum".to_owned(), "rendered_only".to_owned()),
        ]
    );
    let gone = page["static_only"].as_array().unwrap();
    assert_eq!(gone.len(), 1);
    assert_eq!(gone[0]["href"], "/blog");
    assert_eq!(gone[0]["text"], "Blog");
    assert!(gone[0].get("verdict").is_none());

    // CSV: a source column, and a row without a verdict for the removed link.
    let csv = stdout(&rendered(&s, "/", &["--depth", "1", "--format", "csv"]));
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].ends_with(",source,region,nofollow,inside_word"),
        "{}",
        lines[0]
    );
    assert!(lines[2].contains(",rendered_only,"), "{}", lines[2]);
    assert!(
        lines[4].ends_with("/blog,Blog,static_only,,,"),
        "{}",
        lines[4]
    );
    // The table marks added rows and lists the removed link under the page.
    let table = stdout(&rendered(&s, "/", &["--depth", "1", "--format", "table"]));
    assert_eq!(table.matches("+script").count(), 2, "{table}");
    assert!(table.contains("removed by scripts"), "{table}");

    // The static report of the same page: the served HTML, no rendered fields.
    let mut args = vec![
        "inspect".to_owned(),
        format!("http://acme.test:{}/", s.port),
        "--depth".into(),
        "1".into(),
        "--format".into(),
        "json".into(),
    ];
    args.extend(s.resolve_args(&["acme.test"]));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = report(&run(&args));
    let page = &r["pages"][0];
    assert_eq!(page["mode"], "static");
    assert!(page.get("static_only").is_none());
    assert!(page["links"][0].get("source").is_none());
}

#[test]
fn client_side_and_http_redirects_end_on_location_href_with_the_chain() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(site, Duration::ZERO);
    let home = format!("http://acme.test:{}/", s.port);
    for (path, status) in [
        ("/js-redirect", 200),
        ("/meta-refresh", 200),
        ("/moved", 301),
    ] {
        let r = report(&rendered(&s, path, &["--depth", "1"]));
        assert_eq!(r["final_url"], home, "{path}");
        let hops = r["pages"][0]["redirects"].as_array().unwrap();
        assert_eq!(hops.len(), 1, "{path}: {hops:?}");
        assert_eq!(
            hops[0]["url"],
            format!("http://acme.test:{}{path}", s.port),
            "{path}"
        );
        assert_eq!(hops[0]["status"], status, "{path}");
        assert_eq!(r["pages"][0]["links"][0]["href"], "/about", "{path}");
    }
    let r = report(&rendered(&s, "/missing", &["--depth", "1"]));
    assert_eq!(r["pages"][0]["status"], 404);
    assert_eq!(r["pages"][0]["links"][0]["text"], "Contact us");
}

#[test]
fn at_the_deadline_the_dom_is_read_anyway_and_marked() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(site, Duration::ZERO);
    let out = rendered(
        &s,
        "/busy",
        &[
            "--depth",
            "1",
            "--wait",
            "networkidle0",
            "--render-timeout",
            "3",
        ],
    );
    let page = &report(&out)["pages"][0];
    assert_eq!(page["network_idle"], false);
    assert_eq!(page["links"][0]["href"], "/contact");
    // `load` does not wait for the open request.
    let page = &report(&rendered(&s, "/busy", &["--depth", "1", "--wait", "load"]))["pages"][0];
    assert_eq!(page["network_idle"], true);
}

#[test]
fn navigation_errors_crashes_silence_and_a_missing_browser_exit_3_in_one_line() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(site, Duration::ZERO);
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let refused = run(&[
        "inspect",
        &format!("http://acme.test:{closed}/"),
        "--render",
        "--resolve",
        &format!("acme.test:{closed}:127.0.0.1"),
    ]);
    let crashed = rendered(&s, "/oom", &["--depth", "1"]);
    let missing = rendered(&s, "/", &["--browser", "/nonexistent/chromium"]);
    let silent = rendered(&s, "/hang", &["--render-timeout", "2"]);
    for (out, reason) in [
        (&silent, "no complete answer"),
        (&refused, "net::ERR_CONNECTION_REFUSED"),
        (&crashed, "renderer crashed"),
        (&missing, "apt install chromium-headless-shell"),
    ] {
        assert_eq!(out.status.code(), Some(3), "{}", stderr(out));
        let err = stderr(out);
        assert!(err.contains(reason), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

/// Processes whose command line contains `marker` (a browser started for
/// one test: a unique User-Agent or profile folder).
pub fn browsers_with(marker: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| String::from_utf8_lossy(cmdline).contains(marker))
        .count()
}

pub fn until(what: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(15);
    while Instant::now() < deadline {
        if what() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn no_browser_outlives_the_inspector_killed_or_interrupted() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(site, Duration::ZERO);
    // A normal exit stops the browser too.
    let marker = format!("follow-inspector-test-{}-exit", std::process::id());
    let out = rendered(&s, "/", &["--depth", "1", "--user-agent", &marker]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(browsers_with(&marker), 0);
    for signal in [libc::SIGKILL, libc::SIGINT] {
        let marker = format!("follow-inspector-test-{}-{signal}", std::process::id());
        let mut args: Vec<String> = vec![
            "inspect".into(),
            format!("http://acme.test:{}/hang", s.port),
            "--render".into(),
            "--user-agent".into(),
            marker.clone(),
        ];
        args.extend(s.resolve_args(&["acme.test"]));
        let mut child = Command::new(env!("CARGO_BIN_EXE_follow-inspector"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // The inspector itself carries the marker too: wait for more than it.
        assert!(until(|| browsers_with(&marker) > 1), "no browser started");
        // SAFETY: signalling our own child.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let _ = child.wait();
        assert!(
            until(|| browsers_with(&marker) == 0),
            "a browser outlived the inspector after signal {signal}"
        );
    }
}
