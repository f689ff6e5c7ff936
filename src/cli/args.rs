//! The command line as clap parses it: every option's name, default and help,
//! and nothing else (`setup` turns these into what the commands run with).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::copy;
use crate::fetch::{self, Wait};
use crate::profiles;
use crate::render;

#[derive(Debug, Parser)]
#[command(
    name = "follow-inspector",
    version,
    about = "See which links the scraper follows from a page, and why.",
    long_about = "See which links the scraper follows from a page, and why.\n\n\
        Run without a command to open the desktop inspector, optionally on a URL, a \
        saved HTML file or a web archive (.warc, .warc.gz)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Keep settings profiles in this folder instead of the user's configuration
    /// directory (for a shared folder, or for tests).
    #[arg(long, global = true, value_name = "DIR", env = profiles::CONFIG_DIR_ENV)]
    pub config_dir: Option<PathBuf>,

    /// Open the desktop inspector on this URL, saved HTML file or web
    /// archive (.warc, .warc.gz).
    #[arg(value_name = "URL|FILE")]
    pub open: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Classify every link of a page (a saved HTML file or a URL) and print a report.
    Inspect(InspectArgs),
    /// Decide the same page (or crawl) under two settings and list the links
    /// that change, with the rule that changed each.
    Diff(DiffArgs),
    /// Run one or two settings over a folder of saved pages, a corpus
    /// manifest or web archives: counts per page and per keyword, and every
    /// changed link; or a shard of such a run, and `corpus merge` of the shards.
    Corpus(CorpusCommand),
    /// List, show, import, export or delete settings profiles.
    #[command(subcommand)]
    Profiles(ProfilesCommand),
}

#[derive(Debug, Subcommand)]
pub enum ProfilesCommand {
    /// List the profiles; the active one is marked with `*`.
    List,
    /// Print a profile's five settings, marking those that differ from the defaults.
    Show { name: String },
    /// Print a profile as the storage-data JSON the scraper stores (to send to a user).
    Export { name: String },
    /// Import a storage-data JSON object (a user's settings export; `-` reads stdin).
    Import {
        file: PathBuf,
        /// The new profile's name.
        #[arg(long)]
        name: String,
        /// Replace a profile of that name instead of refusing.
        #[arg(long)]
        replace: bool,
    },
    /// Delete a profile (the built-in one cannot be deleted).
    Delete { name: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned columns for a terminal, with counts per verdict and the lints.
    Table,
    /// One JSON object (SPEC section 7); field names are stable.
    Json,
    /// A header row, then one line per link.
    Csv,
}

/// The second settings of `diff` and `corpus`.
#[derive(Debug, clap::Args)]
pub struct AgainstArgs {
    /// The profile to compare with (side B).
    #[arg(long, value_name = "NAME", conflicts_with = "against_settings")]
    pub against: Option<String>,

    /// A storage-data JSON file to compare with (side B).
    #[arg(long, value_name = "FILE.json")]
    pub against_settings: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    #[command(flatten)]
    pub inspect: InspectArgs,

    #[command(flatten)]
    pub against: AgainstArgs,
}

/// `corpus`: a run, or `corpus merge` of a sharded run's partial results.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct CorpusCommand {
    #[command(subcommand)]
    pub merge: Option<CorpusSubcommand>,

    #[command(flatten)]
    pub run: CorpusArgs,
}

#[derive(Debug, Subcommand)]
pub enum CorpusSubcommand {
    /// Merge the partial results of a sharded run (`corpus … --format
    /// partial --shard I/N`) into the report the whole run prints.
    Merge(MergeArgs),
}

#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Partial results: files, or `-` for standard input. Their lines may come
    /// in any order; every shard of the run must be there, once.
    #[arg(value_name = "PART", required = true)]
    pub parts: Vec<PathBuf>,

    /// Suggestions are decided again on this many threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,

    /// How to print the report.
    #[arg(long, value_enum, default_value_t = MergedFormat::Table)]
    pub format: MergedFormat,

    #[command(flatten)]
    pub tuning: TuningArgs,
}

/// How suggestions are made and applied (with targets): the lexicon, and
/// `--tune` with its bounds (SPEC section 11).
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Suggestions and tuning (with --targets)")]
pub struct TuningArgs {
    /// A lexicon TSV (language, kind, word, source) to use instead of the
    /// one shipped with the tool.
    #[arg(long, value_name = "FILE.tsv")]
    pub lexicon: Option<PathBuf>,

    /// Apply the best validated suggestion up to N times (1 to 100),
    /// deciding the corpus again after each; the report lists the steps.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_tune_steps)]
    pub tune: Option<usize>,

    /// With --tune: no step may make the links followed per labelled page
    /// more than F.
    #[arg(long, value_name = "F", allow_negative_numbers = true, value_parser = parse_per_page)]
    pub max_followed_per_page: Option<f64>,

