//! The `tavola` command: play board games against bots, in a window or in the terminal.
//!
//! Exit codes: 0 done (whatever the game's result), 1 an error (bad position, move or file),
//! 2 a bad command line, 3 a bot library that cannot be used (missing, not a bot, built against
//! another SDK, refusing the game), 130 a match or tournament stopped by Ctrl-C (its finished games
//! and summary written).

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    cli::main()
}
