//! The running tally of a match or tournament, and the summary made from it: per-player
//! statistics, the crosstable, the Bradley-Terry rating list, termination reasons, time losses and
//! the SPRT.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::Serialize;

use super::bradley_terry::{self, Crosstable};
use super::results::GameLine;
use super::stats::{Pentanomial, Sprt, SprtModel, SprtStatus, Wdl};
use crate::referee::Termination;

/// The group of a termination (the record's tag) in the summary: `normal` (by the rules, or a
/// resignation), `time forfeit`, `illegal move` (an illegal or unparsable answer), `crash` (a
/// crash, a panic, an error the bot reported, or a seat that could not start) or `adjudicated`.
#[must_use]
pub fn termination_group(termination: &str) -> &'static str {
    const NORMAL: &str = Termination::Normal.as_str();
    const RESIGNATION: &str = Termination::Resignation.as_str();
    const TIME: &str = Termination::TimeForfeit.as_str();
    const ILLEGAL: &str = Termination::IllegalMove.as_str();
    const UNPARSABLE: &str = Termination::UnparsableMove.as_str();
    const ADJUDICATION: &str = Termination::Adjudication.as_str();
    match termination {
        NORMAL | RESIGNATION => "normal",
        TIME => "time forfeit",
        ILLEGAL | UNPARSABLE => "illegal move",
        ADJUDICATION => "adjudicated",
        _ => "crash",
    }
}

/// Running statistics of every player.
#[derive(Debug)]
pub struct Tally {
    wdl: Vec<Wdl>,
    pentanomial: Vec<Pentanomial>,
    crosstable: Crosstable,
    /// The first finished game of each pair not yet complete: (a player of it, their score).
    open_pairs: HashMap<usize, (usize, f64)>,
    terminations: Vec<BTreeMap<String, u64>>,
    losses_by: Vec<BTreeMap<String, u64>>,
    time_losses: Vec<u64>,
    /// The SPRT's decision, taken when a bound was first crossed.
    sprt_decision: Option<SprtDecision>,
}

/// The SPRT's decision as it was taken: the games in flight when it was finish and are counted,
/// but they do not reopen the test (as in cutechess).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtDecision {
    /// H0 or H1 accepted.
    pub status: SprtStatus,
    /// The LLR that crossed the bound.
    pub llr: f64,
    /// Games counted when it did.
    pub games: u64,
}

impl Tally {
    /// An empty tally of `players` players.
    #[must_use]
    pub fn new(players: usize) -> Tally {
        Tally {
            wdl: vec![Wdl::default(); players],
            pentanomial: vec![Pentanomial::default(); players],
            crosstable: Crosstable::new(players),
            open_pairs: HashMap::new(),
            terminations: vec![BTreeMap::new(); players],
            losses_by: vec![BTreeMap::new(); players],
            time_losses: vec![0; players],
            sprt_decision: None,
        }
    }

    /// Counts one finished game.
    pub fn add(&mut self, line: &GameLine) {
        let (white, black) = (line.white_player, line.black_player());
        if white == black || white >= self.wdl.len() || black >= self.wdl.len() {
            return;
        }
        for player in [white, black] {
            let score = line.score_of(player);
            let wdl = &mut self.wdl[player];
            if score == 1.0 {
                wdl.wins += 1;
            } else if score == 0.0 {
                wdl.losses += 1;
            } else {
                wdl.draws += 1;
            }
            *self.terminations[player]
                .entry(line.termination.clone())
                .or_default() += 1;
        }
        self.crosstable.add_game(white, black, line.white_score());
        match self.open_pairs.remove(&line.pair) {
            Some((player, first)) if player == white || player == black => {
                let other = if player == white { black } else { white };
                let second = line.score_of(player);
                self.pentanomial[player].add_pair(first, second);
                self.pentanomial[other].add_pair(1.0 - first, 1.0 - second);
            }
            _ => {
                self.open_pairs
                    .insert(line.pair, (white, line.white_score()));
            }
        }
        if let Some(loser) = line.loser() {
            *self.losses_by[loser]
                .entry(line.termination.clone())
                .or_default() += 1;
            if line.termination == Termination::TimeForfeit.as_str() {
                self.time_losses[loser] += 1;
            }
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.wdl.iter().map(Wdl::games).sum::<u64>() / 2
    }

    /// The SPRT's log-likelihood ratio for player 0: of pairs when there are any, else of games.
    #[must_use]
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        match self.pentanomial.first() {
            Some(p) if p.pairs() > 0 => sprt.llr_pentanomial(p),
            _ => self.wdl.first().map_or(0.0, |w| sprt.llr(w)),
        }
    }

