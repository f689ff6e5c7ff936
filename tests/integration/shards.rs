//! A sharded corpus run (issue 22): `corpus … --format partial --shard I/N`
//! for every I, then `corpus merge` of the shards' lines in any order, prints
//! the very bytes of the unsharded run in every format, warnings included,
//! over the real corpus and over generated web archives; and a merge that
//! lacks a shard, has one twice, or mixes runs says so and exits 2.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::temp_dir;
use crate::warc_files::{
    captured_page, gzip_member, html_response, http_response, per_record_gzip, record, warcinfo,
    write,
};
use crate::{repo_path, run_owned, run_read_then_closed, stderr};

const SHARD_COUNTS: [usize; 4] = [1, 2, 3, 7];
const FORMATS: [&str; 3] = ["json", "table", "csv"];

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_follow-inspector"))
}

/// `follow-inspector ARGS` with `stdin` on its standard input.
fn run_with_input(args: &[String], stdin: &[u8]) -> Output {
    let mut child = binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("a stdin pipe")
        .write_all(stdin)
        .expect("stdin takes the lines");
    child.wait_with_output().expect("the binary ends")
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_owned()).collect()
}

fn with(args: &[String], more: &[&str]) -> Vec<String> {
    let mut all = args.to_vec();
    all.extend(strings(more));
    all
}

/// Each shard's partial result, for `corpus ARGS --format partial --shard I/N`.
fn shards(args: &[String], n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| {
            let shard = format!("{i}/{n}");
            let out = run_owned(&with(args, &["--format", "partial", "--shard", &shard]));
            assert_eq!(
                out.status.code(),
                Some(0),
                "shard {shard}: {}",
                stderr(&out)
            );
            assert!(
                out.stderr.is_empty(),
                "a shard warns nothing: {}",
                stderr(&out)
            );
            out.stdout
        })
        .collect()
}

/// The lines of every part, dealt out one from each in turn: the order in
/// which a cluster might hand them back.
fn interleaved(parts: &[Vec<u8>]) -> Vec<u8> {
    let mut lines: Vec<std::str::Split<'_, char>> = parts
        .iter()
        .map(|p| {
            std::str::from_utf8(p)
                .expect("partial results are UTF-8")
                .split('\n')
        })
        .collect();
    let mut out = Vec::new();
    loop {
        let mut any = false;
        for part in &mut lines {
            if let Some(line) = part.next().filter(|l| !l.is_empty()) {
                out.extend_from_slice(line.as_bytes());
                out.push(b'\n');
                any = true;
            }
        }
        if !any {
            return out;
        }
    }
}

/// For each N: the shards of `args`, merged in each format (from files in
/// reverse order, and in the first format also from interleaved lines on
/// stdin), give the bytes and the warnings of `corpus ARGS --format F`.
fn assert_shards_merge_to_the_single_run(name: &str, args: &[String], formats: &[&str]) {
    let dir = temp_dir(&format!("merge-{name}"));
    let singles: Vec<Output> = formats
        .iter()
        .map(|format| {
            let out = run_owned(&with(args, &["--format", format]));
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            out
        })
        .collect();
    for n in SHARD_COUNTS {
        let parts = shards(args, n);
        let files: Vec<String> = parts
            .iter()
            .enumerate()
            .rev()
            .map(|(i, part)| {
                let file = write(&dir, &format!("part-{i}-of-{n}.jsonl"), part);
                file.display().to_string()
            })
            .collect();
        for (format, single) in formats.iter().zip(&singles) {
            let mut merge = strings(&["corpus", "merge"]);
            merge.extend(files.iter().cloned());
            merge.extend(strings(&["--format", format]));
            let mut merged = vec![("files", run_owned(&merge))];
            // Lines in any order: once per N is enough, each merge costs seconds.
            if format == &formats[0] {
                let stdin = run_with_input(
                    &strings(&["corpus", "merge", "-", "--format", format]),
                    &interleaved(&parts),
                );
                merged.push(("stdin", stdin));
            }
            for (how, merged) in &merged {
                assert_eq!(merged.status.code(), Some(0), "{}", stderr(merged));
                assert!(
                    merged.stdout == single.stdout,
                    "{name}: the merge of {n} shards ({how}) is not the single run's {format}:\n\
                     merged:\n{}\nsingle:\n{}",
                    String::from_utf8_lossy(&merged.stdout),
                    String::from_utf8_lossy(&single.stdout),
                );
                assert_eq!(
                    stderr(merged),
                    stderr(single),
                    "{name}: {n} shards ({how}) warn otherwise"
                );
            }
        }
    }
}

