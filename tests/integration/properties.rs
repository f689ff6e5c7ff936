//! Properties of the page reader and the policy over arbitrary pages, hrefs,
//! base URLs and settings (proptest). The normal suite runs a few hundred
//! cases; `scripts/fuzz SECONDS` runs them for a time budget
//! (`FOLLOW_INSPECTOR_FUZZ_SECONDS`) and reports how many it ran.

use std::time::{Duration, Instant};

use follow_inspector::inspect::read_page;
use follow_inspector::policy::{Settings, Verdict, decide_resolved, follow_limit};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRng, TestRunner};
use url::Url;

/// Pieces real pages are made of, plus the odd ones parsers trip on.
fn href() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("#top".to_owned()),
        Just("/".to_owned()),
        Just("//acme.test/about".to_owned()),
        Just("https://shop.acme.test/kontakt".to_owned()),
        Just("http://acmecorp.test/impressum".to_owned()),
        Just("https://facebook.test/acme-blog".to_owned()),
        Just("mailto:info@acme.test".to_owned()),
        Just("javascript:void(0)".to_owned()),
        Just("http://[bad".to_owned()),
        Just("/%E8%81%94%E7%B3%BB".to_owned()),
        Just("/logo.png?v=2".to_owned()),
        Just("/feed.json".to_owned()),
        "[a-z/._#?%=-]{0,24}",
        "/(contact|about|team|blog|tag|heritage|steam|p/x|cart)[a-z/]{0,8}",
        any::<String>(),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("Contact us".to_owned()),
        Just("联系我们".to_owned()),
        Just("Über uns".to_owned()),
        "[a-zA-Z \t\n]{0,20}",
        any::<String>(),
    ]
}

fn fragment() -> impl Strategy<Value = String> {
    let attr = |s: String| s.replace('"', "&quot;");
    prop_oneof![
        4 => (href(), text()).prop_map(move |(h, t)| format!("<a href=\"{}\">{t}</a>", attr(h))),
        1 => href().prop_map(move |h| format!("<base href=\"{}\">", attr(h))),
        1 => Just("<template><a href=/inert>x</a>".to_owned()),
        1 => Just("</template>".to_owned()),
        1 => Just("<svg><a xlink:href=/x><text>s</text></a><a href=/svg>t</a></svg>".to_owned()),
        1 => Just("<table><tr><td>".to_owned()),
        1 => Just("<div>".to_owned()),
        1 => Just("</div>".to_owned()),
        1 => Just("<p>".to_owned()),
        1 => Just("<b>".to_owned()),
        1 => Just("</a>".to_owned()),
        1 => Just("<noscript><a href=/ns>n</a></noscript>".to_owned()),
        1 => Just("<link rel=canonical href=https://acme.test/home>".to_owned()),
        1 => "[<>a-z =/\"']{0,16}",
    ]
}

/// A page: structured fragments, sometimes with arbitrary bytes mixed in.
fn page_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => prop::collection::vec(fragment(), 0..40).prop_map(|f| f.concat().into_bytes()),
        1 => prop::collection::vec(any::<u8>(), 0..400),
        1 => (
            prop::collection::vec(fragment(), 0..20),
            prop::collection::vec(any::<u8>(), 0..60)
        )
            .prop_map(|(f, noise)| {
                let mut bytes = f.concat().into_bytes();
                let at = bytes.len() / 2;
                bytes.splice(at..at, noise);
                bytes
            }),
    ]
}

fn keyword_list() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("contact".to_owned()),
        Just("about".to_owned()),
        Just("team".to_owned()),
        Just("impressum".to_owned()),
        Just("联系".to_owned()),
        Just("blog".to_owned()),
        Just("tag".to_owned()),
        Just("/p/".to_owned()),
        Just(" ".to_owned()),
        "[a-z]{1,6}",
        any::<String>(),
    ];
    prop::collection::vec(word, 0..6).prop_map(|w| w.join(","))
}

fn settings() -> impl Strategy<Value = Settings> {
    (
        any::<bool>(),
        keyword_list(),
        keyword_list(),
        any::<bool>(),
        prop_oneof![
            Just(String::new()),
            Just("acmecorp.test".to_owned()),
            Just("acme.test, facebook.test".to_owned()),
            "[a-z.,]{0,20}",
        ],
    )
        .prop_map(|(subdomain, white, black, skip, allowed)| Settings {
            follow_subdomain: subdomain,
            follow_keywords_white: white,
            follow_keywords_black: black,
            follow_skip_assets: skip,
            follow_allowed_domains: allowed,
        })
}

