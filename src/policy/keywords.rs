//! Keyword matching on the haystack of SPEC section 4, and asset detection.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use aho_corasick::Anchored;
use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;
use aho_corasick::nfa::contiguous::NFA;
use percent_encoding::percent_decode_str;
use serde::{Deserialize, Serialize};

/// Where a keyword was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchedIn {
    Url,
    Text,
}

impl MatchedIn {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchedIn::Url => "url",
            MatchedIn::Text => "text",
        }
    }
}

/// A keyword found in a haystack. `span` is a byte range into the lowercased part
/// it was found in ([`Haystack::url_part`] or [`Haystack::text_part`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeywordHit {
    /// Shared with the list, so a hit costs no allocation.
    pub keyword: Arc<str>,
    pub matched_in: MatchedIn,
    pub span: Range<usize>,
    /// The match is part of a longer word (`tag` in `heritage`, `team` in
    /// `steam`). Keywords match as plain substrings, so this never changes a
    /// verdict; it shows where a keyword is a trap.
    pub inside_word: bool,
}

/// Which list a keyword belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListName {
    White,
    Black,
}

impl ListName {
    /// The report identifier.
    pub fn id(self) -> &'static str {
        match self {
            ListName::White => "white",
            ListName::Black => "black",
        }
    }
}

/// A keyword found, with its position in its list.
pub type ListHit = (usize, KeywordHit);

/// A keyword list in order. Reads like a `[String]`; the search is
/// [`BlackAndWhite`]'s, which holds both lists.
#[derive(Clone, Debug, Default)]
pub struct KeywordList {
    words: Vec<String>,
    /// The same words, for hits to share.
    shared: Vec<Arc<str>>,
}

impl KeywordList {
    pub fn new(words: Vec<String>) -> Self {
        let shared = words.iter().map(|w| Arc::from(w.as_str())).collect();
        Self { words, shared }
    }
}

/// The black and the white list in one automaton, so one pass over a
/// haystack finds the first keyword of each (the pipeline needs both for the
/// trace). Patterns `0..black` are the black list's, the rest the white list's.
#[derive(Clone, Debug, Default)]
pub struct BlackAndWhite {
    black: KeywordList,
    white: KeywordList,
    search: KeywordSearch,
}

/// How the lists are searched. Every way gives the same hits.
#[derive(Clone, Debug, Default)]
enum KeywordSearch {
    /// Both lists are empty.
    #[default]
    Nothing,
    Dfa(DFA),
    Nfa(NFA),
    /// No automaton could be built: each list is scanned word by word.
    Scan,
}

impl KeywordSearch {
    /// A DFA for lists of ordinary size: the fastest to run on every link.
    /// Its memory grows with states times byte classes, so long lists (up to
    /// [`super::limits`], 2 GB and 18 s as a DFA) get the contiguous NFA,
    /// built in time and memory linear in their length. Should the build
    /// fail, a plain scan still finds every keyword.
    fn build(words: &[&String]) -> Self {
        if words.is_empty() {
            return KeywordSearch::Nothing;
        }
        let bytes: usize = words.iter().map(|w| w.len()).sum();
        // The automata are walked a byte at a time by `first_by_automaton`,
        // so neither gets a prefilter.
        let built = if bytes <= DFA_MAX_BYTES {
            DFA::builder()
                .prefilter(false)
                .build(words)
                .ok()
                .map(KeywordSearch::Dfa)
        } else {
            NFA::builder()
                .prefilter(false)
                .build(words)
                .ok()
                .map(KeywordSearch::Nfa)
        };
        built.unwrap_or(KeywordSearch::Scan)
    }
}

/// The most keyword bytes (both lists) searched with a DFA.
const DFA_MAX_BYTES: usize = 10_000;

impl BlackAndWhite {
    pub fn new(black: KeywordList, white: KeywordList) -> Self {
        let all: Vec<&String> = black.words.iter().chain(&white.words).collect();
        let search = KeywordSearch::build(&all);
        Self {
            black,
            white,
            search,
        }
    }

    pub fn black(&self) -> &KeywordList {
        &self.black
    }

    pub fn white(&self) -> &KeywordList {
        &self.white
    }
}

impl PartialEq for BlackAndWhite {
    fn eq(&self, other: &Self) -> bool {
        self.black == other.black && self.white == other.white
    }
}

impl Eq for BlackAndWhite {}

impl std::ops::Deref for KeywordList {
    type Target = [String];

    fn deref(&self) -> &[String] {
        &self.words
    }
}

impl PartialEq for KeywordList {
    fn eq(&self, other: &Self) -> bool {
        self.words == other.words
    }
}

