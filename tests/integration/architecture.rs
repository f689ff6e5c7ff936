//! The house rules, read from the source: each layer imports only the layers
//! before it, `policy/` and `page/` do no I/O, and no two files import each
//! other (directly or round a longer circle).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::repo_path;

/// The layers, first to last: a module may import the modules of earlier
/// layers only (and its own). `cli` and `ui` share a layer, so neither
/// imports the other; `main` is the binary.
const LAYERS: &[&[&str]] = &[
    &["policy"],
    &["page"],
    &["fetch"],
    &["inspect"],
    &["render"],
    &["par"],
    &["crawl"],
    &["diff"],
    &["corpus"],
    &["load"],
    &["copy"],
    &["report"],
    &["profiles"],
    &["cli", "ui"],
    &["main"],
];

/// What the pure layers may not use: no window, no network, no files, no
/// clock, no processes.
const PURE: &[&str] = &["policy", "page"];
const IMPURE_PATHS: &[&str] = &[
    "egui::",
    "eframe::",
    "reqwest::",
    "rfd::",
    "libc::",
    "confy::",
    "std::fs",
    "std::net",
    "std::time",
    "std::process",
    "std::thread",
    "std::env",
];

/// One source file: its module path (`["render", "cdp"]`; `["main"]` for the
/// binary) and its text, with the code of its test module apart.
struct SourceFile {
    path: String,
    module: Vec<String>,
    code: String,
    tests: String,
}

fn layer_of(top: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&top))
}

fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_owned());
        }
    }
    parts
}

/// The text without `//` comments (doc comments name paths too).
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.split_once("//").map_or(line, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

fn read_sources(dir: &Path, root: &Path, out: &mut Vec<SourceFile>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_sources(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under src/");
            let text = std::fs::read_to_string(&path).expect("a readable source file");
            // Test modules sit at the end of a file; in them `super` is the file.
            let (code, tests) = match text.find("\n#[cfg(test)]\nmod ") {
                Some(at) => (&text[..at], &text[at..]),
                None => (text.as_str(), ""),
            };
            out.push(SourceFile {
                path: format!("src/{}", rel.display()),
                module: module_of(rel),
                code: without_comments(code),
                tests: without_comments(tests),
            });
        }
    }
}

/// Every path the text names after `prefix` (`crate::`, `super::`,
/// `follow_inspector::`), grouped imports (`crate::{a, b::c}`) spread out.
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let boundary = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        rest = &rest[at + prefix.len()..];
        if !boundary {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                out.push(segments(item.trim()));
            }
        } else {
            out.push(segments(rest));
        }
    }
    out.retain(|p| !p.is_empty());
    out
}

fn segments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        out.push(rest[..end].to_owned());
        match rest[end..].strip_prefix("::") {
            Some(next) if next.starts_with(|c: char| c.is_alphabetic() || c == '_') => {
                rest = next;
            }
            _ => break,
        }
    }
    out
}

/// The deepest module of `path` that is a file, as a module path.
fn resolve(path: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|m| modules.contains(m))
}

/// The modules a file imports: `crate::`, `super::` and (in the binary)
/// `follow_inspector::` paths, resolved to files.
fn imports(file: &SourceFile, modules: &BTreeSet<Vec<String>>) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let is_main = file.module == ["main"];
    let crate_prefix = if is_main {
        "follow_inspector::"
    } else {
        "crate::"
    };
    for (text, super_is_self) in [(&file.code, false), (&file.tests, true)] {
        for path in paths_after(text, crate_prefix) {
            if let Some(m) = resolve(&path, modules) {
                out.push((format!("{crate_prefix}{}", path.join("::")), m));
            }
        }
        if is_main {
            continue;
        }
        // `super` of a file's own code is its parent module; in its tests, the file.
        let parent: Vec<String> = if super_is_self {
            file.module.clone()
        } else {
            file.module[..file.module.len().saturating_sub(1)].to_vec()
        };
        for path in paths_after(text, "super::") {
            let full: Vec<String> = parent.iter().cloned().chain(path.clone()).collect();
            if let Some(m) = resolve(&full, modules) {
                out.push((format!("super::{}", path.join("::")), m));
            }
        }
    }
    out
}

