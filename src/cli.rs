//! The headless commands. Errors carry the exit code SPEC section 7 gives them.

use std::io::IsTerminal as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context as _, anyhow};
use clap::{Parser, Subcommand, ValueEnum};

use crate::copy;
use crate::crawl::{self, CrawlRequest, Progress};
use crate::fetch::{self, HttpFetcher};
use crate::inspect::Inspection;
use crate::policy::{ImportedSettings, Settings};
use crate::profiles::{self, ProfileStore};
use crate::render::{self, Wait};
use crate::report;
use crate::target::{Target, parse_page_url};

#[derive(Debug, Parser)]
#[command(
    name = "follow-inspector",
    version,
    about = "See which links the scraper follows from a page, and why.",
    long_about = "See which links the scraper follows from a page, and why.\n\n\
        Run without a command to open the desktop inspector, optionally on a URL or a \
        saved HTML file."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Keep settings profiles in this folder instead of the user's configuration
    /// directory (for a shared folder, or for tests).
    #[arg(long, global = true, value_name = "DIR", env = profiles::CONFIG_DIR_ENV)]
    pub config_dir: Option<PathBuf>,

    /// Open the desktop inspector on this URL or saved HTML file.
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
    /// Run one or two settings over a folder of saved pages or a corpus
    /// manifest: counts per page and per keyword, and every changed link.
    Corpus(CorpusArgs),
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

#[derive(Debug, clap::Args)]
pub struct CorpusArgs {
    /// A folder of saved `*.html` pages (each names its URL with
    /// `<link rel=canonical>` or `og:url`), or a manifest TSV with `id` and
    /// `original_url` columns and the pages in `pages/<id>.html` beside it.
    pub corpus: PathBuf,

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
          value_parser = clap::value_parser!(u32).range(1..=5))]
    pub depth: u32,

    /// Pages read at once (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,

    /// How to print the report.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

#[derive(Debug, clap::Args)]
pub struct InspectArgs {
    /// A saved HTML file, or a URL (`https://…`, `http://…`, or a bare `acme.com`).
    pub target: String,

    /// The page's original URL, for a saved file. Without it the page's
    /// `<link rel=canonical>` or `og:url` is used; a file with neither needs it.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

    /// The scraper's crawl depth (1-5). It sets N, the number of links followed
    /// from the start page: N = (depth - 1) × 3.
    #[arg(long, value_name = "D", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=5))]
    pub depth: u32,

    /// Follow N links on every page instead of (depth - 1) × 3, to reproduce a
    /// scraper configured differently.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

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

    /// Send requests for HOST to ADDR:PORT instead of resolving it (curl's
    /// syntax), e.g. `--resolve acme.com:443:10.0.0.5` for a staging server.
    /// Repeatable.
    #[arg(long, value_name = "HOST:PORT:ADDR")]
    pub resolve: Vec<fetch::Resolve>,

    /// Pages fetched at once within a crawl level (default 4; 2 when rendering).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=32))]
    pub parallel: Option<u64>,

    /// Read the links from headless Chromium's DOM after the page's scripts
    /// ran, as the scraper does, and show what scripts added or removed.
    #[arg(long, help_heading = "Rendered mode")]
    pub render: bool,

    /// When to read the rendered DOM.
    #[arg(long, value_enum, default_value_t = Wait::Networkidle2, help_heading = "Rendered mode")]
    pub wait: Wait,

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
}

fn seconds(name: &str, s: f64) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| anyhow!("--{name} must be a positive number of seconds"))
}

impl FetchArgs {
    /// How many pages are loaded at once.
    pub fn parallelism(&self) -> usize {
        let default = if self.render {
            render::DEFAULT_PARALLELISM
        } else {
            crawl::DEFAULT_PARALLELISM
        };
        self.parallel.map_or(default, |n| n as usize)
    }

    /// The fetcher these arguments ask for: the HTTP client, or a browser.
    fn fetcher(&self) -> Result<Box<dyn fetch::Fetcher>, Failure> {
        let opts = self.options().map_err(usage)?;
        if !self.render {
            let client = HttpFetcher::new(opts).map_err(|e| Failure::Fetch(e.into()))?;
            return Ok(Box::new(client));
        }
        let browser =
            render::find_browser(self.browser.as_deref()).map_err(|e| Failure::Fetch(e.into()))?;
        let render = render::RenderOptions {
            wait: self.wait,
            timeout: seconds("render-timeout", self.render_timeout).map_err(usage)?,
            ..render::RenderOptions::new(browser, &opts)
        };
        // Ctrl+C ends the process; the browser on its pipe ends with it.
        let never = Arc::new(AtomicBool::new(false));
        let browser = render::RenderFetcher::launch(render, opts, never)
            .map_err(|e| Failure::Fetch(e.into()))?;
        Ok(Box::new(browser))
    }

