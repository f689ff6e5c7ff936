//! Rendered mode against hostile pages and browsers (issue 18): dialogs,
//! scripts that never yield, client-side redirect loops, requests into the
//! private network, left-behind profile folders, browsers that hang or flood
//! the pipe. Every case ends bounded, with its links or a one-line error.

use std::collections::HashMap;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::ExitStatusExt as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::rendered::{browser_turn, until};
use crate::server::{Route, Server};
use crate::{run, stderr, stdout};

fn hostile_site(other: u16) -> impl FnOnce(u16) -> HashMap<String, Route> {
    move |_port| {
        let mut r = HashMap::new();
        let mut add = |path: &str, body: String| {
            r.insert(format!("acme.test{path}"), Route::html(&body));
        };
        add(
            "/alert",
            "<a href=/contact>Contact</a><script>alert('hello')</script>\
             <a href=/about>About</a>"
                .into(),
        );
        add(
            "/confirm-later",
            "<a href=/contact>Contact</a><script>addEventListener('load', () => \
             setTimeout(() => { confirm('sure?'); document.body.insertAdjacentHTML('beforeend', \
             '<a href=/team>Team</a>'); }, 300))</script>"
                .into(),
        );
        add(
            "/prompt-loop",
            "<a href=/contact>Contact</a><script>setTimeout(() => { for (;;) prompt('name?') }, 0)\
             </script>"
                .into(),
        );
        add(
            "/globals",
            "<a href=/contact>Contact</a><script>document.querySelectorAll = () => { \
             throw new Error('no') }; String.prototype.slice = () => ''; \
             Object.defineProperty(window, 'location', { get() { throw 1 } })</script>"
                .into(),
        );
        add(
            "/spin",
            "<a href=/contact>Contact</a><script>for (;;) {}</script>".into(),
        );
        add(
            "/docwrite",
            "<a href=/contact>Contact</a><script>for (let i = 0; ; i++) \
             document.write('<a href=/p' + i + '>p</a>')</script>"
                .into(),
        );
        add(
            "/attributes",
            "<a href=/contact>Contact</a><script>for (let i = 0; i < 200000; i++) \
             document.body.setAttribute('data-a' + i, i)</script>"
                .into(),
        );
        add(
            "/js-loop",
            "<a href=/contact>Contact</a><script>location.href = '/js-loop?' + Math.random()\
             </script>"
                .into(),
        );
        add(
            "/meta-loop",
            "<meta http-equiv=refresh content=0><a href=/contact>Contact</a>".into(),
        );
        add(
            "/pushed",
            "<a href=/contact>Contact</a><a href=/blog id=gone>Blog</a><script>\
             history.pushState(null, '', '/elsewhere'); document.getElementById('gone').remove()\
             </script>"
                .into(),
        );
        add(
            "/elsewhere",
            "<a href=/contact>Contact</a><a href=/blog>Blog</a>".into(),
        );
        add(
            "/reaches-in",
            format!(
                "<a href=/contact>Contact</a>\
                 <img src=http://127.0.0.1:{other}/img>\
                 <iframe src=http://127.0.0.1:{other}/frame></iframe>\
                 <script>fetch('http://localhost:{other}/fetch').catch(() => {{}});\
                 const x = new XMLHttpRequest(); x.open('GET', 'http://127.0.0.1:{other}/xhr'); \
                 x.send();</script>"
            ),
        );
        r.insert(
            "acme.test/to-private".into(),
            Route::redirect(302, &format!("http://127.0.0.1:{other}/")),
        );
        r
    }
}

fn args(server: &Server, path: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec![
        "inspect".into(),
        format!("http://acme.test:{}{path}", server.port),
        "--render".into(),
        "--depth".into(),
        "1".into(),
        "--format".into(),
        "json".into(),
    ];
    args.extend(server.resolve_args(&["acme.test"]));
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    args
}

fn inspect(server: &Server, path: &str, extra: &[&str]) -> std::process::Output {
    let args = args(server, path, extra);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&refs)
}

fn page(out: &std::process::Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    let report: Value = serde_json::from_str(&stdout(out)).expect("valid JSON");
    report["pages"][0].clone()
}

