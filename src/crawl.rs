//! The depth crawl of SPEC section 5, level by level: each level's followed
//! links are fetched in parallel by a small pool, but every decision (visited
//! marks, page order, which link led where) is taken in a fixed order before or
//! after the fetches, so the result never depends on which fetch finished first.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use url::Url;

use crate::fetch::{FetchError, FetchedPage, Fetcher};
use crate::inspect::{InspectedPage, Inspection, Limits, Via};
use crate::par;
use crate::policy::{Settings, Verdict, url_key};

/// What to crawl.
#[derive(Clone, Debug)]
pub struct CrawlRequest {
    pub start_url: Url,
    /// Depth 1 (of 1-5) fetches the start page only.
    pub limits: Limits,
    pub settings: Settings,
    /// Fetches at once within a level.
    pub parallelism: usize,
}

pub const DEFAULT_PARALLELISM: usize = 4;

/// Progress, reported after every fetch (after a cancel, the pages never
/// fetched are not counted as done).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Pages fetched (or failed) so far.
    pub done: usize,
    /// Pages known to be fetched in all, so far.
    pub queued: usize,
    /// Body bytes read so far.
    pub bytes: usize,
    /// The URL just finished.
    pub last_url: Option<String>,
}

/// A followed link chosen to be fetched.
struct Job {
    url: Url,
    level: u32,
    via: Via,
}

fn page_from_fetch(
    fetched: FetchedPage,
    level: u32,
    via: Option<Via>,
    opts: &crate::policy::FollowOptions,
    limit: usize,
) -> InspectedPage {
    let mut page = InspectedPage::fetched(fetched, level, via);
    page.decide(opts, limit);
    page
}

/// Fetches `jobs` with at most `parallelism` at once; results come back in job order.
fn fetch_all(
    fetcher: &dyn Fetcher,
    jobs: &[Job],
    parallelism: usize,
    cancel: &AtomicBool,
    on_done: &(dyn Fn(&Url, Option<usize>) + Sync),
) -> Vec<Result<FetchedPage, FetchError>> {
    par::map_ordered(jobs, parallelism, "follow-inspector-fetch", cancel, |job| {
        let result = fetcher.fetch(&job.url);
        on_done(&job.url, result.as_ref().ok().map(|p| p.body.len()));
        result
    })
    .into_iter()
    .map(|result| result.unwrap_or(Err(FetchError::Cancelled)))
    .collect()
}