impl Eq for KeywordList {}

/// Appends `part.to_lowercase()`; in place when `part` is ASCII, as most
/// URLs and link texts are (two fewer strings a link; `to_lowercase` keeps
/// its context rules, such as a final sigma, for the rest).
fn push_lowercase(out: &mut String, part: &str) {
    if part.is_ascii() {
        let start = out.len();
        out.push_str(part);
        out[start..].make_ascii_lowercase();
    } else {
        out.push_str(&part.to_lowercase());
    }
}

/// `lower(percent_decode_utf8_lossy(key)) + " " + lower(text)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Haystack {
    joined: String,
    url_len: usize,
}

impl Haystack {
    pub fn new(key: &str, text: &str) -> Self {
        // Most URLs have no escape: then decoding is the key itself, found
        // by one vector search instead of two byte-by-byte passes.
        let url = if memchr::memchr(b'%', key.as_bytes()).is_none() {
            Cow::Borrowed(key)
        } else {
            percent_decode_str(key).decode_utf8_lossy()
        };
        let mut joined = String::with_capacity(url.len() + 1 + text.len());
        push_lowercase(&mut joined, &url);
        let url_len = joined.len();
        joined.push(' ');
        push_lowercase(&mut joined, text);
        Self { joined, url_len }
    }

    /// The whole haystack the keywords are searched in.
    pub fn as_str(&self) -> &str {
        &self.joined
    }

    /// The decoded, lowercased URL part.
    pub fn url_part(&self) -> &str {
        &self.joined[..self.url_len]
    }

    /// The lowercased text part.
    pub fn text_part(&self) -> &str {
        &self.joined[self.url_len + 1..]
    }

    /// The first keyword of the black list and of the white list (in list
    /// order) that the haystack contains, each with its list position, found
    /// at its first occurrence. One pass over the haystack finds every keyword
    /// of both lists; the earliest in its list wins.
    pub fn find_first_of_each(&self, lists: &BlackAndWhite) -> (Option<ListHit>, Option<ListHit>) {
        let [black, white] = match &lists.search {
            KeywordSearch::Nothing => return (None, None),
            KeywordSearch::Dfa(dfa) => first_by_automaton(dfa, &self.joined, lists.black.len()),
            KeywordSearch::Nfa(nfa) => first_by_automaton(nfa, &self.joined, lists.black.len()),
            KeywordSearch::Scan => [
                self.first_by_scan(&lists.black),
                self.first_by_scan(&lists.white),
            ],
        };
        let hit = |list: &KeywordList, found: Option<(usize, usize)>| {
            found.map(|(i, at)| (i, self.hit(&list.shared[i], at)))
        };
        (hit(&lists.black, black), hit(&lists.white, white))
    }

    /// (list position, first start) of the first word of `list` in list
    /// order that occurs: the automaton's answer, one search per word.
    fn first_by_scan(&self, list: &KeywordList) -> Option<(usize, usize)> {
        list.words
            .iter()
            .enumerate()
            .find_map(|(i, word)| self.joined.find(word.as_str()).map(|at| (i, at)))
    }

    /// A match that starts in the URL part counts as in the URL, even when a
    /// keyword with a space runs across the joining space.
    fn hit(&self, keyword: &Arc<str>, at: usize) -> KeywordHit {
        let end = at + keyword.len();
        let inside_word = enclosing_word(&self.joined, at..end).is_some();
        if at < self.url_len {
            KeywordHit {
                keyword: Arc::clone(keyword),
                matched_in: MatchedIn::Url,
                span: at..end.min(self.url_len),
                inside_word,
            }
        } else {
            let offset = self.url_len + 1;
            KeywordHit {
                keyword: Arc::clone(keyword),
                matched_in: MatchedIn::Text,
                span: at - offset..end - offset,
                inside_word,
            }
        }
    }
}

