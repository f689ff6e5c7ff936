//! `profiles …` and `inspect --profile`, always in a temporary `--config-dir`.

use std::process::Command;

use serde_json::Value;

use crate::{repo_path, run, run_json, stderr, stdout, temp_dir};

fn with_dir(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["--config-dir", dir.to_str().unwrap()];
    all.extend(args);
    run(&all)
}

#[test]
fn import_list_show_export_delete() {
    let dir = temp_dir("roundtrip");
    let export = repo_path("tests/fixtures/settings-export.json");
    let out = with_dir(
        &dir,
        &[
            "profiles",
            "import",
            export.to_str().unwrap(),
            "--name",
            "ACME ticket 4411",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("ignored keys (not follow settings): language, maxPages"),
        "{err}"
    );
    assert!(
        err.contains("missing keys, given the defaults: followKeywordsBlack, followSkipAssets"),
        "{err}"
    );

    let list = stdout(&with_dir(&dir, &["profiles", "list"]));
    assert_eq!(
        list,
        "* Scraper defaults  (built in, read-only)\n  ACME ticket 4411\n"
    );

    let show = stdout(&with_dir(&dir, &["profiles", "show", "ACME ticket 4411"]));
    assert!(
        show.contains("followSubdomain = true  (changed from the defaults)"),
        "{show}"
    );
    assert!(show.contains("followSkipAssets = true\n"), "{show}");

    let exported: Value = serde_json::from_str(&stdout(&with_dir(
        &dir,
        &["profiles", "export", "ACME ticket 4411"],
    )))
    .unwrap();
    assert_eq!(exported.as_object().unwrap().len(), 5);
    assert_eq!(exported["followKeywordsWhite"], "kontakt,impressum,about");
    assert_eq!(exported["followAllowedDomains"], "acmecorp.test");

    // Importing the same name again is refused unless replacing.
    let again = with_dir(
        &dir,
        &[
            "profiles",
            "import",
            export.to_str().unwrap(),
            "--name",
            "acme TICKET 4411",
        ],
    );
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("already exists"));

    let out = with_dir(&dir, &["profiles", "delete", "ACME ticket 4411"]);
    assert!(out.status.success());
    let out = with_dir(&dir, &["profiles", "delete", "Scraper defaults"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("read-only"));
}

#[test]
fn inspect_uses_a_profile_and_the_environment_variable_names_the_folder() {
    let dir = temp_dir("inspect");
    let export = repo_path("tests/fixtures/settings-export.json");
    let out = Command::new(env!("CARGO_BIN_EXE_follow-inspector"))
        .env("FOLLOW_INSPECTOR_CONFIG_DIR", &dir)
        .args([
            "profiles",
            "import",
            export.to_str().unwrap(),
            "--name",
            "acme",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let demo = repo_path("assets/demo/acme-home.html");
    let r = run_json(&[
        "--config-dir",
        dir.to_str().unwrap(),
        "inspect",
        demo.to_str().unwrap(),
        "--profile",
        "acme",
    ]);
    assert_eq!(r["settings"]["followSubdomain"], true);
    assert_eq!(r["settings"]["followAllowedDomains"], "acmecorp.test");

    let missing = with_dir(
        &dir,
        &["inspect", demo.to_str().unwrap(), "--profile", "nope"],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("no profile named “nope”"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn a_corrupted_profiles_file_is_kept_aside_and_reported() {
    let dir = temp_dir("corrupt");
    std::fs::write(dir.join("profiles.toml"), "[[[ not toml").unwrap();
    let out = with_dir(&dir, &["profiles", "list"]);
    assert!(out.status.success());
    assert!(
        stderr(&out).contains("could not be read"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "* Scraper defaults  (built in, read-only)\n");
    let kept = kept_aside(&dir);
    assert_eq!(kept.len(), 1);
    assert_eq!(std::fs::read_to_string(&kept[0]).unwrap(), "[[[ not toml");
}

#[test]
fn a_profiles_file_that_is_not_utf8_is_kept_aside_and_the_cli_goes_on() {
    let dir = temp_dir("not-utf8");
    let bytes = b"active = \"caf\xe9\"\n".to_vec();
    std::fs::write(dir.join("profiles.toml"), &bytes).unwrap();
    let out = with_dir(&dir, &["profiles", "list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("not UTF-8"), "{}", stderr(&out));
    assert_eq!(stdout(&out), "* Scraper defaults  (built in, read-only)\n");
    let kept = kept_aside(&dir);
    assert_eq!(kept.len(), 1);
    assert_eq!(std::fs::read(&kept[0]).unwrap(), bytes);
}

#[test]
fn one_damaged_profile_is_left_out_and_inspect_goes_on_with_the_others() {
    let dir = temp_dir("one-damaged");
    let original = "[profiles.good]\nfollowSubdomain = true\n\n\
                    [profiles.typo]\nfollowKeywordsWhite = 42\n";
    std::fs::write(dir.join("profiles.toml"), original).unwrap();
    let out = with_dir(&dir, &["profiles", "list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("“typo”") && err.contains("followKeywordsWhite"),
        "{err}"
    );
    assert!(stdout(&out).contains("good"), "{}", stdout(&out));
    assert!(!stdout(&out).contains("typo"), "{}", stdout(&out));
    let kept = kept_aside(&dir);
    assert_eq!(kept.len(), 1);
    assert_eq!(std::fs::read_to_string(&kept[0]).unwrap(), original);

    let demo = repo_path("assets/demo/acme-home.html");
    let args = [
        "--config-dir",
        dir.to_str().unwrap(),
        "inspect",
        demo.to_str().unwrap(),
        "--profile",
        "good",
    ];
    let report = run_json(&args);
    assert_eq!(report["settings"]["followSubdomain"], true);
}

#[test]
fn import_replace_keeps_names_unique_ignoring_case() {
    let dir = temp_dir("replace-case");
    let export = repo_path("tests/fixtures/settings-export.json");
    let file = export.to_str().unwrap();
    let import = |name: &str, extra: &[&str]| {
        let mut args = vec!["profiles", "import", file, "--name", name];
        args.extend(extra);
        let out = with_dir(&dir, &args);
        assert!(out.status.success(), "{}", stderr(&out));
    };
    import("acme", &[]);
    import("ACME", &["--replace"]);
    let out = with_dir(&dir, &["profiles", "list"]);
    let listed = stdout(&out);
    assert!(
        listed.contains("ACME") && !listed.contains("acme\n"),
        "{listed}"
    );
    assert_eq!(listed.lines().count(), 2, "{listed}");
}

/// The copies of a damaged profiles file set aside in `dir`.
fn kept_aside(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("profiles.corrupt-")
        })
        .map(|e| e.path())
        .collect()
}