    /// With --tune: no step may make the precision (targets among the links
    /// followed on labelled pages) less than P, from 0 to 1.
    #[arg(long, value_name = "P", allow_negative_numbers = true, value_parser = parse_precision)]
    pub min_precision: Option<f64>,

    /// With --tune: write the tuned settings to FILE.json (storage-data keys).
    #[arg(long, value_name = "FILE.json")]
    pub tune_out: Option<PathBuf>,
}

fn parse_tune_steps(text: &str) -> Result<usize, String> {
    let max = crate::corpus::truth::MAX_TUNE_STEPS;
    match text.trim().parse::<i64>() {
        Ok(n) if (1..=max as i64).contains(&n) => Ok(n as usize),
        Ok(n) => Err(copy::bad_tune_steps(Some(n), max)),
        Err(_) => Err(copy::bad_tune_steps(None, max)),
    }
}

fn parse_per_page(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(f) if f.is_finite() && f > 0.0 => Ok(f),
        _ => Err(copy::BAD_PER_PAGE_BOUND.to_owned()),
    }
}

fn parse_precision(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(copy::BAD_PRECISION_BOUND.to_owned()),
    }
}

/// How `corpus merge` prints the whole run's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MergedFormat {
    /// Aligned columns for a terminal, as `corpus --format table`.
    Table,
    /// One JSON object, as `corpus --format json`.
    Json,
    /// A header row, then one line per page, as `corpus --format csv`.
    Csv,
}

#[derive(Debug, clap::Args)]
pub struct CorpusArgs {
    /// A folder of saved `*.html` pages (each names its URL with
    /// `<link rel=canonical>` or `og:url`), or a manifest TSV with `id` and
    /// `original_url` columns and the pages in `pages/<id>.html` beside it;
    /// or web archives: `.warc[.gz]` files, folders of them, `@LIST` files
    /// naming them one per line, read in the order given.
    #[arg(value_name = "CORPUS", required = true)]
    pub corpus: Vec<PathBuf>,

    /// The profile to run (side A; default: the scraper's defaults).
    #[arg(long, value_name = "NAME", conflicts_with = "settings")]
    pub profile: Option<String>,

    /// A storage-data JSON file to run (side A).
    #[arg(long, value_name = "FILE.json")]
    pub settings: Option<PathBuf>,

    #[command(flatten)]
    pub against: AgainstArgs,

    /// The crawl depth that sets N on each page: N = (depth - 1) × 3.
    #[arg(long, value_name = "D", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::inspect::MAX_DEPTH)))]
    pub depth: u32,

    /// Pages read at once (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,

    /// Bytes of a page file read at most, as of a fetched body; a longer page
    /// is cut and marked `truncated`.
    #[arg(long, value_name = "BYTES", default_value_t = fetch::DEFAULT_MAX_BYTES)]
    pub max_bytes: usize,

    /// A targets file (TSV: id, url, kind): measure how many labelled pages
    /// each side reaches a contact, imprint or about page on, and suggest
    /// changes (SPEC section 11).
    #[arg(long, value_name = "FILE.tsv")]
    pub targets: Option<PathBuf>,

    /// With --targets: how many suggested changes to list (0: none).
    #[arg(long, value_name = "N", default_value_t = 20, requires = "targets")]
    pub suggest: usize,

    #[command(flatten)]
    pub tuning: TuningArgs,

    /// How to print the report; `partial` is a shard's partial result, for
    /// `corpus merge`.
    #[arg(long, value_enum, default_value_t = CorpusFormat::Table)]
    pub format: CorpusFormat,

    /// With --format partial: judge only shard I of N (units u with u mod N
    /// = I; a unit is a saved page, or a whole archive file), or with `-` the
    /// units read from standard input, one per line as --list-units prints them.
    #[arg(long, value_name = "I/N|-", value_parser = parse_shard)]
    pub shard: Option<ShardArg>,

    /// Print the corpus's units (`J<TAB>NAME`: each saved page's id, or each
    /// archive's path) and exit: a scheduler's list to shard by.
    /// Other options are not needed, and ignored.
    #[arg(long)]
    pub list_units: bool,
}

/// How `corpus` prints its report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CorpusFormat {
    /// Aligned columns for a terminal, with counts per verdict and the lints.
    Table,
    /// One JSON object (SPEC section 9); field names are stable.
    Json,
    /// A header row, then one line per page.
    Csv,
    /// JSON lines, one per page: a shard's part of the run, for `corpus merge`.
    Partial,
}

/// `--shard`: which units a shard judges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardArg {
    Every {
        index: usize,
        of: usize,
    },
    /// `-`: read from standard input.
    Stdin,
}