fn corpus_args(extra: &[&str]) -> Option<Vec<String>> {
    let manifest = crate::corpus::manifest()?;
    let mut args = vec!["corpus".to_owned(), manifest.display().to_string()];
    args.extend(strings(extra));
    Some(args)
}

fn tuned() -> String {
    repo_path("tests/fixtures/settings-tuned.json")
        .display()
        .to_string()
}

fn real_targets() -> String {
    crate::corpus::corpus_dir()
        .join("targets.tsv")
        .display()
        .to_string()
}

#[test]
fn shards_of_the_real_corpus_merge_to_the_single_run() {
    let Some(args) = corpus_args(&[]) else { return };
    assert_shards_merge_to_the_single_run("corpus", &args, &FORMATS);
}

#[test]
fn shards_of_the_real_corpus_under_two_settings_merge_to_the_single_run() {
    let tuned = tuned();
    let Some(args) = corpus_args(&["--against-settings", &tuned]) else {
        return;
    };
    assert_shards_merge_to_the_single_run("corpus-against", &args, &["json"]);
}

#[test]
fn shards_of_the_real_corpus_with_targets_merge_to_the_single_evaluation() {
    let targets = real_targets();
    let Some(args) = corpus_args(&["--targets", &targets]) else {
        return;
    };
    assert_shards_merge_to_the_single_run("corpus-targets", &args, &["json"]);
}

#[test]
fn shards_of_the_real_corpus_with_both_merge_to_the_single_report_in_every_format() {
    let (tuned, targets) = (tuned(), real_targets());
    let Some(args) = corpus_args(&["--against-settings", &tuned, "--targets", &targets]) else {
        return;
    };
    assert_shards_merge_to_the_single_run("corpus-both", &args, &FORMATS);
}

/// A company home page with links the scraper ranks, one of them on a
/// subdomain, and some text so the page can be cut at `--max-bytes`.
fn home_page(host: &str, n: usize) -> String {
    let filler = "Quality engineering since 1990. ".repeat(n % 3 * 40);
    format!(
        "<!doctype html><html><head><title>{host}</title></head><body>\
         <nav><a href=\"/about-us\">About us</a><a href=\"/blog/\">Blog</a>\
         <a href=\"/products/{n}\">Products</a></nav><p>{filler}</p>\
         <a href=\"/team\">Our team</a><a href=\"/careers\">Careers</a>\
         <a href=\"https://shop.{host}/kontakt\">Shop</a><a href=\"/files/brochure.pdf\">PDF</a>\
         <footer><a href=\"/contact#form\">Contact</a><a href=\"/impressum\">Impressum</a>\
         <a href=\"https://partner{n}.test/\">Partner</a></footer></body></html>"
    )
}

fn page_records(hosts: std::ops::Range<usize>) -> Vec<Vec<u8>> {
    let mut records = vec![warcinfo()];
    for n in hosts {
        let host = format!("site{n}.test");
        records.extend(captured_page(
            &format!("https://{host}/"),
            &home_page(&host, n),
        ));
    }
    records
}

