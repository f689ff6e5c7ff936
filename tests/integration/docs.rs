//! The documentation as a reader finds it: every link and image in README.md
//! and docs/*.md opens a file of this repository (a clone has nothing beside
//! it, so `../shared/…` breaks in every clone), README.md stays a short front
//! door, and CI still finds the two commands in it.

use std::path::{Component, Path, PathBuf};

use crate::repo_path;

/// The lines `.ci/run` and a newcomer take from README.md, exactly.
const TWO_COMMANDS: &[&str] = &[
    "cargo run --release   # open the inspector (default settings, bundled demo page, no network)",
    "cargo test            # run all the tests",
];

/// The front door's length: past this the depth belongs in docs/.
const README_MAX_LINES: usize = 200;

/// README.md, then docs/*.md in name order, with their text.
fn pages() -> Vec<(PathBuf, String)> {
    let mut paths = vec![repo_path("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo_path("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.expect("docs/ lists").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    assert!(!docs.is_empty(), "docs/ holds no .md page");
    paths.extend(docs);
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a page reads as UTF-8");
            (path, text)
        })
        .collect()
}

/// The text with fenced code blocks and inline code spans blanked out, so a
/// `](` inside code is not taken for a link; the brackets around a code span
/// stay, so ``[`x`](y)`` is still a link to `y`.
fn without_code(text: &str) -> String {
    let mut prose = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            prose.push('\n');
            continue;
        }
        if !fenced {
            prose.push_str(&without_code_spans(line));
        }
        prose.push('\n');
    }
    prose
}

/// A line without its code spans: a run of n backticks up to the next run of
/// exactly n (CommonMark's rule, within one line, as these pages write them).
fn without_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let run_at = |at: usize| chars[at..].iter().take_while(|&&c| c == '`').count();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let n = run_at(i);
        let mut j = i + n;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let m = run_at(j);
                if m == n {
                    close = Some(j + m);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(end) => i = end,
            // An unclosed run is literal backticks.
            None => {
                out.extend(&chars[i..i + n]);
                i += n;
            }
        }
    }
    out
}

/// Every link and image target: `[text](target)`, `![alt](target)` (a title
/// after the target is dropped) and reference definitions `[name]: target`.
fn link_targets(text: &str) -> Vec<String> {
    let prose = without_code(text);
    let mut targets = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let inside = rest[..end].trim();
        let target = inside.split_whitespace().next().unwrap_or("");
        targets.push(
            target
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_owned(),
        );
        rest = &rest[end..];
    }
    for line in prose.lines() {
        let line = line.trim_start();
        if let Some(close) = line.find("]:")
            && line.starts_with('[')
            && !line[..close].contains(']')
            && let Some(target) = line[close + 2..].split_whitespace().next()
        {
            targets.push(target.to_owned());
        }
    }
    targets
}