fn parse_shard(text: &str) -> Result<ShardArg, String> {
    if text == "-" {
        return Ok(ShardArg::Stdin);
    }
    let parsed = text.split_once('/').and_then(|(i, n)| {
        Some((
            i.trim().parse::<usize>().ok()?,
            n.trim().parse::<usize>().ok()?,
        ))
    });
    match parsed {
        Some((index, of)) if index < of => Ok(ShardArg::Every { index, of }),
        _ => Err(copy::not_a_shard(text)),
    }
}

#[derive(Debug, clap::Args)]
pub struct InspectArgs {
    /// A saved HTML file, a web archive (`.warc.gz`, `.warc`) to reopen offline,
    /// or a URL (`https://…`, `http://…`, or a bare `acme.com`).
    pub target: String,

    /// The page's original URL, for a saved file. Without it the page's
    /// `<link rel=canonical>` or `og:url` is used; a file with neither needs it.
    /// For a web archive: the page to start from (default: the one its
    /// inspection started from, else its first HTML page).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

    /// The scraper's crawl depth (1-5; default 2, or a web archive's own). It
    /// sets N, the number of links followed from the start page: N = (depth - 1) × 3.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::inspect::MAX_DEPTH)))]
    pub depth: Option<u32>,

    /// Follow N links on every page instead of (depth - 1) × 3, to reproduce a
    /// scraper configured differently.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Also save every page of the inspection, as it was fetched, in a web
    /// archive (`.warc.gz`, or `.warc` uncompressed) to keep with a ticket;
    /// `inspect FILE.warc.gz` reopens it offline.
    #[arg(long, value_name = "FILE.warc.gz")]
    pub save_warc: Option<PathBuf>,

    /// A storage-data JSON object with the follow* keys (a user's settings export);
    /// missing keys take the scraper's defaults, other keys are ignored.
    #[arg(long, value_name = "FILE.json", conflicts_with = "profile")]
    pub settings: Option<PathBuf>,

    /// A saved settings profile, by name (see `follow-inspector profiles list`).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,

    /// How to print the report.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    #[command(flatten)]
    pub fetch: FetchArgs,
}

/// How URLs are fetched.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Fetching (URL targets)")]
pub struct FetchArgs {
    /// The User-Agent header sent (default: a current desktop browser's).
    #[arg(long, value_name = "UA")]
    pub user_agent: Option<String>,

    /// Seconds allowed to connect.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub connect_timeout: f64,

    /// Seconds allowed for one whole response, body included.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,

    /// Bytes of a page body read at most (after decompression); a longer page is
    /// cut and the report says so.
    #[arg(long, value_name = "BYTES", default_value_t = fetch::DEFAULT_MAX_BYTES)]
    pub max_bytes: usize,

    /// Send requests for HOST on PORT to ADDR:PORT instead of resolving it
    /// (curl's syntax), e.g. `--resolve acme.com:443:10.0.0.5` for a staging
    /// server. Only that port is mapped: HOST on another port is resolved as
    /// usual. Repeatable.
    #[arg(long, value_name = "HOST:PORT:ADDR")]
    pub resolve: Vec<fetch::Resolve>,

    /// Let a public page reach loopback, link-local and private addresses
    /// (its redirects, and in rendered mode its scripts' requests).
    #[arg(long)]
    pub allow_private_network: bool,

    /// Pages fetched at once within a crawl level (default 4; 2 when rendering).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=32))]
    pub parallel: Option<u64>,

    /// Read the links from headless Chromium's DOM after the page's scripts
    /// ran, as the scraper does, and show what scripts added or removed.
    #[arg(long, help_heading = "Rendered mode")]
    pub render: bool,

    /// When to read the rendered DOM.
    #[arg(long, value_enum, default_value_t = WaitArg::Networkidle2, help_heading = "Rendered mode")]
    pub wait: WaitArg,

    /// Seconds per rendered page; at the deadline the DOM is read anyway and
    /// the page is marked `network_idle: false`.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = render::DEFAULT_TIMEOUT.as_secs_f64(),
        help_heading = "Rendered mode"
    )]
    pub render_timeout: f64,

    /// The Chromium binary (default: Debian's chromium-headless-shell).
    #[arg(long, value_name = "PATH", env = render::BROWSER_ENV, help_heading = "Rendered mode")]
    pub browser: Option<PathBuf>,

    /// With --save-warc, keep the page's images, media and fonts too (by
    /// default they are counted, not kept: links never come from them).
    #[arg(long, requires = "render", help_heading = "Rendered mode")]
    pub capture_all: bool,
}

/// `--wait`, as clap spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WaitArg {
    /// The `load` event.
    Load,
    /// At most 2 requests open for 500 ms (Puppeteer's `networkidle2`).
    Networkidle2,
    /// No request open for 500 ms.
    Networkidle0,
}

impl From<WaitArg> for Wait {
    fn from(wait: WaitArg) -> Self {
        match wait {
            WaitArg::Load => Wait::Load,
            WaitArg::Networkidle2 => Wait::Networkidle2,
            WaitArg::Networkidle0 => Wait::Networkidle0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
