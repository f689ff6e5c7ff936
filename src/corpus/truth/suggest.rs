//! SPEC 11's suggestions: single changes of side A's settings, each tried by
//! deciding every labelled page again, ranked by the pages they gain on
//! pages that did not propose them ("Suggestions that generalise").

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use aho_corasick::AhoCorasick;
use url::Url;

use super::ask::{TuneAsk, TuneProgress};
use super::lexicon::Lexicon;
use super::outcome::{LabelledPage, Missed, PageTruth, TargetWhy};
use super::tokens::keyword_tokens;
use crate::par;
use crate::policy::{Haystack, PageDecision, Settings, Verdict, over_limits, parse_list};

/// One change of the settings.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Change {
    /// A keyword appended to the white list.
    AddWhite(String),
    /// A lexicon language's words appended to the white list, in lexicon
    /// order (those a white keyword already covers left out).
    AddWhiteLanguage {
        language: String,
        words: Vec<String>,
    },
    RemoveBlack(String),
    /// A white keyword moved to the front of its list.
    MoveWhite(String),
    /// A registrable domain added to the allowed domains.
    AllowDomain(String),
    /// Subdomain mode turned on (`true`) or off.
    Subdomain(bool),
}

impl Change {
    /// The report identifier of the change's kind.
    pub fn kind_id(&self) -> &'static str {
        match self {
            Change::AddWhite(_) => "add_white",
            Change::AddWhiteLanguage { .. } => "add_white_language",
            Change::RemoveBlack(_) => "remove_black",
            Change::MoveWhite(_) => "move_white",
            Change::AllowDomain(_) => "allow_domain",
            Change::Subdomain(_) => "subdomain",
        }
    }

    /// The words a link must contain for the change to decide it again
    /// (any of them); `None`: every link may change.
    fn needs(&self) -> Option<Vec<&str>> {
        match self {
            Change::AddWhite(k)
            | Change::RemoveBlack(k)
            | Change::MoveWhite(k)
            | Change::AllowDomain(k) => Some(vec![k.as_str()]),
            Change::AddWhiteLanguage { words, .. } => {
                Some(words.iter().map(String::as_str).collect())
            }
            Change::Subdomain(_) => None,
        }
    }
}

/// Where a change comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The labelled pages' misses: their links' words, the black keywords
    /// and domains that kept them out.
    Pages,
    /// The lexicon; the word's (first) language.
    Lexicon { language: String },
    /// A mode of the settings: subdomain mode.
    Mode,
}

impl Source {
    /// The report identifier.
    pub fn id(&self) -> &'static str {
        match self {
            Source::Pages => "pages",
            Source::Lexicon { .. } => "lexicon",
            Source::Mode => "mode",
        }
    }

    pub fn language(&self) -> Option<&str> {
        match self {
            Source::Lexicon { language } => Some(language),
            _ => None,
        }
    }

    /// SPEC 11: subdomain mode and lexicon words need no page's evidence,
    /// so all their gains count as validated.
    fn needs_evidence(&self) -> bool {
        matches!(self, Source::Pages)
    }
}

/// How many suggestions to keep, and how to try them.
#[derive(Clone, Copy)]
pub struct Suggest<'a> {
    /// 0: none are tried.
    pub keep: usize,
    pub jobs: usize,
    /// The words a change is shown in: the ranking's last tie-break, so
    /// equal suggestions come in the order a reader sorts them.
    pub words: &'a (dyn Fn(&Change) -> String + Sync),
    /// Gets (candidates tried, candidates in all), from any thread.
    pub progress: &'a (dyn Fn(usize, usize) + Sync),
    /// Its words are candidates where a labelled page has a link with
    /// them (an empty lexicon: none).
    pub lexicon: &'a Lexicon,
    /// `--tune`: also tune side A (needs no `keep`).
    pub tune: Option<TuneAsk>,
    /// Gets each tuning step begun, from the thread that evaluates.
    pub tune_progress: &'a (dyn Fn(TuneProgress) + Sync),
}

/// A change tried over the corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    pub change: Change,
    pub source: Source,
    /// Other keywords that change the same links on every labelled page:
    /// longest first.
    pub alternatives: Vec<String>,
    /// Labelled pages found only with the change, and only without it.
    pub pages_gained: Vec<String>,
    pub pages_lost: Vec<String>,
    /// The gained pages on which the change would still have been
    /// proposed with the page's own misses left out (SPEC 11 2.).
    pub pages_validated: Vec<String>,
    /// The labelled pages whose misses propose the change.
    pub sites_evidence: Vec<String>,
    /// Targets followed only with the change.
    pub targets_gained: usize,
    /// Links followed only with the change that are not targets.
    pub non_targets_gained: usize,
    /// Side A's settings with only this change.
    pub settings: Settings,
}

