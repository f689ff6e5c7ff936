//! Which rows the table shows and in what order: hidden verdicts, search,
//! region, only-changed and only-added-by-script filters, then the sort. Pure:
//! no drawing, so it is tested on its own.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use crate::corpus::truth::{Target, TargetKind};
use crate::inspect::{InspectedPage, LinkSource};
use crate::policy::compare::LinkChange;
use crate::policy::{LinkDecision, PageDecision, Region, Verdict};

/// A column the table can be sorted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortColumn {
    Index,
    Verdict,
    Score,
    Rank,
    Url,
    Text,
    Keyword,
    Region,
    /// The compared profile's verdict.
    Compared,
    /// The link's kind in the targets file.
    Target,
}

/// How the rows are ordered: document order, or by a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sort {
    pub column: SortColumn,
    pub descending: bool,
}

/// The shown page under a second profile (Compare with…).
#[derive(Clone, Copy)]
pub struct PageCompare<'a> {
    pub name: &'a str,
    pub decision: &'a PageDecision,
    /// The links that change, in document order.
    pub changes: &'a [LinkChange],
    /// Bumped whenever the comparison is computed again.
    pub generation: u64,
}

impl<'a> PageCompare<'a> {
    pub fn change(self, index: usize) -> Option<&'a LinkChange> {
        self.changes
            .binary_search_by_key(&index, |c| c.index)
            .ok()
            .and_then(|i| self.changes.get(i))
    }
}

/// The shown page's targets, when a targets file is in use.
#[derive(Clone, Copy)]
pub struct PageTargets<'a> {
    pub targets: &'a [Target],
    /// Bumped whenever the targets file is read again.
    pub generation: u64,
}

impl PageTargets<'_> {
    /// The kind of target `link` is on this page: its key (its URL's
    /// `url_key`) is a target's key (SPEC 11).
    /// A duplicate is not: the first link with the URL is the target.
    pub fn kind_of(&self, link: &LinkDecision) -> Option<TargetKind> {
        if link.verdict == crate::policy::Verdict::Duplicate {
            return None;
        }
        let key = link.key.as_deref()?;
        self.targets.iter().find(|t| t.key == key).map(|t| t.kind)
    }
}

/// What the user narrowed and ordered the table by.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowFilter {
    pub hidden: BTreeSet<Verdict>,
    pub search: String,
    pub sort: Option<Sort>,
    /// Rendered mode: show only the links scripts added.
    pub only_added_by_script: bool,
    /// Comparing: show only the links that change under the other profile.
    pub only_changed: bool,
    /// Show only the links in this part of the page.
    pub region: Option<Region>,
    /// A targets file is in use: show only the page's targets.
    pub only_targets: bool,
}

impl RowFilter {
    /// Shows only `verdict`, or everything again when it already is the only one.
    pub fn show_only(&mut self, verdict: Verdict) {
        let only: BTreeSet<Verdict> = Verdict::ALL
            .iter()
            .copied()
            .filter(|&v| v != verdict)
            .collect();
        if self.hidden == only {
            self.hidden.clear();
        } else {
            self.hidden = only;
        }
    }

    /// A header click: ascending, then descending, then document order.
    pub fn click_header(&mut self, column: SortColumn) {
        self.sort = match self.sort {
            Some(s) if s.column == column && !s.descending => Some(Sort {
                column,
                descending: true,
            }),
            // A third click goes back to document order.
            Some(s) if s.column == column => None,
            _ => Some(Sort {
                column,
                descending: false,
            }),
        };
    }
}

fn matches(link: &LinkDecision, needle: &str) -> bool {
    needle.is_empty()
        || link.text.to_lowercase().contains(needle)
        || link
            .url
            .as_ref()
            .map_or(link.href.to_lowercase().contains(needle), |u| {
                u.as_str().to_lowercase().contains(needle)
            })
}

/// Followed first, as the chips read.
fn verdict_order(v: Verdict) -> usize {
    Verdict::ALL.len() - Verdict::ALL.iter().position(|&a| a == v).unwrap_or(0)
}