    /// Takes the SPRT's decision if the LLR has crossed a bound and none was taken yet; returns
    /// whether this call took it. Call it after each game added.
    pub fn check_sprt(&mut self, sprt: Option<&Sprt>) -> bool {
        let Some(sprt) = sprt.filter(|_| self.sprt_decision.is_none()) else {
            return false;
        };
        let llr = self.llr(sprt);
        let status = sprt.status(llr);
        if status == SprtStatus::Continue {
            return false;
        }
        self.sprt_decision = Some(SprtDecision {
            status,
            llr,
            games: self.games(),
        });
        true
    }

    /// Whether the SPRT was decided (see [`Tally::check_sprt`]).
    #[must_use]
    pub fn decided(&self) -> bool {
        self.sprt_decision.is_some()
    }

    /// The running score in a few words. A match: `A 12.5/20 (+10 =5 -5), Elo 44.2 ± 120.1` from
    /// player 0's view; a tournament: every player's points, then the leader's Elo against the
    /// field, `A 3.5, B 2, C 0.5; A Elo 120.4 ± 200.3`.
    #[must_use]
    pub fn progress(&self, names: &[String]) -> String {
        let points = |w: &Wdl| w.wins as f64 + w.draws as f64 / 2.0;
        let elo = |w: &Wdl| match w.elo() {
            Some(e) if e.error95.is_finite() => format!("Elo {:.1} ± {:.1}", e.elo, e.error95),
            // The interval reaches a score of 1 (or 0): its other end.
            Some(e) if e.elo > 0.0 => format!("Elo {}, at least {:.1}", signed(e.elo), e.lower95),
            Some(e) => format!("Elo {}, at most {:.1}", signed(e.elo), e.upper95),
            None => "Elo -".to_owned(),
        };
        if self.wdl.len() != 2 {
            let scores: Vec<String> = names
                .iter()
                .zip(&self.wdl)
                .map(|(name, w)| format!("{name} {}", points(w)))
                .collect();
            let leader = (0..self.wdl.len())
                .max_by(|&a, &b| points(&self.wdl[a]).total_cmp(&points(&self.wdl[b])));
            return match leader {
                Some(i) if self.wdl[i].games() > 0 => {
                    format!("{}; {} {}", scores.join(", "), names[i], elo(&self.wdl[i]))
                }
                _ => scores.join(", "),
            };
        }
        let w = self.wdl[0];
        format!(
            "{} {}/{} (+{} ={} -{}), {}",
            names.first().map_or("", String::as_str),
            points(&w),
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            elo(&w)
        )
    }
}

/// Per-player statistics: in a match against the other player, in a tournament against the field.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PlayerSummary {
    /// The player's name.
    pub name: String,
    /// The seat spec.
    pub spec: String,
    /// Games played.
    pub games: u64,
    /// Wins of this player.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Score in percent.
    pub score_percent: Option<f64>,
    /// Elo against the opponents.
    pub elo: Option<f64>,
    /// Half-width of the 95 % interval of `elo` (absent when the interval is unbounded).
    pub elo_error95: Option<f64>,
    /// The 95 % interval of `elo`: its lower end (absent when unbounded or unknown). Where the
    /// normal interval would pass a score of 0 or 1, as for a clean sweep, it is Wilson's.
    pub elo_lower95: Option<f64>,
    /// The 95 % interval of `elo`: its upper end (absent when unbounded or unknown).
    pub elo_upper95: Option<f64>,
    /// Normalised Elo.
    pub nelo: Option<f64>,
    /// Half-width of the 95 % interval of `nelo`.
    pub nelo_error95: Option<f64>,
    /// Likelihood of superiority, in percent.
    pub los_percent: Option<f64>,
    /// Draw ratio, in percent.
    pub draw_percent: Option<f64>,
    /// Pair counts: LL, LD, WL+DD, WD, WW.
    pub pentanomial: [u64; 5],
    /// How this player's games ended, by group (normal, time forfeit, illegal move, crash,
    /// adjudicated) → count.
    pub terminations: BTreeMap<String, u64>,
    /// How this player's games ended, by the record's termination tag → count.
    pub terminations_detailed: BTreeMap<String, u64>,
    /// How this player lost, by group → count.
    pub losses_by: BTreeMap<String, u64>,
    /// How this player lost, by termination tag → count.
    pub losses_by_detailed: BTreeMap<String, u64>,
    /// Games this player lost on time.
    pub time_losses: u64,
}

