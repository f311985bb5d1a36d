//! `tavola merge`: the shards of a run, put together.

use super::*;

#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The merged results file to write (a new one).
    pub(crate) out: PathBuf,
    /// The results files of the shards (`--shard K/N`), all N of them, in any order.
    #[arg(required = true, num_args = 1.., value_name = "SHARD_RESULTS")]
    pub(crate) shards: Vec<PathBuf>,
    /// A sequential probability ratio test of the union (a match): `elo0=X elo1=Y [alpha=0.05]
    /// [beta=0.05] [model=normalized|logistic]`.
    #[arg(long, num_args = 1..=5, value_name = "KEY=VALUE")]
    pub(crate) sprt: Vec<String>,
}

/// Merges the shards into `out`, then shows and writes the run's summary as `tavola match
/// --resume OUT` (or `tournament`) would: every game replayed through the rules, none played.
pub(crate) fn run(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let merged = tavola::arena::merge::merge(&args.out, &args.shards)?;
    println!(
        "Merged {} shards, {} games, into {}",
        args.shards.len(),
        merged.games,
        args.out.display()
    );
    let settings = &merged.settings;
    let kind = if settings.players.len() == 2 && settings.format == "round-robin" {
        "match"
    } else {
        "tournament"
    };
    let mut argv: Vec<std::ffi::OsString> = vec![
        "tavola".into(),
        kind.into(),
        "--resume".into(),
        args.out.clone().into_os_string(),
        "--concurrency".into(),
        "1".into(),
    ];
    if !args.sprt.is_empty() {
        if kind != "match" {
            return Err(UsageError("--sprt is for a match of two players".into()).into());
        }
        argv.push("--sprt".into());
        argv.extend(args.sprt.iter().map(Into::into));
    }
    let cli = Cli::try_parse_from(argv).context("resuming the merged run")?;
    super::run(cli)
}
