use std::process::ExitCode;

use clap::Parser;
use follow_inspector::cli::{self, Cli};
use follow_inspector::ui;

// mimalloc: a page of 10,000 links is read in 30 ms instead of 38 ms, most of
// it from fewer page faults (measured with `perf stat`; see docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Parses the command line and dispatches: a command runs headless, none
/// opens the window.
fn main() -> ExitCode {
    let args = Cli::parse();
    match &args.command {
        Some(command) => cli::run(command, args.config_dir.as_deref()),
        None => ui::open(args.open, args.config_dir),
    }
}
