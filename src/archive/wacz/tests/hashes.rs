//! `datapackage.json`'s hashes checked.

use super::*;

#[test]
fn a_hash_that_does_not_match_is_a_warning_naming_the_file() {
    let (_, mut files) = good_files();
    // Pages changed after datapackage.json was written; a WARC's bytes too.
    files[3]
        .1
        .extend_from_slice(b"{\"url\": \"https://example.com/c\"}\n");
    files[2].1[0] = b'X';
    let mut with_missing = String::from_utf8(files[4].1.clone()).unwrap();
    with_missing = with_missing.replacen(
        "\"resources\": [",
        "\"resources\": [{\"path\": \"indexes/gone.cdxj\", \"hash\": \"sha256:00\"}, {\"path\": \"pages/md5.jsonl\", \"hash\": \"md5:00\"}, ",
        1,
    );
    files[4].1 = with_missing.into_bytes();
    files.push(Put("pages/md5.jsonl", Vec::new(), true));
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    let said: Vec<String> = wacz.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(said.len(), 4, "{said:#?}");
    assert_eq!(
        said[0],
        "indexes/gone.cdxj: listed in datapackage.json but not in the package"
    );
    assert_eq!(
        said[1],
        "pages/md5.jsonl: its hash in datapackage.json (md5:00) is not a sha256, so it is not checked"
    );
    assert!(said[2].starts_with("pages/pages.jsonl: "), "{}", said[2]);
    assert!(
        said[3].starts_with("pages/pages.jsonl: its sha256 is "),
        "{}",
        said[3]
    );
    assert!(
        said[3].ends_with("the file was changed or is damaged"),
        "{}",
        said[3]
    );
    // The WARCs are checked when asked: the changed byte is found.
    let warcs = wacz.check_hashes(HashScope::Warcs);
    assert_eq!(warcs.len(), 1, "{warcs:?}");
    assert!(
        matches!(&warcs[0], WaczWarning::HashMismatch { file, .. } if file == "archive/a.warc")
    );
}