/// One row of the crosstable: a player's points against each player (`None` against themselves
/// or a player they have not met).
#[derive(Debug, Clone, Serialize)]
pub struct CrosstableRow {
    /// The player's name.
    pub name: String,
    /// `[points, games]` against each player, in the players' order.
    pub against: Vec<Option<(f64, u64)>>,
}

/// A line of the rating list.
#[derive(Debug, Clone, Serialize)]
pub struct RatingLine {
    /// The player's name.
    pub name: String,
    /// The Bradley-Terry rating, relative to the players' mean.
    pub elo: f64,
    /// Half-width of its 95 % interval.
    pub error95: f64,
}

/// The summary of a match or a tournament.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The game.
    pub game: String,
    /// `match`, `round-robin` or `gauntlet`.
    pub format: String,
    /// The time control: `base+increment` in seconds, `movetime X s`, or `-`.
    pub time_control: String,
    /// The seed.
    pub seed: u64,
    /// Games finished.
    pub games: u64,
    /// Games scheduled.
    pub scheduled: u64,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Whether the run was stopped by Ctrl-C before all its games were played.
    pub interrupted: bool,
    /// The players, in the order given.
    pub players: Vec<PlayerSummary>,
    /// Tournaments: each player's points against each other.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crosstable: Option<Vec<CrosstableRow>>,
    /// Tournaments: the Bradley-Terry ratings fitted over all games, best first; `None` when some
    /// players are not connected by games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratings: Option<Vec<RatingLine>>,
    /// Whether the ratings needed a prior of one virtual draw per encounter (a player won or lost
    /// every game, so the plain fit is unbounded).
    pub ratings_prior: bool,
    /// Games lost on time.
    pub time_losses: u64,
    /// Time losses per finished game, in percent (with `concurrency` games at once).
    pub time_loss_percent: Option<f64>,
    /// How far past its time a move could go before it lost on time, in milliseconds (the time
    /// counted being fair time: see the README's "Comparing bots").
    pub time_margin_ms: f64,
    /// The sequential test, if one was asked for.
    pub sprt: Option<SprtSummary>,
}

/// Where the sequential test stands at the end.
#[derive(Debug, Clone, Serialize)]
pub struct SprtSummary {
    /// H0's Elo difference.
    pub elo0: f64,
    /// H1's Elo difference.
    pub elo1: f64,
    /// False-H1 rate.
    pub alpha: f64,
    /// False-H0 rate.
    pub beta: f64,
    /// `normalized` or `logistic`.
    pub model: String,
    /// The log-likelihood ratio (of pairs when there are any, else of games).
    pub llr: f64,
    /// The lower bound (accept H0).
    pub lower: f64,
    /// The upper bound (accept H1).
    pub upper: f64,
    /// `H0 accepted`, `H1 accepted` or `undecided`.
    pub result: String,
    /// Games counted when the test was decided (`llr` is the LLR then); games still being
    /// played then were finished and counted, but do not change the result.
    pub decided_after: Option<u64>,
    /// The LLR over every game counted.
    pub final_llr: f64,
}

