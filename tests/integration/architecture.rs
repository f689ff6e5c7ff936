//! The house rules, read from the source: each layer imports only the layers
//! before it, `policy/` and `page/` do no I/O, no two files import each
//! other (directly or round a longer circle), and in `ui/` panels and tasks
//! meet only in the app.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::repo_path;

/// The layers, first to last: a module may import the modules of earlier
/// layers only (and its own). `cli` and `ui` share a layer, so neither
/// imports the other; `main` is the binary.
const LAYERS: &[&[&str]] = &[
    &["policy", "error_text"],
    &["page"],
    &["fetch"],
    &["inspect"],
    &["render"],
    &["par"],
    &["crawl"],
    &["diff"],
    &["archive"],
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
    "std::io::stdin",
    "std::io::stdout",
    "std::io::stderr",
    "tokio::",
    "rustls::",
    "println!",
    "eprintln!",
    "print!",
    "eprint!",
    ".exists()",
    ".is_file()",
    ".is_dir()",
    ".metadata()",
    "read_dir(",
    "canonicalize(",
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

/// The code with comments and the contents of string and char literals
/// blanked out, so a doc comment or a message that names a path is not read as
/// an import (and `"https://…"` does not hide the rest of its line).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                if chars[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if c == 'r' && matches!(next, Some('"') | Some('#')) && !is_ident(out.chars().last())
        {
            // A raw string: r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                match chars.get(j) {
                    None => break,
                    Some('"') if (1..=hashes).all(|h| chars.get(j + h) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    Some(_) => j += 1,
                }
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && char_literal_end(&chars, i).is_some() {
            i = char_literal_end(&chars, i).unwrap_or(i + 1);
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// Where a char literal that starts at `at` ends (a lifetime is not one).
fn char_literal_end(chars: &[char], at: usize) -> Option<usize> {
    match (chars.get(at + 1), chars.get(at + 2)) {
        (Some('\\'), _) => (at + 3..chars.len().min(at + 12))
            .find(|&j| chars[j] == '\'')
            .map(|j| j + 1),
        (Some(_), Some('\'')) => Some(at + 3),
        _ => None,
    }
}

/// Where an inline `#[cfg(test)] mod name { … }` starts: from there on, the
/// file's `super` is the file itself. (`#[cfg(test)] mod x;` is a file of its own.)
fn test_module_start(code: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]") {
        let start = from + at;
        let rest = code[start + "#[cfg(test)]".len()..].trim_start();
        if let Some(after_mod) = rest.strip_prefix("mod ") {
            let name_end = after_mod
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(after_mod.len());
            if after_mod[name_end..].trim_start().starts_with('{') {
                return Some(start);
            }
        }
        from = start + 1;
    }
    None
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
            out.push(source(&format!("src/{}", rel.display()), &text));
        }
    }
}

/// Every path the text names after `prefix` (`crate::`, `super::`,
/// `follow_inspector::`), grouped imports (`crate::{a, b::{c, d}}`) spread out.
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let boundary = !is_ident(rest[..at].chars().next_back()) && !rest[..at].ends_with("::");
        rest = &rest[at + prefix.len()..];
        if boundary {
            spread(rest, &[], &mut out);
        }
    }
    out.retain(|p| !p.is_empty());
    out
}

/// The paths of one use tree at the start of `text`, after `base`.
fn spread(text: &str, base: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = base.to_vec();
    let mut rest = text;
    loop {
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end > 0 {
            path.push(rest[..end].to_owned());
        }
        match rest[end..].strip_prefix("::") {
            Some(next) if next.starts_with('{') => {
                for item in top_level_items(&next[1..]) {
                    spread(item.trim(), &path, out);
                }
                return;
            }
            Some(next) if next.starts_with(|c: char| c.is_alphabetic() || c == '_') => {
                rest = next;
            }
            _ => break,
        }
        if end == 0 {
            break;
        }
    }
    if rest.starts_with('{') && path.len() == base.len() {
        for item in top_level_items(&rest[1..]) {
            spread(item.trim(), &path, out);
        }
        return;
    }
    out.push(path);
}

/// The comma-separated items of a `{…}` group (its text after the `{`), nested
/// groups kept whole.
fn top_level_items(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&text[start..i]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&text[start..]);
    items
}