fn hrefs(page: &Value) -> Vec<String> {
    page["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["href"].as_str().unwrap().to_owned())
        .collect()
}

fn quiet_server() -> Server {
    Server::start(|_| HashMap::new(), Duration::ZERO)
}

#[test]
fn dialogs_are_dismissed_counted_and_the_links_read() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(hostile_site(1), Duration::ZERO);
    let p = page(&inspect(&s, "/alert", &[]));
    assert_eq!(hrefs(&p), ["/contact", "/about"]);
    assert_eq!(p["dialogs"], 1);
    assert_eq!(p["scripts_stopped"], false);
    assert_eq!(p["network_idle"], true);
    let p = page(&inspect(&s, "/confirm-later", &[]));
    assert_eq!(p["dialogs"], 1, "{p}");
    assert_eq!(hrefs(&p), ["/contact", "/team"]);
    // A loop of prompts is a script that never yields: stopped at the deadline.
    let started = Instant::now();
    let p = page(&inspect(&s, "/prompt-loop", &["--render-timeout", "3"]));
    assert!(started.elapsed() < Duration::from_secs(13));
    assert_eq!(hrefs(&p), ["/contact"]);
    assert!(p["dialogs"].as_u64().unwrap() > 1, "{p}");
    assert_eq!(p["scripts_stopped"], true);
    assert_eq!(p["network_idle"], false);
    // The table says it on the rendered line.
    let mut table = args(&s, "/alert", &[]);
    table.retain(|a| a != "json" && a != "--format");
    let refs: Vec<&str> = table.iter().map(String::as_str).collect();
    let out = run(&refs);
    assert!(stdout(&out).contains("dialogs: 1"), "{}", stdout(&out));
}

#[test]
fn scripts_that_never_yield_are_stopped_at_the_deadline_and_the_dom_read() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(hostile_site(1), Duration::ZERO);
    for path in ["/spin", "/docwrite", "/attributes"] {
        let started = Instant::now();
        let out = inspect(
            &s,
            path,
            &["--render-timeout", "3", "--max-bytes", "2000000"],
        );
        let elapsed = started.elapsed();
        let p = page(&out);
        assert!(elapsed < Duration::from_secs(13), "{path}: {elapsed:?}");
        assert_eq!(hrefs(&p)[0], "/contact", "{path}");
        assert_eq!(p["network_idle"], false, "{path}");
        if path != "/attributes" {
            // 200,000 attributes may be set within the deadline on a fast machine.
            assert_eq!(p["scripts_stopped"], true, "{path}");
        }
    }
}

#[test]
fn a_client_side_redirect_loop_is_cut_at_20_with_its_chain() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(hostile_site(1), Duration::ZERO);
    for path in ["/js-loop", "/meta-loop"] {
        let out = inspect(&s, path, &[]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(3), "{path}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains("client-side redirect loop (more than 20"),
            "{err}"
        );
        assert!(
            err.contains(&format!("acme.test:{}{path}", s.port)),
            "{err}"
        );
        assert!(
            err.contains(" — The page's scripts or meta refresh"),
            "{err}"
        );
        assert!(s.hits(&format!("acme.test{path}")) <= 25, "{path}");
    }
}

#[test]
fn a_page_that_replaces_the_globals_the_reader_uses_is_still_read() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(hostile_site(1), Duration::ZERO);
    let p = page(&inspect(&s, "/globals", &[]));
    assert_eq!(hrefs(&p), ["/contact"]);
    assert_eq!(p["dom_read"], true);
    assert!(p["url"].as_str().unwrap().ends_with("/globals"), "{p}");
}

#[test]
fn a_dom_is_never_compared_with_another_documents_html() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(hostile_site(1), Duration::ZERO);
    // pushState: the served HTML is /pushed's, the final URL /elsewhere.
    let p = page(&inspect(&s, "/pushed", &[]));
    assert!(p["url"].as_str().unwrap().ends_with("/elsewhere"), "{p}");
    // The comparison is with /elsewhere's own HTML (the plain fetch), which
    // has /blog: removed by the page's script, but not by /elsewhere's.
    let gone: Vec<&str> = p["static_only"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["href"].as_str().unwrap())
        .collect();
    assert_eq!(gone, ["/blog"]);
    assert_eq!(s.hits("acme.test/elsewhere"), 1);
}

#[test]
fn scripts_cannot_reach_private_addresses_unless_allowed() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let other = quiet_server();
    let s = Server::start(hostile_site(other.port), Duration::ZERO);
    let p = page(&inspect(&s, "/reaches-in", &[]));
    assert_eq!(hrefs(&p), ["/contact"]);
    assert_eq!(other.all_hits(), HashMap::new());
    assert!(p["blocked_requests"].as_u64().unwrap() >= 4, "{p}");
    let p = page(&inspect(&s, "/reaches-in", &["--allow-private-network"]));
    assert_eq!(p["blocked_requests"], 0);
    for path in ["/img", "/frame", "/fetch", "/xhr"] {
        let host = if path == "/fetch" {
            "localhost"
        } else {
            "127.0.0.1"
        };
        assert_eq!(other.hits(&format!("{host}{path}")), 1, "{path}");
    }
}

