//! The follow policy of SPEC.md: pure functions of settings, URLs and candidates.
//! No I/O, no clock, no UI: the GUI, the CLI and the tests all call this code.

pub mod compare;
pub mod contained;
pub mod domains;
pub mod explain;
pub mod keywords;
pub mod limits;
pub mod lints;
pub mod settings;
pub mod trace;
pub mod verdict;

pub use domains::{Admission, SiteCheck, check_site, root_domain};
pub use keywords::{ASSET_EXTENSIONS, Haystack, KeywordHit, KeywordList, ListName, MatchedIn};
pub use limits::{MAX_ITEM_CHARS, MAX_ITEMS, MAX_LIST_CHARS, OverLimit};
pub use lints::{
    Lint, LintCode, LintContext, SiblingRoot, lint, lint_compiled, lint_settings, sibling_roots,
};
pub use settings::{
    CompiledSettings, FollowOptions, ImportedSettings, STORAGE_KEYS, Settings, SettingsError,
    over_limits, parse_list,
};
pub use trace::{KeywordFound, RankStep, SiteStep, StepFacts, TraceStep, WhiteStep, trace_steps};
pub use verdict::{
    Candidate, LinkDecision, PageDecision, Region, ResolvedLink, Trace, Verdict, decide_page,
    decide_resolved, follow_limit, resolve_links, url_key,
};