fn page_url() -> impl Strategy<Value = Url> {
    prop_oneof![
        Just("https://acme.test/"),
        Just("https://www.acme.test/en/index.html"),
        Just("http://192.168.0.1/"),
        Just("https://acme.co.uk/kontakt"),
        Just("https://xn--mortenmller-fgb.dk/"),
    ]
    .prop_map(|u| Url::parse(u).expect("a valid page URL"))
}

type Case = (Vec<u8>, Url, Settings, u32);

fn case() -> impl Strategy<Value = Case> {
    (page_bytes(), page_url(), settings(), 1u32..5)
}

/// Each verdict's step (1-9 of SPEC 4): every step before it passed, it failed.
fn deciding_step(verdict: Verdict) -> Option<usize> {
    Some(match verdict {
        Verdict::Invalid => 0,
        Verdict::NotHttp => 1,
        Verdict::SelfLink => 2,
        Verdict::Duplicate => 3,
        Verdict::OffDomain => 4,
        Verdict::Asset => 5,
        Verdict::Blacklisted => 6,
        Verdict::NoKeyword => 7,
        Verdict::RankedOut => 8,
        Verdict::Followed => return None,
    })
}

fn check((bytes, page_url, settings, depth): Case) -> Result<(), TestCaseError> {
    let read = read_page(&bytes, None, &page_url);
    let limit = follow_limit(depth);
    let opts = settings.options();
    let decision = decide_resolved(&read.candidates, &read.resolved, &page_url, &opts, limit);
    let links = &decision.links;
    prop_assert_eq!(
        links.len(),
        read.candidates.len(),
        "one verdict per candidate"
    );
    let followed: Vec<_> = links
        .iter()
        .filter(|l| l.verdict == Verdict::Followed)
        .collect();
    prop_assert!(followed.len() <= limit, "at most N followed");
    for (i, link) in links.iter().enumerate() {
        prop_assert_eq!(link.index, i);
        let outcomes = link.rule_outcomes(settings.follow_skip_assets);
        match deciding_step(link.verdict) {
            Some(step) => {
                prop_assert!(
                    outcomes[..step].iter().all(|o| *o == Some(true)),
                    "steps before {} pass for {:?}: {:?}",
                    step + 1,
                    link.verdict,
                    outcomes
                );
                prop_assert_eq!(outcomes[step], Some(false), "{:?}", link.verdict);
            }
            None => prop_assert!(outcomes.iter().all(|o| *o == Some(true))),
        }
        if link.verdict == Verdict::Followed {
            prop_assert_eq!(link.trace.same_site, Some(true));
            prop_assert!(!(settings.follow_skip_assets && link.trace.asset_extension.is_some()));
            prop_assert!(link.trace.black.is_none());
            prop_assert!(link.trace.white.is_some());
            let scheme = link.url.as_ref().map(|u| u.scheme().to_owned());
            prop_assert!(matches!(scheme.as_deref(), Some("http" | "https")));
        }
    }
    let mut ranks: Vec<usize> = links.iter().filter_map(|l| l.rank).collect();
    ranks.sort_unstable();
    prop_assert!(
        ranks.iter().enumerate().all(|(i, r)| *r == i + 1),
        "ranks are 1..k without gaps: {:?}",
        ranks
    );
    let ranked = links
        .iter()
        .filter(|l| matches!(l.verdict, Verdict::Followed | Verdict::RankedOut))
        .count();
    prop_assert_eq!(ranks.len(), ranked);
    Ok(())
}

#[test]
fn reader_and_policy_hold_their_properties() {
    let budget = std::env::var("FOLLOW_INSPECTOR_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok());
    let Some(seconds) = budget else {
        // The normal suite: a short deterministic run.
        let mut runner = TestRunner::new_with_rng(
            Config {
                cases: 300,
                failure_persistence: None,
                ..Config::default()
            },
            TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
        );
        if let Err(e) = runner.run(&case(), check) {
            panic!("{e}");
        }
        return;
    };
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut rounds, mut cases) = (0u64, 0u64);
    while Instant::now() < deadline {
        let mut runner = TestRunner::new(Config {
            cases: 1000,
            failure_persistence: None,
            ..Config::default()
        });
        if let Err(e) = runner.run(&case(), check) {
            panic!("finding after {cases} cases: {e}");
        }
        rounds += 1;
        cases += 1000;
    }
    eprintln!("fuzz: {cases} cases in {rounds} rounds of random seeds, no finding");
}
