//! One walk through every view worth seeing, at every window size a user
//! is likely to have (issue 29 item 3, issue 30 items 3-4): the demo page, a
//! crawl with its tree, Compare with a targets file, a reopened archive with
//! its banners, the Corpus view with suggestions, and each dialog, at
//! 800×600, 1024×700 and 1280×800.
//!
//! Modelled on egui_demo_lib's `Demo` trait, where one test iterates every
//! demo: each [`Scene`] opens one state as a person gets there (typing,
//! clicking), and one check asks of each what a user needs:
//!
//! * every enabled button, check box, combo box and text field lies whole
//!   inside the window and in its panel, and does not overlap another; a
//!   control cut by its panel's edge counts only when a user can scroll to
//!   it: the walk hovers its panel and turns the wheel (Shift+wheel when it
//!   is cut at a side) as a person would, and it must come whole into view;
//! * the links table shows at least five whole rows when the page has five
//!   links or more, and a URL cell shows its host;
//! * the detail pane keeps its width when the first row is selected.
//!
//! All failures of all scenes are gathered and reported together.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

use egui::accesskit::Role;
use egui::{Pos2, Rect, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT as _, Queryable as _};
use follow_inspector::copy;
use follow_inspector::fetch::{Capture, Exchange, FetchError, FetchedPage, Fetcher};
use follow_inspector::ui::InspectorApp;
use url::Url;

use crate::fonts::with_system_fonts;
use crate::ui::{app_in, fetch, html_page, run_corpus_view, settle, type_into};

/// The sizes walked: a small laptop, the README's "small window", a common
/// desktop window.
const SIZES: [Vec2; 3] = [
    egui::vec2(800.0, 600.0),
    egui::vec2(1024.0, 700.0),
    egui::vec2(1280.0, 800.0),
];

/// The controls a user acts on.
const CONTROLS: [Role; 6] = [
    Role::Button,
    Role::CheckBox,
    Role::ComboBox,
    Role::TextInput,
    Role::RadioButton,
    Role::SpinButton,
];

/// The host of the walked site: long, as a shop's is, so a narrow URL
/// column has to choose between it and the end of the path.
const HOST: &str = "www.walk-outdoor-shop.com";

/// One state of the window worth seeing, opened as a person gets there.
trait Scene {
    fn name(&self) -> &'static str;
    /// The window at `size` with the scene shown.
    fn open(&self, size: Vec2) -> Harness<'static, InspectorApp>;
    /// The host a URL cell must show, when the scene shows a links table.
    fn host(&self) -> Option<&'static str> {
        None
    }
    /// Only what is in a dialog counts: the rest is behind the modal.
    fn dialog(&self) -> bool {
        false
    }
}

/// A page of the walked site: eight links with long paths, each page with
/// what went over the wire (so it can be saved for a ticket).
struct WalkSite;

impl Fetcher for WalkSite {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let links = [
            ("/US/en/kontakt/#", "Kontakt"),
            ("/US/en/impressum/#", "Impressum"),
            ("/US/en/customer-service/contact-us/#", "Contact us"),
            ("/US/en/stores/find-a-store/#", "Find a store"),
            ("/US/en/blog/2024/summer-collection/#", "Blog"),
            ("/US/en/shop/jackets/rain/#", "Rain jackets"),
            ("/US/en/about/heritage/#", "Our heritage"),
            ("/US/en/legal/privacy/#", "Privacy"),
        ];
        let body: String = links
            .iter()
            .map(|(path, text)| format!("<a href='https://{HOST}{path}'>{text}</a>"))
            .collect();
        let body = format!("<html><body>{body}</body></html>");
        let mut page = html_page(url, 200, &body, 1);
        page.capture = Some(Arc::new(Capture {
            exchanges: vec![Exchange {
                url: url.clone(),
                method: "GET".into(),
                request_headers: vec![("Host".into(), HOST.into())],
                version: "HTTP/1.1".into(),
                status: 200,
                reason: "OK".into(),
                response_headers: vec![("Content-Type".into(), "text/html".into())],
                body: body.into_bytes(),
                truncated: false,
                body_unread: false,
                ip: None,
                at: SystemTime::now(),
            }],
            dom: None,
            rendered: None,
            ..Capture::default()
        }));
        Ok(page)
    }
}

