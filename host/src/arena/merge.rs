//! `tavola merge`: the results files of a run's shards (`--shard K/N`) put together into the
//! results file of the whole run, checked: the same run (settings equal but for the shard),
//! every shard present and finished, each game in its own shard once.
//!
//! The merged file is then resumed like any run's (every game replayed through the rules, none
//! played), so that its summary is computed by the very code a one-machine run uses.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::results::{self, GameLine};
use super::resume::{parse_shard, Header, RunSettings};
use super::schedule::{self, Format, ScheduleSpec};

/// What was merged.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The run's settings (no shard).
    pub settings: RunSettings,
    /// The games, in schedule order.
    pub games: usize,
}

/// The first setting in which `a` and `b` differ, as `name: a's vs b's`.
fn difference(a: &RunSettings, b: &RunSettings) -> Option<String> {
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
        (serde_json::to_value(a), serde_json::to_value(b))
    else {
        return Some("the settings".to_owned());
    };
    let keys: std::collections::BTreeSet<String> = a.keys().chain(b.keys()).cloned().collect();
    let show = |v: Option<&serde_json::Value>| v.map_or("none".to_owned(), ToString::to_string);
    let found = keys.into_iter().find_map(|key| {
        let (x, y) = (a.get(&key), b.get(&key));
        (x != y).then(|| format!("{key} {} against {}", show(x), show(y)))
    });
    found
}

/// Merges the shards' results files `inputs` into `out` (which must not hold results yet), and
/// the records beside them (`R.pgn`) into `out`'s.
///
/// # Errors
/// A file that cannot be read, is no shard, or belongs to another run; a shard missing, given
/// twice or unfinished; a game in the wrong shard or in two; `out` already holding results.
pub fn merge(out: &Path, inputs: &[PathBuf]) -> anyhow::Result<Merged> {
    if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
        bail!(
            "{} already holds results: merge into a new file",
            out.display()
        );
    }
    if inputs.is_empty() {
        bail!("no shard to merge: give the results files of every shard");
    }
    let mut base: Option<(RunSettings, PathBuf)> = None;
    let mut shards: BTreeMap<u32, PathBuf> = BTreeMap::new();
    let mut count = None;
    let mut games: BTreeMap<usize, (GameLine, PathBuf)> = BTreeMap::new();
    for input in inputs {
        let run = results::read_run(input)?;
        let Some(mut settings) = run.settings else {
            bail!(
                "{}: no run settings line: not the results of a tavola run",
                input.display()
            );
        };
        // Each shard may have played with its own machine's concurrency.
        settings.concurrency = None;
        let Some(shard) = settings.shard.take() else {
            bail!(
                "{}: not a shard (its run had no --shard): nothing to merge it with",
                input.display()
            );
        };
        let (k, n) =
            parse_shard(&shard).map_err(|e| anyhow::anyhow!("{}: {e}", input.display()))?;
        if let Some(warning) = run.warnings.first() {
            bail!(
                "{warning}; finish the shard first (tavola match --resume {})",
                input.display()
            );
        }
        match &base {
            None => base = Some((settings, input.clone())),
            Some((first, first_path)) => {
                if let Some(what) = difference(&settings, first) {
                    bail!(
                        "{} and {} are not shards of one run: {what}",
                        input.display(),
                        first_path.display()
                    );
                }
            }
        }
        match count {
            None => count = Some(n),
            Some(m) if m != n => bail!(
                "{} is shard {k}/{n}, but the others are of {m} shards",
                input.display()
            ),
            Some(_) => {}
        }
        if let Some(other) = shards.insert(k, input.clone()) {
            bail!(
                "shard {k}/{n} is given twice: {} and {}",
                other.display(),
                input.display()
            );
        }
        for read in run.games {
            let game = read.game;
            if game.pair % n as usize != (k - 1) as usize {
                bail!(
                    "{}:{}: game {} is not in shard {k}/{n}",
                    input.display(),
                    read.line,
                    game.index + 1
                );
            }
            if let Some((_, other)) = games.get(&game.index) {
                bail!(
                    "game {} is in both {} and {}",
                    game.index + 1,
                    other.display(),
                    input.display()
                );
            }
            games.insert(game.index, (game, input.clone()));
        }
    }
    let (settings, _) = base.expect("at least one input");
    let n = count.unwrap_or(1);
    if let Some(missing) = (1..=n).find(|k| !shards.contains_key(k)) {
        bail!("shard {missing}/{n} is missing: give the results files of all {n} shards");
    }
    let format = if settings.format == "gauntlet" {
        Format::Gauntlet
    } else {
        Format::RoundRobin
    };
    let spec = ScheduleSpec {
        players: settings.players.len(),
        format,
        games_per_encounter: settings.games,
        openings: 0,
        seed: settings.seed,
    };
    let scheduled = schedule::schedule(&spec);
    for (k, path) in &shards {
        let expected = scheduled
            .iter()
            .filter(|g| g.pair % n as usize == (k - 1) as usize);
        let missing = expected.filter(|g| !games.contains_key(&g.index)).count();
        if missing > 0 {
            bail!(
                "{} (shard {k}/{n}) lacks {missing} of its games: finish it first (tavola match \
                 --resume {0})",
                path.display()
            );
        }
    }
    let mut text = serde_json::to_string(&Header {
        tavola_run: settings.clone(),
    })
    .context("writing the header")?;
    text.push('\n');
    for (game, _) in games.values() {
        text.push_str(&serde_json::to_string(game).context("writing a game")?);
        text.push('\n');
    }
    results::write_atomically(out, text.as_bytes())?;
    // The records, shard by shard, where the runs wrote them.
    let mut records = String::new();
    for path in shards.values() {
        if let Ok(pgn) = std::fs::read_to_string(path.with_extension("pgn")) {
            records.push_str(&pgn);
            if !records.ends_with('\n') {
                records.push('\n');
            }
        }
    }
    if !records.is_empty() {
        results::write_atomically(&out.with_extension("pgn"), records.as_bytes())?;
    }
    Ok(Merged {
        settings,
        games: games.len(),
    })
}
