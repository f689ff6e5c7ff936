//! Output a terminal or a spreadsheet trusts: link text with escape
//! sequences is shown escaped in the table, CSV cells that a spreadsheet
//! would run as formulas are neutralised, JSON stays exact, and profile
//! names with control characters are refused.

use serde_json::Value;

use crate::hostile_files::run_bounded;
use crate::temp_dir;

const PAGE: &str = "<a href=/contact>\u{1b}]0;pwned\u{7}\u{1b}[2JContact</a>\
    <a href=/about>=HYPERLINK(\"http://evil.test\",\"About\")</a>\
    <a href=/team>+team</a><a href=/impressum>-impressum</a>\
    <a href=/company>@company</a>";

fn page(format: &str) -> String {
    let dir = temp_dir(&format!("output-{format}"));
    let path = dir.join("evil.html");
    std::fs::write(&path, PAGE).expect("written");
    path.to_string_lossy().into_owned()
}

fn inspect(format: &str) -> Vec<u8> {
    let page = page(format);
    let out = run_bounded(&[
        "inspect",
        &page,
        "--base-url",
        "https://acme.test/",
        "--format",
        format,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn the_table_shows_control_characters_escaped() {
    let table = String::from_utf8(inspect("table")).expect("UTF-8");
    assert!(
        !table.contains('\u{1b}') && !table.contains('\u{7}'),
        "{table:?}"
    );
    assert!(table.contains("\\u{1b}]0;pwned\\u{7}"), "{table}");
}

#[test]
fn csv_cells_that_would_be_formulas_are_neutralised() {
    let csv_bytes = inspect("csv");
    let mut reader = csv::Reader::from_reader(csv_bytes.as_slice());
    let texts: Vec<String> = reader
        .records()
        .map(|r| r.expect("a record")[11].to_owned())
        .collect();
    assert_eq!(
        texts[1..],
        [
            "'=HYPERLINK(\"http://evil.test\",\"About\")",
            "'+team",
            "'-impressum",
            "'@company",
        ]
    );
    // Escape sequences are shown, as in the table (`hostile_terminal`).
    assert!(
        texts[0].starts_with("\\u{1b}]0;pwned\\u{7}"),
        "{:?}",
        texts[0]
    );
}

#[test]
fn json_keeps_the_text_exact() {
    let report: Value = serde_json::from_slice(&inspect("json")).expect("JSON");
    let links = report["pages"][0]["links"].as_array().expect("links");
    assert_eq!(links[0]["text"], "\u{1b}]0;pwned\u{7}\u{1b}[2JContact");
    assert_eq!(links[2]["text"], "+team");
}

#[test]
fn profile_names_with_control_characters_are_refused() {
    let dir = temp_dir("names");
    let export = crate::repo_path("tests/fixtures/settings-export.json");
    let config = dir.join("config");
    for name in ["evil\u{1b}]0;pwned\u{7}", "two\nlines"] {
        for replace in [false, true] {
            let mut args = vec![
                "--config-dir",
                config.to_str().expect("UTF-8"),
                "profiles",
                "import",
                export.to_str().expect("UTF-8"),
                "--name",
                name,
            ];
            if replace {
                args.push("--replace");
            }
            let out = run_bounded(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{err}");
            assert!(err.contains("cannot contain control characters"), "{err}");
            assert!(
                !err.contains('\u{1b}') && err.trim().lines().count() == 1,
                "{err:?}"
            );
        }
    }
}

#[test]
fn a_stored_name_with_control_characters_is_listed_escaped() {
    let dir = temp_dir("stored-name");
    let config = dir.join("config");
    std::fs::create_dir_all(&config).expect("a folder");
    // As a file written before such names were refused could hold it.
    std::fs::write(
        config.join("profiles.toml"),
        "[profiles.\"evil\\u001b[2J\"]\nfollowSubdomain = true\n",
    )
    .expect("written");
    let out = run_bounded(&[
        "--config-dir",
        config.to_str().expect("UTF-8"),
        "profiles",
        "list",
    ]);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(listed.contains("evil\\u{1b}[2J"), "{listed:?}");
    assert!(!listed.contains('\u{1b}'), "{listed:?}");
}