fn compare(
    column: SortColumn,
    a: &LinkDecision,
    b: &LinkDecision,
    other: Option<&PageDecision>,
    targets: Option<PageTargets<'_>>,
) -> Ordering {
    match column {
        SortColumn::Index => a.index.cmp(&b.index),
        SortColumn::Verdict => verdict_order(a.verdict).cmp(&verdict_order(b.verdict)),
        SortColumn::Score => a.score.cmp(&b.score),
        SortColumn::Rank => a.rank.cmp(&b.rank),
        SortColumn::Url => {
            let url =
                |l: &LinkDecision| l.url.as_ref().map_or(l.href.to_string(), |u| u.to_string());
            url(a).cmp(&url(b))
        }
        SortColumn::Text => a.text.to_lowercase().cmp(&b.text.to_lowercase()),
        SortColumn::Keyword => {
            let kw = |l: &LinkDecision| l.keyword().map(|k| k.keyword.clone());
            kw(a).cmp(&kw(b))
        }
        SortColumn::Region => a.region.cmp(&b.region),
        SortColumn::Compared => {
            let theirs = |l: &LinkDecision| {
                other
                    .and_then(|d| d.links.get(l.index))
                    .map(|o| verdict_order(o.verdict))
            };
            theirs(a).cmp(&theirs(b))
        }
        SortColumn::Target => {
            let kind = |l: &LinkDecision| targets.and_then(|t| t.kind_of(l));
            kind(a).cmp(&kind(b))
        }
    }
}

/// The indexes of `page`'s links that `filter` lets through, in its order.
pub fn shown_rows(
    filter: &RowFilter,
    page: Option<&InspectedPage>,
    comparison: Option<PageCompare<'_>>,
    targets: Option<PageTargets<'_>>,
) -> Vec<usize> {
    // Without a comparison there is nothing to show "only changed" of.
    let only_changed = filter.only_changed && comparison.is_some();
    let needle = filter.search.trim().to_lowercase();
    let links = page
        .map(|p| p.decision.links.as_slice())
        .unwrap_or_default();
    let added = |l: &LinkDecision| page.and_then(|p| p.source(l)) == Some(LinkSource::RenderedOnly);
    let mut rows: Vec<usize> = links
        .iter()
        .filter(|l| !filter.hidden.contains(&l.verdict) && matches(l, &needle))
        .filter(|l| !filter.only_added_by_script || added(l))
        .filter(|l| filter.region.is_none_or(|r| l.region == r))
        .filter(|l| !only_changed || comparison.is_some_and(|c| c.change(l.index).is_some()))
        .filter(|l| !filter.only_targets || targets.is_none_or(|t| t.kind_of(l).is_some()))
        .map(|l| l.index)
        .collect();
    if let Some(sort) = filter.sort {
        // A stable sort: ties stay in document order either way.
        rows.sort_by(|&a, &b| match (links.get(a), links.get(b)) {
            (Some(a), Some(b)) => {
                let order = compare(sort.column, a, b, comparison.map(|c| c.decision), targets);
                if sort.descending {
                    order.reverse()
                } else {
                    order
                }
            }
            _ => Ordering::Equal,
        });
    }
    rows
}

/// What the shown rows depend on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RowsKey {
    generation: u64,
    page: usize,
    filter: RowFilter,
    compared: Option<u64>,
    targets: Option<u64>,
}

/// The shown rows, kept until the inspection, page, filter or comparison change.
#[derive(Default)]
pub struct RowsCache {
    key: Option<RowsKey>,
    rows: Vec<usize>,
}