fn start_url() -> String {
    format!("https://{HOST}/US/en/")
}

/// A fresh window at `size`, its profiles in `dir`.
fn window(
    dir: PathBuf,
    size: Vec2,
    fetcher: Option<Arc<dyn Fetcher>>,
) -> Harness<'static, InspectorApp> {
    let mut harness = app_in(dir, fetcher);
    harness.set_size(size);
    harness.run();
    harness
}

/// The config folder of one scene at one size.
fn config(scene: &str, size: Vec2) -> PathBuf {
    crate::temp_dir(&format!("walk-{scene}-{}x{}", size.x, size.y))
}

/// Clicks `label`, from the More menu when a narrow top bar folded it there.
fn click_in_top_bar(harness: &mut Harness<'_, InspectorApp>, label: &str) {
    if harness.query_by_label(label).is_none() {
        harness.get_by_label("More ▾").click();
        harness.run();
    }
    harness.get_by_label(label).click();
    harness.run();
}

/// The window with the walked site crawled (the default depth).
fn crawled(scene: &str, size: Vec2) -> Harness<'static, InspectorApp> {
    let mut harness = window(config(scene, size), size, Some(Arc::new(WalkSite)));
    fetch(&mut harness, &start_url());
    assert_eq!(harness.state().error(), None);
    harness
}

struct DemoPage;

impl Scene for DemoPage {
    fn name(&self) -> &'static str {
        "demo page"
    }
    fn open(&self, size: Vec2) -> Harness<'static, InspectorApp> {
        window(config("demo", size), size, None)
    }
    fn host(&self) -> Option<&'static str> {
        Some("acme.test")
    }
}

struct CrawlTree;

impl Scene for CrawlTree {
    fn name(&self) -> &'static str {
        "a crawl with its tree"
    }
    fn open(&self, size: Vec2) -> Harness<'static, InspectorApp> {
        let harness = crawled("crawl", size);
        assert!(harness.state().inspection().unwrap().pages.len() > 1);
        harness
    }
    fn host(&self) -> Option<&'static str> {
        Some(HOST)
    }
}

struct CompareWithTargets;

impl Scene for CompareWithTargets {
    fn name(&self) -> &'static str {
        "Compare with a targets file"
    }
    fn open(&self, size: Vec2) -> Harness<'static, InspectorApp> {
        let dir = config("compare", size);
        let store = follow_inspector::profiles::ProfileStore::open(Some(&dir)).unwrap();
        store.import("second", "{}").unwrap();
        store
            .set_active(follow_inspector::profiles::BUILT_IN)
            .unwrap();
        let file = dir.join("targets.tsv");
        let row = format!("id\turl\tkind\nx\thttps://{HOST}/US/en/kontakt/#\tcontact\n");
        std::fs::write(&file, row).unwrap();
        let mut harness = window(dir, size, Some(Arc::new(WalkSite)));
        fetch(&mut harness, &start_url());
        harness.state_mut().use_targets_file(file);
        for _ in 0..1000 {
            harness.step();
            if !harness.state().targets_busy() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        settle(&mut harness);
        if harness.query_by_label(copy::LABEL_COMPARE_WITH).is_some() {
            harness
                .get_by_role_and_label(Role::ComboBox, copy::LABEL_COMPARE_WITH)
                .click();
        } else {
            harness.get_by_label("More ▾").click();
            harness.run();
            harness.get_by_label_contains("Compare with…").click();
        }
        harness.run();
        harness.get_by_label("second").click();
        settle(&mut harness);
        assert_eq!(harness.state().comparing(), Some("second"));
        harness
    }
    fn host(&self) -> Option<&'static str> {
        Some(HOST)
    }
}

struct ReopenedArchive;

