//! The index: which capture answers a URL, and an index that points where nothing is.

use super::*;

#[test]
fn an_index_that_points_past_its_warc_or_at_no_warc_is_told_and_passed_over() {
    let (good, mut files) = good_files();
    let len = good.warc_a.len() as u64;
    let mut index = String::from_utf8(files[0].1.clone()).unwrap();
    index += &cdxj(
        "https://example.com/past",
        "20240101000000",
        "200",
        "text/html",
        len - 10,
        100,
        "a.warc",
    );
    index += &cdxj(
        "https://example.com/gone",
        "20240101000000",
        "200",
        "text/html",
        0,
        10,
        "gone.warc.gz",
    );
    // A bad hit beside a good one: the good one answers.
    index += &cdxj(
        "https://example.com/",
        "20230101000000",
        "200",
        "text/html",
        u64::MAX - 1,
        10,
        "a.warc",
    );
    files[0].1 = index.into_bytes();
    files.pop(); // no datapackage.json: its hash of the index would not match
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    assert_eq!(
        wacz.warnings(),
        [
            WaczWarning::IndexPastEnd {
                warc: "archive/a.warc".into(),
                url: "https://example.com/".into(),
                count: 2
            },
            WaczWarning::IndexMissingWarc {
                warc: "gone.warc.gz".into(),
                count: 1
            },
            WaczWarning::NoDatapackage,
        ]
    );
    let err = wacz.lookup(&url("https://example.com/past")).unwrap_err();
    assert!(matches!(err, WaczError::HitPastEnd { .. }));
    assert!(err.to_string().contains("past its end"), "{err}");
    let err = wacz.lookup(&url("https://example.com/gone")).unwrap_err();
    assert!(
        err.to_string()
            .contains("\"gone.warc.gz\", which the package does not hold"),
        "{err}"
    );
    let home = wacz.lookup(&url("https://example.com/")).unwrap().unwrap();
    assert_eq!(home.timestamp, "20240101000000");
}

#[test]
fn the_capture_chosen_is_the_earliest_answered_one() {
    let (_, mut files) = good_files();
    let mut index = String::new();
    let u = "https://example.com/";
    index += &cdxj(u, "20200101000000", "404", "text/html", 0, 10, "a.warc");
    index += &cdxj(u, "20210101000000", "200", "warc/revisit", 0, 10, "a.warc");
    index += &cdxj(u, "20230101000000", "200", "text/html", 20, 10, "a.warc");
    index += &cdxj(u, "20220101000000", "301", "text/html", 30, 10, "a.warc");
    index += &cdxj(
        "https://example.com/r",
        "20210101000000",
        "200",
        "warc/revisit",
        40,
        10,
        "a.warc",
    );
    index += &cdxj(
        "https://example.com/n",
        "20210101000000",
        "-",
        "text/html",
        40,
        10,
        "a.warc",
    );
    files[0].1 = index.into_bytes();
    files.pop();
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    let hit = wacz.lookup(&url(u)).unwrap().unwrap();
    assert_eq!(
        (hit.timestamp.as_str(), hit.status, hit.offset),
        ("20220101000000", Some(301), 30)
    );
    let revisit = wacz.lookup(&url("https://example.com/r")).unwrap().unwrap();
    assert!(revisit.revisit);
    let no_status = wacz.lookup(&url("https://example.com/n")).unwrap().unwrap();
    assert_eq!(no_status.status, None);
}

#[test]
fn a_gzip_index_is_read_whole_or_as_zipnum_members() {
    let (good, files) = good_files();
    let lines = String::from_utf8(files[0].1.clone()).unwrap();
    let mut zipnum = Vec::new();
    for line in lines.lines() {
        zipnum.extend_from_slice(&gzip(format!("{line}\n").as_bytes()));
    }
    for (name, bytes) in [
        ("indexes/index.cdx.gz", gzip(lines.as_bytes())),
        ("indexes/index.cdx.gz", zipnum),
    ] {
        let mut files = good_files().1;
        files[0] = Put(name, bytes, true);
        files.pop();
        files.push(Put("indexes/index.idx", b"!meta 0 {}\n".to_vec(), false));
        let (_path, wacz) = open_bytes(&zip_of(&files));
        let wacz = wacz.unwrap();
        assert_eq!(wacz.warnings(), [WaczWarning::NoDatapackage]);
        let hit = wacz.lookup(&url("https://example.com/b")).unwrap().unwrap();
        assert_eq!((hit.offset, hit.length), good.b_at);
    }
    // A classic CDX line is read too.
    let mut files = good_files().1;
    files[0] = Put(
        "indexes/index.cdx",
        format!(" CDX N b a m s k r M S V g\ncom,example)/b 20240101000001 https://example.com/b text/html 200 SHA1 - - {} {} b.warc.gz\n", good.b_at.1, good.b_at.0).into_bytes(),
        true,
    );
    files.pop();
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let hit = wacz
        .unwrap()
        .lookup(&url("https://example.com/b"))
        .unwrap()
        .unwrap();
    assert_eq!(
        (hit.offset, hit.length, hit.status),
        (good.b_at.0, good.b_at.1, Some(200))
    );
}

#[test]
fn a_package_without_an_index_says_so_on_lookup() {
    let (_, mut files) = good_files();
    files.remove(0);
    files.pop();
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    assert!(wacz.warnings().contains(&WaczWarning::NoIndex));
    let err = wacz.lookup(&url("https://example.com/")).unwrap_err();
    assert!(err.to_string().contains("has no readable index"), "{err}");
}

#[test]
fn an_index_that_does_not_decompress_is_said_and_lookups_say_there_is_none() {
    let (_, mut files) = good_files();
    files[0] = Put("indexes/index.cdx.gz", b"not gzip at all\n".to_vec(), true);
    files.pop();
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    let said: Vec<String> = wacz.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].starts_with("indexes/index.cdx.gz cannot be read: "),
        "{said:?}"
    );
    assert!(matches!(
        wacz.lookup(&url("https://example.com/")),
        Err(WaczError::NoIndex { .. })
    ));
    // The package can still be shared between threads, as the window does.
    fn shared<T: Send + Sync>(_: &T) {}
    shared(&wacz);
}