/// (list position, first start) of the best keyword of the black and of the
/// white list, found by one pass of the automaton over both lists (patterns
/// `0..split` are black): every keyword ending at each byte, as an
/// overlapping search reports them. Walked here rather than through
/// `AhoCorasick::find_overlapping_iter`, whose search state and per-match
/// bookkeeping made it 5% of a corpus run's instructions on real homepages.
fn first_by_automaton<A: Automaton>(
    automaton: &A,
    haystack: &str,
    split: usize,
) -> [Option<(usize, usize)>; 2] {
    let mut best: [Option<(usize, usize)>; 2] = [None, None];
    let Ok(mut sid) = automaton.start_state(Anchored::No) else {
        return best;
    };
    let mut note = |sid, end: usize| {
        for m in 0..automaton.match_len(sid) {
            let pattern = automaton.match_pattern(sid, m);
            let at = end - automaton.pattern_len(pattern);
            let pattern = pattern.as_usize();
            let (side, i) = if pattern < split {
                (0, pattern)
            } else {
                (1, pattern - split)
            };
            if best[side].is_none_or(|(bi, bat)| i < bi || (i == bi && at < bat)) {
                best[side] = Some((i, at));
            }
        }
    };
    if automaton.is_match(sid) {
        note(sid, 0);
    }
    for (at, &byte) in haystack.as_bytes().iter().enumerate() {
        sid = automaton.next_state(Anchored::No, sid, byte);
        if automaton.is_match(sid) {
            note(sid, at + 1);
        }
    }
    best
}

/// A letter or digit of a script that separates words with spaces: a Chinese
/// or Japanese keyword inside a run of ideographs is not "inside a word".
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
        && !matches!(c,
            '\u{3040}'..='\u{30FF}'       // Hiragana, Katakana
            | '\u{3400}'..='\u{4DBF}'     // CJK Extension A
            | '\u{4E00}'..='\u{9FFF}'     // CJK Unified Ideographs
            | '\u{F900}'..='\u{FAFF}'     // CJK Compatibility Ideographs
            | '\u{0E00}'..='\u{0E7F}'     // Thai
            | '\u{20000}'..='\u{3134F}') // CJK Extensions B-H
}

/// The word around a keyword match at `span` of `text`, when the match is only
/// part of a longer word (`heritage` for `tag`). A keyword that starts or ends
/// with a non-word character (`/p/`) is not extended on that side.
pub fn enclosing_word(text: &str, span: Range<usize>) -> Option<&str> {
    let matched = text.get(span.clone())?;
    let extends_left = matched.chars().next().is_some_and(is_word_char);
    let extends_right = matched.chars().next_back().is_some_and(is_word_char);
    let start = if extends_left {
        text[..span.start]
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_word_char(*c))
            .last()
            .map_or(span.start, |(i, _)| i)
    } else {
        span.start
    };
    let end = if extends_right {
        text[span.end..]
            .char_indices()
            .take_while(|(_, c)| is_word_char(*c))
            .last()
            .map_or(span.end, |(i, c)| span.end + i + c.len_utf8())
    } else {
        span.end
    };
    (start < span.start || end > span.end).then(|| &text[start..end])
}

/// SPEC section 4's asset extensions.
pub const ASSET_EXTENSIONS: [&str; 45] = [
    "jpg", "jpeg", "png", "gif", "webp", "svg", "ico", "bmp", "tif", "tiff", "avif", "css", "js",
    "mjs", "map", "pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "zip", "rar", "7z", "gz",
    "tar", "mp3", "mp4", "m4a", "avi", "mov", "wmv", "webm", "ogg", "wav", "woff", "woff2", "ttf",
    "otf", "eot", "exe", "dmg", "apk", "iso",
];