impl Scene for ReopenedArchive {
    fn name(&self) -> &'static str {
        "a reopened archive of a crawl, with its banners"
    }
    fn open(&self, size: Vec2) -> Harness<'static, InspectorApp> {
        // Saved with an edit, so the archive's settings are not the profile's.
        let mut saving = window(config("archive-save", size), size, Some(Arc::new(WalkSite)));
        saving
            .get_by_label("Allow subdomains · followSubdomain")
            .click();
        saving.run();
        fetch(&mut saving, &start_url());
        let path = crate::temp_dir(&format!("walk-{}", size.x)).join("walk.warc.gz");
        click_in_top_bar(&mut saving, copy::LABEL_SAVE_FOR_TICKET);
        saving.get_by_label(copy::LABEL_ARCHIVE_FILE).focus();
        saving.run();
        saving.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        saving.key_press(egui::Key::Delete);
        saving.run();
        saving
            .get_by_label(copy::LABEL_ARCHIVE_FILE)
            .type_text(&path.display().to_string());
        saving.run();
        saving.key_press(egui::Key::Enter);
        for _ in 0..1000 {
            saving.step();
            if !saving.state().is_saving() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(path.is_file(), "{} was not saved", path.display());

        let (dir, start) = (config("archive", size), path.display().to_string());
        let mut harness = Harness::builder().with_size(size).build_eframe(move |cc| {
            with_system_fonts(&cc.egui_ctx);
            InspectorApp::new(cc, Some(start), Some(dir))
        });
        settle(&mut harness);
        assert_eq!(harness.state().error(), None);
        // An edit on top: the archive's banner says whose settings judge,
        // and the crawl is out of date.
        type_into(&mut harness, "White keywords", ",walk");
        settle(&mut harness);
        harness.get_by_label_contains(copy::STALE_CRAWL);
        harness
    }
    fn host(&self) -> Option<&'static str> {
        Some(HOST)
    }
}

struct CorpusSuggestions;

/// The layout tests' corpus (`into_view::corpus`): two saved pages and their
/// targets, whose run suggests changes.
fn corpus_folder(size: Vec2) -> PathBuf {
    super::into_view::corpus(&format!("walk-{}", size.x))
}

impl Scene for CorpusSuggestions {
    fn name(&self) -> &'static str {
        "the Corpus view with suggestions"
    }
    fn open(&self, size: Vec2) -> Harness<'static, InspectorApp> {
        let pages = corpus_folder(size);
        let mut harness = window(config("corpus", size), size, None);
        run_corpus_view(&mut harness, &pages.join("manifest.tsv"));
        harness
            .get_all_by_label(copy::LABEL_TRY_AS_B)
            .next()
            .unwrap();
        harness
    }
}

/// A dialog opened from the profile menu (⋯), over the demo page.
struct ProfileDialog(&'static str);

impl Scene for ProfileDialog {
    fn name(&self) -> &'static str {
        self.0
    }
    fn open(&self, size: Vec2) -> Harness<'static, InspectorApp> {
        let mut harness = window(config("dialog", size), size, None);
        harness.get_by_label("⋯").click();
        harness.run();
        harness.get_by_label(self.0).click();
        harness.run();
        harness
    }
    fn dialog(&self) -> bool {
        true
    }
}

/// Save for ticket…'s dialog, over a fetched page.
struct SaveForTicket;

impl Scene for SaveForTicket {
    fn name(&self) -> &'static str {
        copy::LABEL_SAVE_FOR_TICKET
    }
    fn open(&self, size: Vec2) -> Harness<'static, InspectorApp> {
        let mut harness = crawled("ticket", size);
        click_in_top_bar(&mut harness, copy::LABEL_SAVE_FOR_TICKET);
        harness.get_by_label(copy::SAVE_FOR_TICKET_TITLE);
        harness
    }
    fn dialog(&self) -> bool {
        true
    }
}

/// Every scene, as egui_demo_lib lists its demos.
fn scenes() -> Vec<Box<dyn Scene>> {
    vec![
        Box::new(DemoPage),
        Box::new(CrawlTree),
        Box::new(CompareWithTargets),
        Box::new(ReopenedArchive),
        Box::new(CorpusSuggestions),
        Box::new(ProfileDialog(copy::LABEL_SAVE_AS)),
        Box::new(ProfileDialog(copy::LABEL_DUPLICATE)),
        Box::new(ProfileDialog(copy::LABEL_IMPORT)),
        Box::new(ProfileDialog(copy::LABEL_EXPORT)),
        Box::new(SaveForTicket),
    ]
}

