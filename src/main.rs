use std::process::ExitCode;

use clap::Parser;
use follow_inspector::cli::{Cli, run};

fn main() -> ExitCode {
    run(Cli::parse())
}