    pub fn options(&self) -> anyhow::Result<fetch::FetchOptions> {
        Ok(fetch::FetchOptions {
            user_agent: self
                .user_agent
                .clone()
                .unwrap_or_else(|| fetch::DEFAULT_USER_AGENT.to_owned()),
            connect_timeout: seconds("connect-timeout", self.connect_timeout)?,
            timeout: seconds("timeout", self.timeout)?,
            max_bytes: self.max_bytes,
            resolve: self.resolve.clone(),
        })
    }
}

/// A failed command, with its exit code.
#[derive(Debug)]
pub enum Failure {
    /// Bad arguments, an unreadable file or invalid settings: exit 2.
    Usage(anyhow::Error),
    /// The page could not be fetched: exit 3.
    Fetch(anyhow::Error),
}

impl Failure {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::Usage(_) => ExitCode::from(2),
            Failure::Fetch(_) => ExitCode::from(3),
        }
    }

    pub fn error(&self) -> &anyhow::Error {
        match self {
            Failure::Usage(e) | Failure::Fetch(e) => e,
        }
    }
}

fn usage(err: anyhow::Error) -> Failure {
    Failure::Usage(err)
}

fn open_store(config_dir: Option<&Path>) -> Result<ProfileStore, Failure> {
    let store = ProfileStore::open(config_dir)
        .context("cannot open the settings profiles")
        .map_err(usage)?;
    for notice in store.take_notices() {
        eprintln!("warning: {notice}");
    }
    Ok(store)
}

/// Reads a profile or a settings file, reporting ignored keys on stderr;
/// neither gives the defaults. `profile_flag` names the profile's option in
/// errors.
fn load_settings(
    profile: Option<&str>,
    file: Option<&Path>,
    profile_flag: &str,
    config_dir: Option<&Path>,
) -> Result<Settings, Failure> {
    if let Some(name) = profile {
        return open_store(config_dir)?
            .load(name)
            .with_context(|| format!("--{profile_flag} {name}"))
            .map_err(usage);
    }
    let Some(path) = file else {
        return Ok(Settings::default());
    };
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read settings file {}", path.display()))
        .map_err(usage)?;
    let imported = ImportedSettings::from_json(&text)
        .with_context(|| format!("invalid settings in {}", path.display()))
        .map_err(usage)?;
    if !imported.ignored_keys.is_empty() {
        eprintln!(
            "note: {} has keys that are not follow settings, ignored: {}",
            path.display(),
            imported.ignored_keys.join(", ")
        );
    }
    Ok(imported.settings)
}

fn inspect_file(
    path: &Path,
    args: &InspectArgs,
    settings: Settings,
) -> Result<Inspection, Failure> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("cannot read {}", path.display()))
        .map_err(usage)?;
    let given_url = args
        .base_url
        .as_deref()
        .map(|raw| parse_page_url(raw).map_err(|e| usage(anyhow!("--base-url: {e}"))))
        .transpose()?;
    Inspection::saved_page(&bytes, given_url, args.depth, args.limit, settings).map_err(|e| {
        usage(anyhow!(
            "{}: {e}: pass its original URL with --base-url URL",
            path.display()
        ))
    })
}

/// Shows crawl progress on one stderr line, when stderr is a terminal.
fn progress_line(p: Progress) {
    let last = p.last_url.as_deref().unwrap_or("");
    eprint!(
        "\r\x1b[2Kfetched {}/{} pages, {} KB  {}",
        p.done,
        p.queued,
        p.bytes / 1024,
        last.chars().take(60).collect::<String>()
    );
}

fn inspect_url(
    url: url::Url,
    args: &InspectArgs,
    settings: Settings,
    fetcher: &dyn fetch::Fetcher,
) -> Result<Inspection, Failure> {
    let request = CrawlRequest {
        start_url: url,
        depth: args.depth,
        limit_override: args.limit,
        settings,
        parallelism: args.fetch.parallelism(),
    };
    let cancel = AtomicBool::new(false);
    let interactive = std::io::stderr().is_terminal();
    let progress = |p: Progress| {
        if interactive {
            progress_line(p);
        }
    };
    let result = crawl::crawl(fetcher, &request, &cancel, &progress);
    if interactive {
        eprint!("\r\x1b[2K");
    }
    result.map_err(|e| Failure::Fetch(e.into()))
}