/// A control on screen: what it is, where, and what of it is shown.
#[derive(Clone, Debug)]
struct Control {
    role: Role,
    label: String,
    rect: Rect,
    /// The part of it its panel and scroll areas do not clip, in the window.
    shown: Rect,
}

impl Control {
    fn key(&self) -> (Role, String) {
        (self.role, self.label.clone())
    }

    /// Shown whole: nothing of it clipped by a panel, a scroll area or the
    /// window's edge.
    fn whole(&self) -> bool {
        self.shown.expand(0.5).contains_rect(self.rect)
    }
}

/// Whether `node` is in a dialog.
fn in_dialog(node: &egui_kittest::Node<'_>) -> bool {
    let mut parent = node.parent();
    while let Some(p) = parent {
        if p.accesskit_node().role() == Role::Dialog {
            return true;
        }
        parent = p.parent();
    }
    false
}

/// What of `node` is shown: its rect clipped as egui clips it (the clip
/// rect of the Ui it was drawn in: panel, scroll area, table cell), in the
/// window. The accesskit tree has no clip rects (and containers no bounds),
/// so this asks egui for the widget's rects by its id.
fn shown_part(
    harness: &Harness<'_, InspectorApp>,
    node: &egui_kittest::Node<'_>,
    window: Rect,
) -> Rect {
    let clipped = widget(harness, node).map_or(node.rect(), |r| r.interact_rect);
    clipped.intersect(window)
}

/// What egui registered for `node` this frame, by its id.
fn widget(
    harness: &Harness<'_, InspectorApp>,
    node: &egui_kittest::Node<'_>,
) -> Option<egui::Response> {
    let value = node.accesskit_node().locate().0.0;
    // SAFETY: not a memory-safety matter (egui's own words): the value is an
    // egui `Id` egui made (accesskit node ids are egui ids), so it has the
    // entropy an `Id` needs.
    let id = unsafe { egui::Id::from_high_entropy_bits(value) };
    harness.ctx.read_response(id)
}

/// The rect of a container (a panel's Ui), which accesskit gives no bounds.
fn egui_rect(harness: &Harness<'_, InspectorApp>, node: &egui_kittest::Node<'_>) -> Option<Rect> {
    widget(harness, node).map(|r| r.rect)
}

fn label_of(node: &egui_kittest::Node<'_>) -> String {
    let n = node.accesskit_node();
    n.label()
        .filter(|l| !l.is_empty())
        .or_else(|| n.value())
        .unwrap_or_default()
}

/// The enabled controls on screen; in a dialog scene only the dialog's.
fn controls(harness: &Harness<'_, InspectorApp>, dialog: bool, window: Rect) -> Vec<Control> {
    harness
        .query_all(By::new().predicate(|n| CONTROLS.contains(&n.role()) && !n.is_disabled()))
        .filter(|node| !dialog || in_dialog(node))
        .map(|node| Control {
            role: node.accesskit_node().role(),
            label: label_of(&node),
            rect: node.rect(),
            shown: shown_part(harness, &node, window),
        })
        .collect()
}

/// Where a control is cut: (left, right, top, bottom). `shown` is its rect
/// intersected with its clip, so even when nothing of it is shown the
/// clip's edge on its side is there (an empty intersection keeps it).
fn cut(c: &Control) -> [bool; 4] {
    [
        c.rect.min.x < c.shown.min.x - 0.5,
        c.rect.max.x > c.shown.max.x + 0.5,
        c.rect.min.y < c.shown.min.y - 0.5,
        c.rect.max.y > c.shown.max.y + 0.5,
    ]
}

