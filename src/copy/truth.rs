//! Ground truth: why a target was missed, what a suggested change does, and
//! the scoreboard of a corpus run measured against a targets file.

use super::*;
use crate::corpus::truth::{Change, Evaluation, MatchPlace, Metrics, TargetWhy};
use crate::policy::Verdict;
use crate::policy::compare::{Cause, ListName};

/// Why a target was (not) followed, in the trace's words ("blacklisted by
/// `news` in the host", "ranked 5th of N = 3, 2 points below the cut-off").
pub fn target_reason(why: &TargetWhy) -> String {
    match why {
        TargetWhy::Followed { rank } => format!("followed, ranked {}", ordinal(*rank)),
        TargetWhy::Absent => "absent: no link of the page has this URL".to_owned(),
        TargetWhy::Blacklisted { keyword, place } => {
            let place = match place {
                MatchPlace::Host => "in the host",
                MatchPlace::Path => "in the URL",
                MatchPlace::Text => "in the text",
            };
            format!("blacklisted by `{keyword}` {place}")
        }
        TargetWhy::RankedOut {
            keyword,
            rank,
            limit,
            gap,
        } => {
            let behind = match gap {
                Some(0) => "tied with the cut-off, lost on document order".to_owned(),
                Some(gap) => format!("{} below the cut-off", plural(*gap, "point", "points")),
                None => "nothing is followed at this depth".to_owned(),
            };
            format!(
                "ranked {} of N = {limit} by `{keyword}`, {behind}",
                ordinal(*rank)
            )
        }
        TargetWhy::NoKeyword { text } if text.is_empty() => {
            "no keyword in the URL, and the link has no text".to_owned()
        }
        TargetWhy::NoKeyword { text } => format!("no keyword: text \"{text}\""),
        TargetWhy::OffDomain {
            host,
            subdomain_mode,
        } => format!(
            "off-domain: `{host}`, subdomain mode {}",
            if *subdomain_mode { "on" } else { "off" }
        ),
        TargetWhy::Asset { extension } => format!("asset: `.{extension}`"),
        TargetWhy::Other(Verdict::SelfLink) => "the page's own URL".to_owned(),
        TargetWhy::Other(Verdict::NotHttp) => "not an http(s) link".to_owned(),
        TargetWhy::Other(Verdict::Invalid) => "the href does not parse".to_owned(),
        TargetWhy::Other(verdict) => verdict_meaning(*verdict).to_owned(),
    }
}

/// 1st, 2nd, 3rd, 4th, 11th, 21st, …
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A suggested change, worded as `because` words a changed link.
pub fn change_words(change: &Change) -> String {
    match change {
        Change::AddWhite(k) => because(&Cause::KeywordAdded(ListName::White, k.clone())),
        Change::AddWhiteLanguage { language, words } => format!(
            "the lexicon's {} for `{language}` added to the white list",
            plural(words.len(), "word", "words")
        ),
        Change::RemoveBlack(k) => because(&Cause::KeywordRemoved(ListName::Black, k.clone())),
        Change::MoveWhite(k) => format!("`{k}` moved to the front of the white list"),
        Change::AllowDomain(d) => because(&Cause::AllowedDomainAdded(d.clone())),
        Change::Subdomain(on) => because(&Cause::SubdomainMode(*on)),
    }
}

/// "49/68 sites (72%)".
fn sites(found: usize, labelled: usize) -> String {
    match labelled {
        0 => "0 labelled sites".to_owned(),
        _ => format!(
            "{found}/{labelled} sites ({:.0}%)",
            found as f64 * 100.0 / labelled as f64
        ),
    }
}

fn per_site(m: &Metrics) -> String {
    format!("{:.1}", m.followed_per_page().unwrap_or(0.0))
}

