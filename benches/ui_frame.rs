//! Frame time of the desktop inspector (headless, egui_kittest) with a large page
//! loaded: the largest corpus page and a generated 50,000-link page.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use follow_inspector::ui::InspectorApp;

fn loaded(path: &Path) -> Harness<'static, InspectorApp> {
    let target = path.display().to_string();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_max_steps(10_000)
        .build_eframe(move |cc| {
            // What eframe's `system_fonts` gives the real window: CJK link text.
            cc.egui_ctx.add_font_provider(std::sync::Arc::new(
                egui_system_font_provider::SystemFontProvider::new(),
            ));
            InspectorApp::new(cc, Some(target), Some(std::env::temp_dir()))
        });
    while harness.state().is_busy() {
        harness.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    harness.step();
    assert!(
        harness.state().error().is_none(),
        "{:?}",
        harness.state().error()
    );
    harness
}

fn page_with_links(n: usize) -> PathBuf {
    let mut html = String::from(
        "<html><head><meta charset=utf-8><link rel=canonical href=\"https://acme.test/\"></head><body>",
    );
    let kinds = [
        "/about/{i}",
        "/blog/{i}",
        "https://shop.acme.test/{i}",
        "/file-{i}.pdf",
        "/x/{i}",
    ];
    for i in 0..n {
        let href = kinds[i % kinds.len()].replace("{i}", &i.to_string());
        let _ = write!(html, "<a href=\"{href}\">Link {i}</a>");
    }
    html.push_str("</body></html>");
    let path = std::env::temp_dir().join(format!("follow-inspector-bench-{n}.html"));
    std::fs::write(&path, html).expect("write the generated page");
    path
}

/// One keystroke and its frame: a letter, or (every other time) a Backspace,
/// so a typed-in list stays the same size.
fn keystroke(harness: &mut Harness<'static, InspectorApp>, typed: &mut usize) {
    if typed.is_multiple_of(2) {
        harness.event(egui::Event::Text("x".into()));
    } else {
        harness.key_press(egui::Key::Backspace);
    }
    *typed += 1;
    harness.step();
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("ui_frame");
    group.sample_size(30);
    let generated = page_with_links(50_000);
    let mut harness = loaded(&generated);
    group.bench_function("generated_50k_links", |b| b.iter(|| harness.step()));

    // Scrolling the table: a wheel notch over the rows every frame.
    harness.hover_at(egui::pos2(640.0, 500.0));
    group.bench_function("generated_50k_links_scrolling", |b| {
        b.iter(|| {
            harness.event(egui::Event::MouseWheel {
                unit: egui::MouseWheelUnit::Line,
                delta: egui::vec2(0.0, -3.0),
                modifiers: egui::Modifiers::NONE,
                phase: egui::TouchPhase::Move,
                source: egui::MouseWheelSource::Wheel,
            });
            harness.step();
        })
    });

    // Typing in a keyword field: every character decides the 50,000 links
    // again, so a frame holds a whole re-classification.
    harness.get_by_label("White keywords").focus();
    harness.step();
    let mut typed = 0usize;
    group.bench_function("generated_50k_links_typing_a_keyword", |b| {
        b.iter(|| keystroke(&mut harness, &mut typed))
    });

    // A white list of 100,000 keywords pasted in, past the limit of 10,000:
    // the table keeps its verdicts and the panel shows the list's size in
    // place of its field, so keystrokes after the paste stay a frame.
    let keywords: Vec<String> = (0..100_000).map(|i| format!("kw{i}")).collect();
    harness.event(egui::Event::Text(format!(",{}", keywords.join(","))));
    harness.step();
    group.bench_function("generated_50k_links_typing_in_100k_keywords", |b| {
        b.iter(|| keystroke(&mut harness, &mut typed))
    });

    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/pages/013.html");
    if corpus.exists() {
        let mut harness = loaded(&corpus);
        group.bench_function("corpus_013_largest", |b| b.iter(|| harness.step()));
    } else {
        eprintln!("skipped corpus_013_largest: {} is absent", corpus.display());
    }
    group.finish();
}

criterion_group!(ui_frame, benches);
criterion_main!(ui_frame);
