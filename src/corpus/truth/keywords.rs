//! Per keyword, how its verdicts on labelled pages split between targets
//! and other links: what the Corpus view's chart shows.

use std::collections::HashMap;

use super::outcome::PageTruth;
use crate::policy::compare::ListName;
use crate::policy::{PageDecision, Settings, Verdict};

/// A white keyword's followed links, or a black keyword's blacklisted ones,
/// on the labelled pages: how many are targets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeywordTruth {
    pub list: ListName,
    pub keyword: String,
    pub targets: usize,
    pub others: usize,
}

/// Every keyword of `settings`' lists (each once, white first, in list
/// order), tallied over each labelled page's decision under `settings`.
pub fn keyword_truths<'a>(
    settings: &Settings,
    decided: impl Iterator<Item = (&'a PageDecision, &'a PageTruth)>,
) -> Vec<KeywordTruth> {
    let opts = settings.options();
    let mut out: Vec<KeywordTruth> = Vec::new();
    let mut at: HashMap<(ListName, &str), usize> = HashMap::new();
    for (list, words) in [
        (ListName::White, opts.keywords.white()),
        (ListName::Black, opts.keywords.black()),
    ] {
        for word in words.iter() {
            if at.contains_key(&(list, word.as_str())) {
                continue;
            }
            at.insert((list, word.as_str()), out.len());
            out.push(KeywordTruth {
                list,
                keyword: word.clone(),
                targets: 0,
                others: 0,
            });
        }
    }
    for (decision, truth) in decided {
        for link in &decision.links {
            let list = match link.verdict {
                Verdict::Followed => ListName::White,
                Verdict::Blacklisted => ListName::Black,
                _ => continue,
            };
            let (Some(hit), Some(key)) = (link.keyword(), link.key.as_deref()) else {
                continue;
            };
            let Some(&slot) = at.get(&(list, &*hit.keyword)) else {
                continue;
            };
            if truth.is_target(key) {
                out[slot].targets += 1;
            } else {
                out[slot].others += 1;
            }
        }
    }
    out
}
