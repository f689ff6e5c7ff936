//! Hostile servers and pages: each case ends within its timeout with a clear
//! message or a capped, labelled result and the documented exit code, and the
//! inspector's peak memory stays under 512 MB.

use std::collections::HashMap;
use std::io::Write as _;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::server::{Route, Sending, Server};

/// The budget for every case (resident set, KiB).
pub(crate) const PEAK_LIMIT_KIB: i64 = 512 * 1024;

pub(crate) struct Measured {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    /// Peak resident memory of the inspector process, KiB.
    pub peak_kib: i64,
}

/// Runs the binary under `/usr/bin/time -f %M` (installed by `.ci/run`).
/// `wait4` on our own child would not do: a child spawned with vfork carries
/// this test process's high-water mark into its own.
pub(crate) fn run_measured(args: &[String]) -> Measured {
    let report = crate::temp_dir("peak").join("peak-kib");
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&report)
        .arg(env!("CARGO_BIN_EXE_follow-inspector"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("/usr/bin/time runs (Debian package `time`)");
    let peak = std::fs::read_to_string(&report).unwrap_or_default();
    // One folder per run: gone once read, so a suite run leaves none behind.
    if let Some(folder) = report.parent() {
        let _ = std::fs::remove_dir_all(folder);
    }
    let peak_kib = peak
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak memory from /usr/bin/time: {peak}"));
    Measured {
        status: out.status,
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        peak_kib,
    }
}

fn hostile_site(_port: u16) -> HashMap<String, Route> {
    let mut r = HashMap::new();
    let mut add = |path: &str, route: Route| {
        r.insert(format!("evil.test{path}"), route);
    };
    let links_chunk: String = (0..1000).map(|i| format!("<a href=/p{i}>x</a>")).collect();
    add(
        "/drip",
        Route::html("<a href=/contact>Contact</a>").sending(Sending::Drip(Duration::from_secs(1))),
    );
    add(
        "/50mb",
        Route::html(&links_chunk).sending(Sending::Repeated(50 * 1024 * 1024 / links_chunk.len())),
    );
    let bomb = {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let spaces = vec![b' '; 1024 * 1024];
        for _ in 0..200 {
            gz.write_all(&spaces).unwrap();
        }
        gz.finish().unwrap()
    };
    add(
        "/bomb",
        Route::html("")
            .bytes(bomb)
            .header("Content-Encoding", "gzip"),
    );
    add(
        "/reset",
        Route::html(&"<a href=/x>x</a>".repeat(10_000)).sending(Sending::ResetAfter(50_000)),
    );
    add("/silent", Route::html("").sending(Sending::Silent));
    add(
        "/404",
        Route::html("<h1>Not here</h1><a href=/contact>Contact us</a>").status(404),
    );
    add(
        "/500",
        Route::html("<h1>Oops</h1><a href=/impressum>Impressum</a>").status(500),
    );
    add(
        "/bad-bytes",
        Route::html("")
            .bytes(b"<a href=/kontakt>Kontakt \xff\xfe</a><a href=/about>About</a>".to_vec()),
    );
    add(
        "/200k",
        Route::html(
            &(0..200_000)
                .map(|i| format!("<a href=/about/{i}>About {i}</a>\n"))
                .collect::<String>(),
        ),
    );
    add(
        "/nested",
        Route::html(&format!(
            "{}<a href=/contact>Contact</a>{}",
            "<div>".repeat(100_000),
            "</div>".repeat(100_000)
        )),
    );
    add(
        "/bad-base",
        Route::html("<base href='http://[::1'><a href=/contact>Contact</a>"),
    );
    r
}

fn inspect(server: &Server, path: &str, extra: &[&str]) -> Measured {
    let mut args: Vec<String> = vec![
        "inspect".into(),
        format!("http://evil.test:{}{path}", server.port),
        "--depth".into(),
        "1".into(),
        "--format".into(),
        "json".into(),
    ];
    args.extend(server.resolve_args(&["evil.test"]));
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    let measured = run_measured(&args);
    assert!(
        measured.peak_kib < PEAK_LIMIT_KIB,
        "{path}: peak memory {} MiB",
        measured.peak_kib / 1024
    );
    eprintln!("{path}: peak memory {} MiB", measured.peak_kib / 1024);
    measured
}

fn failed_with(m: &Measured, reason: &str) {
    assert_eq!(m.status.code(), Some(3), "{}", m.stderr);
    assert!(m.stderr.contains(reason), "{}", m.stderr);
    assert_eq!(m.stderr.trim().lines().count(), 1, "{}", m.stderr);
    assert!(m.stdout.is_empty());
}

fn first_page(m: &Measured) -> Value {
    assert_eq!(m.status.code(), Some(0), "{}", m.stderr);
    let report: Value = serde_json::from_str(&m.stdout).expect("valid JSON");
    report["pages"][0].clone()
}

#[test]
fn servers_that_stall_reset_or_never_answer_fail_within_the_timeout() {
    let s = Server::start(hostile_site, Duration::ZERO);
    failed_with(&inspect(&s, "/drip", &["--timeout", "2"]), "timeout");
    failed_with(&inspect(&s, "/silent", &["--timeout", "2"]), "timeout");
    failed_with(&inspect(&s, "/reset", &[]), "the connection broke after");
}

#[test]
fn huge_bodies_and_gzip_bombs_are_cut_and_say_so() {
    let s = Server::start(hostile_site, Duration::ZERO);
    let big = inspect(&s, "/50mb", &[]);
    assert!(big.stderr.contains("was cut at"), "{}", big.stderr);
    let page = first_page(&big);
    assert_eq!(page["truncated"], true);
    // 10 MiB of 18-byte links.
    let links = page["links"].as_array().unwrap().len();
    assert!(links > 550_000, "{links}");

    let bomb = inspect(&s, "/bomb", &[]);
    assert!(bomb.stderr.contains("was cut at"), "{}", bomb.stderr);
    assert_eq!(first_page(&bomb)["truncated"], true);
}

#[test]
fn error_statuses_bad_bytes_and_a_bad_base_are_read_and_labelled() {
    let s = Server::start(hostile_site, Duration::ZERO);
    for (path, status, text) in [("/404", 404, "Contact us"), ("/500", 500, "Impressum")] {
        let page = first_page(&inspect(&s, path, &[]));
        assert_eq!(page["status"], status);
        assert_eq!(page["links"][0]["text"], text);
    }

    let bad = inspect(&s, "/bad-bytes", &[]);
    assert!(
        bad.stderr.contains("not valid UTF-8 and were read as"),
        "the replaced bytes are reported: {}",
        bad.stderr
    );
    let page = first_page(&bad);
    assert_eq!(page["links"][0]["text"], "Kontakt \u{fffd}\u{fffd}");
    assert_eq!(page["links"][1]["text"], "About");

    let page = first_page(&inspect(&s, "/bad-base", &[]));
    assert_eq!(
        page["links"][0]["url"],
        format!("http://evil.test:{}/contact", s.port),
        "a base that does not parse is ignored"
    );
}

#[test]
fn pages_with_200k_links_or_100k_nested_elements_are_read_whole() {
    let s = Server::start(hostile_site, Duration::ZERO);
    let page = first_page(&inspect(&s, "/200k", &["--limit", "3"]));
    let links = page["links"].as_array().unwrap();
    assert_eq!(links.len(), 200_000);
    assert_eq!(links[199_999]["text"], "About 199999");
    assert_eq!(page["counts"]["followed"], 3);

    let page = first_page(&inspect(&s, "/nested", &[]));
    assert_eq!(page["links"][0]["text"], "Contact");
}
