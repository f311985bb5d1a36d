//! `tavola info`: what a bot library says about itself.

use super::*;

/// `tavola info LIB`: what the library says about itself, asked of a worker process (loaded in
/// this one only with `--in-process`).
pub(crate) fn info(path: &Path, bots: &BotArgs) -> anyhow::Result<ExitCode> {
    let isolation = bots.isolation()?;
    let bot = worker::describe(path, isolation.as_ref())?;
    println!("name:        {}", bot.name);
    println!("version:     {}", bot.version);
    println!("author:      {}", bot.author);
    println!("description: {}", bot.description);
    println!("games:       {}", bot.games.join(", "));
    println!("built with:  tavola-sdk {}", bot.sdk_version);
    println!("path:        {}", bot.path.display());
    Ok(ExitCode::SUCCESS)
}
