//! `tavola report`: runs' results as one HTML page.

use super::*;

#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// Results files of matches or tournaments (a merged run's too).
    #[arg(required = true, num_args = 1.., value_name = "RESULTS")]
    pub(crate) results: Vec<PathBuf>,
    /// The page to write.
    #[arg(short, long, value_name = "HTML", default_value = "report.html")]
    pub(crate) output: PathBuf,
    /// A sequential test to draw for the matches: `elo0=X elo1=Y [alpha=0.05] [beta=0.05]
    /// [model=normalized|logistic]`.
    #[arg(long, num_args = 1..=5, value_name = "KEY=VALUE")]
    pub(crate) sprt: Vec<String>,
}

/// Writes the page; says where.
pub(crate) fn run(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let sprt = (!args.sprt.is_empty())
        .then(|| runner::parse_sprt(&args.sprt))
        .transpose()
        .map_err(|message| anyhow::Error::new(UsageError(message)))?;
    let runs = args
        .results
        .iter()
        .map(|path| tavola::arena::report::read(path, sprt.as_ref()))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let page = tavola::arena::report::html(&runs);
    tavola::arena::results::write_atomically(&args.output, page.as_bytes())?;
    println!("Report of {} run(s): {}", runs.len(), args.output.display());
    Ok(ExitCode::SUCCESS)
}
