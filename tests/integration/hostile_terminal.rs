//! What reaches a terminal or a report from files a customer or a crawl hands
//! over (issue 28): an archive's page-record error, a keyword the
//! `black_shadows_white` lint quotes (from a settings file or an archive's
//! settings), an archive's file name, a targets file's cells. Every table
//! line and stderr line shows control characters and bidi overrides escaped
//! (`\u{1b}`, `\u{202e}`); CSV cells too; JSON writes DEL, C1 and the bidi
//! overrides as `\uXXXX`. Each run ends within a watchdog and a few seconds;
//! and an OS error is said once.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::hostile::{PEAK_LIMIT_KIB, run_measured};
use crate::hostile_files::run_bounded;
use crate::server::{Route, Server};
use crate::temp_dir;
use crate::warc_files::{html_response, record, warcinfo, write};

/// ESC ] 0 ; pwned BEL (retitles), CSI as C1 2J (clears), RLO (reverses
/// what follows), DEL.
const HOSTILE: &str = "\u{1b}]0;pwned\u{7}\u{9b}2J\u{202e}evil\u{7f}";
/// `HOSTILE` as the table and stderr show it.
const SHOWN: &str = "\\u{1b}]0;pwned\\u{7}\\u{9b}2J\\u{202e}evil\\u{7f}";
/// `HOSTILE` as JSON text in a file.
const IN_JSON: &str = "\\u001b]0;pwned\\u0007\\u009b2J\\u202eevil\\u007f";

/// No character a terminal acts on.
const NONE: [char; 0] = [];

/// A run of a debug build that took minutes must now take seconds.
const QUICK: Duration = Duration::from_secs(20);

/// The characters of `bytes` a terminal would act on (or reorder by): C0
/// (but `\n`, and `\t` with `tabs`), DEL, C1, the bidi overrides and
/// isolates, and any byte that is not UTF-8.
fn acted_on(bytes: &[u8], tabs: bool) -> Vec<char> {
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|&c| {
            let layout = c == '\n' || (tabs && c == '\t');
            (c.is_control() && !layout)
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{fffd}')
        })
        .collect()
}

