//! `scripts/spark-corpus`: the corpus run sharded on Spark (local mode) prints
//! the report of the single run, byte for byte, in every format. Needs Java
//! and pyspark (`FOLLOW_INSPECTOR_SPARK_PYTHON` names a Python that has it);
//! without them it prints SKIPPED, unless `FOLLOW_INSPECTOR_REQUIRE_SPARK=1`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::hostile_writes::names;
use crate::temp_dir;
use crate::warc_files::{
    captured_page, html_response, http_response, per_record_gzip, record, warcinfo, write,
};
use crate::{parse_json, repo_path, run_owned, stderr, stdout};

const BINARY: &str = env!("CARGO_BIN_EXE_follow-inspector");

/// The Python that runs the script, or None (SKIPPED) when it or Java is missing.
fn spark_python() -> Option<String> {
    let python =
        std::env::var("FOLLOW_INSPECTOR_SPARK_PYTHON").unwrap_or_else(|_| "python3".into());
    let works = |program: &str, args: &[&str]| {
        Command::new(program)
            .args(args)
            .output()
            .is_ok_and(|out| out.status.success())
    };
    let java = works("java", &["-version"]);
    let pyspark = works(&python, &["-c", "import pyspark"]);
    if java && pyspark {
        return Some(python);
    }
    let missing = if java { "pyspark" } else { "Java" };
    assert!(
        std::env::var("FOLLOW_INSPECTOR_REQUIRE_SPARK").as_deref() != Ok("1"),
        "FOLLOW_INSPECTOR_REQUIRE_SPARK=1 but {missing} is missing (python: {python})"
    );
    println!("SKIPPED: spark-corpus tests ({missing} missing; python: {python})");
    None
}

/// A company home page: links the scraper follows, ranks out, blacklists,
/// and one to a shop on a subdomain (followed only in subdomain mode).
fn page(host: &str, i: usize) -> String {
    format!(
        "<!doctype html><html><head><title>Company {i}</title></head><body>\
         <nav><a href=\"/about/\">About us</a><a href=\"/blog/\">Blog</a>\
         <a href=\"/products/\">Products</a><a href=\"/team\">Our team</a></nav>\
         <main><a href=\"/news/{i}\">News {i}</a><a href=\"/careers\">Careers</a></main>\
         <footer><a href=\"https://shop.{host}/kontakt\">Ihr Kontakt</a>\
         <a href=\"/impressum\">Impressum</a><a href=\"https://partner.example/\">Partner</a>\
         </footer></body></html>"
    )
}

fn url(i: usize) -> String {
    format!("https://www.company{i}.test/")
}

/// Page `i`'s records, as Common Crawl has them.
fn page_records(i: usize) -> Vec<Vec<u8>> {
    captured_page(&url(i), &page(&format!("www.company{i}.test"), i))
}

/// Two archives, `a.warc.gz` (per-record gzip) and `b.warc` (plain): seven
/// pages, an image and a 404 in the first, a revisit and the first's first
/// page again (a duplicate across files) in the second; and a targets file
/// with a row for a page that is in neither (a warning).
fn two_archives(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let mut first = vec![warcinfo()];
    first.extend((0..4).flat_map(page_records));
    first.push(record(
        "response",
        &[("WARC-Target-URI", "https://www.company1.test/logo.png")],
        &http_response(200, &[("Content-Type", "image/png")], b"\x89PNG"),
    ));
    first.push(record(
        "response",
        &[("WARC-Target-URI", "https://www.company2.test/gone")],
        &http_response(404, &[("Content-Type", "text/html")], b"<p>gone</p>"),
    ));
    let mut second = vec![warcinfo()];
    second.extend((4..7).flat_map(page_records));
    second.push(record(
        "revisit",
        &[("WARC-Target-URI", &url(5))],
        &http_response(200, &[("Content-Type", "text/html")], b""),
    ));
    second.push(html_response(&url(0), &page("www.company0.test", 99)));
    let a = write(dir, "a.warc.gz", &per_record_gzip(&first));
    let b = write(dir, "b.warc", &second.concat());
    let mut targets = String::from("id\turl\tkind\n");
    // The imprint is found; the shop's contact page, on odd pages the only
    // target, is missed: suggestions.
    for i in 0..7 {
        let home = url(i);
        if i % 2 == 0 {
            targets.push_str(&format!("{home}\t{home}impressum\timprint\n"));
        }
        let shop = format!("https://shop.www.company{i}.test/kontakt");
        targets.push_str(&format!("{home}\t{shop}\tcontact\n"));
    }
    targets.push_str("https://absent.test/\thttps://absent.test/contact\tcontact\n");
    let targets = write(dir, "targets.tsv", targets.as_bytes());
    (a, b, targets)
}