/// What the summary says about the run besides the tally.
#[derive(Debug, Clone)]
pub struct RunFacts<'a> {
    /// The game's name.
    pub game: &'a str,
    /// `match`, `round-robin` or `gauntlet`.
    pub format: &'a str,
    /// The time control in words.
    pub time_control: String,
    /// The seed.
    pub seed: u64,
    /// Games scheduled.
    pub scheduled: usize,
    /// Games at once.
    pub concurrency: usize,
    /// The time margin.
    pub time_margin: std::time::Duration,
    /// Stopped by Ctrl-C.
    pub interrupted: bool,
    /// The players' names.
    pub names: &'a [String],
    /// The players' specs, as given.
    pub specs: Vec<String>,
    /// The sequential test.
    pub sprt: Option<Sprt>,
}

fn grouped(detailed: &BTreeMap<String, u64>) -> BTreeMap<String, u64> {
    let mut groups = BTreeMap::new();
    for (termination, count) in detailed {
        *groups
            .entry(termination_group(termination).to_owned())
            .or_default() += count;
    }
    groups
}

impl Summary {
    /// The summary of `tally`.
    #[must_use]
    pub fn new(facts: &RunFacts<'_>, tally: &Tally) -> Summary {
        let finite = |x: f64| x.is_finite().then_some(x);
        let players: Vec<PlayerSummary> = (0..facts.names.len())
            .map(|i| {
                let (wdl, p) = (tally.wdl[i], tally.pentanomial[i]);
                // Pairs give the sounder error bars when there are any; else single games.
                let (elo, nelo, los) = if p.pairs() > 0 {
                    (p.elo(), p.nelo(), p.los())
                } else {
                    (wdl.elo(), wdl.nelo(), wdl.los())
                };
                PlayerSummary {
                    name: facts.names[i].clone(),
                    spec: facts.specs.get(i).cloned().unwrap_or_default(),
                    games: wdl.games(),
                    wins: wdl.wins,
                    draws: wdl.draws,
                    losses: wdl.losses,
                    score_percent: wdl.score().map(|s| s * 100.0),
                    elo: elo.and_then(|e| finite(e.elo)),
                    elo_error95: elo.and_then(|e| finite(e.error95)),
                    elo_lower95: elo.and_then(|e| finite(e.lower95)),
                    elo_upper95: elo.and_then(|e| finite(e.upper95)),
                    nelo: nelo.and_then(|e| finite(e.elo)),
                    nelo_error95: nelo.and_then(|e| finite(e.error95)),
                    los_percent: los.map(|l| l * 100.0),
                    draw_percent: wdl.draw_ratio().map(|d| d * 100.0),
                    pentanomial: [p.ll, p.ld, p.wl_dd, p.wd, p.ww],
                    terminations: grouped(&tally.terminations[i]),
                    terminations_detailed: tally.terminations[i].clone(),
                    losses_by: grouped(&tally.losses_by[i]),
                    losses_by_detailed: tally.losses_by[i].clone(),
                    time_losses: tally.time_losses[i],
                }
            })
            .collect();
        let n = players.len();
        let tournament = n > 2;
        let table = &tally.crosstable;
        let crosstable = tournament.then(|| {
            (0..n)
                .map(|i| CrosstableRow {
                    name: facts.names[i].clone(),
                    against: (0..n)
                        .map(|j| {
                            (i != j && table.games(i, j) > 0)
                                .then(|| (table.score(i, j), table.games(i, j)))
                        })
                        .collect(),
                })
                .collect()
        });
        let exact = tournament
            .then(|| bradley_terry::fit_with_errors(table))
            .flatten();
        let ratings_prior = tournament && exact.is_none();
        let ratings = if ratings_prior {
            bradley_terry::fit_with_errors(&table.with_virtual_draws())
        } else {
            exact
        };
        let ratings_prior = ratings_prior && ratings.is_some();
        let ratings = ratings.map(|ratings| {
            let mut lines: Vec<RatingLine> = ratings
                .iter()
                .zip(facts.names)
                .map(|(r, name)| RatingLine {
                    name: name.clone(),
                    elo: r.elo,
                    error95: r.error95,
                })
                .collect();
            lines.sort_by(|a, b| b.elo.total_cmp(&a.elo));
            lines
        });
        let games = tally.games();
        let time_losses = tally.time_losses.iter().sum();
        Summary {
            game: facts.game.to_owned(),
            format: facts.format.to_owned(),
            time_control: facts.time_control.clone(),
            seed: facts.seed,
            games,
            scheduled: facts.scheduled as u64,
            concurrency: facts.concurrency,
            interrupted: facts.interrupted,
            players,
            crosstable,
            ratings,
            ratings_prior,
            time_losses,
            time_loss_percent: (games > 0).then(|| time_losses as f64 * 100.0 / games as f64),
            time_margin_ms: facts.time_margin.as_secs_f64() * 1000.0,
            sprt: facts
                .sprt
                .map(|sprt| sprt_summary(&sprt, tally.llr(&sprt), tally.sprt_decision)),
        }
    }
}