/// The deepest module of `path` that is a file, as a module path.
fn resolve(path: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|m| modules.contains(m))
}

/// The modules a file imports: `crate::`, `super::` (`super::super::` too)
/// and, in the binary, `follow_inspector::` paths, and its own child modules
/// named by a relative or `self::` path, each resolved to a file. A parent's
/// `mod child;` and `pub use child::…` only declare the child and are not
/// counted; using a child is.
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
        let own: Vec<String> = if super_is_self {
            file.module.clone()
        } else {
            file.module[..file.module.len().saturating_sub(1)].to_vec()
        };
        for path in paths_after(text, "super::") {
            let mut base = own.clone();
            let mut rest = path.as_slice();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            let full: Vec<String> = base.into_iter().chain(rest.iter().cloned()).collect();
            if let Some(m) = resolve(&full, modules) {
                out.push((format!("super::{}", path.join("::")), m));
            }
        }
    }
    let used = without_reexports(&file.code);
    for child in modules
        .iter()
        .filter(|m| m.len() == file.module.len() + 1 && m.starts_with(&file.module))
    {
        let name = &child[child.len() - 1];
        let named = paths_after(&used, &format!("{name}::"))
            .into_iter()
            .chain(paths_after(&used, &format!("self::{name}::")))
            .next();
        if named.is_some() {
            out.push((format!("{name}::…"), child.clone()));
        }
    }
    out
}

/// The code without its `pub use …;` re-exports and `mod …;` declarations.
fn without_reexports(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = ["pub use ", "pub(crate) use ", "pub(super) use "]
        .iter()
        .filter_map(|p| rest.find(p))
        .min()
    {
        out.push_str(&rest[..at]);
        rest = rest[at..].find(';').map_or("", |end| &rest[at + end + 1..]);
    }
    out.push_str(rest);
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
    if let Some(main) = files.iter().find(|f| f.module == ["main"]) {
        found.extend(main_only_dispatches(main));
    }
    found.extend(circles(&graph));
    found.sort();
    found.dedup();
    found
}