/// The scoreboard: "A reaches a contact, imprint or about page on 49/68
/// sites (72%), B on 53/68 (78%): +5 rescued, −1 lost; 1.5 → 1.7 links
/// followed per site".
pub fn scoreboard(e: &Evaluation) -> String {
    let a = &e.a;
    match &e.b {
        None => format!(
            "A reaches a contact, imprint or about page on {}; {} links followed per site",
            sites(a.found, a.labelled_pages),
            per_site(a)
        ),
        Some(b) => format!(
            "A reaches a contact, imprint or about page on {}, B on {}: +{} rescued, −{} lost; \
             {} → {} links followed per site",
            sites(a.found, a.labelled_pages),
            sites(b.found, b.labelled_pages),
            e.rescued.len(),
            e.lost.len(),
            per_site(a),
            per_site(b)
        ),
    }
}

/// One side's details: "a: contact 40/55, imprint 12/20, about 30/45
/// sites; 60/202 target links followed; precision 41%".
pub fn metrics_details(side: &str, m: &Metrics) -> String {
    if m.labelled_pages == 0 {
        return format!("{side}: no labelled pages");
    }
    let kinds: Vec<String> = m
        .by_kind
        .iter()
        .map(|(kind, count)| format!("{} {}/{}", kind.id(), count.found, count.labelled_pages))
        .collect();
    let precision = match m.precision() {
        Some(p) => format!("precision {:.0}%", p * 100.0),
        None => "nothing followed".to_owned(),
    };
    format!(
        "{side}: {} sites; {}/{} target links followed; {precision}",
        kinds.join(", "),
        m.target_links_followed,
        m.target_links
    )
}

/// The heading of the suggestions: "suggestions (20 of 57 tried)".
pub fn suggestions_heading(shown: usize, tried: usize) -> String {
    format!("suggestions ({shown} of {tried} tried, each a single change of A)")
}

/// The heading of the missed targets of a side.
pub fn missed_heading(side: &str, n: usize) -> String {
    format!(
        "missed on the pages where {side} reaches none ({})",
        plural(n, "target", "targets")
    )
}

/// "rescued under b (5): 003 017 …"; `rescued` false: lost.
pub fn rescued_line(rescued: bool, ids: &[String]) -> String {
    let what = if rescued {
        "rescued under b"
    } else {
        "lost under b"
    };
    format!("{what} ({}): {}", ids.len(), ids.join(" "))
}

/// A row of the targets file the run went on without.
pub fn skipped_target_row(problem: &crate::corpus::truth::TargetProblem) -> String {
    format!("skipped: {problem}")
}

/// Under the rows of the targets file listed, those past the list's cap.
pub fn target_rows_not_listed(count: usize) -> String {
    format!(
        "… and {} of the targets file not listed (only the first 1,000 are)",
        plural(count, "more row", "more rows")
    )
}

/// The columns of the table's suggestions.
pub const SUGGESTION_COLUMNS: [&str; 7] = [
    "+pages", "valid", "−pages", "+targets", "+other", "proposed", "change",
];

/// What a suggestion's validated gain means, in words a tuner reads:
/// "gains 3 sites; 2 of them still when the page it came from is left out".
pub fn validated_words(s: &crate::corpus::truth::Suggestion) -> String {
    use crate::corpus::truth::Source;
    let gained = s.pages_gained.len();
    let lost = match s.pages_lost.len() {
        0 => String::new(),
        n => format!("; loses {}", plural(n, "site", "sites")),
    };
    let gains = format!("gains {}", plural(gained, "site", "sites"));
    let why = match (&s.source, gained) {
        (_, 0) => String::new(),
        (Source::Mode, _) => "; a mode, so every one counts".to_owned(),
        (Source::Lexicon { language }, _) => {
            format!("; a lexicon word (`{language}`), so every one counts")
        }
        (Source::Pages, _) => match s.validated_gain() {
            v if v == gained && gained > 1 => {
                "; all of them still when the page each came from is left out".to_owned()
            }
            v => format!(
                "; {} of them still when the page it came from is left out",
                v
            ),
        },
    };
    format!("{gains}{why}{lost}")
}

/// Over the suggestions, the one chosen and what its gain is worth.
pub fn chosen_suggestion_line(s: &crate::corpus::truth::Suggestion) -> String {
    format!("{}: {}", change_words(&s.change), validated_words(s))
}

