//! What a corpus run's pages add up to, folded one page at a time: the
//! totals, the pages that follow nothing, each keyword's uses and the causes
//! of changed links. A run keeps its pages and folds them at the end; a
//! report streamed as the run goes folds each page once it is written and
//! keeps none (a kept page weighs ~2 KB; what the fold keeps of it, a few
//! counters, and its id only where a side follows nothing).

use std::collections::BTreeMap;

use super::{CauseCount, KeywordStats, KeywordUse, PageRun, Totals};
use crate::policy::compare::{Cause, ListName, Outcome};
use crate::policy::{Settings, Verdict};

/// A keyword's pages and uses on one side, by list and word.
type KeywordUses = BTreeMap<(ListName, String), (usize, KeywordUse)>;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pages_read: usize,
    pages_failed: usize,
    links: usize,
    followed_a: usize,
    followed_b: usize,
    changed_links: usize,
    nothing_followed_a: Vec<String>,
    nothing_followed_b: Vec<String>,
    keywords_a: KeywordUses,
    keywords_b: KeywordUses,
    causes: BTreeMap<Cause, CauseCount>,
}

impl Tally {
    /// Every page of `pages`, in order.
    pub fn of<'a>(pages: impl IntoIterator<Item = &'a PageRun>) -> Self {
        let mut tally = Self::default();
        for page in pages {
            tally.add(page);
        }
        tally
    }

    /// One more page.
    pub fn add(&mut self, page: &PageRun) {
        if page.error.is_some() {
            self.pages_failed += 1;
        } else {
            self.pages_read += 1;
            self.links += page.a.links();
            self.followed_a += page.a.count(Verdict::Followed);
            if page.a.followed.is_empty() {
                self.nothing_followed_a.push(page.id.clone());
            }
            if let Some(b) = &page.b {
                self.followed_b += b.count(Verdict::Followed);
                if b.followed.is_empty() {
                    self.nothing_followed_b.push(page.id.clone());
                }
            }
        }
        self.changed_links += page.changes.len();
        add_uses(&mut self.keywords_a, &page.a.keywords);
        if let Some(b) = &page.b {
            add_uses(&mut self.keywords_b, &b.keywords);
        }
        let mut seen: Vec<&Cause> = Vec::new();
        for change in &page.changes {
            let entry = self
                .causes
                .entry(change.because.clone())
                .or_insert_with(|| CauseCount {
                    because: change.because.clone(),
                    links: 0,
                    pages: 0,
                    gained: 0,
                    lost: 0,
                });
            entry.links += 1;
            let followed = |o: &Outcome| o.verdict == Verdict::Followed;
            entry.gained += usize::from(!followed(&change.a) && followed(&change.b));
            entry.lost += usize::from(followed(&change.a) && !followed(&change.b));
            if !seen.contains(&&change.because) {
                seen.push(&change.because);
                entry.pages += 1;
            }
        }
    }

    /// The pages folded, read or not.
    pub fn pages(&self) -> usize {
        self.pages_read + self.pages_failed
    }

    /// The totals over the pages read; B's only `with_b`.
    pub fn totals(&self, with_b: bool) -> Totals {
        Totals {
            pages_read: self.pages_read,
            pages_failed: self.pages_failed,
            links: self.links,
            followed_a: self.followed_a,
            followed_b: with_b.then_some(self.followed_b),
            changed_links: self.changed_links,
        }
    }

    /// The ids of the pages read where side A (or B) follows nothing.
    pub fn nothing_followed(&self, b: bool) -> &[String] {
        if b {
            &self.nothing_followed_b
        } else {
            &self.nothing_followed_a
        }
    }

    /// Every keyword of `settings`' lists in list order (each once), with
    /// its totals on side A (or B).
    pub fn keyword_stats(&self, settings: &Settings, b: bool) -> Vec<KeywordStats> {
        let uses = if b {
            &self.keywords_b
        } else {
            &self.keywords_a
        };
        let opts = settings.options();
        let mut out: Vec<KeywordStats> = Vec::new();
        for (list, words) in [
            (ListName::White, opts.keywords.white()),
            (ListName::Black, opts.keywords.black()),
        ] {
            for word in words.iter() {
                if out.iter().any(|k| k.list == list && &k.keyword == word) {
                    continue;
                }
                let (pages, used) = uses.get(&(list, word.clone())).cloned().unwrap_or_default();
                out.push(KeywordStats {
                    keyword: word.clone(),
                    list,
                    pages,
                    used,
                });
            }
        }
        out
    }

    /// Changed links grouped by cause, most links first, then by cause.
    pub fn cause_counts(&self) -> Vec<CauseCount> {
        let mut causes: Vec<CauseCount> = self.causes.values().cloned().collect();
        causes.sort_by(|x, y| {
            y.links
                .cmp(&x.links)
                .then_with(|| x.because.cmp(&y.because))
        });
        causes
    }
}