impl Suggestion {
    /// Pages gained minus pages lost.
    pub fn net_pages(&self) -> isize {
        self.pages_gained.len() as isize - self.pages_lost.len() as isize
    }

    pub fn validated_gain(&self) -> usize {
        self.pages_validated.len()
    }

    /// Validated gain minus pages lost: what the ranking puts first.
    pub fn validated_net(&self) -> isize {
        self.validated_gain() as isize - self.pages_lost.len() as isize
    }
}

/// `settings` with `change` applied; every other item kept as written.
pub fn apply_change(settings: &Settings, change: &Change) -> Settings {
    let mut out = settings.clone();
    match change {
        Change::AddWhite(k) => append(&mut out.follow_keywords_white, k),
        Change::AddWhiteLanguage { words, .. } => {
            for word in words {
                append(&mut out.follow_keywords_white, word);
            }
        }
        Change::AllowDomain(d) => append(&mut out.follow_allowed_domains, d),
        Change::RemoveBlack(k) => {
            out.follow_keywords_black = items(&out.follow_keywords_black)
                .filter(|item| !same_item(item, k))
                .collect::<Vec<_>>()
                .join(",");
        }
        Change::MoveWhite(k) => {
            let rest = items(&out.follow_keywords_white).filter(|item| !same_item(item, k));
            out.follow_keywords_white = std::iter::once(k.as_str())
                .chain(rest)
                .collect::<Vec<_>>()
                .join(",");
        }
        Change::Subdomain(on) => out.follow_subdomain = *on,
    }
    out
}

fn items(stored: &str) -> impl Iterator<Item = &str> {
    stored.split(',').filter(|item| !item.trim().is_empty())
}

fn same_item(item: &str, keyword: &str) -> bool {
    item.trim().to_lowercase() == keyword
}

fn append(stored: &mut String, item: &str) {
    if !stored.trim().is_empty() && !stored.trim_end().ends_with(',') {
        stored.push(',');
    }
    stored.push_str(item);
}

/// A change to try, with the labelled pages (by index) whose misses
/// propose it.
struct Candidate {
    change: Change,
    source: Source,
    evidence: BTreeSet<usize>,
}