/// `path` with `.` and `..` taken out by their names (the file need not exist);
/// None when `..` climbs above the start.
fn lexically_normal(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// What is wrong with one link of `page` (None when it opens a file or folder
/// of the repository at `root`).
fn problem(root: &Path, page: &Path, target: &str) -> Option<String> {
    if target.is_empty() {
        return Some("an empty link".to_owned());
    }
    if target.starts_with("http://") || target.starts_with("https://") {
        return Some("a link to the web (describe it in the repository instead)".to_owned());
    }
    if target.contains("://") || target.starts_with("mailto:") {
        return Some("a link with a scheme".to_owned());
    }
    let file_part = target.split('#').next().unwrap_or("");
    let file_part = file_part.split('?').next().unwrap_or("");
    if file_part.is_empty() {
        // An anchor of the same page.
        return None;
    }
    if file_part.starts_with('/') {
        return Some("an absolute path (it means another thing on every machine)".to_owned());
    }
    let folder = page.parent().unwrap_or(root);
    let Some(joined) = lexically_normal(&folder.join(file_part)) else {
        return Some("climbs above the file system's root".to_owned());
    };
    if !joined.starts_with(root) {
        return Some(format!(
            "leaves the repository (resolves to {})",
            joined.display()
        ));
    }
    let Ok(real) = joined.canonicalize() else {
        return Some(format!("no such file or folder: {}", joined.display()));
    };
    let real_root = root.canonicalize().expect("the repository's root resolves");
    if !real.starts_with(&real_root) {
        return Some(format!(
            "leaves the repository through a link (to {})",
            real.display()
        ));
    }
    None
}

fn root() -> PathBuf {
    lexically_normal(&repo_path("")).expect("the repository's root is a plain path")
}

#[test]
fn every_link_and_image_opens_a_file_of_the_repository() {
    let root = root();
    let mut bad = Vec::new();
    let mut checked = 0;
    for (page, text) in pages() {
        for target in link_targets(&text) {
            checked += 1;
            if let Some(why) = problem(&root, &page, &target) {
                let name = page
                    .strip_prefix(&root)
                    .unwrap_or(&page)
                    .display()
                    .to_string();
                bad.push(format!("{name}: ({target}): {why}"));
            }
        }
    }
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
    // README's screenshot and its links to every docs page at least.
    assert!(
        checked >= 8,
        "only {checked} links found: is the link reader broken?"
    );
}

#[test]
fn the_link_check_catches_what_breaks_in_a_clone() {
    let root = root();
    let readme = root.join("README.md");
    let guide = root.join("docs").join("guide.md");
    // The old README linked the contract beside the checkout.
    let old = "exactly as [`SPEC.md`](../shared/SPEC.md) states it";
    assert_eq!(link_targets(old), ["../shared/SPEC.md"]);
    assert!(problem(&root, &readme, "../shared/SPEC.md").is_some());
    assert!(problem(&root, &guide, "../../shared/SPEC.md").is_some());
    assert!(problem(&root, &readme, "https://example.com/").is_some());
    assert!(problem(&root, &readme, "docs/no-such-page.md").is_some());
    assert!(problem(&root, &readme, "/etc/passwd").is_some());
    // docs/ is one level down: its links to assets climb once.
    assert_eq!(problem(&root, &guide, "../assets/screenshot.png"), None);
    assert!(problem(&root, &guide, "assets/screenshot.png").is_some());
    assert_eq!(problem(&root, &readme, "docs/tuning.md#suggestions"), None);
    assert_eq!(problem(&root, &readme, "#the-two-commands"), None);
    // Code is not a link, but a code span inside a link's text is.
    assert!(link_targets("`[a](../outside)` and ``x `](` y``").is_empty());
    assert!(link_targets("```sh\n[a](../outside)\n```\n").is_empty());
    assert_eq!(
        link_targets("![shot](assets/screenshot.png \"title\")"),
        ["assets/screenshot.png"]
    );
    assert_eq!(
        link_targets("[spec]: ../shared/SPEC.md\n"),
        ["../shared/SPEC.md"]
    );
}

#[test]
fn readme_is_a_short_front_door_with_the_two_commands() {
    let readme = std::fs::read_to_string(repo_path("README.md")).expect("README.md reads");
    let lines = readme.lines().count();
    assert!(
        lines < README_MAX_LINES,
        "README.md has {lines} lines; the depth belongs in docs/ (at most {README_MAX_LINES})"
    );
    for command in TWO_COMMANDS {
        assert!(
            readme.lines().any(|line| line == *command),
            "README.md no longer has the line `{command}`"
        );
    }
    assert!(
        readme.contains("](assets/screenshot.png)"),
        "README.md lost its screenshot"
    );
}

#[test]
fn every_docs_page_says_who_it_is_for_and_the_readme_links_it() {
    let readme = std::fs::read_to_string(repo_path("README.md")).expect("README.md reads");
    for (page, text) in pages().into_iter().skip(1) {
        let name = page
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut paragraphs = text.split("\n\n").map(str::trim);
        let title = paragraphs.next().unwrap_or("");
        assert!(
            title.starts_with("# "),
            "docs/{name} does not start with a title"
        );
        let first = paragraphs.next().unwrap_or("");
        assert!(
            first.starts_with("For "),
            "docs/{name}'s first paragraph does not say who it is for: {first:?}"
        );
        assert!(
            readme.contains(&format!("](docs/{name})")),
            "README.md does not link docs/{name}"
        );
    }
}
