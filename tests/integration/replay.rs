//! Replay (SPEC 12): a rendered capture keeps what the page loaded, and
//! `inspect ARCHIVE --render` renders it again from the archive alone: the
//! same links, nothing sent to any network. A tripwire counts every TCP
//! connection and UDP datagram that reaches its address (a replaying browser
//! resolves no host name, so only requests to the address itself could),
//! and as root (as CI runs) the replay also runs in an empty network
//! namespace (`unshare -n`) with the same links.

use std::collections::HashMap;
use std::io::Read as _;
use std::net::{TcpListener, UdpSocket};
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::Value;

use crate::rendered::browser_turn;
use crate::server::{Route, Server};
use crate::{run_owned, stderr, stdout, temp_dir};

/// Counts every TCP connection and UDP datagram made to its port; none is
/// answered.
struct Tripwire {
    port: u16,
    connections: Arc<AtomicUsize>,
}

impl Tripwire {
    fn start() -> Tripwire {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let udp = UdpSocket::bind(("127.0.0.1", port)).unwrap();
        let connections = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&connections);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                counted.fetch_add(1, Ordering::SeqCst);
                drop(stream);
            }
        });
        let counted = Arc::clone(&connections);
        std::thread::spawn(move || {
            let mut datagram = [0u8; 2048];
            while udp.recv(&mut datagram).is_ok() {
                counted.fetch_add(1, Ordering::SeqCst);
            }
        });
        Tripwire { port, connections }
    }

    fn count(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

/// A site whose links are built by its scripts from JSON they fetch, with
/// an image (left out of the capture), a link built from the clock and
/// `Math.random`, and a page whose scripts try every way out to another host.
fn site(tripwire: u16) -> impl FnOnce(u16) -> HashMap<String, Route> {
    move |port| {
        let mut r = HashMap::new();
        let mut add = |path: &str, route: Route| {
            r.insert(format!("acme.test{path}"), route);
        };
        add(
            "/",
            Route::html(
                "<!DOCTYPE html><title>Acme</title><body><a href=/about>About us</a>\
                 <img src=/logo.png><nav id=menu></nav><script src=/app.js></script>",
            ),
        );
        add(
            "/app.js",
            Route::html(
                // One after another, so the links come in one order.
                "const menu = document.getElementById('menu');\
                 const add = (href, text) => { const a = document.createElement('a');\
                   a.href = href; a.textContent = text; menu.append(a); };\
                 add('/news?at=' + Date.now() + '&r=' + Math.random(), 'News');\
                 fetch('/menu').then(r => r.json()).then(items => {\
                   for (const [href, text] of items) add(href, text);\
                   const x = new XMLHttpRequest(); x.open('GET', '/more.json');\
                   x.onload = () => {\
                     add(JSON.parse(x.responseText).href, 'Datenschutz');\
                     const w = new Worker('/worker.js');\
                     w.onmessage = (e) => add(e.data, 'Karriere'); };\
                   x.send(); });",
            )
            .header("Content-Type", "text/javascript"),
        );
        add(
            "/menu.json",
            Route::html(r#"[["/kontakt","Kontakt"],["/impressum","Impressum"]]"#)
                .header("Content-Type", "application/json"),
        );
        add(
            "/worker.js",
            Route::html(
                "fetch('/worker.json').then(r => r.json()).then(j => postMessage(j.href));",
            )
            .header("Content-Type", "text/javascript"),
        );
        add(
            "/worker.json",
            Route::html(r#"{"href":"/karriere"}"#).header("Content-Type", "application/json"),
        );
        // A stored redirect answers as the redirect it was.
        add(
            "/menu",
            Route::redirect(301, &format!("http://acme.test:{port}/menu.json")),
        );
        add(
            "/more.json",
            Route::html(r#"{"href":"/datenschutz"}"#).header("Content-Type", "application/json"),
        );
        add(
            "/logo.png",
            Route::html("")
                .bytes(vec![0x89, b'P', b'N', b'G', 0, 0, 0, 0])
                .header("Content-Type", "image/png"),
        );
        add(
            "/about",
            Route::html("<a href=/team>Team</a><script src=/app.js></script><nav id=menu></nav>"),
        );
        let way = format!("127.0.0.1:{tripwire}");
        add(
            "/leaky",
            Route::html(&format!(
                "<a href=/about>About</a><nav id=menu></nav><script>\
                 fetch('http://other.test:{tripwire}/f').catch(() => {{}});\
                 fetch('http://{way}/direct').catch(() => {{}});\
                 const x = new XMLHttpRequest(); x.open('GET', 'http://other.test:{tripwire}/x');\
                 x.onerror = () => {{}}; x.send();\
                 new Image().src = 'http://{way}/pixel.gif';\
                 try {{ new WebSocket('ws://{way}/socket').onerror = () => {{}}; }} catch (e) {{}}\
                 try {{ new WebSocket('ws://other.test:{tripwire}/socket').onerror = () => {{}}; }} \
                   catch (e) {{}}\
                 navigator.sendBeacon('http://{way}/beacon', 'x');\
                 try {{ const rtc = new RTCPeerConnection({{ iceServers: \
                   [{{ urls: 'stun:{way}' }}] }}); rtc.createDataChannel('x');\
                   rtc.createOffer().then(o => rtc.setLocalDescription(o)); }} catch (e) {{}}\
                 document.getElementById('menu').innerHTML = '<a href=/kontakt>Kontakt</a>';\
                 </script>"
            )),
        );
        r
    }
}

fn json(out: &Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    serde_json::from_str(&stdout(out)).expect("valid JSON")
}

/// Every page's links as (url, verdict), the `/news` link's clock and
/// random numbers taken off when `steady` is false.
fn links(report: &Value, steady: bool) -> Vec<Vec<(String, String)>> {
    report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|page| {
            page["links"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| {
                    let url = l["url"].as_str().unwrap_or_default();
                    let url = match url.split_once("/news?") {
                        Some((head, _)) if !steady => format!("{head}/news?…"),
                        _ => url.to_owned(),
                    };
                    (url, l["verdict"].as_str().unwrap().to_owned())
                })
                .collect()
        })
        .collect()
}

/// The WARC-Target-URI of every record of `kind` in a `.warc.gz` of ours.
fn targets(archive: &std::path::Path, kind: &str) -> Vec<String> {
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(archive).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut out = Vec::new();
    for record in text.split("WARC/1.1\r\n").skip(1) {
        let head = record.split("\r\n\r\n").next().unwrap_or_default();
        if !head.contains(&format!("WARC-Type: {kind}\r\n")) {
            continue;
        }
        if let Some(uri) = head
            .lines()
            .find_map(|l| l.strip_prefix("WARC-Target-URI: "))
        {
            out.push(uri.to_owned());
        }
    }
    out
}

/// The live rendered crawl of `path` to `depth`, saved to `ticket`, as JSON.
fn capture(server: &Server, path: &str, depth: &str, ticket: &str) -> Output {
    let mut args: Vec<String> = vec![
        "inspect".into(),
        format!("http://acme.test:{}{path}", server.port),
        "--render".into(),
        "--depth".into(),
        depth.into(),
        "--format".into(),
        "json".into(),
        "--save-warc".into(),
        ticket.into(),
    ];
    args.extend(server.resolve_args(&["acme.test"]));
    run_owned(&args)
}

/// `inspect ARCHIVE --render`, with `--resolve` mapping both hosts to the
/// tripwire's address: a replaying browser must not use it (it resolves no
/// name), so a request that escaped by name would be counted too.
fn replay(archive: &str, tripwire: &Tripwire, extra: &[&str]) -> Output {
    let mut args: Vec<String> = vec![
        "inspect".into(),
        archive.into(),
        "--render".into(),
        "--format".into(),
        "json".into(),
    ];
    for host in ["acme.test", "other.test"] {
        args.extend([
            "--resolve".into(),
            format!("{host}:{}:127.0.0.1", tripwire.port),
        ]);
    }
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    run_owned(&args)
}

/// Whether `unshare -n` can run a command here (root, util-linux).
fn can_unshare() -> bool {
    Command::new("unshare")
        .args(["-n", "true"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn a_rendered_ticket_keeps_its_scripts_and_renders_again_offline_with_the_same_links() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let tripwire = Tripwire::start();
    let server = Server::start(site(tripwire.port), Duration::ZERO);
    let dir = temp_dir("replay-ticket");
    let ticket = dir.join("ticket.warc.gz");
    let ticket_arg = ticket.to_str().unwrap().to_owned();
    let live_out = capture(&server, "/", "2", &ticket_arg);
    let live = json(&live_out);
    let live_links = links(&live, false);
    let hrefs: Vec<&str> = live_links[0].iter().map(|(u, _)| u.as_str()).collect();
    for path in [
        "/about",
        "/kontakt",
        "/impressum",
        "/datenschutz",
        "/karriere",
    ] {
        assert!(
            hrefs.iter().any(|u| u.ends_with(path)),
            "{path} in {hrefs:?}"
        );
    }
    // The capture holds what the page loaded, but for its image.
    let responses = targets(&ticket, "response");
    for path in [
        "/app.js",
        "/menu",
        "/menu.json",
        "/more.json",
        "/worker.js",
        "/worker.json",
    ] {
        assert!(
            responses.iter().any(|u| u.ends_with(path)),
            "{path} in {responses:?}"
        );
    }
    assert!(!responses.iter().any(|u| u.ends_with("/logo.png")));
    assert!(
        stderr(&live_out).contains("1 image, media or font response left out"),
        "{}",
        stderr(&live_out)
    );

    // Without --render the ticket reopens as before: the live report, byte
    // for byte, its kept responses unread by the verdicts.
    let reopened = run_owned(&[
        "inspect".into(),
        ticket_arg.clone(),
        "--format".into(),
        "json".into(),
    ]);
    assert_eq!(stdout(&reopened), stdout(&live_out));

    // Rendered again from the archive alone: the same links, every request
    // answered but the image left out, nothing sent anywhere.
    let hits_before = server.all_hits();
    let first = json(&replay(&ticket_arg, &tripwire, &[]));
    assert_eq!(links(&first, false), live_links);
    let page = &first["pages"][0];
    assert_eq!(page["mode"], "rendered");
    assert_eq!(page["replay"]["missing"], 1, "{}", page["replay"]);
    assert!(
        page["replay"]["missing_urls"][0]
            .as_str()
            .unwrap()
            .ends_with("/logo.png")
    );
    assert!(page["replay"]["answered"].as_u64().unwrap() >= 4);
    // Two replays see the same clock and the same random numbers.
    let second = json(&replay(&ticket_arg, &tripwire, &[]));
    assert_eq!(links(&second, true), links(&first, true));
    assert_eq!(server.all_hits(), hits_before);
    assert_eq!(tripwire.count(), 0);
    // Reopened without a browser and saved again as WACZ, the ticket keeps
    // what the page loaded: the package replays the same.
    let package = dir.join("ticket.wacz");
    let package_arg = package.to_str().unwrap().to_owned();
    let resaved = run_owned(&[
        "inspect".into(),
        ticket_arg.clone(),
        "--save-warc".into(),
        package_arg.clone(),
    ]);
    assert_eq!(resaved.status.code(), Some(0), "{}", stderr(&resaved));
    let from_package = json(&replay(&package_arg, &tripwire, &[]));
    assert_eq!(links(&from_package, true), links(&first, true));
    assert_eq!(
        from_package["pages"][0]["replay"],
        first["pages"][0]["replay"]
    );
    if can_unshare() {
        let mut args = vec![
            env!("CARGO_BIN_EXE_follow-inspector").to_owned(),
            "inspect".into(),
            ticket_arg.clone(),
            "--render".into(),
            "--format".into(),
            "json".into(),
        ];
        args.insert(0, "-n".into());
        let isolated = Command::new("unshare").args(&args).output().unwrap();
        assert_eq!(links(&json(&isolated), true), links(&first, true));
    } else {
        eprintln!("(not root: the replay was not also run without a network namespace)");
    }
}

#[test]
fn a_replay_answers_every_way_out_from_the_archive_or_404_and_sends_nothing() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let tripwire = Tripwire::start();
    let server = Server::start(site(tripwire.port), Duration::ZERO);
    let dir = temp_dir("replay-leaky");
    let ticket = dir.join("leaky.warc.gz");
    let ticket_arg = ticket.to_str().unwrap().to_owned();
    let live = capture(&server, "/leaky", "1", &ticket_arg);
    assert_eq!(live.status.code(), Some(0), "{}", stderr(&live));
    let before = tripwire.count();
    let out = json(&replay(&ticket_arg, &tripwire, &[]));
    let page = &out["pages"][0];
    assert!(
        links(&out, true)[0]
            .iter()
            .any(|(u, _)| u.ends_with("/kontakt")),
        "{page}"
    );
    let missing: Vec<&str> = page["replay"]["missing_urls"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // fetch, XHR, the image and the beacon are paused and answered 404;
    // the sockets never connect, WebRTC sends no STUN datagram. None
    // reached the tripwire.
    for path in ["/f", "/direct", "/x", "/pixel.gif", "/beacon"] {
        assert!(
            missing.iter().any(|u| u.ends_with(path)),
            "{path} in {missing:?}"
        );
    }
    assert_eq!(
        tripwire.count(),
        before,
        "a replay request reached the network"
    );
}

#[test]
fn render_over_another_tools_capture_builds_the_links_its_scripts_build() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let Some(jd) = crate::archive_shelf::shelf_file("JD.warc.gz") else {
        return;
    };
    let jd = jd.to_str().unwrap().to_owned();
    let tripwire = Tripwire::start();
    let stored = json(&run_owned(&[
        "inspect".into(),
        jd.clone(),
        "--format".into(),
        "json".into(),
    ]));
    let out = replay(&jd, &tripwire, &[]);
    let rendered = json(&out);
    let page = &rendered["pages"][0];
    assert_eq!(page["mode"], "rendered");
    let (stored_n, rendered_n) = (
        stored["pages"][0]["links"].as_array().unwrap().len(),
        page["links"].as_array().unwrap().len(),
    );
    // The page's scripts build links the stored HTML lacks (131 and 181
    // when this was written, as a Puppeteer replay of the same file gives).
    assert!(
        rendered_n > stored_n + 20,
        "{stored_n} stored, {rendered_n} rendered"
    );
    assert!(page["replay"]["answered"].as_u64().unwrap() > 10);
    assert!(
        stderr(&out).contains("rendered from the archive"),
        "{}",
        stderr(&out)
    );
    assert_eq!(tripwire.count(), 0);
}

#[test]
fn render_without_a_browser_is_exit_3_with_the_install_hint_never_a_quiet_static_read() {
    let Some(jd) = crate::archive_shelf::shelf_file("JD.warc.gz") else {
        return;
    };
    let out = run_owned(&[
        "inspect".into(),
        jd.to_str().unwrap().to_owned(),
        "--render".into(),
        "--browser".into(),
        "/nonexistent/chromium".into(),
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    assert!(stderr(&out).contains("apt install chromium-headless-shell"));
}