/// The binary parses the command line and hands it to `cli` or `ui`: one
/// function, no words of its own, nothing but those two of the crate.
fn main_only_dispatches(main: &SourceFile) -> Vec<String> {
    let mut found = Vec::new();
    let functions = main.code.matches("fn ").count();
    if functions != 1 {
        found.push(format!(
            "{}: has {functions} functions, but the binary only dispatches (one `fn main`)",
            main.path
        ));
    }
    for printing in ["print!", "println!", "eprint!", "eprintln!"] {
        let called = main
            .code
            .match_indices(printing)
            .any(|(at, _)| !is_ident(main.code[..at].chars().next_back()));
        if called {
            found.push(format!(
                "{}: uses `{printing}`, but the binary only dispatches (`cli` and `ui` say things)",
                main.path
            ));
        }
    }
    for path in paths_after(&main.code, "follow_inspector::") {
        if !matches!(path.first().map(String::as_str), Some("cli" | "ui")) {
            found.push(format!(
                "{}: imports `follow_inspector::{}`, but the binary only dispatches to `cli` and `ui`",
                main.path,
                path.join("::")
            ));
        }
    }
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

/// A file's text read as code, its inline test module apart.
fn source(path: &str, text: &str) -> SourceFile {
    let rel = Path::new(path.trim_start_matches("src/"));
    let code = code_only(text);
    let (code, tests) = match test_module_start(&code) {
        Some(at) => (code[..at].to_owned(), code[at..].to_owned()),
        None => (code, String::new()),
    };
    SourceFile {
        path: path.to_owned(),
        module: module_of(rel),
        code,
        tests,
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
        // A parent that uses its child, which uses the parent back.
        source(
            "src/fetch/mod.rs",
            "mod http;\nfn f() { http::get(); }\npub struct T;\n",
        ),
        source("src/fetch/http.rs", "use super::T;\npub fn get() {}\n"),
        // A parent that only re-exports its child is not a circle.
        source(
            "src/inspect/mod.rs",
            "mod tree;\npub use tree::order;\npub struct I;\n",
        ),
        source("src/inspect/tree.rs", "use super::I;\npub fn order() {}\n"),
        // Nested groups and `super::super::` are read; strings and comments are not.
        source(
            "src/load/x.rs",
            "use crate::{fetch::{T, http::get}, inspect::I, report::{R, S}};\n\
             fn f() { let _ = \"crate::ui::run and https://x//\"; super::super::cli::go(); }\n\
             /* crate::ui::b::B */\n",
        ),
        source("src/load/mod.rs", "mod x;\n"),
        source("src/report/mod.rs", "pub struct R;\n"),
        source(
            "src/main.rs",
            "use follow_inspector::{cli, copy};\nfn main() { eprintln!(\"hi\"); }\nfn other() {}\n",
        ),
    ];
    let found = violations(&files);
    let expect = [
        "src/render/mod.rs: imports `crate::copy::NO_BROWSER`, but `render` may import only: policy, error_text, page, fetch, inspect",
        "src/cli/mod.rs: imports `crate::ui::run`, but `cli` may import only:",
        "src/page/mod.rs: uses `egui::`, but `page` is pure",
        "src/page/mod.rs: uses `std::fs`, but `page` is pure",
        "import circle: ui::a → ui::b → ui::a",
        "import circle: fetch → fetch::http → fetch",
        "src/load/x.rs: imports `super::super::cli::go`, but `load` may import only:",
        "src/load/x.rs: imports `crate::report::R`, but `load` may import only:",
        "src/load/x.rs: imports `crate::report::S`, but `load` may import only:",
        "src/main.rs: has 2 functions",
        "src/main.rs: uses `eprintln!`",
        "src/main.rs: imports `follow_inspector::copy`",
    ];
    for line in expect {
        assert!(
            found.iter().any(|f| f.starts_with(line)),
            "missing {line:?} in {found:#?}"
        );
    }
    assert_eq!(found.len(), expect.len(), "{found:#?}");
}

/// The rooms of `ui/`: a panel (`ui/panels/`) draws and returns commands, a
/// task (`ui/tasks/`) runs work off the frame; neither imports the other or
/// the app, and only `ui/app/`, which carries out the commands and owns the
/// tasks, imports both. Every break, in words.
fn ui_rooms(files: &[SourceFile]) -> Vec<String> {
    const ROOMS: [&str; 3] = ["panels", "tasks", "app"];
    fn room(module: &[String]) -> Option<&'static str> {
        match module {
            [ui, room, ..] if ui == "ui" => ROOMS.into_iter().find(|r| r == room),
            _ => None,
        }
    }
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let mut found = Vec::new();
    for file in files {
        if file.module.first().is_none_or(|top| top != "ui") {
            continue;
        }
        let own = room(&file.module);
        let mut reached = BTreeSet::new();
        for (written, target) in imports(file, &modules) {
            let Some(other) = room(&target) else {
                continue;
            };
            if Some(other) == own {
                continue;
            }
            reached.insert(other);
            let rule = match (own, other) {
                (Some("panels"), "tasks" | "app") => {
                    "a panel imports no task and no part of the app"
                }
                (Some("tasks"), "panels" | "app") => {
                    "a task imports no panel and no part of the app"
                }
                _ => continue,
            };
            found.push(format!("{}: imports `{written}`, but {rule}", file.path));
        }
        if own != Some("app") && reached.contains("panels") && reached.contains("tasks") {
            found.push(format!(
                "{}: imports both `ui/panels/` and `ui/tasks/`, but only `ui/app/` may",
                file.path
            ));
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn panels_and_tasks_meet_only_in_the_app() {
    let root = repo_path("src");
    let mut files = Vec::new();
    read_sources(&root, &root, &mut files);
    // The rooms are there to be checked: the rule is not kept by an empty house.
    for room in ["src/ui/panels/", "src/ui/tasks/", "src/ui/app/"] {
        let n = files.iter().filter(|f| f.path.starts_with(room)).count();
        assert!(n >= 3, "read {n} files under {room}");
    }
    let found = ui_rooms(&files);
    assert!(
        found.is_empty(),
        "the rooms of ui/ are broken:\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_ui_room_check_names_each_import_across_the_rooms() {
    let files = [
        source(
            "src/ui/mod.rs",
            "mod app;\nmod panels;\nmod tasks;\npub use app::App;\n",
        ),
        source("src/ui/state.rs", "pub struct S;\n"),
        source("src/ui/app/mod.rs", "pub struct App;\n"),
        source(
            "src/ui/panels/mod.rs",
            "pub mod top_bar;\npub mod results;\n",
        ),
        source("src/ui/tasks/mod.rs", "pub mod load;\n"),
        source("src/ui/tasks/load.rs", "pub struct Loader;\n"),
        // A panel that starts a load itself.
        source(
            "src/ui/panels/top_bar.rs",
            "use crate::ui::tasks::load::Loader;\nuse crate::ui::state::S;\n",
        ),
        // Two floors up, from a panel's folder, to the app.
        source(
            "src/ui/panels/results/mod.rs",
            "fn f() { super::super::app::App::go(); }\n",
        ),
        // A task that draws, and one that reaches into the app (its tests count too).
        source(
            "src/ui/tasks/save.rs",
            "use crate::ui::{panels::top_bar::show, state::S};\n\
             #[cfg(test)]\nmod tests {\n    use crate::ui::app::App;\n}\n",
        ),
        // Outside the app, one file joining both rooms.
        source(
            "src/ui/widgets.rs",
            "use crate::ui::{panels::top_bar, tasks::load::Loader};\n",
        ),
        // The app may import both; words and comments that name a room are no import.
        source(
            "src/ui/app/loading.rs",
            "use crate::ui::panels::top_bar;\nuse crate::ui::tasks::load::Loader;\n",
        ),
        source(
            "src/ui/panels/detail.rs",
            "// not crate::ui::tasks::load\nfn f() { let _ = \"crate::ui::app::App\"; }\n",
        ),
    ];
    let found = ui_rooms(&files);
    let expect = [
        "src/ui/panels/results/mod.rs: imports `super::super::app::App::go`, but a panel imports no task and no part of the app",
        "src/ui/panels/top_bar.rs: imports `crate::ui::tasks::load::Loader`, but a panel imports no task and no part of the app",
        "src/ui/tasks/save.rs: imports `crate::ui::app::App`, but a task imports no panel and no part of the app",
        "src/ui/tasks/save.rs: imports `crate::ui::panels::top_bar::show`, but a task imports no panel and no part of the app",
        "src/ui/widgets.rs: imports both `ui/panels/` and `ui/tasks/`, but only `ui/app/` may",
    ];
    assert_eq!(found, expect, "{found:#?}");
}

/// What `cli` and `report` write to a terminal goes through the one escaping
/// writer: only `cli/output.rs` prints or takes stdout and stderr.
fn prints_outside_the_writer(files: &[SourceFile]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let top = file.module.first().map(String::as_str);
        if !matches!(top, Some("cli" | "report")) || file.path == "src/cli/output.rs" {
            continue;
        }
        for printing in [
            "print!",
            "println!",
            "eprint!",
            "eprintln!",
            "stdout()",
            "stderr()",
        ] {
            let called = file
                .code
                .match_indices(printing)
                .any(|(at, _)| !is_ident(file.code[..at].chars().next_back()));
            if called {
                found.push(format!(
                    "{}: uses `{printing}`, but only src/cli/output.rs writes to the terminal",
                    file.path
                ));
            }
        }
    }
    found
}

#[test]
fn only_the_escaping_writer_prints() {
    let root = repo_path("src");
    let mut files = Vec::new();
    read_sources(&root, &root, &mut files);
    let found = prints_outside_the_writer(&files);
    assert!(found.is_empty(), "{}", found.join("\n"));
    let bad = [
        source("src/cli/inspect.rs", "fn f() { eprintln!(\"x\"); }\n"),
        source(
            "src/report/mod.rs",
            "fn f() { let _ = std::io::stdout(); }\n",
        ),
        source("src/cli/output.rs", "fn f() { eprint!(\"ok here\"); }\n"),
        source(
            "src/ui/mod.rs",
            "fn f() { eprintln!(\"not this rule's\"); }\n",
        ),
    ];
    let found = prints_outside_the_writer(&bad);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("src/cli/inspect.rs: uses `eprintln!`"));
    assert!(found[1].starts_with("src/report/mod.rs: uses `stdout()`"));
}