fn add_uses(into: &mut KeywordUses, page: &BTreeMap<(ListName, String), KeywordUse>) {
    for (key, used) in page {
        let (pages, total) = into.entry(key.clone()).or_default();
        *pages += 1;
        total.add(used);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{ChangedLink, SideRun};

    fn outcome(verdict: Verdict) -> Outcome {
        Outcome {
            verdict,
            keyword: None,
            score: None,
            rank: None,
        }
    }

    fn change(because: Cause, a: Verdict, b: Verdict) -> ChangedLink {
        ChangedLink {
            index: 0,
            url: None,
            text: String::new(),
            a: outcome(a),
            b: outcome(b),
            because,
        }
    }

    fn side(followed: &[&str], keyword: Option<&str>) -> SideRun {
        let mut side = SideRun::default();
        side.counts.insert(Verdict::Followed, followed.len());
        side.counts.insert(Verdict::NoKeyword, 2);
        side.followed = followed.iter().map(|u| (*u).to_owned()).collect();
        if let Some(word) = keyword {
            let used = KeywordUse {
                links: 2,
                in_url: 1,
                in_text: 1,
                inside_word: 0,
            };
            side.keywords
                .insert((ListName::White, word.to_owned()), used);
        }
        side
    }

    fn page(id: &str, a: SideRun, b: SideRun, changes: Vec<ChangedLink>) -> PageRun {
        let mut page = PageRun::unjudged(id.to_owned(), id.into(), None);
        page.a = a;
        page.b = Some(b);
        page.changes = changes;
        page
    }

    #[test]
    fn pages_add_up_to_the_totals_the_keywords_and_the_causes() {
        let added = Cause::KeywordAdded(ListName::White, "kontakt".to_owned());
        let pages = [
            page(
                "one",
                side(&["https://a.example/about"], Some("about")),
                side(
                    &["https://a.example/about", "https://a.example/kontakt"],
                    Some("about"),
                ),
                vec![
                    change(added.clone(), Verdict::NoKeyword, Verdict::Followed),
                    change(added.clone(), Verdict::NoKeyword, Verdict::Followed),
                    change(Cause::Ranking, Verdict::Followed, Verdict::RankedOut),
                ],
            ),
            page("two", side(&[], None), side(&[], Some("about")), vec![]),
            {
                let mut failed = PageRun::unjudged("three".to_owned(), "three".into(), None);
                failed.error = Some("cannot read".to_owned());
                failed
            },
        ];
        let tally = Tally::of(&pages);
        assert_eq!(tally.pages(), 3);
        assert_eq!(
            tally.totals(true),
            Totals {
                pages_read: 2,
                pages_failed: 1,
                links: 5,
                followed_a: 1,
                followed_b: Some(2),
                changed_links: 3,
            }
        );
        assert_eq!(tally.totals(false).followed_b, None);
        // A failed page follows nothing, but was not read: not listed.
        assert_eq!(tally.nothing_followed(false), ["two"]);
        assert_eq!(tally.nothing_followed(true), ["two"]);
        let settings = Settings {
            follow_keywords_white: "about,kontakt,about".to_owned(),
            ..Settings::default()
        };
        let stats = tally.keyword_stats(&settings, true);
        let about = stats.iter().find(|k| k.keyword == "about");
        assert_eq!(about.map(|k| (k.pages, k.used.links)), Some((2, 4)));
        let kontakt = stats.iter().find(|k| k.keyword == "kontakt");
        assert_eq!(kontakt.map(|k| k.pages), Some(0));
        assert_eq!(stats.iter().filter(|k| k.keyword == "about").count(), 1);
        let causes = tally.cause_counts();
        let counted: Vec<_> = causes
            .iter()
            .map(|c| (&c.because, c.links, c.pages, c.gained, c.lost))
            .collect();
        assert_eq!(
            counted,
            [(&added, 2, 1, 2, 0), (&Cause::Ranking, 1, 1, 0, 1)]
        );
    }
}