/// Four archives: gzip per record and plain; pages that another file (or
/// the same one) has again; records that are not pages; one damaged member
/// and one response whose HTTP part does not parse.
fn archives(dir: &Path) -> Vec<PathBuf> {
    let mut first = page_records(0..6);
    first.push(html_response("https://site2.test/", "<a href=/x>again</a>"));
    first.push(record(
        "response",
        &[("WARC-Target-URI", "https://site1.test/logo.png")],
        &http_response(200, &[("Content-Type", "image/png")], b"\x89PNG"),
    ));
    let mut second = page_records(4..10);
    second.push(record(
        "response",
        &[("WARC-Target-URI", "https://site7.test/gone")],
        &http_response(404, &[("Content-Type", "text/html")], b"gone"),
    ));
    second.push(record(
        "response",
        &[("WARC-Target-URI", "https://site8.test/bad")],
        b"not HTTP at all",
    ));
    let mut third = per_record_gzip(&page_records(10..13));
    third.extend_from_slice(&gzip_member(
        b"WARC/1.1\r\nContent-Length: 99999\r\n\r\nshort",
    ));
    third.extend_from_slice(&per_record_gzip(&page_records(13..15)));
    let fourth = page_records(0..2).concat();
    vec![
        write(dir, "a.warc.gz", &per_record_gzip(&first)),
        write(dir, "b.warc", &second.concat()),
        write(dir, "c.warc.gz", &third),
        write(dir, "d.warc", &fourth),
    ]
}

/// Targets for the archives' pages (ids are the page URLs), one on a
/// subdomain (so suggestions have something to find), one on a page that
/// the archives do not have.
fn archive_targets(dir: &Path) -> String {
    let mut tsv = String::from("id\turl\tkind\n");
    for n in 0..15 {
        tsv.push_str(&format!(
            "https://site{n}.test/\thttps://site{n}.test/contact\tcontact\n"
        ));
        if n % 2 == 0 {
            tsv.push_str(&format!(
                "https://site{n}.test/\thttps://shop.site{n}.test/kontakt\tcontact\n"
            ));
        }
        if n % 3 == 0 {
            tsv.push_str(&format!(
                "https://site{n}.test/\thttps://site{n}.test/impressum\timprint\n"
            ));
        }
    }
    tsv.push_str("https://nowhere.test/\thttps://nowhere.test/contact\tcontact\n");
    write(dir, "targets.tsv", tsv.as_bytes())
        .display()
        .to_string()
}

#[test]
fn shards_of_generated_archives_merge_to_the_single_run_in_every_format() {
    let dir = temp_dir("shards-archives");
    let files = archives(&dir);
    let list = write(
        &dir,
        "list.txt",
        b"# the first three, then the first again\na.warc.gz\nb.warc\nc.warc.gz\na.warc.gz\n",
    );
    let targets = archive_targets(&dir);
    let tuned = tuned();
    let mut args = strings(&["corpus", &format!("@{}", list.display())]);
    args.push(files[3].display().to_string());
    let plain = with(&args, &["--max-bytes", "1500"]);
    assert_shards_merge_to_the_single_run("archives", &plain, &["json"]);
    let both = with(
        &args,
        &[
            "--against-settings",
            &tuned,
            "--targets",
            &targets,
            "--suggest",
            "5",
        ],
    );
    assert_shards_merge_to_the_single_run("archives-both", &both, &FORMATS);
}

#[test]
fn shards_of_one_generated_archive_merge_to_the_single_run() {
    let dir = temp_dir("shards-one-archive");
    let file = write(&dir, "one.warc.gz", &per_record_gzip(&page_records(0..9)));
    let targets = archive_targets(&dir);
    let args = strings(&["corpus", &file.display().to_string(), "--targets", &targets]);
    assert_shards_merge_to_the_single_run("one-archive", &args, &["json"]);
}

#[test]
fn an_archive_whose_name_is_not_utf8_shards_as_it_runs() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = temp_dir("shards-not-utf8");
    let name = std::ffi::OsStr::from_bytes(b"na\xffme.warc");
    let file = dir.join(name);
    std::fs::write(&file, page_records(0..3).concat()).expect("an archive");
    let other = write(&dir, "other.warc", &page_records(3..5).concat());
    let args = vec![
        "corpus".into(),
        file.into_os_string(),
        other.into_os_string(),
    ];
    let run = |more: &[&str]| {
        let out = binary()
            .args(&args)
            .args(more)
            .output()
            .expect("the binary runs");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        out.stdout
    };
    let parts = [
        run(&["--format", "partial", "--shard", "1/2"]),
        run(&["--format", "partial", "--shard", "0/2"]),
    ];
    let merged = run_with_input(
        &strings(&["corpus", "merge", "-", "--format", "json"]),
        &parts.concat(),
    );
    assert_eq!(
        crate::ok_stdout(&merged).into_bytes(),
        run(&["--format", "json"])
    );
}