/// `corpus`'s own arguments for the two archives, with B and the targets.
fn corpus_args(dir: &Path, format: &str) -> Vec<String> {
    let (a, b, targets) = two_archives(dir);
    let tuned = repo_path("tests/fixtures/settings-tuned.json");
    [
        a.as_path(),
        b.as_path(),
        Path::new("--against-settings"),
        tuned.as_path(),
        Path::new("--targets"),
        targets.as_path(),
        // Six links a page: the shop's is followed in subdomain mode.
        Path::new("--depth"),
        Path::new("3"),
        Path::new("--format"),
        Path::new(format),
    ]
    .iter()
    .map(|p| p.display().to_string())
    .collect()
}

/// `python scripts/spark-corpus --binary BIN SCRIPT_ARGS… -- CORPUS_ARGS…`.
fn spark_corpus(python: &str, binary: &str, script_args: &[&str], corpus: &[String]) -> Output {
    Command::new(python)
        .arg(repo_path("scripts/spark-corpus"))
        .args(["--binary", binary])
        .args(script_args)
        .arg("--")
        .args(corpus)
        .output()
        .expect("the script runs")
}

/// The single run, which must succeed.
fn single_run(corpus: &[String]) -> Output {
    let mut args = vec!["corpus".to_string()];
    args.extend_from_slice(corpus);
    let out = run_owned(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    out
}

/// Every line the single run warned about is on the Spark run's stderr too.
fn assert_same_warnings(single: &Output, sharded: &Output) {
    let warnings = stderr(single);
    assert!(warnings.contains("https://absent.test/"), "{warnings}");
    let sharded = stderr(sharded);
    for line in warnings.lines() {
        assert!(
            sharded.contains(line),
            "missing warning {line:?} in:\n{sharded}"
        );
    }
}

#[test]
fn the_report_of_a_spark_run_is_the_single_runs_in_every_format() {
    let Some(python) = spark_python() else {
        return;
    };
    let dir = temp_dir("spark-formats");

    // JSON, on Spark's default two partitions: one archive each.
    let args = corpus_args(&dir, "json");
    let single = single_run(&args);
    let sharded = spark_corpus(&python, BINARY, &[], &args);
    assert_eq!(sharded.status.code(), Some(0), "{}", stderr(&sharded));
    assert_eq!(stdout(&sharded), stdout(&single));
    assert_same_warnings(&single, &sharded);
    let report = parse_json(&stdout(&sharded));
    assert_eq!(report["pages"].as_array().unwrap().len(), 7);
    assert_eq!(report["archives"]["skipped"]["duplicate"], 1);
    assert!(report["summary"]["changed_links"].as_u64().unwrap() > 0);
    assert!(
        !report["evaluation"]["suggestions"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    // The table, on three partitions (one of them empty), the binary shipped
    // to the executors and the report written to a file.
    let args = corpus_args(&dir, "table");
    let single = single_run(&args);
    let report = dir.join("report.txt");
    let report_arg = report.display().to_string();
    let shipped = ["--shards", "3", "--ship", "--output", &report_arg];
    let sharded = spark_corpus(&python, BINARY, &shipped, &args);
    assert_eq!(sharded.status.code(), Some(0), "{}", stderr(&sharded));
    assert_eq!(stdout(&sharded), "");
    assert_eq!(std::fs::read(&report).unwrap(), single.stdout);
    assert_same_warnings(&single, &sharded);

    // CSV, one partition whose partial result is kept in a folder;
    // `--format=csv` is taken out for the shards too.
    let mut args = corpus_args(&dir, "csv");
    let format = args.split_off(args.len() - 2);
    args.push(format.join("="));
    let single = single_run(&args);
    let partials = dir.join("partials");
    let kept = ["--shards", "1", "--partials", partials.to_str().unwrap()];
    let sharded = spark_corpus(&python, BINARY, &kept, &args);
    assert_eq!(sharded.status.code(), Some(0), "{}", stderr(&sharded));
    assert_eq!(stdout(&sharded), stdout(&single));
    // The folder's partial result merges again, in another format.
    let json = corpus_args(&dir, "json");
    let part = partials.join("shard-00000.partial").display().to_string();
    let merged = run_owned(&[
        "corpus".into(),
        "merge".into(),
        part,
        "--format".into(),
        "json".into(),
    ]);
    assert_eq!(stdout(&merged), stdout(&single_run(&json)));
}

#[test]
fn a_failing_shard_is_told_with_its_error_and_no_report() {
    let Some(python) = spark_python() else {
        return;
    };
    let dir = temp_dir("spark-failing");
    // The binary as itself, except that a shard's run fails.
    let wrapper = write(
        &dir,
        "failing-shards",
        format!(
            "#!/bin/sh\ncase \"$*\" in *--shard*) echo 'error: the disk went away' >&2; exit 2;; \
             esac\nexec '{BINARY}' \"$@\"\n"
        )
        .as_bytes(),
    );
    let mut permissions = std::fs::metadata(&wrapper).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&wrapper, permissions).unwrap();
    let args = corpus_args(&dir, "json");
    let out = spark_corpus(&python, wrapper.to_str().unwrap(), &[], &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert!(err.contains("spark-corpus: shard 0 failed on "), "{err}");
    assert!(err.contains("error: the disk went away"), "{err}");
    assert!(
        err.contains("spark-corpus: 2 of 2 shards failed; no report"),
        "{err}"
    );
}

/// The Python for the script's own checks, which fail before Spark starts:
/// any Python 3 does.
fn any_python() -> String {
    std::env::var("FOLLOW_INSPECTOR_SPARK_PYTHON").unwrap_or_else(|_| "python3".into())
}

#[test]
fn a_bad_output_or_partials_is_refused_before_spark_starts_and_nothing_is_left() {
    let python = any_python();
    let dir = temp_dir("spark-bad-output");
    let outside = temp_dir("spark-bad-output-target");
    let victim = write(&outside, "victim.json", b"precious");
    let link = dir.join("report.json");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let folder = dir.join("reports");
    std::fs::create_dir(&folder).unwrap();
    let not_a_folder = write(&dir, "partials", b"");
    let input = dir.join("none.warc").display().to_string();
    let cases: [(&[&str], String); 4] = [
        (
            &["--output", folder.to_str().unwrap()],
            format!(
                "cannot write --output {}: it is a folder, not a file",
                folder.display()
            ),
        ),
        (
            &["--output", link.to_str().unwrap()],
            format!(
                "cannot write --output {}: it is a symbolic link (to {}), which is not followed",
                link.display(),
                victim.display()
            ),
        ),
        (
            &["--output", "/no/such/folder/report.json"],
            "cannot write --output /no/such/folder/report.json: /no/such/folder is not a \
             folder this user can write in"
                .into(),
        ),
        (
            &["--partials", not_a_folder.to_str().unwrap()],
            format!(
                "cannot use --partials {}: it is not a folder",
                not_a_folder.display()
            ),
        ),
    ];
    for (args, message) in cases {
        let started = std::time::Instant::now();
        let out = spark_corpus(&python, BINARY, args, std::slice::from_ref(&input));
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(stderr(&out), format!("spark-corpus: {message}\n"));
        assert_eq!(stdout(&out), "");
    }
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert!(names(&folder).is_empty());
    assert_eq!(names(&dir), ["partials", "report.json", "reports"]);
}

#[test]
fn a_hung_shard_is_stopped_at_the_timeout_and_its_units_are_named() {
    let Some(python) = spark_python() else {
        return;
    };
    let dir = temp_dir("spark-hung");
    // The binary as itself, except that a shard's run never ends.
    let wrapper = write(
        &dir,
        "hung-shards",
        format!(
            "#!/bin/sh\ncase \"$*\" in *--shard*) exec sleep 600;; esac\nexec '{BINARY}' \"$@\"\n"
        )
        .as_bytes(),
    );
    let mut permissions = std::fs::metadata(&wrapper).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&wrapper, permissions).unwrap();
    let args = corpus_args(&dir, "json");
    let started = std::time::Instant::now();
    let out = spark_corpus(
        &python,
        wrapper.to_str().unwrap(),
        &["--shard-timeout", "2"],
        &args,
    );
    // Spark's start and stop take ~6-20 s; the hung shards 2 s each, in parallel.
    assert!(started.elapsed().as_secs() < 120, "{:?}", started.elapsed());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    let stopped = "it ran longer than --shard-timeout 2 s and was stopped; its units: ";
    assert!(
        err.contains(&format!("{stopped}{}\n", dir.join("a.warc.gz").display())),
        "{err}"
    );
    assert!(
        err.contains(&format!("{stopped}{}\n", dir.join("b.warc").display())),
        "{err}"
    );
    assert!(
        err.contains("spark-corpus: 2 of 2 shards failed; no report"),
        "{err}"
    );
}

#[test]
fn a_tmpdir_with_a_space_and_a_quote_starts_spark_and_the_report_has_the_umasks_mode() {
    let Some(python) = spark_python() else {
        return;
    };
    let dir = temp_dir("spark-tmpdir");
    let tmpdir = dir.join("t m'p\"");
    std::fs::create_dir(&tmpdir).unwrap();
    let args = corpus_args(&dir, "json");
    let single = single_run(&args);
    let reports = dir.join("reports");
    std::fs::create_dir(&reports).unwrap();
    let report = reports.join("report.json");
    let out = Command::new("sh")
        .args(["-c", "umask 027 && exec \"$0\" \"$@\""])
        .arg(&python)
        .arg(repo_path("scripts/spark-corpus"))
        .args(["--binary", BINARY, "--output"])
        .arg(&report)
        .arg("--")
        .args(&args)
        .env("TMPDIR", &tmpdir)
        .output()
        .expect("the script runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read(&report).unwrap(), single.stdout);
    let mode = std::os::unix::fs::PermissionsExt::mode(&report.metadata().unwrap().permissions());
    assert_eq!(mode & 0o777, 0o640, "{mode:o}");
    assert_eq!(names(&reports), ["report.json"]);
}