/// The window's Validated cell: "2 of 3".
pub fn validated_cell(s: &crate::corpus::truth::Suggestion) -> String {
    format!("{} of {}", s.validated_gain(), s.pages_gained.len())
}

/// The alternatives of a grouped keyword suggestion.
pub fn alternatives_words(alternatives: &[String]) -> String {
    const SHOWN: usize = 4;
    let mut shown: Vec<String> = alternatives
        .iter()
        .take(SHOWN)
        .map(|a| format!("`{a}`"))
        .collect();
    if alternatives.len() > SHOWN {
        shown.push(format!("{} more", alternatives.len() - SHOWN));
    }
    format!("(same links as {})", shown.join(", "))
}

/// The tuning section's heading.
pub fn tuning_heading(t: &crate::corpus::truth::Tuning) -> String {
    format!(
        "tuning (--tune {}: {} taken)",
        t.ask.steps,
        plural(t.steps.len(), "step", "steps")
    )
}

/// The tuning's columns in the table.
pub const TUNING_COLUMNS: [&str; 7] = [
    "step",
    "+pages",
    "valid",
    "−pages",
    "recall",
    "precision",
    "per site",
];

/// The tuning table's step 0.
pub const TUNING_START: &str = "(side A, before tuning)";

/// A ratio as a percentage with `decimals` places, "–" when there is none.
pub fn percent_or_dash(ratio: Option<f64>, decimals: usize) -> String {
    ratio.map_or("–".to_owned(), |r| format!("{:.*}%", decimals, r * 100.0))
}

/// Links followed per site with two places, "–" when there is none.
pub fn per_site_or_dash(per_site: Option<f64>) -> String {
    per_site.map_or("–".to_owned(), |f| format!("{f:.2}"))
}

/// The bounds a tuning was given, as its flags say them.
fn bounds_given(ask: &crate::corpus::truth::TuneAsk) -> String {
    let mut given = Vec::new();
    if let Some(max) = ask.max_followed_per_page {
        given.push(format!("--max-followed-per-page {max}"));
    }
    if let Some(min) = ask.min_precision {
        given.push(format!("--min-precision {min}"));
    }
    match given.len() {
        0 => "no bound".to_owned(),
        1 => format!("the bound {}", given[0]),
        _ => format!("a bound ({})", given.join(" or ")),
    }
}

/// Why the tuning stopped before its last step.
pub fn tuning_stopped(t: &crate::corpus::truth::Tuning) -> String {
    use crate::corpus::truth::TuneStop;
    let done = plural(t.steps.len(), "step", "steps");
    match &t.stop {
        TuneStop::Steps => format!("tuning took all {done}"),
        TuneStop::NoGain => format!(
            "tuning stopped after {done}: no change gains more validated sites than it loses"
        ),
        TuneStop::Bounds(best) => format!(
            "tuning stopped after {done}: every change that gains breaks {}; the best was {}",
            bounds_given(&t.ask),
            change_words(best)
        ),
        TuneStop::StartBreaksBounds => format!(
            "no step was taken: A itself breaks {} ({} links followed per site, precision {}), and no change that gains brings it within",
            bounds_given(&t.ask),
            per_site_or_dash(t.before.followed_per_page()),
            percent_or_dash(t.before.precision(), 0)
        ),
        TuneStop::Cancelled => format!("tuning was cancelled after {done}"),
    }
}

/// The honest figure beside the corpus's own.
pub fn cross_validated_line(t: &crate::corpus::truth::Tuning) -> String {
    let own = t.steps.last().map_or(&t.before, |s| &s.metrics);
    let percent = |r: Option<f64>| percent_or_dash(r, 0);
    let mut line = format!(
        "site recall on the pages tuned on: {} before, {} after",
        percent(t.before.site_recall()),
        percent(own.site_recall())
    );
    match &t.cross_validated {
        Some(cv) => line.push_str(&format!(
            "; cross-validated ({}-fold, tuned on the other folds): {}/{} sites ({}), against {} with A as it was — quote this one",
            cv.folds,
            cv.found,
            cv.labelled_pages,
            percent(cv.site_recall()),
            cv.found_untuned
        )),
        None => line.push_str(&format!(
            "; too few labelled pages to cross-validate ({} folds)",
            crate::corpus::truth::FOLDS
        )),
    }
    line
}