/// Runs `inspect` and prints the report on stdout.
pub fn run_inspect(args: &InspectArgs, config_dir: Option<&Path>) -> Result<(), Failure> {
    let settings = side_a(args, config_dir)?;
    let target = Target::parse(&args.target).map_err(usage)?;
    let fetcher = fetcher_for(&target, &args.fetch)?;
    let inspection = inspect_target(&target, args, settings, fetcher.as_deref())?;
    warn_about_reading(&inspection, args.fetch.max_bytes);
    let mut stdout = report_out();
    let written = match args.format {
        Format::Json => report::write_json(&inspection, &mut stdout),
        Format::Csv => report::write_csv(&inspection, &mut stdout).map_err(std::io::Error::from),
        Format::Table => report::write_table(&inspection, &mut stdout),
    };
    // The process ends next: freeing half a million links one by one would
    // only cost time the operating system saves by taking the memory back.
    std::mem::forget(inspection);
    finish_writing(written)
}

fn side_a(args: &InspectArgs, config_dir: Option<&Path>) -> Result<Settings, Failure> {
    let (profile, file) = (args.profile.as_deref(), args.settings.as_deref());
    load_settings(profile, file, "profile", config_dir)
}

fn side_b(args: &AgainstArgs, config_dir: Option<&Path>) -> Result<Option<Settings>, Failure> {
    let (profile, file) = (args.against.as_deref(), args.against_settings.as_deref());
    if profile.is_none() && file.is_none() {
        return Ok(None);
    }
    load_settings(profile, file, "against", config_dir).map(Some)
}

/// Reads a file target, or crawls a URL target with `fetcher`.
fn inspect_target(
    target: &Target,
    args: &InspectArgs,
    settings: Settings,
    fetcher: Option<&dyn fetch::Fetcher>,
) -> Result<Inspection, Failure> {
    match (target, fetcher) {
        (Target::Url(url), Some(fetcher)) => inspect_url(url.clone(), args, settings, fetcher),
        (Target::File(path), _) => inspect_file(path, args, settings),
        (Target::Url(_), None) => Err(usage(anyhow!("a URL needs a fetcher"))),
    }
}

/// The fetcher a target needs: none for a saved file.
fn fetcher_for(
    target: &Target,
    fetch: &FetchArgs,
) -> Result<Option<Box<dyn fetch::Fetcher>>, Failure> {
    match target {
        Target::File(_) => Ok(None),
        Target::Url(_) => fetch.fetcher().map(Some),
    }
}

/// Standard output for a report, in large writes: a report of 10,000 links is
/// 4 MB of JSON.
fn report_out() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock())
}

/// A closed pipe (`| head`) is not an error worth reporting.
fn finish_writing(written: std::io::Result<()>) -> Result<(), Failure> {
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(usage(
            anyhow::Error::from(e).context("cannot write the report"),
        )),
        _ => Ok(()),
    }
}

/// Runs `diff`: one fetch per page for both sides.
pub fn run_diff(args: &DiffArgs, config_dir: Option<&Path>) -> Result<(), Failure> {
    let a = side_a(&args.inspect, config_dir)?;
    let b = side_b(&args.against, config_dir)?.ok_or_else(|| {
        usage(anyhow!(
            "diff needs --against NAME or --against-settings FILE"
        ))
    })?;
    let target = Target::parse(&args.inspect.target).map_err(usage)?;
    let fetcher = fetcher_for(&target, &args.inspect.fetch)?;
    let once = fetcher.as_deref().map(crate::diff::FetchOnce::new);
    let once = once.as_ref().map(|f| f as &dyn fetch::Fetcher);
    let inspection_a = inspect_target(&target, &args.inspect, a, once)?;
    let inspection_b = match &target {
        // One read, decided again: a file is one page.
        Target::File(_) => {
            let mut again = inspection_a.clone();
            again.settings = b;
            again.reclassify();
            again
        }
        Target::Url(_) => inspect_target(&target, &args.inspect, b, once)?,
    };
    warn_about_reading(&inspection_a, args.inspect.fetch.max_bytes);
    let diff = crate::diff::Diff::new(inspection_a, inspection_b);
    let mut stdout = report_out();
    let written = match args.inspect.format {
        Format::Json => report::write_diff_json(&diff, &args.inspect.target, &mut stdout),
        Format::Csv => report::write_diff_csv(&diff, &mut stdout).map_err(std::io::Error::from),
        Format::Table => report::write_diff_table(&diff, &mut stdout),
    };
    finish_writing(written)
}