/// Crawls from the start URL. Fails only when the start page cannot be fetched;
/// a failed sub-page is recorded with its error. `progress` is called after every
/// fetch; `cancel` stops the crawl between requests, returning what it has.
pub fn crawl(
    fetcher: &dyn Fetcher,
    request: &CrawlRequest,
    cancel: &AtomicBool,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Inspection, FetchError> {
    let opts = request.settings.options();
    let limit_at = |level| request.limits.at(level);
    let state = Mutex::new(Progress {
        queued: 1,
        ..Progress::default()
    });
    let report = |url: &Url, bytes: Option<usize>| {
        if let Ok(mut p) = state.lock() {
            p.done += 1;
            p.bytes += bytes.unwrap_or(0);
            p.last_url = Some(url.to_string());
            progress(p.clone());
        }
    };

    let start = fetcher.fetch(&request.start_url)?;
    report(&request.start_url, Some(start.body.len()));
    let mut visited: HashSet<Arc<str>> = HashSet::new();
    visited.insert(url_key(&request.start_url).into());
    visited.insert(url_key(&start.final_url).into());
    let final_url = start.final_url.clone();
    let mut pages = vec![page_from_fetch(start, 1, None, &opts, limit_at(1))];
    let mut frontier: Vec<usize> = vec![0];
    let mut cancelled = false;

    for level in 1..request.limits.depth {
        // Decide which links to fetch, in page order then rank order, before any fetch.
        let mut jobs = Vec::new();
        for &p in &frontier {
            let page = &mut pages[p];
            let mut followed: Vec<usize> = page
                .decision
                .links
                .iter()
                .filter(|l| l.verdict == Verdict::Followed)
                .map(|l| l.index)
                .collect();
            followed.sort_by_key(|&i| page.decision.links[i].rank);
            for i in followed {
                let link = &mut page.decision.links[i];
                let (Some(key), Some(url)) = (link.key.clone(), link.url.clone()) else {
                    continue;
                };
                if !visited.insert(key) {
                    link.visited = true;
                    continue;
                }
                jobs.push(Job {
                    url: Url::clone(&url),
                    level: level + 1,
                    via: Via { page: p, link: i },
                });
            }
        }
        if jobs.is_empty() {
            break;
        }
        if cancel.load(Ordering::SeqCst) {
            cancelled = true;
            break;
        }
        if let Ok(mut p) = state.lock() {
            p.queued += jobs.len();
            progress(p.clone());
        }
        let results = fetch_all(fetcher, &jobs, request.parallelism, cancel, &report);
        frontier.clear();
        for (job, result) in jobs.into_iter().zip(results) {
            let page = match result {
                Ok(fetched) => {
                    visited.insert(url_key(&fetched.final_url).into());
                    page_from_fetch(
                        fetched,
                        job.level,
                        Some(job.via),
                        &opts,
                        limit_at(job.level),
                    )
                }
                Err(FetchError::Cancelled) => {
                    cancelled = true;
                    continue;
                }
                Err(e) => {
                    let mut page = InspectedPage::failed(job.url, job.level, Some(job.via), e);
                    page.decide(&opts, limit_at(job.level));
                    page
                }
            };
            frontier.push(pages.len());
            pages.push(page);
        }
        if cancelled {
            break;
        }
    }

    Ok(Inspection::from_decided_pages(
        request.start_url.clone(),
        final_url,
        request.limits,
        request.settings.clone(),
        pages,
        cancelled,
    ))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::time::Duration;

    use std::sync::atomic::AtomicUsize;

    use super::*;
    use crate::fetch::FetchSummary;

    /// Serves pages from a map, each after its own delay, counting requests.
    struct FakeSite {
        pages: HashMap<String, (String, u64)>,
        cancel_after_first: Option<&'static AtomicBool>,
        requests: AtomicUsize,
    }

    impl Fetcher for FakeSite {
        fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
            let n = self.requests.fetch_add(1, Ordering::SeqCst);
            if let Some(cancel) = self.cancel_after_first
                && n == 0
            {
                cancel.store(true, Ordering::SeqCst);
            }
            let (body, delay_ms) =
                self.pages
                    .get(url.as_str())
                    .cloned()
                    .ok_or_else(|| FetchError::Connect {
                        detail: format!("no page {url}"),
                    })?;
            std::thread::sleep(Duration::from_millis(delay_ms));
            Ok(FetchedPage {
                final_url: url.clone(),
                status: 200,
                charset: None,
                summary: FetchSummary {
                    redirects: Vec::new(),
                    content_type: Some("text/html".into()),
                    bytes: body.len(),
                    truncated: false,
                    elapsed_ms: delay_ms,
                },
                body: body.into_bytes(),
                capture: None,
                rendered: None,
            })
        }
    }

    fn links(hrefs: &[&str]) -> String {
        hrefs
            .iter()
            .map(|h| format!("<a href='{h}'>{h}</a>"))
            .collect()
    }

    fn site(delays: [u64; 4]) -> HashMap<String, (String, u64)> {
        let mut pages = HashMap::new();
        let mut add = |path: &str, body: String, delay| {
            pages.insert(format!("https://acme.test{path}"), (body, delay));
        };
        add("/", links(&["/contact", "/about", "/team"]), 0);
        add("/contact", links(&["/contact/form", "/about"]), delays[0]);
        add(
            "/about",
            links(&["/about/history", "/contact/form"]),
            delays[1],
        );
        add("/team", links(&["/team/contact"]), delays[2]);
        add("/contact/form", String::new(), delays[3]);
        add("/about/history", String::new(), 0);
        add("/team/contact", String::new(), 0);
        pages
    }

    fn request(depth: u32) -> CrawlRequest {
        CrawlRequest {
            start_url: Url::parse("https://acme.test/").unwrap(),
            limits: Limits {
                depth,
                limit_override: None,
            },
            settings: Settings::default(),
            parallelism: 4,
        }
    }

    /// (path, level, via page and link) of every page.
    type PageRow = (String, u32, Option<(usize, usize)>);

    fn summary(i: &Inspection) -> Vec<PageRow> {
        i.pages
            .iter()
            .map(|p| {
                (
                    p.url.path().to_owned(),
                    p.level,
                    p.via.map(|v| (v.page, v.link)),
                )
            })
            .collect()
    }

    #[test]
    fn the_result_does_not_depend_on_which_fetch_finishes_first() {
        let never = AtomicBool::new(false);
        let runs: Vec<_> = [[0, 40, 80, 10], [80, 0, 40, 0], [40, 80, 0, 30]]
            .into_iter()
            .map(|delays| {
                let fake = FakeSite {
                    pages: site(delays),
                    cancel_after_first: None,
                    requests: AtomicUsize::new(0),
                };
                let i = crawl(&fake, &request(3), &never, &|_| {}).unwrap();
                assert_eq!(fake.requests.load(Ordering::SeqCst), 7, "each page once");
                summary(&i)
            })
            .collect();
        assert_eq!(runs[0], runs[1]);
        assert_eq!(runs[0], runs[2]);
        assert_eq!(
            runs[0],
            [
                ("/".to_owned(), 1, None),
                ("/contact".to_owned(), 2, Some((0, 0))),
                ("/about".to_owned(), 2, Some((0, 1))),
                ("/team".to_owned(), 2, Some((0, 2))),
                ("/contact/form".to_owned(), 3, Some((1, 0))),
                ("/about/history".to_owned(), 3, Some((2, 0))),
                ("/team/contact".to_owned(), 3, Some((3, 0))),
            ]
        );
    }

    #[test]
    fn progress_counts_every_page() {
        let never = AtomicBool::new(false);
        let fake = FakeSite {
            pages: site([0; 4]),
            cancel_after_first: None,
            requests: AtomicUsize::new(0),
        };
        let last = Mutex::new(Progress::default());
        crawl(&fake, &request(3), &never, &|p| *last.lock().unwrap() = p).unwrap();
        let last = last.into_inner().unwrap();
        assert_eq!((last.done, last.queued), (7, 7));
    }

    #[test]
    fn cancelling_returns_what_was_fetched() {
        static CANCEL: AtomicBool = AtomicBool::new(false);
        let fake = FakeSite {
            pages: site([0; 4]),
            cancel_after_first: Some(&CANCEL),
            requests: AtomicUsize::new(0),
        };
        let i = crawl(&fake, &request(3), &CANCEL, &|_| {}).unwrap();
        assert!(i.cancelled);
        assert_eq!(summary(&i), [("/".to_owned(), 1, None)]);
    }

    #[test]
    fn a_failed_start_page_is_an_error() {
        let never = AtomicBool::new(false);
        let fake = FakeSite {
            pages: HashMap::new(),
            cancel_after_first: None,
            requests: AtomicUsize::new(0),
        };
        assert!(matches!(
            crawl(&fake, &request(2), &never, &|_| {}),
            Err(FetchError::Connect { .. })
        ));
    }
}