#[test]
fn units_listed_and_read_back_on_stdin_make_one_shard() {
    let dir = temp_dir("shards-listed");
    let files = archives(&dir);
    let mut args = strings(&["corpus"]);
    args.extend(files.iter().map(|f| f.display().to_string()));
    let listed = run_owned(&with(&args, &["--list-units"]));
    let listing = crate::ok_stdout(&listed);
    let expected: Vec<String> = files
        .iter()
        .enumerate()
        .map(|(j, f)| format!("{j}\t{}", f.display()))
        .collect();
    assert_eq!(listing.lines().collect::<Vec<_>>(), expected);

    // Units 1 and 3 in one shard, 0 and 2 in another: a scheduler's split.
    let lines: Vec<&str> = listing.lines().collect();
    let shard = |units: &[usize]| {
        let input: String = units.iter().map(|&u| format!("{}\n", lines[u])).collect();
        let out = run_with_input(
            &with(&args, &["--format", "partial", "--shard", "-"]),
            input.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        out.stdout
    };
    let parts = [shard(&[3, 1]), shard(&[0, 2]), shard(&[])];
    let merged = run_with_input(
        &strings(&["corpus", "merge", "-", "--format", "json"]),
        &parts.concat(),
    );
    let single = run_owned(&with(&args, &["--format", "json"]));
    assert_eq!(crate::ok_stdout(&merged), crate::ok_stdout(&single));

    // A missing archive fails the listing, before a scheduler starts.
    let mut missing = args.clone();
    missing.push(dir.join("nope.warc.gz").display().to_string());
    let listed = run_owned(&with(&missing, &["--list-units"]));
    assert_eq!(listed.status.code(), Some(2));
    assert!(
        stderr(&listed).contains("nope.warc.gz"),
        "{}",
        stderr(&listed)
    );

    // A list made from other inputs is refused before anything runs.
    let wrong = run_with_input(
        &with(&args, &["--format", "partial", "--shard", "-"]),
        b"0\tsomewhere-else.warc.gz\n",
    );
    assert_eq!(wrong.status.code(), Some(2));
    assert!(wrong.stdout.is_empty());
    assert!(
        stderr(&wrong).contains("unit 0 is `")
            && stderr(&wrong).contains("not `somewhere-else.warc.gz`"),
        "{}",
        stderr(&wrong)
    );
}

/// `corpus merge` of `parts` (as files) in the table format.
fn merge_files(dir: &Path, parts: &[&[u8]]) -> Output {
    let mut args = strings(&["corpus", "merge"]);
    for (i, part) in parts.iter().enumerate() {
        args.push(
            write(dir, &format!("given-{i}.jsonl"), part)
                .display()
                .to_string(),
        );
    }
    run_owned(&args)
}

fn assert_refused(out: &Output, words: &[&str]) {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    assert!(out.stdout.is_empty(), "no report is printed");
    let text = stderr(out);
    assert!(
        text.starts_with("error: cannot merge the partial results: "),
        "{text}"
    );
    for word in words {
        assert!(text.contains(word), "`{word}` is not in: {text}");
    }
}

#[test]
fn a_merge_that_lacks_a_shard_has_one_twice_or_mixes_runs_is_refused() {
    let dir = temp_dir("shards-refused");
    let files = archives(&dir);
    let mut args = strings(&["corpus"]);
    args.extend(files.iter().map(|f| f.display().to_string()));
    let parts = shards(&args, 3);

    let missing = merge_files(&dir, &[&parts[0], &parts[2]]);
    assert_refused(
        &missing,
        &["1 of the run's 4 units are in no partial result", "b.warc"],
    );

    let twice = merge_files(&dir, &[&parts[0], &parts[1], &parts[2], &parts[1]]);
    assert_refused(&twice, &["given twice"]);
    let file = write(&dir, "shard-1.jsonl", &parts[1])
        .display()
        .to_string();
    let mut same_file = strings(&["corpus", "merge", &file]);
    same_file.push(file.clone());
    assert_refused(&run_owned(&same_file), &[&format!("{file} is given twice")]);

    let tuned = tuned();
    let other = shards(&with(&args, &["--against-settings", &tuned]), 3);
    let mixed = merge_files(&dir, &[&parts[0], &other[1], &parts[2]]);
    assert_refused(
        &mixed,
        &[
            "a shard of another run",
            "(not the same settings compared with (B))",
        ],
    );
    // Without its header, another run's shard is still known by its lines.
    let other_text = String::from_utf8(other[1].clone()).expect("UTF-8");
    let headless: String = other_text
        .lines()
        .skip(1)
        .map(|l| format!("{l}\n"))
        .collect();
    let foreign = merge_files(&dir, &[&parts[0], headless.as_bytes(), &parts[2]]);
    assert_refused(&foreign, &["a line of another run"]);

    // A shard cut short (a worker killed half-way) has no end line.
    let text = String::from_utf8(parts[1].clone()).expect("UTF-8");
    let cut: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    let short = merge_files(&dir, &[&parts[0], cut.as_bytes(), &parts[2]]);
    assert_refused(&short, &["in no partial result"]);

    let report = run_owned(&with(&args, &["--format", "json"]));
    let not_partial = merge_files(&dir, &[&report.stdout]);
    assert_refused(
        &not_partial,
        &["given-0.jsonl line 1: not a line of a partial result"],
    );

    let nothing = merge_files(&dir, &[b""]);
    assert_refused(&nothing, &["no header line"]);
}

#[test]
fn shards_of_two_folders_of_as_many_pages_do_not_merge() {
    let dir = temp_dir("shards-two-folders");
    let folder = |name: &str, pages: &[&str]| {
        let folder = dir.join(name);
        std::fs::create_dir_all(&folder).expect("a folder");
        for page in pages {
            let html = format!(
                "<link rel=canonical href=\"https://{page}.test/\"><a href=/contact>Contact</a>"
            );
            write(&folder, &format!("{page}.html"), html.as_bytes());
        }
        strings(&["corpus", &folder.display().to_string()])
    };
    let first = shards(&folder("one", &["alpha", "beta"]), 2);
    let second = shards(&folder("two", &["gamma", "delta"]), 2);
    let mixed = merge_files(&dir, &[&first[0], &second[1]]);
    assert_refused(&mixed, &["a shard of another run", "(not the same inputs)"]);
}

#[test]
fn a_shard_whose_reader_goes_away_fails() {
    let targets = real_targets();
    let Some(args) = corpus_args(&["--targets", &targets, "--format", "partial"]) else {
        return;
    };
    let out = run_read_then_closed(&args, 100);
    // Megabytes were still to be written: a cut partial result is a failure.
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot write the partial result"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_shard_needs_the_partial_format_and_several_inputs_must_be_archives() {
    let dir = temp_dir("shards-usage");
    let files = archives(&dir);
    let archive = files[0].display().to_string();

    let table = run_owned(&strings(&["corpus", &archive, "--shard", "0/2"]));
    assert_eq!(table.status.code(), Some(2));
    assert!(
        stderr(&table).contains("give --format partial"),
        "{}",
        stderr(&table)
    );

    let bad = run_owned(&strings(&[
        "corpus", &archive, "--format", "partial", "--shard", "2/2",
    ]));
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("`2/2` is not a shard"),
        "{}",
        stderr(&bad)
    );

    let pages = repo_path("tests/fixtures").display().to_string();
    let mixed = run_owned(&strings(&["corpus", &archive, &pages, "--format", "json"]));
    assert_eq!(mixed.status.code(), Some(2));
    assert!(
        stderr(&mixed).contains("is not a web archive: several inputs must all be archives"),
        "{}",
        stderr(&mixed)
    );
}
