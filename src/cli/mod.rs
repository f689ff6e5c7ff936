//! The headless commands: `inspect`, `diff`, `corpus` and `profiles`. Errors
//! carry the exit code SPEC section 7 gives them; `args` is what clap parses,
//! `setup` what the commands run with.

mod args;
mod corpus;
mod failure;
mod inspect;
mod output;
mod profiles;
mod setup;

use std::path::Path;
use std::process::ExitCode;

use args::CorpusSubcommand;
pub use args::{Cli, Command};
pub use failure::Failure;

/// Runs a headless command.
pub fn run(command: &Command, config_dir: Option<&Path>) -> ExitCode {
    let result = match command {
        Command::Inspect(args) => inspect::run_inspect(args, config_dir),
        Command::Diff(args) => inspect::run_diff(args, config_dir),
        Command::Corpus(command) => match &command.merge {
            Some(CorpusSubcommand::Merge(args)) => corpus::run_merge(args),
            None => corpus::run_corpus(&command.run, config_dir),
        },
        Command::Profiles(command) => profiles::run_profiles(command, config_dir),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            output::say(&format!("error: {}", failure.message()));
            failure.exit_code()
        }
    }
}
