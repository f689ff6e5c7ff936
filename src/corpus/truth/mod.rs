//! Ground truth (SPEC section 11): which links of labelled corpus pages
//! should be followed, how many of them each side follows, why the others
//! are missed, and which single settings changes would find more.
//! Pages are decided again from what the run read, never read again.

mod ask;
pub mod edit;
mod evaluate;
mod judge;
mod kept;
mod keywords;
mod lexicon;
mod outcome;
mod suggest;
mod targets;
mod tokens;
mod tune;
pub use ask::{MAX_TUNE_STEPS, TuneAsk, TuneProgress};
pub use evaluate::{Evaluation, RunView, evaluate};
pub use kept::{KeptLinks, KeptPage};
pub use keywords::KeywordTruth;
pub use lexicon::{Lexicon, LexiconError, LexiconWord, MAX_LEXICON_BYTES, RowProblem};
pub use outcome::{KindCount, MatchPlace, Metrics, Missed, PageTruth, TargetOutcome, TargetWhy};
pub use suggest::{Change, Source, Suggest, Suggestion};
pub use targets::{Target, TargetKind, TargetProblem, Targets, TargetsError};
pub use tune::{CrossValidated, FOLDS, TuneStep, TuneStop, Tuning};
