//! Sharded corpus runs (issue 22): a shard judges some of a corpus's units
//! — its saved pages, or its archive files — and writes a partial result,
//! JSON lines that carry every page as the report needs it and, for a
//! labelled page, its links; a merge of every shard's lines, in any order,
//! is the run one process makes, so every report and the ground-truth
//! evaluation with its suggestions come out byte for byte the same.

mod fields;
mod lines;
mod merge;
mod read;
mod shard;
pub use fields::{keyword_uses, lint_ids, lossy_path};
pub use lines::{RunPlan, TargetsBytes, TargetsFile, Units};
pub use merge::{Merge, MergeError, Merged};
pub use read::{CappedLines, LineError, MAX_UNIT_LINE};
pub use shard::{ListedUnit, Shard, ShardError, ShardRun, write_shard};