/// `args` run to the end within [`QUICK`].
fn quick(args: &[&str]) -> Output {
    let started = Instant::now();
    let out = run_bounded(args);
    assert!(
        started.elapsed() < QUICK,
        "{args:?}: {:?}",
        started.elapsed()
    );
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

/// A settings file whose white keyword is also black (so the lint quotes
/// it), the keyword being [`HOSTILE`] in lower case.
fn shadowed_settings(dir: &Path) -> PathBuf {
    let path = dir.join("shadowed.json");
    let keyword = format!("x{}", IN_JSON.to_lowercase());
    std::fs::write(
        &path,
        format!(
            r#"{{"followKeywordsWhite": ["contact", "{keyword}"], "followKeywordsBlack": ["{keyword}"]}}"#
        ),
    )
    .expect("written");
    path
}

/// A live crawl of a start page and its `/contact`, saved with the shadowed
/// settings; then `/contact`'s page record is given [`HOSTILE`] as its
/// `error` (its `Content-Length` mended), as a hostile archive would.
fn archive_with_hostile_error(dir: &Path) -> (PathBuf, String) {
    let server = Server::start(
        |_| {
            [
                (
                    "acme.test/".to_owned(),
                    Route::html("<a href=\"/contact\">Contact</a>"),
                ),
                (
                    "acme.test/contact".to_owned(),
                    Route::html("<p>contact</p>"),
                ),
            ]
            .into_iter()
            .collect()
        },
        Duration::ZERO,
    );
    let archive = dir.join("capture.warc");
    let settings = shadowed_settings(dir);
    let start = format!("http://acme.test:{}/", server.port);
    let mut args = vec![
        "inspect".to_owned(),
        start.clone(),
        "--settings".to_owned(),
        settings.display().to_string(),
        "--save-warc".to_owned(),
        archive.display().to_string(),
    ];
    args.extend(server.resolve_args(&["acme.test"]));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let live = quick(&refs);
    assert!(live.status.success(), "{}", text(&live.stderr));

    let mut bytes = std::fs::read(&archive).expect("saved");
    let key = b"\"error\":null";
    let at = bytes
        .windows(key.len())
        .rposition(|w| w == key)
        .expect("the last page's record")
        + key.len()
        - b"null".len();
    let value = format!("\"{IN_JSON}\"");
    let delta = value.len() as i64 - 4;
    bytes.splice(at..at + 4, value.bytes());
    let field = b"Content-Length: ";
    let length_at = bytes[..at]
        .windows(field.len())
        .rposition(|w| w == field)
        .expect("the page record's length")
        + field.len();
    let digits = bytes[length_at..]
        .iter()
        .position(|b| !b.is_ascii_digit())
        .expect("digits");
    let old: i64 = text(&bytes[length_at..length_at + digits])
        .parse()
        .expect("a length");
    bytes.splice(
        length_at..length_at + digits,
        (old + delta).to_string().bytes(),
    );
    std::fs::write(&archive, bytes).expect("written");
    (archive, format!("{start}contact"))
}

#[test]
fn an_archives_page_error_and_quoted_keywords_reach_the_terminal_escaped() {
    let dir = temp_dir("terminal-archive");
    let (archive, failed) = archive_with_hostile_error(&dir);
    let archive = archive.display().to_string();

    // The table of the reopened archive: the page's error, and the lint
    // quoting the archive's own keyword.
    let out = quick(&["inspect", &archive]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(acted_on(&out.stdout, true), NONE, "{}", text(&out.stdout));
    assert_eq!(acted_on(&out.stderr, false), NONE, "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.contains(&format!("failed: {SHOWN}")), "{table}");
    let keyword = format!("`x{}`", SHOWN.to_lowercase());
    assert!(table.contains("[black_shadows_white]"), "{table}");
    assert!(table.contains(&keyword), "{table}");

    // Opened at the failed page: the error is the run's one stderr line.
    let out = quick(&["inspect", &archive, "--base-url", &failed]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert_eq!(
        acted_on(&out.stderr, false),
        NONE,
        "{:?}",
        text(&out.stderr)
    );
    let err = text(&out.stderr);
    let error_line: Vec<&str> = err.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(error_line.len(), 1, "{err}");
    assert!(error_line[0].contains(SHOWN), "{err}");

    // JSON keeps the text exact, written with every such character escaped.
    let out = quick(&["inspect", &archive, "--format", "json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(acted_on(&out.stdout, false), NONE, "{}", text(&out.stdout));
    let json = text(&out.stdout);
    assert!(json.contains(IN_JSON), "{json}");
    let report = crate::parse_json(&json);
    assert_eq!(report["pages"][1]["error"], HOSTILE);
}

#[test]
fn a_settings_files_keyword_in_the_lint_is_escaped_in_table_and_json() {
    let dir = temp_dir("terminal-settings");
    let page = write(&dir, "page.html", b"<a href=\"/contact\">Contact</a>");
    let settings = shadowed_settings(&dir);
    let (page, settings) = (page.display().to_string(), settings.display().to_string());
    let base = ["--base-url", "https://acme.test/", "--settings", &settings];
    let table = quick(&[&["inspect", &page][..], &base].concat());
    assert!(table.status.success(), "{}", text(&table.stderr));
    assert_eq!(
        acted_on(&table.stdout, true),
        NONE,
        "{}",
        text(&table.stdout)
    );
    let keyword = format!("`x{}`", SHOWN.to_lowercase());
    assert!(
        text(&table.stdout).contains(&keyword),
        "{}",
        text(&table.stdout)
    );

    let json = quick(&[&["inspect", &page][..], &base, &["--format", "json"]].concat());
    assert!(json.status.success(), "{}", text(&json.stderr));
    assert_eq!(
        acted_on(&json.stdout, false),
        NONE,
        "{}",
        text(&json.stdout)
    );
    let report = crate::parse_json(&text(&json.stdout));
    let message = report["lints"][0]["message"].as_str().expect("a lint");
    assert!(
        message.contains(&format!("x{}", HOSTILE.to_lowercase())),
        "{message}"
    );
}

/// Link text with the hostile characters in every format: the table and CSV
/// show them escaped, JSON as `\uXXXX`, and JSON still reads back exact.
#[test]
fn link_text_is_escaped_in_csv_and_json() {
    let dir = temp_dir("terminal-formats");
    let html = format!("<a href=\"/contact\">Con{HOSTILE}tact</a><a href=\"/x\">=1+{HOSTILE}</a>");
    let page = write(&dir, "page.html", html.as_bytes())
        .display()
        .to_string();
    let run = |format: &str| {
        let out = quick(&[
            "inspect",
            &page,
            "--base-url",
            "https://acme.test/",
            "--format",
            format,
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        out.stdout
    };

    let table = run("table");
    assert_eq!(acted_on(&table, true), NONE, "{}", text(&table));
    // Cut to the column, the escaped form is what is measured and shown.
    assert!(
        text(&table).contains("Con\\u{1b}]0;pwned\\u"),
        "{}",
        text(&table)
    );

    let csv_bytes = run("csv");
    assert_eq!(acted_on(&csv_bytes, false), NONE, "{}", text(&csv_bytes));
    let mut reader = csv::Reader::from_reader(csv_bytes.as_slice());
    let texts: Vec<String> = reader
        .records()
        .map(|r| r.expect("a record")[11].to_owned())
        .collect();
    // Escaped, and a formula still neutralised first.
    assert_eq!(texts, [format!("Con{SHOWN}tact"), format!("'=1+{SHOWN}")]);

    let json = run("json");
    assert_eq!(acted_on(&json, false), NONE, "{}", text(&json));
    assert!(
        text(&json).contains(&format!("Con{IN_JSON}tact")),
        "{}",
        text(&json)
    );
    let report = crate::parse_json(&text(&json));
    assert_eq!(
        report["pages"][0]["links"][0]["text"],
        format!("Con{HOSTILE}tact")
    );
}

#[test]
fn an_archives_file_name_is_escaped_in_corpus_lines_and_warnings() {
    let dir = temp_dir("terminal-archive-name");
    let folder = dir.join("archives");
    std::fs::create_dir_all(&folder).expect("a folder");
    // A good page, then a record that claims more than the file holds.
    let lying = text(&record(
        "response",
        &[("WARC-Target-URI", "https://lying.test/")],
        b"HTTP/1.1 200 OK\r\n\r\n",
    ))
    .replace("Content-Length: 19", "Content-Length: 999999");
    let good = html_response("https://good.test/", "<a href=\"/contact\">Contact</a>");
    let name = format!("cap{HOSTILE}.warc");
    write(
        &folder,
        &name,
        &[warcinfo(), good, lying.into_bytes()].concat(),
    );
    let folder = folder.display().to_string();
    for format in ["table", "csv", "json"] {
        let args: Vec<String> = ["corpus", &folder, "--format", format]
            .map(str::to_owned)
            .to_vec();
        let started = Instant::now();
        let m = run_measured(&args);
        assert!(started.elapsed() < QUICK, "{:?}", started.elapsed());
        assert!(m.peak_kib < PEAK_LIMIT_KIB, "peak {} KiB", m.peak_kib);
        assert!(m.status.success(), "{}", m.stderr);
        assert_eq!(acted_on(m.stderr.as_bytes(), false), NONE, "{:?}", m.stderr);
        assert!(
            m.stderr
                .contains(&format!("warning: {folder}/cap{SHOWN}.warc at offset")),
            "{}",
            m.stderr
        );
        let layout = format == "table";
        assert_eq!(acted_on(m.stdout.as_bytes(), layout), NONE, "{}", m.stdout);
        let shown = match format {
            "json" => IN_JSON,
            _ => SHOWN,
        };
        // CSV has a line per page, no file names.
        if format != "csv" {
            assert!(
                m.stdout.contains(&format!("cap{shown}.warc")),
                "{}",
                m.stdout
            );
        }
    }
}

#[test]
fn a_targets_files_cells_are_escaped_in_its_warnings() {
    let dir = temp_dir("terminal-targets");
    let pages = dir.join("pages");
    std::fs::create_dir_all(&pages).expect("a folder");
    write(&pages, "001.html", b"<a href=\"/contact\">Contact</a>");
    let targets = write(
        &dir,
        "targets.tsv",
        format!(
            "id\turl\tkind\n\
             001\thttps://acme.test/contact\tco{HOSTILE}ntact\n\
             0{HOSTILE}2\thttps://acme.test/contact\tcontact\n"
        )
        .as_bytes(),
    );
    let out = quick(&[
        "corpus",
        &pages.display().to_string(),
        "--targets",
        &targets.display().to_string(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        acted_on(&out.stderr, false),
        NONE,
        "{:?}",
        text(&out.stderr)
    );
    assert_eq!(acted_on(&out.stdout, true), NONE, "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(err.contains(&format!("`co{SHOWN}ntact`")), "{err}");
    assert!(err.contains(&format!("`0{SHOWN}2`")), "{err}");
}

/// A warning or error line cannot be split in two by a line break in a name.
#[test]
fn a_line_break_in_a_name_stays_inside_its_stderr_line() {
    let dir = temp_dir("terminal-newline");
    let missing = dir.join("no\nerror: forged.html");
    let out = quick(&["inspect", &missing.display().to_string()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no\\u{a}error: forged.html"), "{err}");
}

/// `corpus --format partial` into a closed pipe, and a config folder that
/// cannot be made: each OS error said once.
#[test]
fn an_os_error_is_said_once() {
    let dir = temp_dir("terminal-os-error");
    let pages = dir.join("pages");
    std::fs::create_dir_all(&pages).expect("a folder");
    write(&pages, "001.html", b"<a href=\"/contact\">Contact</a>");
    let mut child = Command::new(env!("CARGO_BIN_EXE_follow-inspector"))
        .args([
            "corpus",
            &pages.display().to_string(),
            "--format",
            "partial",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let started = Instant::now();
    let out = child.wait_with_output().expect("its output");
    assert!(started.elapsed() < QUICK, "{:?}", started.elapsed());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        "error: cannot write the partial result: Broken pipe (os error 32)\n"
    );

    let file = write(&dir, "a-file", b"x");
    let config = file.join("config");
    let out = quick(&[
        "--config-dir",
        &config.display().to_string(),
        "profiles",
        "list",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err.matches("Not a directory (os error 20)").count(),
        1,
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn an_archives_file_name_is_escaped_in_the_unit_list_and_read_back_as_listed() {
    let dir = temp_dir("terminal-unit-list");
    let folder = dir.join("archives");
    std::fs::create_dir_all(&folder).expect("a folder");
    let page = |url: &str| {
        [
            warcinfo(),
            html_response(url, "<a href=\"/contact\">Contact</a>"),
        ]
        .concat()
    };
    write(&folder, "a.warc", &page("https://a.test/"));
    // A tab and a line break too: they would split the `J<TAB>NAME` line.
    write(
        &folder,
        &format!("b{HOSTILE}\tx\ny.warc"),
        &page("https://b.test/"),
    );
    let folder = folder.display().to_string();
    let listed = quick(&["corpus", &folder, "--list-units"]);
    assert!(listed.status.success(), "{}", text(&listed.stderr));
    assert_eq!(
        acted_on(&listed.stdout, true),
        NONE,
        "{:?}",
        text(&listed.stdout)
    );
    let listing = text(&listed.stdout);
    assert_eq!(
        listing.lines().collect::<Vec<_>>(),
        [
            format!("0\t{folder}/a.warc"),
            format!("1\t{folder}/b{SHOWN}\\u{{9}}x\\u{{a}}y.warc"),
        ]
    );
    // The list comes back on stdin as a scheduler hands it: both units taken.
    let mut child = Command::new(env!("CARGO_BIN_EXE_follow-inspector"))
        .args(["corpus", &folder, "--format", "partial", "--shard", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("its stdin");
    std::io::Write::write_all(&mut stdin, listing.as_bytes()).expect("the list written");
    drop(stdin);
    let started = Instant::now();
    let out = child.wait_with_output().expect("its output");
    assert!(started.elapsed() < QUICK, "{:?}", started.elapsed());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let partial = text(&out.stdout);
    assert!(partial.contains("https://a.test/"), "{partial}");
    assert!(partial.contains("https://b.test/"), "{partial}");
}
