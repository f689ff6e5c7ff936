//! A package PyPI `wacz` 0.6.0 wrote.

use super::*;

/// PyPI `wacz` 0.6.0 (`.ci/run` installs it; `FOLLOW_INSPECTOR_WACZ`, else
/// the CI venv's), when present, packs a shelf capture; the package reads.
#[test]
fn a_package_written_by_py_wacz_reads() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tool = std::env::var_os("FOLLOW_INSPECTOR_WACZ")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("target/ci-venv/bin/wacz"));
    let warc = repo.join("../shared/archives/pywb--iana.warc.gz");
    if !tool.is_file() || !warc.is_file() {
        eprintln!("skipped: no {} or no {}", tool.display(), warc.display());
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("iana.wacz");
    let status = std::process::Command::new(&tool)
        .args(["create", "--detect-pages", "-o"])
        .arg(&out)
        .arg(&warc)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let wacz = Wacz::open(&out).unwrap();
    assert_eq!(wacz.warnings(), [] as [WaczWarning; 0]);
    let names: Vec<_> = wacz.warcs().iter().map(|w| w.name.as_str()).collect();
    assert_eq!(names, ["archive/pywb--iana.warc.gz"]);
    assert_eq!(wacz.pages().len(), 16);
    let first = &wacz.pages()[0];
    assert_eq!(first.url.as_str(), "http://www.iana.org/");
    let hit = wacz.lookup(&first.url).unwrap().unwrap();
    assert_eq!(
        (hit.warc.as_str(), hit.status, hit.revisit),
        ("archive/pywb--iana.warc.gz", Some(200), false)
    );
    let mut input = wacz.open_entry(&wacz.warcs()[0]).unwrap();
    input.seek(SeekFrom::Start(hit.offset)).unwrap();
    let mut text = String::new();
    GzDecoder::new((&mut input).take(hit.length))
        .take(4096)
        .read_to_string(&mut text)
        .unwrap();
    assert!(text.starts_with("WARC/1.0\r\n"), "{text}");
    assert!(text.contains("WARC-Type: response"), "{text}");
    assert!(
        text.contains("WARC-Target-URI: http://www.iana.org/"),
        "{text}"
    );
    assert_eq!(wacz.check_hashes(HashScope::Warcs), []);
    // Every page the package names is found through its index.
    for page in wacz.pages() {
        assert!(wacz.lookup(&page.url).unwrap().is_some(), "{}", page.url);
    }
    // With the pages' text (`-t`), from a plain WARC (stored as it is).
    let warc = repo.join("../shared/archives/py-wacz--example-iana.warc");
    let out = dir.path().join("text.wacz");
    let status = std::process::Command::new(&tool)
        .args(["create", "--detect-pages", "-t", "-o"])
        .arg(&out)
        .arg(&warc)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let wacz = Wacz::open(&out).unwrap();
    assert_eq!(wacz.warnings(), [] as [WaczWarning; 0]);
    assert_eq!(wacz.warcs()[0].name, "archive/py-wacz--example-iana.warc");
    let first = &wacz.pages()[0];
    assert_eq!(
        (first.url.as_str(), first.title.as_deref()),
        ("https://example.com/", Some("Example Domain"))
    );
    for page in wacz.pages() {
        assert!(wacz.lookup(&page.url).unwrap().is_some(), "{}", page.url);
    }
    assert_eq!(wacz.check_hashes(HashScope::All), []);
}