/// The candidate changes, each once, in a fixed order.
fn candidates(
    base: &Settings,
    labelled: &[LabelledPage<'_>],
    pages: &[PageTruth],
    missed: &[Missed],
    haystacks: &[String],
    lexicon: &Lexicon,
) -> Vec<Candidate> {
    let white = parse_list(&base.follow_keywords_white);
    let allowed = parse_list(&base.follow_allowed_domains);
    let at: HashMap<&str, usize> = labelled
        .iter()
        .enumerate()
        .map(|(i, l)| (l.id, i))
        .collect();
    let mut out: BTreeMap<Change, Candidate> = BTreeMap::new();
    let mut add = |change: Change, source: Source, page: Option<usize>| {
        let entry = out.entry(change.clone()).or_insert_with(|| Candidate {
            change,
            source: source.clone(),
            evidence: BTreeSet::new(),
        });
        // A word both mined and in the lexicon is the lexicon's.
        if matches!(source, Source::Lexicon { .. }) {
            entry.source = source;
        }
        entry.evidence.extend(page);
    };
    // A link with a word that holds a white keyword matches that keyword
    // already: appending the word changes nothing.
    let covered = |word: &str| white.iter().any(|w| word.contains(w.as_str()));
    for miss in missed {
        let Ok(url) = Url::parse(&miss.target.url) else {
            continue;
        };
        let page = at.get(miss.id.as_str()).copied();
        for token in keyword_tokens(&url, miss.text.as_deref().unwrap_or_default()) {
            if !covered(&token) {
                add(Change::AddWhite(token), Source::Pages, page);
            }
        }
        if matches!(miss.why, TargetWhy::OffDomain { .. }) {
            add(
                Change::Subdomain(!base.follow_subdomain),
                Source::Mode,
                page,
            );
        }
    }
    for (i, outcome) in pages
        .iter()
        .enumerate()
        .flat_map(|(i, p)| p.targets.iter().map(move |t| (i, t)))
    {
        match &outcome.a {
            TargetWhy::Blacklisted { keyword, .. } => {
                add(Change::RemoveBlack(keyword.clone()), Source::Pages, Some(i));
            }
            TargetWhy::RankedOut { keyword, .. } if white.first() != Some(keyword) => {
                add(Change::MoveWhite(keyword.clone()), Source::Pages, Some(i));
            }
            TargetWhy::OffDomain { host, .. } => {
                // An IP address has no registrable domain (the list would
                // take its last two numbers for one).
                let is_name = matches!(url::Host::parse(host), Ok(url::Host::Domain(_)));
                if let Some(domain) = psl::domain_str(host).filter(|_| is_name)
                    && !allowed.iter().any(|d| d == domain)
                {
                    add(
                        Change::AllowDomain(domain.to_owned()),
                        Source::Pages,
                        Some(i),
                    );
                }
            }
            _ => {}
        }
    }
    add(
        Change::Subdomain(!base.follow_subdomain),
        Source::Mode,
        None,
    );
    lexicon_candidates(lexicon, haystacks, missed, &at, &covered, &mut add);
    out.into_values().collect()
}

/// SPEC 11 4.: a lexicon word is a candidate where a labelled page has a
/// link with it, and its language's words together are one more; the
/// pages whose missed targets have the word are its evidence.
fn lexicon_candidates(
    lexicon: &Lexicon,
    haystacks: &[String],
    missed: &[Missed],
    at: &HashMap<&str, usize>,
    covered: &dyn Fn(&str) -> bool,
    add: &mut dyn FnMut(Change, Source, Option<usize>),
) {
    // Each word once, with its first language.
    // Each word once, with every language that has it (`kontakt` is
    // German, Danish, Polish, …), in lexicon order.
    let mut words: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut at_word: HashMap<&str, usize> = HashMap::new();
    for w in &lexicon.words {
        if covered(&w.word) {
            continue;
        }
        match at_word.get(w.word.as_str()) {
            Some(&i) => {
                if !words[i].1.contains(&w.language.as_str()) {
                    words[i].1.push(&w.language);
                }
            }
            None => {
                at_word.insert(&w.word, words.len());
                words.push((&w.word, vec![&w.language]));
            }
        }
    }
    // One pass over each page for every word at once: 265 pages and
    // 2,000 words by `contains` was 0.5 s.
    let Ok(automaton) = AhoCorasick::new(words.iter().map(|(w, _)| w)) else {
        return;
    };
    let found_in = |text: &str| -> BTreeSet<usize> {
        automaton
            .find_overlapping_iter(text)
            .map(|m| m.pattern().as_usize())
            .collect()
    };
    let mut on_pages: BTreeSet<usize> = BTreeSet::new();
    for haystack in haystacks {
        on_pages.extend(found_in(haystack));
    }
    let mut evidence: HashMap<usize, BTreeSet<usize>> = HashMap::new();
    for miss in missed {
        let haystack = Haystack::new(&miss.target.key, miss.text.as_deref().unwrap_or_default());
        if let Some(&page) = at.get(miss.id.as_str()) {
            for word in found_in(haystack.as_str()) {
                evidence.entry(word).or_default().insert(page);
            }
        }
    }
    let mut languages: BTreeSet<&str> = BTreeSet::new();
    for &word in &on_pages {
        let (text, word_languages) = &words[word];
        languages.extend(word_languages.iter().copied());
        let source = Source::Lexicon {
            language: word_languages.join(","),
        };
        let pages = evidence.get(&word).cloned().unwrap_or_default();
        add(Change::AddWhite((*text).to_owned()), source.clone(), None);
        for page in pages {
            add(
                Change::AddWhite((*text).to_owned()),
                source.clone(),
                Some(page),
            );
        }
    }
    for (language, all) in lexicon.by_language() {
        // Only the languages some link of a labelled page has a word of.
        if !languages.contains(language) {
            continue;
        }
        let mut list: Vec<String> = Vec::new();
        let mut in_list: HashSet<&str> = HashSet::new();
        for w in all {
            if !covered(&w.word) && in_list.insert(&w.word) {
                list.push(w.word.clone());
            }
        }
        if list.len() < 2 {
            continue;
        }
        let pages: BTreeSet<usize> = in_list
            .iter()
            .filter_map(|w| at_word.get(w))
            .flat_map(|i| evidence.get(i).into_iter().flatten().copied())
            .collect();
        let change = Change::AddWhiteLanguage {
            language: language.to_owned(),
            words: list,
        };
        let source = Source::Lexicon {
            language: language.to_owned(),
        };
        add(change.clone(), source.clone(), None);
        for page in pages {
            add(change.clone(), source.clone(), Some(page));
        }
    }
}

/// The keys of the links a decision follows.
fn followed_keys(decision: &PageDecision) -> HashSet<String> {
    decision
        .links
        .iter()
        .filter(|l| l.verdict == Verdict::Followed)
        .filter_map(|l| l.key.as_deref().map(str::to_owned))
        .collect()
}

/// What one candidate did: the links it follows on each page it changed
/// (page index, keys sorted), and the gained pages by index.
struct Tried {
    suggestion: Suggestion,
    evidence: BTreeSet<usize>,
    gained: Vec<usize>,
    effect: Vec<(usize, Vec<String>)>,
}

/// The labelled pages' links joined as the policy joins a link's URL and
/// text (a keyword may span them), one haystack per page.
pub(super) fn page_haystacks(labelled: &[LabelledPage<'_>]) -> Vec<String> {
    labelled
        .iter()
        .map(|page| {
            let texts = page.decision.links.iter().filter_map(|l| l.haystack());
            texts.fold(String::new(), |mut all, h| {
                all.push_str(h.as_str());
                all.push('\n');
                all
            })
        })
        .collect()
}

/// Tries every candidate change of `base` over the labelled pages; returns
/// those that change a follow, best first (all of them: the caller keeps
/// what it shows), and how many were tried.
pub(super) fn suggest(
    base: &Settings,
    labelled: &[LabelledPage<'_>],
    pages: &[PageTruth],
    missed: &[Missed],
    suggest: Suggest<'_>,
    cancel: &AtomicBool,
) -> (Vec<Suggestion>, usize) {
    let base_followed: Vec<HashSet<String>> = labelled
        .iter()
        .map(|page| followed_keys(page.decision))
        .collect();
    // A keyword or domain no link of a page contains cannot change a verdict
    // there.
    let haystacks = page_haystacks(labelled);
    let changes = candidates(base, labelled, pages, missed, &haystacks, suggest.lexicon);
    let done = AtomicUsize::new(0);
    (suggest.progress)(0, changes.len());
    let tried = par::map_ordered(
        &changes,
        suggest.jobs,
        "follow-inspector-suggest",
        cancel,
        |candidate| {
            let tried = try_change(base, candidate, labelled, pages, &base_followed, &haystacks);
            (suggest.progress)(done.fetch_add(1, Ordering::SeqCst) + 1, changes.len());
            tried
        },
    );
    let count = tried.iter().filter(|t| t.is_some()).count();
    let tried: Vec<Tried> = tried.into_iter().flatten().flatten().collect();
    let mut ranked: Vec<(Suggestion, String)> = group_same_effect(tried, labelled)
        .into_iter()
        .map(|s| {
            let words = (suggest.words)(&s.change);
            (s, words)
        })
        .collect();
    ranked.sort_by(|(x, x_words), (y, y_words)| {
        y.validated_net()
            .cmp(&x.validated_net())
            .then(y.net_pages().cmp(&x.net_pages()))
            .then(x.non_targets_gained.cmp(&y.non_targets_gained))
            .then_with(|| x_words.cmp(y_words))
    });
    (ranked.into_iter().map(|(s, _)| s).collect(), count)
}

/// One candidate decided over every labelled page it can change; `None`
/// when it follows the same links everywhere, or its settings would be
/// over a limit.
fn try_change(
    base: &Settings,
    candidate: &Candidate,
    labelled: &[LabelledPage<'_>],
    pages: &[PageTruth],
    base_followed: &[HashSet<String>],
    haystacks: &[String],
) -> Option<Tried> {
    let settings = apply_change(base, &candidate.change);
    if !over_limits(&settings).is_empty() {
        return None;
    }
    let opts = settings.options();
    let needs = candidate.change.needs();
    let mut tried = Tried {
        suggestion: Suggestion {
            change: candidate.change.clone(),
            source: candidate.source.clone(),
            alternatives: Vec::new(),
            pages_gained: Vec::new(),
            pages_lost: Vec::new(),
            pages_validated: Vec::new(),
            sites_evidence: Vec::new(),
            targets_gained: 0,
            non_targets_gained: 0,
            settings,
        },
        evidence: candidate.evidence.clone(),
        gained: Vec::new(),
        effect: Vec::new(),
    };
    let s = &mut tried.suggestion;
    for (i, page) in labelled.iter().enumerate() {
        // Every keyword match and every allow-list match (host, subdomain
        // or root) needs the keyword or domain inside the link's URL or text.
        if needs
            .as_ref()
            .is_some_and(|words| !words.iter().any(|w| haystacks[i].contains(w)))
        {
            continue;
        }
        let truth = &pages[i];
        let before = &base_followed[i];
        let after = followed_keys(&page.page.decided(&opts, page.page.decision.limit));
        if after == *before {
            continue;
        }
        let found_after = page.targets.iter().any(|t| after.contains(&t.key));
        match (truth.found(false), found_after) {
            (false, true) => {
                s.pages_gained.push(truth.id.clone());
                tried.gained.push(i);
            }
            (true, false) => s.pages_lost.push(truth.id.clone()),
            _ => {}
        }
        for key in after.difference(before) {
            if truth.is_target(key) {
                s.targets_gained += 1;
            } else {
                s.non_targets_gained += 1;
            }
        }
        let mut keys: Vec<String> = after.into_iter().collect();
        keys.sort_unstable();
        tried.effect.push((i, keys));
    }
    (!tried.effect.is_empty()).then_some(tried)
}

/// SPEC 11 1.: keywords that change the same links on every labelled page
/// are one suggestion, named by the longest of them (the tokens are whole
/// words of a text or path segment, and compounds of a segmenter's words
/// side by side); the rest are its alternatives, and its evidence is all of
/// theirs. Then each suggestion's validated gain.
fn group_same_effect(tried: Vec<Tried>, labelled: &[LabelledPage<'_>]) -> Vec<Suggestion> {
    let mut groups: Vec<Vec<Tried>> = Vec::new();
    let mut by_effect: HashMap<Vec<(usize, Vec<String>)>, usize> = HashMap::new();
    for t in tried {
        if !matches!(t.suggestion.change, Change::AddWhite(_)) {
            groups.push(vec![t]);
            continue;
        }
        match by_effect.get(&t.effect) {
            Some(&at) => groups[at].push(t),
            None => {
                by_effect.insert(t.effect.clone(), groups.len());
                groups.push(vec![t]);
            }
        }
    }
    let word = |t: &Tried| match &t.suggestion.change {
        Change::AddWhite(k) => k.clone(),
        _ => String::new(),
    };
    groups
        .into_iter()
        .filter_map(|mut group| {
            // The longest names the group; of two as long, a lexicon word.
            group.sort_by_cached_key(|t| {
                let w = word(t);
                let lexicon = matches!(t.suggestion.source, Source::Lexicon { .. });
                (std::cmp::Reverse(w.chars().count()), !lexicon, w)
            });
            // A lexicon word among them proposes the change with no
            // page's evidence, so all its gains count.
            let needs_evidence = group.iter().all(|t| t.suggestion.source.needs_evidence());
            let mut members = group.into_iter();
            let mut first = members.next()?;
            for other in members {
                first.suggestion.alternatives.push(word(&other));
                first.evidence.extend(other.evidence);
            }
            let s = &mut first.suggestion;
            let evidence = &first.evidence;
            s.pages_validated = first
                .gained
                .iter()
                .filter(|&&p| !needs_evidence || evidence.iter().any(|&q| q != p))
                .map(|&p| labelled[p].id.to_owned())
                .collect();
            s.sites_evidence = evidence
                .iter()
                .map(|&p| labelled[p].id.to_owned())
                .collect();
            Some(first.suggestion)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(white: &str, black: &str) -> Settings {
        Settings {
            follow_keywords_white: white.into(),
            follow_keywords_black: black.into(),
            ..Settings::default()
        }
    }

    #[test]
    fn changes_keep_every_other_item_as_written() {
        let s = settings("Contact, about ,team", "blog,News,tag");
        let white = |c| apply_change(&s, &c).follow_keywords_white;
        assert_eq!(
            white(Change::AddWhite("ihr".into())),
            "Contact, about ,team,ihr"
        );
        assert_eq!(
            white(Change::MoveWhite("team".into())),
            "team,Contact, about "
        );
        assert_eq!(
            apply_change(&s, &Change::RemoveBlack("news".into())).follow_keywords_black,
            "blog,tag"
        );
        assert_eq!(
            apply_change(&settings("", ""), &Change::AddWhite("x".into())).follow_keywords_white,
            "x"
        );
        // Every copy of a keyword goes; a list that ends in a comma takes one more.
        let twice = settings("team,about,Team", "News,blog,news");
        assert_eq!(
            apply_change(&twice, &Change::RemoveBlack("news".into())).follow_keywords_black,
            "blog"
        );
        assert_eq!(
            apply_change(&twice, &Change::MoveWhite("team".into())).follow_keywords_white,
            "team,about"
        );
        assert_eq!(
            apply_change(&settings("a,", ""), &Change::AddWhite("x".into())).follow_keywords_white,
            "a,x"
        );
        let allowed = apply_change(&s, &Change::AllowDomain("acme.de".into()));
        assert_eq!(allowed.follow_allowed_domains, "acme.de");
        assert!(apply_change(&s, &Change::Subdomain(true)).follow_subdomain);
    }
}