/// Scrolls towards a control cut by its panel as a person would: the
/// pointer in the room it is clipped to, next to the cutting edge, the wheel
/// turned a notch at a time (with Shift when it is cut at a side). True
/// when it comes whole into view, or, wider or taller than that room, when
/// its cut end does (a long line of the crawl tree is read by scrolling).
fn scroll_to(
    harness: &mut Harness<'_, InspectorApp>,
    control: &Control,
    dialog: bool,
    window: Rect,
) -> bool {
    let [.., first_right, _, first_down] = cut(control);
    for _ in 0..60 {
        let found = controls(harness, dialog, window);
        let same: Vec<&Control> = found.iter().filter(|c| c.key() == control.key()).collect();
        if same.iter().any(|c| c.whole()) {
            return true;
        }
        let Some(now) = same.first() else {
            return false;
        };
        let [left, right, top, bottom] = cut(now);
        let visible = now.shown.is_positive();
        let too_wide = now.rect.width() > now.shown.width() + 0.5 && visible;
        let too_tall = now.rect.height() > now.shown.height() + 0.5 && visible;
        let end_shown = (!first_right || !right) && (!first_down || !bottom);
        if (too_wide || too_tall) && end_shown && (left || right || top || bottom) {
            return true;
        }
        let clip = now.shown;
        let (x, y, delta, modifiers);
        if top || bottom {
            let distance = if bottom {
                now.rect.max.y - clip.max.y
            } else {
                now.rect.min.y - clip.min.y
            };
            x = now
                .rect
                .center()
                .x
                .clamp(clip.min.x.min(clip.max.x), clip.max.x.max(clip.min.x));
            // Clear of a panel's resize handle on that edge (5 px each side).
            y = if bottom {
                clip.max.y - 10.0
            } else {
                clip.min.y + 10.0
            };
            delta = egui::vec2(0.0, -distance.signum() * distance.abs().clamp(8.0, 60.0));
            modifiers = egui::Modifiers::NONE;
        } else {
            let distance = if right {
                now.rect.max.x - clip.max.x
            } else {
                now.rect.min.x - clip.min.x
            };
            x = if right {
                clip.max.x - 10.0
            } else {
                clip.min.x + 10.0
            };
            y = now
                .rect
                .center()
                .y
                .clamp(clip.min.y.min(clip.max.y), clip.max.y.max(clip.min.y));
            // Shift turns the wheel's vertical notches sideways.
            delta = egui::vec2(0.0, -distance.signum() * distance.abs().clamp(8.0, 60.0));
            modifiers = egui::Modifiers::SHIFT;
        }
        harness.event(egui::Event::PointerMoved(Pos2::new(x, y)));
        harness.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta,
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers,
        });
        // A scroll glides over a few frames.
        harness.run_steps(8);
    }
    false
}

/// The URL cells of the links table wholly shown: their labels.
fn url_cells(harness: &Harness<'_, InspectorApp>, window: Rect) -> Option<Vec<String>> {
    let header = harness
        .query_all_by_role_and_label(Role::Button, copy::COLUMN_URL)
        .next()?;
    let url = header.rect();
    let text = harness
        .query_all_by_role_and_label(Role::Button, copy::COLUMN_TEXT)
        .next()
        .map_or(window.max.x, |t| t.rect().min.x);
    Some(
        harness
            .query_all(By::new().role(Role::Label))
            .filter(|n| {
                let r = n.rect();
                r.min.x >= url.min.x - 1.0
                    && r.max.x <= text + 1.0
                    && r.min.y >= url.max.y - 1.0
                    && shown_part(harness, n, window).height() >= r.height() - 0.5
            })
            .map(|n| label_of(&n))
            .collect(),
    )
}

/// The width of the panel that shows `label` (egui registers each panel's
/// Ui as a widget, so its rect comes by its id as a control's does).
fn pane_width(harness: &Harness<'_, InspectorApp>, label: &str) -> Option<f32> {
    let node = harness.query_all_by_label_contains(label).next()?;
    let mut parent = node.parent();
    while let Some(p) = parent {
        if p.accesskit_node().role() == Role::Pane {
            return Some(egui_rect(harness, &p)?.width());
        }
        parent = p.parent();
    }
    None
}