/// When the targets file names none of the corpus's pages.
pub fn nothing_labelled(pages: usize) -> String {
    format!(
        "the targets file labels none of the {}: check that it belongs to this corpus",
        plural(pages, "corpus page", "corpus pages")
    )
}

/// The context of an error that stops `corpus --targets`.
pub const CANNOT_USE_TARGETS: &str = "cannot use the targets file";
pub const CANNOT_USE_LEXICON: &str = "cannot use the lexicon";
pub const TUNE_NEEDS_TARGETS: &str =
    "--tune and --lexicon need --targets: suggestions are measured against labelled pages";
pub const TUNE_IN_MERGE: &str = "a shard does not suggest or tune: give --tune and --lexicon to `corpus merge`, which does both over every shard's pages";

/// `--tune-out` when no page was labelled, so nothing was tuned.
pub fn nothing_tuned(path: &std::path::Path) -> String {
    format!(
        "no labelled page was read, so nothing was tuned: {} was not written",
        path.display()
    )
}

/// `--tune` given no number of steps it can take (`None`: not a number).
pub fn bad_tune_steps(given: Option<i64>, max: usize) -> String {
    match given {
        Some(0) => format!("0 steps tunes nothing: give 1 to {max}"),
        Some(n) if n < 0 => format!("a number of steps cannot be negative: give 1 to {max}"),
        _ => {
            format!("give a number of steps from 1 to {max} (each step is a whole suggestion run)")
        }
    }
}
pub const BAD_PER_PAGE_BOUND: &str =
    "give the most links followed per page, a number above 0 (e.g. 6 or 4.5)";
pub const BAD_PRECISION_BOUND: &str = "give a precision from 0 to 1 (e.g. 0.25)";

/// A bound given without `--tune`.
pub fn needs_tune(flag: &str) -> String {
    format!("{flag} bounds --tune: give --tune N too")
}

/// The status line while tuning.
pub fn tuning_progress(p: crate::corpus::truth::TuneProgress) -> String {
    use crate::corpus::truth::TuneProgress;
    match p {
        TuneProgress::Step { step, of } => format!("tuning: step {step} of at most {of}"),
        TuneProgress::Fold { fold, folds, step } => {
            format!("cross-validating: fold {fold} of {folds}, step {step}")
        }
    }
}

pub fn cannot_write_tuned(path: &std::path::Path) -> String {
    format!("cannot write the tuned settings to {}", path.display())
}

pub fn tuned_written(path: &std::path::Path, steps: usize) -> String {
    format!(
        "wrote the settings tuned in {} to {}",
        plural(steps, "step", "steps"),
        path.display()
    )
}

/// A cancelled run measured only what it read.
pub const PARTIAL_EVALUATION: &str =
    "the run was cancelled: only the pages it read are measured, and suggestions were stopped";

/// The ground truth's first line: "ground truth: 68 labelled pages, 202 targets".
pub fn truth_heading(pages: usize, targets: usize) -> String {
    format!(
        "ground truth: {}, {}",
        plural(pages, "labelled page", "labelled pages"),
        plural(targets, "target", "targets")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_read_as_the_trace_does() {
        let ranked = TargetWhy::RankedOut {
            keyword: "about".into(),
            rank: 5,
            limit: 3,
            gap: Some(2),
        };
        assert_eq!(
            target_reason(&ranked),
            "ranked 5th of N = 3 by `about`, 2 points below the cut-off"
        );
        let black = TargetWhy::Blacklisted {
            keyword: "news".into(),
            place: MatchPlace::Host,
        };
        assert_eq!(target_reason(&black), "blacklisted by `news` in the host");
        let off = TargetWhy::OffDomain {
            host: "service.alibaba.com".into(),
            subdomain_mode: false,
        };
        assert_eq!(
            target_reason(&off),
            "off-domain: `service.alibaba.com`, subdomain mode off"
        );
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(22), "22nd");
    }
}