/// Every break of the house rules among `files`, in words.
fn violations(files: &[SourceFile]) -> Vec<String> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let mut found = Vec::new();
    let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for file in files {
        let Some(top) = file.module.first() else {
            continue; // lib.rs only declares the modules
        };
        let Some(layer) = layer_of(top) else {
            found.push(format!(
                "{}: module `{top}` is in no layer of the table",
                file.path
            ));
            continue;
        };
        if PURE.contains(&top.as_str()) {
            let text = format!("{}\n{}", file.code, file.tests);
            for bad in IMPURE_PATHS {
                let grouped = bad
                    .strip_prefix("std::")
                    .is_some_and(|name| uses_grouped_std(&text, name));
                if text.contains(bad) || grouped {
                    found.push(format!(
                        "{}: uses `{bad}`, but `{top}` is pure (no UI, network, files, clock or processes)",
                        file.path
                    ));
                }
            }
        }
        for (written, target) in imports(file, &modules) {
            let other = &target[0];
            if target != file.module {
                graph
                    .entry(file.module.clone())
                    .or_default()
                    .insert(target.clone());
            }
            if other == top {
                continue;
            }
            let allowed: Vec<&str> = LAYERS[..layer]
                .iter()
                .flat_map(|l| l.iter())
                .copied()
                .collect();
            if !allowed.contains(&other.as_str()) {
                found.push(format!(
                    "{}: imports `{written}`, but `{top}` may import only: {}",
                    file.path,
                    if allowed.is_empty() {
                        "nothing of the crate".to_owned()
                    } else {
                        allowed.join(", ")
                    }
                ));
            }
        }
    }
    found.extend(circles(&graph));
    found.sort();
    found.dedup();
    found
}

/// `use std::{fs, io}` names `std::fs` too.
fn uses_grouped_std(text: &str, name: &str) -> bool {
    paths_after(text, "std::")
        .iter()
        .any(|p| p.first().is_some_and(|first| first == name))
}

/// Every circle of imports between files, each named once by its files.
fn circles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    fn visit(
        node: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        stack: &mut Vec<Vec<String>>,
        done: &mut BTreeSet<Vec<String>>,
        out: &mut Vec<String>,
    ) {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut ring: Vec<String> = stack[at..].iter().map(|m| m.join("::")).collect();
            ring.push(node.join("::"));
            out.push(format!("import circle: {}", ring.join(" → ")));
            return;
        }
        if done.contains(node) {
            return;
        }
        stack.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, stack, done, out);
        }
        stack.pop();
        done.insert(node.clone());
    }
    let mut out = Vec::new();
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        visit(node, graph, &mut Vec::new(), &mut done, &mut out);
    }
    out
}

fn source(path: &str, text: &str) -> SourceFile {
    let rel = Path::new(path.trim_start_matches("src/"));
    SourceFile {
        path: path.to_owned(),
        module: module_of(rel),
        code: without_comments(text),
        tests: String::new(),
    }
}

#[test]
fn every_file_keeps_the_layer_rule_and_no_import_circles() {
    let root = repo_path("src");
    let mut files = Vec::new();
    read_sources(&root, &root, &mut files);
    assert!(files.len() > 40, "read {} files", files.len());
    let found = violations(&files);
    assert!(
        found.is_empty(),
        "the house rules are broken:\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_checker_names_the_file_the_import_and_the_rule() {
    let files = [
        source("src/policy/verdict.rs", "use crate::policy::keywords::X;\n"),
        source("src/policy/keywords.rs", "pub struct X;\n"),
        source(
            "src/render/mod.rs",
            "use crate::copy::NO_BROWSER; // a word from the wrong floor\n",
        ),
        source("src/copy/mod.rs", "pub const NO_BROWSER: &str = \"\";\n"),
        source(
            "src/page/mod.rs",
            "use std::{fs, io};\nfn f() { egui::Ui::new(); }\n",
        ),
        source("src/cli/mod.rs", "use crate::ui::run;\n"),
        source("src/ui/mod.rs", "pub fn run() {}\n"),
        source("src/ui/a.rs", "use super::b::B;\npub struct A;\n"),
        source("src/ui/b.rs", "use crate::ui::a::A;\npub struct B;\n"),
    ];
    let found = violations(&files);
    let expect = [
        "src/render/mod.rs: imports `crate::copy::NO_BROWSER`, but `render` may import only: policy, page, fetch, inspect",
        "src/cli/mod.rs: imports `crate::ui::run`, but `cli` may import only:",
        "src/page/mod.rs: uses `egui::`, but `page` is pure",
        "src/page/mod.rs: uses `std::fs`, but `page` is pure",
        "import circle: ui::a → ui::b → ui::a",
    ];
    for line in expect {
        assert!(
            found.iter().any(|f| f.starts_with(line)),
            "missing {line:?} in {found:#?}"
        );
    }
    assert_eq!(found.len(), expect.len(), "{found:#?}");
}
