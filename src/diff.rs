//! `diff`: the same page(s) decided under two settings (SPEC section 9).
//! Pure glue between two inspections and the policy's comparison.

use std::collections::HashMap;

use url::Url;

use crate::inspect::{InspectedPage, Inspection};
use crate::policy::compare::{ChangeSummary, LinkChange, compare_pages, summarize};

/// One page of either crawl, with the changes from A to B.
#[derive(Clone, Debug)]
pub struct PageDiff {
    pub url: Url,
    /// The page's index in each inspection; `None` when only the other
    /// side's crawl reached it.
    pub a: Option<usize>,
    pub b: Option<usize>,
    pub changes: Vec<LinkChange>,
}

/// Two inspections of the same target and their differences.
#[derive(Clone, Debug)]
pub struct Diff {
    pub a: Inspection,
    pub b: Inspection,
    pub pages: Vec<PageDiff>,
}

impl Diff {
    /// Compares `a` and `b` page by page: pages match by URL, in A's crawl
    /// order, then the pages only B's crawl reached.
    pub fn new(a: Inspection, b: Inspection) -> Self {
        let (opts_a, opts_b) = (a.settings().options(), b.settings().options());
        let b_by_url: HashMap<&str, usize> = b
            .pages
            .iter()
            .enumerate()
            .map(|(i, p)| (p.url.as_str(), i))
            .collect();
        let changes = |pa: &InspectedPage, pb: &InspectedPage| {
            compare_pages(&pa.decision, &pb.decision, &opts_a, &opts_b)
        };
        let mut pages: Vec<PageDiff> = a
            .pages
            .iter()
            .enumerate()
            .map(|(i, pa)| {
                let j = b_by_url.get(pa.url.as_str()).copied();
                PageDiff {
                    url: pa.url.clone(),
                    a: Some(i),
                    b: j,
                    changes: j.map(|j| changes(pa, &b.pages[j])).unwrap_or_default(),
                }
            })
            .collect();
        let in_a: std::collections::HashSet<&str> =
            a.pages.iter().map(|p| p.url.as_str()).collect();
        for (j, pb) in b.pages.iter().enumerate() {
            if !in_a.contains(pb.url.as_str()) {
                pages.push(PageDiff {
                    url: pb.url.clone(),
                    a: None,
                    b: Some(j),
                    changes: Vec::new(),
                });
            }
        }
        Self { a, b, pages }
    }

    pub fn page_a(&self, page: &PageDiff) -> Option<&InspectedPage> {
        self.a.pages.get(page.a?)
    }

    pub fn page_b(&self, page: &PageDiff) -> Option<&InspectedPage> {
        self.b.pages.get(page.b?)
    }

    /// The totals over every page.
    pub fn summary(&self) -> ChangeSummary {
        summarize(self.pages.iter().flat_map(|p| &p.changes))
    }
}