/// What a user would find wrong with `scene` at `size`.
fn walk(scene: &dyn Scene, size: Vec2) -> Vec<String> {
    let mut harness = scene.open(size);
    let window = Rect::from_min_size(Pos2::ZERO, size);
    let at = format!("{} at {}×{}", scene.name(), size.x, size.y);
    let mut wrong = Vec::new();
    let shown = controls(&harness, scene.dialog(), window);
    for (i, a) in shown.iter().enumerate() {
        for b in &shown[i + 1..] {
            let both = a.shown.intersect(b.shown);
            if both.width() > 1.0 && both.height() > 1.0 {
                wrong.push(format!(
                    "{at}: {:?} “{}” {:?} overlaps {:?} “{}” {:?}",
                    a.role, a.label, a.rect, b.role, b.label, b.rect
                ));
            }
        }
    }

    // The table, as opened.
    let links = harness
        .state()
        .inspection()
        .and_then(|i| i.pages.first())
        .map_or(0, |p| p.decision.links.len());
    if let Some(host) = scene.host()
        && let Some(cells) = url_cells(&harness, window)
    {
        if links >= 5 && cells.len() < 5 {
            wrong.push(format!(
                "{at}: the links table shows {} whole rows of {links}",
                cells.len()
            ));
        }
        if !cells.iter().any(|c| c.contains(host)) {
            wrong.push(format!(
                "{at}: no URL cell shows the host {host}: {cells:?}"
            ));
        }
    } else if scene.host().is_some() {
        wrong.push(format!("{at}: the links table's URL column is not shown"));
    }

    // The controls a panel cuts: reachable by scrolling, or wrong.
    let mut tried = Vec::new();
    for control in shown.iter().filter(|c| !c.whole()) {
        if tried.contains(&control.key()) {
            continue;
        }
        tried.push(control.key());
        if !scroll_to(&mut harness, control, scene.dialog(), window) {
            wrong.push(format!(
                "{at}: {:?} “{}” at {:?} is cut to {:?} and scrolling does not bring it into view",
                control.role, control.label, control.rect, control.shown
            ));
        }
    }

    // The detail pane keeps its width on the first selection.
    if scene.host().is_some()
        && !scene.dialog()
        && let Some(before) = pane_width(&harness, copy::SELECT_A_ROW)
    {
        let first = url_cells(&harness, window).and_then(|c| c.into_iter().find(|c| !c.is_empty()));
        if let Some(first) = first {
            harness.get_all_by_label(&first).next().unwrap().click();
            harness.run();
            if let Some(after) = pane_width(&harness, "Link #")
                && (after - before).abs() > 2.0
            {
                wrong.push(format!(
                    "{at}: the detail pane went from {before:.0} to {after:.0} px on the first selection"
                ));
            }
        }
    }
    wrong
}

#[test]
fn every_view_at_every_size_keeps_its_controls_reachable_and_its_table_readable() {
    let mut wrong = Vec::new();
    for scene in scenes() {
        for size in SIZES {
            wrong.extend(walk(scene.as_ref(), size));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} problems:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Every page fails: the error banner stays above the table.
struct Unreachable;

impl Fetcher for Unreachable {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        Err(FetchError::Dns {
            host: url.host_str().unwrap_or_default().to_owned(),
        })
    }
}

#[test]
fn in_a_short_window_a_banner_folds_to_one_line_and_unfolds_on_its_mark() {
    let size = SIZES[0];
    let mut harness = window(config("fold", size), size, Some(Arc::new(Unreachable)));
    fetch(&mut harness, "https://nowhere.test/");
    let message = harness.get_by_label_contains("DNS: cannot resolve nowhere.test");
    let folded = message.rect();
    // One line, its button in the window.
    assert!(folded.height() < 24.0, "the banner is {folded:?}");
    let close = harness.get_by_label(copy::LABEL_DISMISS).rect();
    assert!(Rect::from_min_size(Pos2::ZERO, size).contains_rect(close));
    harness.get_by_label(copy::BANNER_FOLDED).click();
    harness.run();
    let unfolded = harness
        .get_by_label_contains("DNS: cannot resolve nowhere.test")
        .rect();
    assert!(unfolded.height() > folded.height(), "{unfolded:?}");
    harness.get_by_label(copy::BANNER_UNFOLDED).click();
    harness.run();
    harness.get_by_label(copy::BANNER_FOLDED);
    harness.get_by_label(copy::LABEL_DISMISS).click();
    harness.run();
    assert!(harness.query_by_label(copy::BANNER_FOLDED).is_none());
}
