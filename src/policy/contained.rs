//! Which keyword of one list each keyword of another contains: the lint
//! `black_shadows_white`'s question, in time linear in both lists.

use std::collections::HashMap;

use aho_corasick::Anchored;
use aho_corasick::automaton::{Automaton, StateID};
use aho_corasick::nfa::noncontiguous;

/// For each of `texts`, the position in `keywords` of the first keyword (in
/// list order) the text contains: `texts[i].contains(keywords[j])` for the
/// least `j`. One automaton pass per text instead of one search per pair, so
/// two lists of 10,000 cost their length, not their product.
pub fn first_contained(keywords: &[String], texts: &[String]) -> Vec<Option<usize>> {
    if keywords.is_empty() {
        return vec![None; texts.len()];
    }
    // The standard match kind: a state reports every keyword ending there,
    // those of its failure chain included.
    let Ok(nfa) = noncontiguous::NFA::new(keywords) else {
        return texts
            .iter()
            .map(|t| keywords.iter().position(|k| t.contains(k.as_str())))
            .collect();
    };
    let mut least_in: HashMap<StateID, usize> = HashMap::new();
    let mut least = |sid: StateID| {
        *least_in.entry(sid).or_insert_with(|| {
            (0..nfa.match_len(sid))
                .map(|i| nfa.match_pattern(sid, i).as_usize())
                .min()
                .unwrap_or(usize::MAX)
        })
    };
    texts
        .iter()
        .map(|text| {
            let mut sid = nfa.start_state(Anchored::No).ok()?;
            let mut best: Option<usize> = None;
            for &byte in text.as_bytes() {
                sid = nfa.next_state(Anchored::No, sid, byte);
                if nfa.is_match(sid) {
                    let j = least(sid);
                    best = Some(best.map_or(j, |b| b.min(j)));
                }
            }
            best
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_contained_is_the_first_keyword_each_text_contains() {
        let words = |l: &str| l.split(',').map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(
            first_contained(&words("tag,blog,a,aa"), &words("tagline,xx,aa,blogtag,b")),
            [Some(0), None, Some(2), Some(0), None]
        );
        assert_eq!(first_contained(&[], &words("x")), [None]);
    }
}