/// Runs `corpus`: never touches the network.
pub fn run_corpus(args: &CorpusArgs, config_dir: Option<&Path>) -> Result<(), Failure> {
    let (profile, file) = (args.profile.as_deref(), args.settings.as_deref());
    let a = load_settings(profile, file, "profile", config_dir)?;
    let b = side_b(&args.against, config_dir)?;
    let pages = crate::corpus::list_pages(&args.corpus)
        .with_context(|| format!("cannot read the corpus {}", args.corpus.display()))
        .map_err(usage)?;
    let jobs = args
        .jobs
        .map_or_else(crate::corpus::default_jobs, |n| n as usize);
    let interactive = std::io::stderr().is_terminal();
    let total = pages.len();
    let progress = |done: usize| {
        if interactive {
            eprint!("\r\x1b[2Kread {done}/{total} pages");
        }
    };
    let cancel = AtomicBool::new(false);
    let run = crate::corpus::run(&pages, &a, b.as_ref(), args.depth, jobs, &cancel, &progress);
    if interactive {
        eprint!("\r\x1b[2K");
    }
    let mut stdout = report_out();
    let written = match args.format {
        Format::Json => report::write_corpus_json(&run, &mut stdout),
        Format::Csv => report::write_corpus_csv(&run, &mut stdout).map_err(std::io::Error::from),
        Format::Table => report::write_corpus_table(&run, &mut stdout),
    };
    finish_writing(written)
}

/// Warns on stderr about pages read incompletely or with replaced bytes.
fn warn_about_reading(inspection: &Inspection, max_bytes: usize) {
    for page in &inspection.pages {
        if page.fetch.as_ref().is_some_and(|f| f.truncated) {
            eprintln!(
                "warning: {} was cut at {max_bytes} bytes (--max-bytes); links after the cut \
                 are missing",
                page.url
            );
        }
        if let Some(read) = page.read.as_ref().filter(|r| r.replaced_bytes) {
            eprintln!(
                "warning: {}: {}",
                page.url,
                copy::replaced_bytes(read.encoding)
            );
        }
    }
}

fn print(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Runs `profiles …`.
pub fn run_profiles(command: &ProfilesCommand, config_dir: Option<&Path>) -> Result<(), Failure> {
    let store = open_store(config_dir)?;
    let fail = |e: crate::profiles::ProfileError| usage(e.into());
    match command {
        ProfilesCommand::List => {
            let active = store.active().map_err(fail)?;
            let mut out = String::new();
            for name in store.list().map_err(fail)? {
                let mark = if name == active { "*" } else { " " };
                let builtin = if name == profiles::BUILT_IN {
                    "  (built in, read-only)"
                } else {
                    ""
                };
                out.push_str(&format!("{mark} {name}{builtin}\n"));
            }
            print(&out);
        }
        ProfilesCommand::Show { name } => {
            let settings = store.load(name).map_err(fail)?;
            let changed = settings.changed_keys();
            let value = serde_json::to_value(&settings).map_err(|e| usage(e.into()))?;
            let mut out = format!("{name}\n");
            for key in crate::policy::settings::STORAGE_KEYS {
                let mark = if changed.contains(&key) {
                    "  (changed from the defaults)"
                } else {
                    ""
                };
                out.push_str(&format!("  {key} = {}{mark}\n", value[key]));
            }
            print(&out);
        }
        ProfilesCommand::Export { name } => {
            let mut json = store.export(name).map_err(fail)?;
            json.push('\n');
            print(&json);
        }
        ProfilesCommand::Import {
            file,
            name,
            replace,
        } => {
            let text = if file.as_os_str() == "-" {
                std::io::read_to_string(std::io::stdin()).context("cannot read stdin")
            } else {
                std::fs::read_to_string(file)
                    .with_context(|| format!("cannot read {}", file.display()))
            }
            .map_err(usage)?;
            let (stored, imported) = if *replace {
                store.import_replacing(name, &text)
            } else {
                store.import(name, &text)
            }
            .with_context(|| format!("cannot import {}", file.display()))
            .map_err(usage)?;
            if !imported.ignored_keys.is_empty() {
                eprintln!(
                    "ignored keys (not follow settings): {}",
                    imported.ignored_keys.join(", ")
                );
            }
            if !imported.defaulted_keys.is_empty() {
                eprintln!(
                    "missing keys, given the defaults: {}",
                    imported.defaulted_keys.join(", ")
                );
            }
            eprintln!("imported as profile “{stored}”");
        }
        ProfilesCommand::Delete { name } => {
            store.delete(name).map_err(fail)?;
            eprintln!("deleted profile “{name}”");
        }
    }
    Ok(())
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    let config_dir = cli.config_dir.as_deref();
    let result = match &cli.command {
        Some(Command::Inspect(args)) => run_inspect(args, config_dir),
        Some(Command::Diff(args)) => run_diff(args, config_dir),
        Some(Command::Corpus(args)) => run_corpus(args, config_dir),
        Some(Command::Profiles(command)) => run_profiles(command, config_dir),
        None => crate::ui::run(cli.open.clone(), cli.config_dir.clone()).map_err(usage),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {:#}", failure.error());
            failure.exit_code()
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