impl RowsCache {
    /// The rows of page `page` of the inspection at `generation`.
    pub fn rows(
        &mut self,
        filter: &RowFilter,
        current: Option<&InspectedPage>,
        (generation, page): (u64, usize),
        comparison: Option<PageCompare<'_>>,
        targets: Option<PageTargets<'_>>,
    ) -> &[usize] {
        let mut filter = filter.clone();
        filter.only_changed &= comparison.is_some();
        filter.only_targets &= targets.is_some();
        let key = RowsKey {
            generation,
            page,
            filter,
            compared: comparison.map(|c| c.generation),
            targets: targets.map(|t| t.generation),
        };
        if self.key.as_ref() != Some(&key) {
            self.rows = shown_rows(&key.filter, current, comparison, targets);
            self.key = Some(key);
        }
        &self.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::{Inspection, Limits};
    use crate::policy::Settings;
    use crate::policy::compare::compare_pages;
    use url::Url;

    fn inspection(html: &str) -> Inspection {
        let url = Url::parse("https://acme.test/").unwrap();
        Inspection::saved_page(
            html.as_bytes(),
            Some(url),
            Limits::of_depth(2),
            Settings::default(),
        )
        .unwrap()
    }

    fn page(html: &str) -> InspectedPage {
        inspection(html).pages.remove(0)
    }

    const MIXED: &str = r#"<html><body><nav>
            <a href="/about">About us</a>
            <a href="/login">Log in</a>
            <a href="https://elsewhere.test/about">Partner</a>
            <a href="/contact">Contact</a>
            </nav></body></html>"#;

    /// Followed, blacklisted and off-domain links, with text to search.
    fn mixed() -> InspectedPage {
        page(MIXED)
    }

    fn verdicts(page: &InspectedPage, rows: &[usize]) -> Vec<Verdict> {
        rows.iter()
            .map(|&i| page.decision.links[i].verdict)
            .collect()
    }

    #[test]
    fn without_a_filter_every_link_shows_in_document_order() {
        let page = mixed();
        let rows = shown_rows(&RowFilter::default(), Some(&page), None, None);
        assert_eq!(rows, (0..page.decision.links.len()).collect::<Vec<_>>());
        assert!(shown_rows(&RowFilter::default(), None, None, None).is_empty());
    }

    #[test]
    fn a_hidden_verdict_drops_its_rows_and_show_only_keeps_just_one() {
        let page = mixed();
        let mut filter = RowFilter::default();
        filter.hidden.insert(Verdict::OffDomain);
        let rows = shown_rows(&filter, Some(&page), None, None);
        assert!(!verdicts(&page, &rows).contains(&Verdict::OffDomain));
        assert_eq!(rows.len(), page.decision.links.len() - 1);

        filter.show_only(Verdict::Followed);
        let rows = shown_rows(&filter, Some(&page), None, None);
        assert!(!rows.is_empty());
        assert!(
            verdicts(&page, &rows)
                .iter()
                .all(|&v| v == Verdict::Followed)
        );
        // Asking again for the only shown verdict shows everything.
        filter.show_only(Verdict::Followed);
        assert!(filter.hidden.is_empty());
    }

    #[test]
    fn the_search_matches_text_or_url_whatever_the_case() {
        let page = mixed();
        let filter = RowFilter {
            search: "  ABOUT ".into(),
            ..RowFilter::default()
        };
        let rows = shown_rows(&filter, Some(&page), None, None);
        let texts: Vec<&str> = rows
            .iter()
            .map(|&i| &*page.decision.links[i].text)
            .collect();
        assert_eq!(texts, ["About us", "Partner"]);
    }

    #[test]
    fn the_region_filter_keeps_only_that_part_of_the_page() {
        let page = page(
            r#"<html><body><nav><a href="/about">About</a></nav>
            <footer><a href="/contact">Contact</a></footer></body></html>"#,
        );
        let nav = page.decision.links[0].region;
        assert_ne!(nav, page.decision.links[1].region);
        let filter = RowFilter {
            region: Some(nav),
            ..RowFilter::default()
        };
        assert_eq!(shown_rows(&filter, Some(&page), None, None), [0]);
    }

    #[test]
    fn a_header_clicked_three_times_sorts_up_down_then_back_to_page_order() {
        let page = mixed();
        let mut filter = RowFilter::default();
        filter.click_header(SortColumn::Text);
        let up = shown_rows(&filter, Some(&page), None, None);
        let texts = |rows: &[usize]| -> Vec<String> {
            rows.iter()
                .map(|&i| page.decision.links[i].text.to_lowercase())
                .collect()
        };
        let mut sorted = texts(&up);
        sorted.sort();
        assert_eq!(texts(&up), sorted);
        filter.click_header(SortColumn::Text);
        let down = shown_rows(&filter, Some(&page), None, None);
        assert_eq!(down, up.iter().rev().copied().collect::<Vec<_>>());
        filter.click_header(SortColumn::Text);
        assert_eq!(filter.sort, None);
        assert_eq!(
            shown_rows(&filter, Some(&page), None, None),
            (0..page.decision.links.len()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn sorting_by_verdict_ascending_puts_followed_first_as_the_chips_read() {
        let page = mixed();
        let filter = RowFilter {
            sort: Some(Sort {
                column: SortColumn::Verdict,
                descending: false,
            }),
            ..RowFilter::default()
        };
        let rows = shown_rows(&filter, Some(&page), None, None);
        assert_eq!(verdicts(&page, &rows)[0], Verdict::Followed);
    }

    #[test]
    fn only_changed_keeps_the_links_another_profile_decides_otherwise() {
        let mut inspection = inspection(MIXED);
        let other = Settings {
            follow_allowed_domains: "elsewhere.test".into(),
            ..Settings::default()
        };
        let theirs = inspection.decide_under(&other).remove(0);
        let page = inspection.pages.remove(0);
        let changes = compare_pages(
            &page.decision,
            &theirs,
            &Settings::default().options(),
            &other.options(),
        );
        assert!(!changes.is_empty());
        let comparison = PageCompare {
            name: "B",
            decision: &theirs,
            changes: &changes,
            generation: 1,
        };
        let filter = RowFilter {
            only_changed: true,
            ..RowFilter::default()
        };
        let rows = shown_rows(&filter, Some(&page), Some(comparison), None);
        assert_eq!(rows, changes.iter().map(|c| c.index).collect::<Vec<_>>());
        // Not comparing: "only changed" has nothing to act on.
        assert_eq!(
            shown_rows(&filter, Some(&page), None, None).len(),
            page.decision.links.len()
        );
    }

    #[test]
    fn only_targets_keeps_the_links_the_targets_file_names_and_sorts_by_kind() {
        let page = mixed();
        let target = |url: &str, kind| Target {
            url: url.into(),
            key: url.into(),
            kind,
            line: 2,
        };
        let list = [
            target("https://acme.test/contact", TargetKind::Contact),
            target("https://acme.test/about", TargetKind::About),
        ];
        let targets = PageTargets {
            targets: &list,
            generation: 1,
        };
        let kind = |i: usize| targets.kind_of(&page.decision.links[i]);
        assert_eq!(
            (kind(0), kind(1), kind(3)),
            (Some(TargetKind::About), None, Some(TargetKind::Contact))
        );
        let filter = RowFilter {
            only_targets: true,
            ..RowFilter::default()
        };
        assert_eq!(
            shown_rows(&filter, Some(&page), None, Some(targets)),
            [0, 3]
        );
        // Without a targets file there is nothing to keep only.
        assert_eq!(shown_rows(&filter, Some(&page), None, None).len(), 4);
        let sorted = RowFilter {
            sort: Some(Sort {
                column: SortColumn::Target,
                descending: true,
            }),
            ..RowFilter::default()
        };
        let rows = shown_rows(&sorted, Some(&page), None, Some(targets));
        assert_eq!(&rows[..2], [0, 3]);
    }

    #[test]
    fn the_cache_computes_again_only_when_its_inputs_change() {
        let page = mixed();
        let mut cache = RowsCache::default();
        let mut filter = RowFilter::default();
        let all = cache
            .rows(&filter, Some(&page), (1, 0), None, None)
            .to_vec();
        assert_eq!(all.len(), page.decision.links.len());
        // Same key: the cached rows, even for another page's links.
        assert_eq!(cache.rows(&filter, None, (1, 0), None, None), all);
        filter.hidden.insert(Verdict::Followed);
        assert!(cache.rows(&filter, Some(&page), (1, 0), None, None).len() < all.len());
        assert!(cache.rows(&filter, None, (2, 0), None, None).is_empty());
    }
}
