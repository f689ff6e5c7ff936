//! The words a white keyword could be made of (SPEC 11, suggestion (a)):
//! tokens of a target's decoded URL path segments and of its link text.

use std::sync::LazyLock;

use icu_segmenter::WordSegmenter;
use icu_segmenter::options::WordBreakInvariantOptions;
use percent_encoding::percent_decode_str;
use regex::Regex;
use url::Url;

/// The candidate keywords of a link, each once, in the order found: its
/// path segments' tokens, then its text's.
pub fn keyword_tokens(url: &Url, text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let segments = url.path_segments().into_iter().flatten();
    let decoded = segments.map(|s| percent_decode_str(s).decode_utf8_lossy().into_owned());
    for part in decoded.chain(std::iter::once(text.to_owned())) {
        for token in tokens(&part.to_lowercase()) {
            if !out.contains(&token) {
                out.push(token);
            }
        }
    }
    out
}

/// Letters, combining marks and digits: a mark stays in its word
/// (`i̇letişim`, `संपर्क`), as it does in the haystack a keyword is found in.
static WORD: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"[\p{L}\p{M}\p{N}]+").ok());

/// Splits on characters that are neither letters, marks nor digits; keeps
/// words of at least 3 letters and, in scripts written without spaces, the
/// words a dictionary segmenter finds (of at least 2 characters) and the
/// compounds of 2 or 3 of them side by side (`会社概要` of `会社` and `概要`;
/// a one-character particle such as `は` ends a compound).
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Some(word_pattern) = WORD.as_ref() else {
        return out;
    };
    for word in word_pattern.find_iter(text) {
        let mut spaced = String::new();
        let mut unspaced = String::new();
        let mut in_unspaced = false;
        for c in word.as_str().chars() {
            // A combining mark goes with the character before it.
            let is_mark = !c.is_alphanumeric();
            if !is_mark {
                in_unspaced = is_unspaced(c);
            }
            if in_unspaced {
                flush_spaced(&mut spaced, &mut out);
                unspaced.push(c);
            } else {
                flush_unspaced(&mut unspaced, &mut out);
                spaced.push(c);
            }
        }
        flush_spaced(&mut spaced, &mut out);
        flush_unspaced(&mut unspaced, &mut out);
    }
    out
}

fn flush_spaced(word: &mut String, out: &mut Vec<String>) {
    if word.chars().filter(|c| c.is_alphabetic()).count() >= 3 {
        out.push(word.clone());
    }
    word.clear();
}

/// The longest compound of segmenter words a candidate is made of.
const MOST_WORDS: usize = 3;

fn flush_unspaced(run: &mut String, out: &mut Vec<String>) {
    if run.is_empty() {
        return;
    }
    let segmenter = WordSegmenter::new_auto(WordBreakInvariantOptions::default());
    let bounds: Vec<usize> = segmenter.segment_str(run).collect();
    let words: Vec<&str> = bounds.windows(2).map(|w| &run[w[0]..w[1]]).collect();
    let long = |w: &&str| w.chars().filter(|c| c.is_alphanumeric()).count() >= 2;
    for start in 0..words.len() {
        for len in 1..=MOST_WORDS.min(words.len() - start) {
            let parts = &words[start..start + len];
            if !parts.iter().all(long) {
                break;
            }
            let compound: String = parts.concat();
            if !out.contains(&compound) {
                out.push(compound);
            }
        }
    }
    run.clear();
}

/// Han, kana, Thai, Lao, Khmer and Myanmar: scripts whose words are not
/// separated by spaces (with the ideographic iteration and closing marks).
fn is_unspaced(c: char) -> bool {
    matches!(c,
        '\u{3005}'..='\u{3007}'   // 々 〆 〇
        | '\u{0E00}'..='\u{0EFF}'     // Thai, Lao
        | '\u{1000}'..='\u{109F}'   // Myanmar
        | '\u{1780}'..='\u{17FF}'   // Khmer
        | '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
        | '\u{31F0}'..='\u{31FF}'
        | '\u{3400}'..='\u{4DBF}'   // Han
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FF66}'..='\u{FF9F}'   // half-width Katakana
        | '\u{20000}'..='\u{2FA1F}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(url: &str, text: &str) -> Vec<String> {
        keyword_tokens(&Url::parse(url).unwrap(), text)
    }

    #[test]
    fn path_segments_then_text() {
        assert_eq!(
            of(
                "https://a.de/de/Ihr-Besuch/index.html?x=kontaktform",
                "Ihr Besuch"
            ),
            ["ihr", "besuch", "index", "html"]
        );
    }

    #[test]
    fn segments_are_decoded() {
        assert_eq!(
            of("https://a.es/qui%C3%A9nes-somos/", "Quiénes somos"),
            ["quiénes", "somos"]
        );
    }

    #[test]
    fn short_words_and_numbers_are_dropped() {
        assert_eq!(of("https://a.com/p/2019/b2b/abc1", "Go"), ["abc1"]);
    }

    #[test]
    fn unspaced_scripts_give_whole_words_and_their_compounds() {
        assert_eq!(
            of("https://a.jp/", "会社概要"),
            ["会社", "会社概要", "概要"]
        );
        assert_eq!(of("https://a.jp/", "お問い合わせ"), ["お問い合わせ"]);
        // A one-character particle ends a compound and is no candidate.
        assert_eq!(
            of("https://a.jp/", "会社概要はこちら"),
            ["会社", "会社概要", "概要", "こちら"]
        );
        assert_eq!(
            of("https://a.cn/", "联系我们"),
            ["联系", "联系我们", "我们"]
        );
        assert_eq!(of("https://a.jp/", "about会社"), ["about", "会社"]);
        assert_eq!(of("https://a.jp/", "人々"), ["人々"]);
        // No fragment of a word is a candidate.
        let all = of("https://a.jp/", "お問い合わせフォーム");
        assert!(!all.iter().any(|t| t == "い合" || t == "問い合"), "{all:?}");
    }

    #[test]
    fn combining_marks_stay_in_their_word() {
        assert_eq!(of("https://a.tr/", "İletişim"), ["i\u{307}letişim"]);
        assert_eq!(of("https://a.in/", "संपर्क करें"), ["संपर्क", "करें"]);
        assert_eq!(
            of("https://a.es/", "Quie\u{301}nes somos"),
            ["quie\u{301}nes", "somos"]
        );
    }
}