/// The asset extension the URL path ends with (`.` + extension), if any. Only the
/// path counts: query and fragment never make a link an asset.
pub fn asset_extension(path: &str) -> Option<&'static str> {
    // Unicode lowercasing can turn a non-ASCII letter into an ASCII one (the
    // Kelvin sign into `k`): only an ASCII path may skip it.
    let lowered;
    let path = if path.is_ascii() {
        path
    } else {
        lowered = path.to_lowercase();
        &lowered
    };
    // No extension contains a dot, so only the text after the last dot can
    // be one.
    let suffix = &path[path.rfind('.')? + 1..];
    if suffix.len() > 5 {
        return None;
    }
    ASSET_EXTENSIONS
        .iter()
        .copied()
        .find(|ext| suffix.eq_ignore_ascii_case(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list as `parse_list` splits it, spelled out so this file's tests
    /// need nothing from the settings (which import this file).
    fn kws(list: &str) -> KeywordList {
        KeywordList::new(
            list.split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(str::to_lowercase)
                .collect(),
        )
    }

    impl Haystack {
        /// The first keyword of one list, searched alone.
        fn find_first(&self, keywords: &KeywordList) -> Option<ListHit> {
            let alone = BlackAndWhite::new(KeywordList::default(), keywords.clone());
            self.find_first_of_each(&alone).1
        }
    }

    #[test]
    fn substring_matching_finds_tag_in_heritage() {
        let h = Haystack::new("https://acme.test/our-heritage", "Our Heritage");
        let (i, hit) = h.find_first(&kws("tag")).unwrap();
        assert_eq!(i, 0);
        assert_eq!(hit.matched_in, MatchedIn::Url);
        assert_eq!(&h.url_part()[hit.span.clone()], "tag");
    }

    #[test]
    fn percent_encoded_chinese_path_matches() {
        let key = "https://acme.test/%E8%81%94%E7%B3%BB%E6%88%91%E4%BB%AC";
        let h = Haystack::new(key, "");
        assert_eq!(h.url_part(), "https://acme.test/联系我们");
        let (_, hit) = h.find_first(&kws("contact,联系")).unwrap();
        assert_eq!(&*hit.keyword, "联系");
        assert_eq!(hit.matched_in, MatchedIn::Url);
        assert_eq!(&h.url_part()[hit.span], "联系");
    }

    #[test]
    fn invalid_utf8_percent_escapes_decode_lossily() {
        let h = Haystack::new("https://acme.test/%FF%FEabout", "");
        assert_eq!(h.url_part(), "https://acme.test/\u{fffd}\u{fffd}about");
    }

    #[test]
    fn link_text_matches_and_is_lowercased() {
        let h = Haystack::new("https://acme.test/page?id=7", "Über UNS – Kontakt");
        let (i, hit) = h.find_first(&kws("contact,kontakt")).unwrap();
        assert_eq!(i, 1);
        assert_eq!(hit.matched_in, MatchedIn::Text);
        assert_eq!(&h.text_part()[hit.span], "kontakt");
    }

    #[test]
    fn list_order_decides_not_position_in_haystack() {
        let h = Haystack::new("https://acme.test/about/contact", "");
        let (i, hit) = h.find_first(&kws("contact,about")).unwrap();
        assert_eq!((i, &*hit.keyword), (0, "contact"));
    }

    #[test]
    fn a_keyword_across_the_joining_space_counts_as_url() {
        let h = Haystack::new("https://acme.test/about", "us");
        let (_, hit) = h.find_first(&kws("about us")).unwrap();
        assert_eq!(hit.matched_in, MatchedIn::Url);
        assert_eq!(&h.url_part()[hit.span], "about");
    }

    #[test]
    fn one_pass_finds_the_same_keywords_as_one_search_per_list() {
        let lists = BlackAndWhite::new(kws("blog,tag,/p/"), kws("contact,about,team,tag"));
        for (key, text) in [
            ("https://acme.test/blog/about-us", "Contact"),
            ("https://acme.test/heritage/team", ""),
            ("https://acme.test/x", "nothing"),
            ("https://acme.test/p/contact", "about"),
        ] {
            let h = Haystack::new(key, text);
            assert_eq!(
                h.find_first_of_each(&lists),
                (h.find_first(lists.black()), h.find_first(lists.white())),
                "{key} {text}"
            );
        }
        let none = BlackAndWhite::new(kws(""), kws(""));
        assert_eq!(
            Haystack::new("https://a.test/", "").find_first_of_each(&none),
            (None, None)
        );
    }

    #[test]
    fn the_scan_fallback_finds_the_same_keywords_as_the_automaton() {
        let automaton = BlackAndWhite::new(
            kws("blog,tag,/p/,news"),
            kws("contact,about,team,tag,about us,联系,contact"),
        );
        assert!(matches!(automaton.search, KeywordSearch::Dfa(_)));
        let scan = BlackAndWhite {
            search: KeywordSearch::Scan,
            ..automaton.clone()
        };
        for (key, text) in [
            ("https://acme.test/blog/about-us", "Contact"),
            ("https://acme.test/heritage/team", ""),
            ("https://acme.test/x", "nothing"),
            ("https://acme.test/p/contact", "about"),
            ("https://acme.test/about", "us"),
            ("https://acme.test/team/tag/team-tag", "Team Tag"),
            ("https://acme.test/%E8%81%94%E7%B3%BB", "news and blog"),
            ("https://acme.test/contact/contact", "contact"),
        ] {
            let h = Haystack::new(key, text);
            assert_eq!(
                h.find_first_of_each(&scan),
                h.find_first_of_each(&automaton),
                "{key} {text}"
            );
        }
    }

    proptest::proptest! {
        /// Keywords of a three-letter alphabet overlap, nest and repeat in
        /// every way; the walked automaton must name the keyword and place
        /// the scan names, DFA and NFA alike.
        #[test]
        fn the_walked_automata_find_what_the_scan_finds(
            black in "[ab/ ]{1,4}(,[ab/ ]{1,4}){0,5}",
            white in "[abc ]{1,5}(,[abc ]{1,5}){0,6}",
            key in "[abc/%]{0,40}",
            text in "[abC ]{0,20}",
        ) {
            let dfa = BlackAndWhite::new(kws(&black), kws(&white));
            let scan = BlackAndWhite { search: KeywordSearch::Scan, ..dfa.clone() };
            let all: Vec<&String> = dfa.black.words.iter().chain(&dfa.white.words).collect();
            let nfa = BlackAndWhite {
                search: NFA::new(&all).map_or(KeywordSearch::Scan, KeywordSearch::Nfa),
                ..dfa.clone()
            };
            let h = Haystack::new(&key, &text);
            let want = h.find_first_of_each(&scan);
            proptest::prop_assert_eq!(&h.find_first_of_each(&dfa), &want);
            proptest::prop_assert_eq!(&h.find_first_of_each(&nfa), &want);
        }
    }

    #[test]
    fn long_lists_get_an_nfa_that_finds_the_same_keywords() {
        let filler: Vec<String> = (0..2_000).map(|i| format!("filler{i:05}")).collect();
        let white =
            KeywordList::new([filler.clone(), vec!["about".into(), "team".into()]].concat());
        let black = KeywordList::new([filler, vec!["tag".into()]].concat());
        let nfa = BlackAndWhite::new(black, white);
        assert!(matches!(&nfa.search, KeywordSearch::Nfa(_)));
        let scan = BlackAndWhite {
            search: KeywordSearch::Scan,
            ..nfa.clone()
        };
        for (key, text) in [
            ("https://acme.test/about/team", ""),
            ("https://acme.test/heritage", "filler01999 filler00007"),
            ("https://acme.test/x", "nothing"),
        ] {
            let h = Haystack::new(key, text);
            assert_eq!(h.find_first_of_each(&scan), h.find_first_of_each(&nfa));
        }
    }

    #[test]
    fn inside_word_says_when_a_keyword_is_part_of_a_longer_word() {
        let black = kws("tag,team,/p/");
        let inside = |key: &str, text: &str| {
            let (_, hit) = Haystack::new(key, text).find_first(&black).unwrap();
            hit.inside_word
        };
        assert!(inside("https://acme.test/our-heritage", ""));
        assert!(inside("https://acme.test/x", "Steam deals"));
        assert!(!inside("https://acme.test/tag/x", ""));
        assert!(!inside("https://acme.test/x", "Our team"));
        // A keyword that begins and ends with `/` is never inside a word.
        assert!(!inside("https://acme.com/p/shoes", ""));
        // Chinese has no spaces between words: 联系 in 联系我们 is a word.
        let (_, hit) = Haystack::new("https://acme.test/x", "联系我们")
            .find_first(&kws("联系"))
            .unwrap();
        assert!(!hit.inside_word);
    }

    #[test]
    fn enclosing_word_names_the_longer_word() {
        let hay = "https://acme.test/our-heritage";
        let at = hay.find("tag").unwrap();
        assert_eq!(enclosing_word(hay, at..at + 3), Some("heritage"));
        let hay = "https://acme.test/tag/x";
        let at = hay.find("tag").unwrap();
        assert_eq!(enclosing_word(hay, at..at + 3), None);
        let hay = "https://acme.com/p/x";
        let at = hay.find("/p/").unwrap();
        assert_eq!(enclosing_word(hay, at..at + 3), None);
    }

    #[test]
    fn assets_by_path_suffix_only() {
        assert_eq!(asset_extension("/logo.png"), Some("png"));
        assert_eq!(asset_extension("/Files/Report.PDF"), Some("pdf"));
        assert_eq!(asset_extension("/fonts/a.woff2"), Some("woff2"));
        assert_eq!(asset_extension("/feed.json"), None);
        assert_eq!(asset_extension("/page.html"), None);
        assert_eq!(asset_extension("/png"), None);
        assert_eq!(asset_extension("/catalog.pdf/"), None);
        assert_eq!(asset_extension("/archive.tar.gz"), Some("gz"));
    }

    #[test]
    fn asset_suffixes_of_unicode_paths_are_read_lowercased() {
        assert_eq!(asset_extension("/Report.PDF"), Some("pdf"));
        assert_eq!(asset_extension("/файл.pdf"), Some("pdf"));
        // The Kelvin sign lowercases to an ASCII `k`.
        assert_eq!(asset_extension("/app.ap\u{212A}"), Some("apk"));
        assert_eq!(asset_extension("/é"), None);
        assert_eq!(asset_extension("pdf"), None);
        assert_eq!(asset_extension(".pdf"), Some("pdf"));
    }
}
