//! The order a crawl's pages are shown in: each page under the page that led
//! to it, in crawl order among siblings.

use super::Inspection;

/// (page, depth in the tree) for every page, depth first.
pub fn crawl_tree(inspection: &Inspection) -> Vec<(usize, usize)> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); inspection.pages.len()];
    let mut roots = Vec::new();
    for (i, page) in inspection.pages.iter().enumerate() {
        match page.via.filter(|v| v.page < i) {
            Some(via) => children[via.page].push(i),
            None => roots.push(i),
        }
    }
    let mut order = Vec::with_capacity(inspection.pages.len());
    let mut stack: Vec<(usize, usize)> = roots.into_iter().rev().map(|r| (r, 0)).collect();
    while let Some((page, depth)) = stack.pop() {
        order.push((page, depth));
        stack.extend(children[page].iter().rev().map(|&c| (c, depth + 1)));
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::FetchError;
    use crate::inspect::{InspectedPage, Limits, Via};
    use crate::policy::Settings;
    use url::Url;

    #[test]
    fn the_crawl_tree_puts_each_page_under_the_page_that_led_to_it() {
        let page = |path: &str, level, via: Option<(usize, usize)>| {
            let url = Url::parse(&format!("https://acme.test{path}")).unwrap();
            let via = via.map(|(page, link)| Via { page, link });
            InspectedPage::failed(url, level, via, FetchError::Cancelled)
        };
        // Level by level: the start, its two children, then a grandchild of each.
        let start = Url::parse("https://acme.test/").unwrap();
        let inspection = Inspection::new(
            start.clone(),
            start,
            Limits {
                depth: 3,
                limit_override: None,
            },
            Settings::default(),
            vec![
                page("/", 1, None),
                page("/contact", 2, Some((0, 1))),
                page("/about", 2, Some((0, 2))),
                page("/about/team", 3, Some((2, 0))),
                page("/contact/form", 3, Some((1, 4))),
            ],
            false,
        );
        assert_eq!(
            crawl_tree(&inspection),
            [(0, 0), (1, 1), (4, 2), (2, 1), (3, 2)]
        );
    }
}