#[test]
fn a_static_redirect_into_the_private_network_is_refused() {
    let other = quiet_server();
    let s = Server::start(hostile_site(other.port), Duration::ZERO);
    let mut static_args = args(&s, "/to-private", &[]);
    static_args.retain(|a| a != "--render");
    let refs: Vec<&str> = static_args.iter().map(String::as_str).collect();
    let out = run(&refs);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("redirect into a private network refused"),
        "{err}"
    );
    assert!(err.contains("--allow-private-network."), "{err}");
    assert_eq!(other.all_hits(), HashMap::new());
    let mut allowed = refs.clone();
    allowed.push("--allow-private-network");
    let out = run(&allowed);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(other.hits("127.0.0.1/"), 1);
}

/// Profile folders of the inspector with process id `pid`.
fn profiles_of(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("follow-inspector-browser-{pid}-");
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect()
}

#[test]
fn the_browser_profile_is_removed_at_exit_on_sigterm_and_after_a_sigkill() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(crate::rendered::site, Duration::ZERO);
    // A stale folder of an inspector that no longer runs (pid above pid_max).
    let stale = std::env::temp_dir().join("follow-inspector-browser-99999999-0");
    std::fs::create_dir_all(stale.join("Default")).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_follow-inspector"))
        .args(args(&s, "/", &[]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(!stale.exists(), "the stale folder is still there");
    // Nothing comes back after exit, when late processes could write.
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(profiles_of(pid), Vec::<PathBuf>::new());

    let mut child = Command::new(env!("CARGO_BIN_EXE_follow-inspector"))
        .args(args(&s, "/hang", &[]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    assert!(until(|| !profiles_of(pid).is_empty()), "no profile folder");
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGTERM));
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(profiles_of(pid), Vec::<PathBuf>::new());
}

/// A fake browser: a shell script in its own temporary folder.
fn fake_browser(name: &str, script: &str) -> PathBuf {
    let dir = crate::temp_dir(&format!("fake-browser-{name}"));
    let path = dir.join("browser");
    std::fs::write(&path, format!("#!/bin/sh\n{script}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn a_browser_that_hangs_or_floods_the_pipe_fails_by_the_deadline() {
    let s = quiet_server();
    let silent = fake_browser("silent", "sleep 100");
    let flood = fake_browser("flood", "head -c 200000000 /dev/zero | tr '\\0' x >&4");
    for (browser, reason) in [
        (
            &silent,
            "the browser did not start within 2 s (--render-timeout)",
        ),
        (
            &flood,
            "the browser did not start: it sent a DevTools message over",
        ),
    ] {
        let browser = browser.to_str().unwrap();
        let started = Instant::now();
        let out = inspect(
            &s,
            "/",
            &[
                "--render-timeout",
                "2",
                "--max-bytes",
                "100000",
                "--browser",
                browser,
            ],
        );
        let elapsed = started.elapsed();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(3), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(reason), "{err}");
        assert!(elapsed < Duration::from_secs(12), "{elapsed:?}");
    }
    for browser in [silent, flood] {
        let _ = std::fs::remove_dir_all(browser.parent().unwrap());
    }
}

#[test]
fn a_browser_that_exits_as_it_starts_says_how_and_its_last_line() {
    let s = quiet_server();
    let refuses = fake_browser(
        "refuses",
        "echo '[1201/1:ERROR:x.cc(1)] noise' >&2\n\
         echo 'Running as root without --no-sandbox is not supported.' >&2\n\
         exit 1",
    );
    let killed = fake_browser("killed", "kill -9 $$");
    for (browser, reason) in [
        (
            &refuses,
            "browser: the browser exited as it started, with status 1: Running as root without \
             --no-sandbox is not supported.",
        ),
        (
            &killed,
            "browser: the browser exited as it started, killed by SIGKILL (out of memory?)",
        ),
    ] {
        let out = inspect(&s, "/", &["--browser", browser.to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(3), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(reason), "{err}");
    }
    for browser in [refuses, killed] {
        let _ = std::fs::remove_dir_all(browser.parent().unwrap());
    }
}