fn sprt_summary(sprt: &Sprt, final_llr: f64, decision: Option<SprtDecision>) -> SprtSummary {
    let (lower, upper) = sprt.bounds();
    let (llr, status) = decision.map_or((final_llr, SprtStatus::Continue), |d| (d.llr, d.status));
    SprtSummary {
        elo0: sprt.elo0,
        elo1: sprt.elo1,
        alpha: sprt.alpha,
        beta: sprt.beta,
        model: match sprt.model {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        }
        .to_owned(),
        llr,
        lower,
        upper,
        result: match status {
            SprtStatus::Continue => "undecided",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
        }
        .to_owned(),
        decided_after: decision.map(|d| d.games),
        final_llr,
    }
}

fn num(x: Option<f64>, digits: usize) -> String {
    match x {
        Some(x) => format!("{x:.digits$}"),
        None => "-".to_owned(),
    }
}

/// The groups, with the detailed reasons in brackets where they say more than the group's name.
fn grouped_words(groups: &BTreeMap<String, u64>, detailed: &BTreeMap<String, u64>) -> String {
    if groups.is_empty() {
        return "-".to_owned();
    }
    groups
        .iter()
        .map(|(group, count)| {
            let details: Vec<String> = detailed
                .iter()
                .filter(|(t, _)| termination_group(t) == group && t.as_str() != group)
                .map(|(t, c)| format!("{t} {c}"))
                .collect();
            if details.is_empty() {
                format!("{group} {count}")
            } else {
                format!("{group} {count} ({})", details.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// An Elo with one decimal, infinities as `+inf` and `-inf`.
fn signed(elo: f64) -> String {
    if elo.is_infinite() {
        (if elo > 0.0 { "+inf" } else { "-inf" }).to_owned()
    } else {
        format!("{elo:.1}")
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // An Elo left out of the JSON for being infinite (one side won everything), and an error
        // bar for reaching a score of 0 or 1: the interval's ends then, as far as they are known.
        let elo = |p: &PlayerSummary| {
            let estimate = match (p.elo, p.score_percent) {
                (Some(elo), _) => format!("{elo:.2}"),
                (None, Some(score)) if score >= 100.0 => "+inf".to_owned(),
                (None, Some(score)) if score <= 0.0 => "-inf".to_owned(),
                _ => return "-".to_owned(),
            };
            if let Some(error) = p.elo_error95 {
                return format!("{estimate} ± {error:.2}");
            }
            let end = |x: Option<f64>, unbounded: &str| {
                x.map_or_else(|| unbounded.to_owned(), |x| format!("{x:.2}"))
            };
            format!(
                "{estimate} (95 %: {} to {})",
                end(p.elo_lower95, "-inf"),
                end(p.elo_upper95, "+inf")
            )
        };
        writeln!(
            f,
            "{} games of {} ({} scheduled{}), {}, tc {}, seed {}, concurrency {}",
            self.games,
            self.game,
            self.scheduled,
            if self.interrupted {
                ", interrupted"
            } else {
                ""
            },
            self.format,
            self.time_control,
            self.seed,
            self.concurrency
        )?;
        let against = if self.players.len() > 2 {
            " (against the field)"
        } else {
            ""
        };
        for p in &self.players {
            writeln!(f, "{} ({}){against}", p.name, p.spec)?;
            writeln!(
                f,
                "  games {}, W/D/L {}/{}/{}, score {} %, draws {} %",
                p.games,
                p.wins,
                p.draws,
                p.losses,
                num(p.score_percent, 1),
                num(p.draw_percent, 1)
            )?;
            writeln!(
                f,
                "  Elo {}, nElo {} ± {}, LOS {} %",
                elo(p),
                num(p.nelo, 2),
                num(p.nelo_error95, 2),
                num(p.los_percent, 2)
            )?;
            let [ll, ld, wl, wd, ww] = p.pentanomial;
            writeln!(f, "  pairs LL {ll}, LD {ld}, WL+DD {wl}, WD {wd}, WW {ww}")?;
            writeln!(
                f,
                "  terminations: {}",
                grouped_words(&p.terminations, &p.terminations_detailed)
            )?;
            writeln!(
                f,
                "  lost by: {}; time losses {}",
                grouped_words(&p.losses_by, &p.losses_by_detailed),
                p.time_losses
            )?;
        }
        if let Some(rows) = &self.crosstable {
            writeln!(
                f,
                "Crosstable (the row's points against the column's / games):"
            )?;
            let width = rows
                .iter()
                .map(|r| r.name.chars().count())
                .max()
                .unwrap_or(0)
                .max(4);
            let cell = rows
                .iter()
                .flat_map(|r| &r.against)
                .flatten()
                .map(|(s, g)| format!("{s}/{g}").len())
                .max()
                .unwrap_or(1)
                .max(width.min(12));
            write!(f, "  {:width$}", "")?;
            for row in rows {
                let label: String = row.name.chars().take(cell).collect();
                write!(f, " {label:>cell$}")?;
            }
            writeln!(f, " {:>7}", "total")?;
            for (i, row) in rows.iter().enumerate() {
                write!(f, "  {:width$}", row.name)?;
                let mut total = (0.0, 0);
                for (j, result) in row.against.iter().enumerate() {
                    let text = match result {
                        _ if i == j => "-".to_owned(),
                        Some((score, games)) => {
                            total.0 += score;
                            total.1 += games;
                            format!("{score}/{games}")
                        }
                        None => ".".to_owned(),
                    };
                    write!(f, " {text:>cell$}")?;
                }
                writeln!(f, " {:>7}", format!("{}/{}", total.0, total.1))?;
            }
        }
        if self.players.len() > 2 {
            match &self.ratings {
                Some(ratings) => {
                    writeln!(
                        f,
                        "Rating list (Bradley-Terry over all games{}, Elo relative to the mean, \
                         95 %):",
                        if self.ratings_prior {
                            ", one virtual draw per encounter"
                        } else {
                            ""
                        }
                    )?;
                    for (rank, r) in ratings.iter().enumerate() {
                        writeln!(
                            f,
                            "  {:>2}. {:24} {:>+8.1} ± {:.1}",
                            rank + 1,
                            r.name,
                            r.elo,
                            r.error95
                        )?;
                    }
                }
                None => writeln!(
                    f,
                    "Rating list: none (some players are not connected by games)"
                )?,
            }
        }
        write!(
            f,
            "Time losses: {} ({} % of games, {} at once; time margin {} ms)",
            self.time_losses,
            num(self.time_loss_percent, 2),
            self.concurrency,
            self.time_margin_ms
        )?;
        if let Some(s) = &self.sprt {
            write!(
                f,
                "\nSPRT ({} Elo [{}, {}], alpha {}, beta {}): LLR {:.2} ({:.2}, {:.2}), {}",
                s.model, s.elo0, s.elo1, s.alpha, s.beta, s.llr, s.lower, s.upper, s.result
            )?;
            if let Some(games) = s.decided_after.filter(|&g| g != self.games) {
                write!(
                    f,
                    " after {games} games (LLR {:.2} with all {} games)",
                    s.final_llr, self.games
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(
        index: usize,
        pair: usize,
        (white, black): (usize, usize),
        result: &str,
        term: &str,
    ) -> GameLine {
        GameLine {
            index,
            pair,
            white: String::new(),
            black: String::new(),
            white_player: white,
            black_player: Some(black),
            opening: String::new(),
            moves: String::new(),
            result: result.to_owned(),
            termination: term.to_owned(),
            reason: String::new(),
            plies: 0,
            duration: 0.0,
            match_seed: 0,
            seed: 0,
        }
    }

    #[test]
    fn the_tally_scores_each_player_and_counts_pairs() {
        let mut tally = Tally::new(2);
        // Pair 0: A wins as White, then loses on time as Black. Pair 1: A wins both.
        tally.add(&line(0, 0, (0, 1), "1-0", "normal"));
        tally.add(&line(1, 0, (1, 0), "1-0", "time forfeit"));
        tally.add(&line(2, 1, (1, 0), "0-1", "normal"));
        tally.add(&line(3, 1, (0, 1), "1-0", "crash"));
        assert_eq!(
            tally.wdl[0],
            Wdl {
                wins: 3,
                draws: 0,
                losses: 1
            }
        );
        assert_eq!(tally.wdl[1].wins, 1);
        assert_eq!(tally.pentanomial[0].wl_dd, 1);
        assert_eq!(tally.pentanomial[0].ww, 1);
        assert_eq!(tally.pentanomial[1].ll, 1);
        assert_eq!(tally.time_losses, [1, 0]);
        assert_eq!(tally.losses_by[1].get("crash"), Some(&1));
        assert_eq!(tally.terminations[0].get("normal"), Some(&2));
        assert_eq!(tally.games(), 4);
    }

    fn facts(names: &[String]) -> RunFacts<'_> {
        RunFacts {
            game: "ataxx",
            format: "round-robin",
            time_control: "-".to_owned(),
            seed: 1,
            scheduled: 12,
            concurrency: 1,
            time_margin: std::time::Duration::from_millis(10),
            interrupted: false,
            names,
            specs: names.to_vec(),
            sprt: None,
        }
    }

    #[test]
    fn a_clean_sweep_reports_the_lower_end_of_its_elo() {
        let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let mut tally = Tally::new(2);
        // Ten pairs, A wins all twenty games. The progress line counts games: Wilson's interval
        // starts at 1/(1 + 1.96^2/20) = 0.8389, +286.6; the summary counts pairs: 0.7225, +166.2.
        for index in 0..20 {
            let players = if index % 2 == 0 { (0, 1) } else { (1, 0) };
            let result = if index % 2 == 0 { "1-0" } else { "0-1" };
            tally.add(&line(index, index / 2, players, result, "normal"));
        }
        assert_eq!(
            tally.progress(&names),
            "a 20/20 (+20 =0 -0), Elo +inf, at least 286.6"
        );
        let summary = Summary::new(&facts(&names), &tally);
        let (a, b) = (&summary.players[0], &summary.players[1]);
        assert_eq!((a.elo, a.elo_error95, a.elo_upper95), (None, None, None));
        assert_eq!(format!("{:.1}", a.elo_lower95.unwrap()), "166.2");
        assert_eq!(format!("{:.1}", b.elo_upper95.unwrap()), "-166.2");
        let text = summary.to_string();
        assert!(text.contains("Elo +inf (95 %: 166.20 to +inf)"), "{text}");
        assert!(text.contains("Elo -inf (95 %: -inf to -166.20)"), "{text}");
        let json = serde_json::to_string(&summary).unwrap();
        assert!(json.contains("\"elo_lower95\":166.2"), "{json}");
    }

    #[test]
    fn a_tournament_has_a_crosstable_and_a_rating_list() {
        let names: Vec<String> = ["strong", "middle", "weak"].map(String::from).to_vec();
        let mut tally = Tally::new(3);
        let games = [
            ((0, 1), "1-0"),
            ((1, 0), "0-1"),
            ((0, 2), "1-0"),
            ((2, 0), "1/2-1/2"),
            ((1, 2), "1-0"),
            ((2, 1), "1-0"),
            ((1, 0), "1-0"),
            ((0, 1), "1/2-1/2"),
        ];
        for (index, (players, result)) in games.into_iter().enumerate() {
            tally.add(&line(index, index / 2, players, result, "normal"));
        }
        let summary = Summary::new(&facts(&names), &tally);
        let rows = summary.crosstable.as_ref().unwrap();
        assert_eq!(rows[0].against[1], Some((2.5, 4)));
        assert_eq!(rows[1].against[0], Some((1.5, 4)));
        assert_eq!(rows[0].against[0], None);
        assert_eq!(rows[2].against[1], Some((1.0, 2)));
        let ratings = summary.ratings.as_ref().unwrap();
        assert_eq!(ratings[0].name, "strong");
        assert!(ratings.iter().all(|r| r.error95 > 0.0));
        // Each player's pairs: strong has pair 0 WW, pair 1 WD and pair 3 LD.
        assert_eq!(summary.players[0].pentanomial, [0, 1, 0, 1, 1]);
        assert_eq!(
            tally.progress(&names),
            "strong 4, middle 2.5, weak 1.5; strong Elo 120.4 ± 334.5"
        );
        let text = summary.to_string();
        assert!(text.contains("Crosstable"), "{text}");
        assert!(text.contains("2.5/4"), "{text}");
        assert!(text.contains("Rating list (Bradley-Terry"), "{text}");
    }

    #[test]
    fn the_sprt_decision_stands_once_a_bound_is_crossed() {
        let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let sprt = Sprt {
            elo0: -5.0,
            elo1: 5.0,
            alpha: 0.45,
            beta: 0.45,
            model: SprtModel::Normalized,
        };
        let mut tally = Tally::new(2);
        // Game `index`, A with White in even games; `results` for even and odd games.
        let play = |tally: &mut Tally, index: usize, results: [&str; 2]| {
            let players = (index % 2, 1 - index % 2);
            tally.add(&line(
                index,
                index / 2,
                players,
                results[index % 2],
                "normal",
            ));
        };
        let mut decided_at = None;
        // A wins pairs until the upper bound is crossed, then two games in flight are lost.
        for index in 0..40 {
            play(&mut tally, index, ["1-0", "0-1"]);
            if tally.check_sprt(Some(&sprt)) {
                decided_at = Some(index + 1);
                break;
            }
        }
        let decided_at = decided_at.expect("decided") as u64;
        let llr = tally.llr(&sprt);
        assert!(!tally.check_sprt(Some(&sprt)), "decided once");
        for index in decided_at as usize..decided_at as usize + 4 {
            play(&mut tally, index, ["0-1", "1-0"]);
            tally.check_sprt(Some(&sprt));
        }
        assert!(
            tally.llr(&sprt) < sprt.bounds().1,
            "the losses pulled the LLR back"
        );
        let summary = Summary::new(
            &RunFacts {
                sprt: Some(sprt),
                ..facts(&names)
            },
            &tally,
        );
        let result = summary.sprt.as_ref().unwrap();
        assert_eq!(result.result, "H1 accepted");
        assert_eq!((result.llr, result.decided_after), (llr, Some(decided_at)));
        assert_eq!(summary.games, decided_at + 4);
        let text = summary.to_string();
        assert!(
            text.contains(&format!("H1 accepted after {decided_at} games")),
            "{text}"
        );
    }

    #[test]
    fn terminations_are_grouped_and_kept_in_detail() {
        let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let mut tally = Tally::new(2);
        for (i, term) in [
            "normal",
            "panic",
            "crash",
            "bot error",
            "unparsable move",
            "illegal move",
            "time forfeit",
            "adjudication",
            "resignation",
        ]
        .iter()
        .enumerate()
        {
            let result = if *term == "adjudication" {
                "1/2-1/2"
            } else {
                "0-1"
            };
            tally.add(&line(i, i / 2, (1, 0), result, term));
        }
        let summary = Summary::new(&facts(&names), &tally);
        let b = &summary.players[1];
        let groups: Vec<(&str, u64)> = b.losses_by.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(
            groups,
            [
                ("crash", 3),
                ("illegal move", 2),
                ("normal", 2),
                ("time forfeit", 1)
            ]
        );
        assert_eq!(b.terminations.get("adjudicated"), Some(&1));
        assert_eq!(b.losses_by_detailed.get("panic"), Some(&1));
        assert_eq!(b.terminations_detailed.len(), 9);
        let text = summary.to_string();
        assert!(text.contains("crash 3 (bot error 1, panic 1)"), "{text}");
        assert_eq!(termination_group("something new"), "crash");
    }
}
