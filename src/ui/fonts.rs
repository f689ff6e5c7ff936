//! egui's bundled fonts have no CJK or Arabic glyphs: find installed fonts that
//! have them and add them as fallbacks, so link text renders as text, not boxes.

use std::sync::Arc;

use egui::{FontData, FontDefinitions, FontFamily};

/// Families known to cover CJK (with kana and Hangul), Arabic and Cyrillic, in
/// order of preference. The first CJK one found is enough for CJK.
const FALLBACK_FAMILIES: [&str; 12] = [
    "WenQuanYi Micro Hei",
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Droid Sans Fallback",
    "Microsoft YaHei",
    "PingFang SC",
    "Hiragino Sans",
    "Noto Sans Arabic",
    "Noto Naskh Arabic",
    "DejaVu Sans",
    "Arial Unicode MS",
];

/// Loads the installed fallback fonts; returns their family names (empty when the
/// machine has none, and the README names the package to install).
pub fn fallback_fonts() -> Vec<(String, FontData)> {
    let mut db = fontdb::Database::new();
    db.load_system_fonts();
    let mut out: Vec<(String, FontData)> = Vec::new();
    for family in FALLBACK_FAMILIES {
        let query = fontdb::Query {
            families: &[fontdb::Family::Name(family)],
            ..fontdb::Query::default()
        };
        let Some(id) = db.query(&query) else { continue };
        let data = db.with_face_data(id, |bytes, index| FontData {
            index,
            ..FontData::from_owned(bytes.to_vec())
        });
        if let Some(data) = data {
            out.push((family.to_owned(), data));
        }
    }
    out
}

/// Installs `fonts` after egui's own, for both families.
pub fn install(ctx: &egui::Context, fonts: Vec<(String, FontData)>) {
    let mut defs = FontDefinitions::default();
    for (name, data) in fonts {
        defs.font_data.insert(name.clone(), Arc::new(data));
        for family in [FontFamily::Proportional, FontFamily::Monospace] {
            defs.families.entry(family).or_default().push(name.clone());
        }
    }
    ctx.set_fonts(defs);
}
