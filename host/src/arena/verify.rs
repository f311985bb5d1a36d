//! Checking a results file's games before they count: every line is replayed through the rules of
//! the run's game and variant, and must be a game of the run's schedule between its players. A
//! line edited by hand or damaged (`"result":"banana"`, a move that is not legal, a game said to
//! be won that the rules do not end) is refused with its place in the file, rather than counted as
//! something it is not.

use std::path::Path;

use tavola_sdk::{Color, Game, Outcome, ParseMoveError, Position};

use super::results::{GameLine, ReadGame};
use super::schedule::ScheduledGame;
use crate::referee::Termination;

/// Every termination a results line can name, as [`Termination::as_str`] writes it (a test fails
/// to compile when the referee gains one).
const TERMINATIONS: [Termination; 9] = [
    Termination::Normal,
    Termination::TimeForfeit,
    Termination::IllegalMove,
    Termination::UnparsableMove,
    Termination::BotError,
    Termination::Panic,
    Termination::Crash,
    Termination::Resignation,
    Termination::Adjudication,
];

/// What a run's results lines are checked against.
#[derive(Debug, Clone, Copy)]
pub struct RunRules<'a> {
    /// The variant played.
    pub variant: &'a str,
    /// The players' names, by index (their number is the number of players).
    pub names: &'a [String],
    /// The run's schedule.
    pub schedule: &'a [ScheduledGame],
    /// The run's seed.
    pub seed: u64,
    /// The run's `--max-plies`, when the results file says (`None`: a file of an older version,
    /// without its settings line, which does not).
    pub max_plies: Option<Option<usize>>,
}

/// Checks every game of the results file `path` (as [`super::results::read_run`] read them)
/// against `run`, replaying its moves with the rules of `G`.
///
/// # Errors
/// The first line that disagrees, in one line: `FILE:LINE: what disagrees`.
pub fn check_games<G: Game>(
    path: &Path,
    games: &[ReadGame],
    run: &RunRules<'_>,
) -> anyhow::Result<()> {
    for read in games {
        check_game::<G>(&read.game, run)
            .map_err(|what| anyhow::anyhow!("{}:{}: {what}", path.display(), read.line))?;
    }
    Ok(())
}

/// Checks one game: its place in the schedule, its result and termination, its opening and moves
/// replayed by the rules, its plies, and that the way it ended fits its final position.
///
/// # Errors
/// What disagrees, in words.
pub fn check_game<G: Game>(game: &GameLine, run: &RunRules<'_>) -> Result<(), String> {
    check_place(game, run)?;
    let winner = winner_of(&game.result)?;
    let termination = termination_of(&game.termination)?;
    let mut position = G::parse_position(&game.opening, Some(run.variant)).map_err(|e| {
        format!(
            "the opening is not a position of {} ({}): {e}",
            G::NAME,
            run.variant
        )
    })?;
    let mut played = 0;
    for (number, text) in (1..).zip(game.moves.split_whitespace()) {
        if let Some(outcome) = position.outcome() {
            return Err(format!(
                "move {number} {text:?} comes after the end of the game ({outcome})"
            ));
        }
        let illegal = |position: &str| {
            format!("move {number} {text:?} is not legal in this position ({position})")
        };
        let mv = match position.parse_move(text) {
            Ok(mv) => mv,
            Err(ParseMoveError::Invalid { .. }) => {
                return Err(format!(
                    "move {number} {text:?} is not a move of this position"
                ))
            }
            Err(ParseMoveError::Illegal { position, .. }) => return Err(illegal(&position)),
        };
        position.play(mv).map_err(|e| illegal(&e.position))?;
        played = number;
    }
    if game.plies != played {
        return Err(format!(
            "plies {} disagrees with the {played} moves played",
            game.plies
        ));
    }
    if let Some(Some(max)) = run.max_plies {
        if played > max {
            return Err(format!(
                "{played} moves played, past the run's --max-plies {max}"
            ));
        }
    }
    check_ending(game, winner, termination, position.outcome(), played, run)
}

/// That the game is one of the run's schedule, between the players the schedule says.
fn check_place(game: &GameLine, run: &RunRules<'_>) -> Result<(), String> {
    let players = run.names.len();
    let (white, black) = (game.white_player, game.black_player());
    for (field, player) in [("white_player", white), ("black_player", black)] {
        if player >= players {
            return Err(format!(
                "{field} {player} is not one of the run's {players} players"
            ));
        }
    }
    if game.match_seed != run.seed {
        return Err(format!(
            "match_seed {} is not the run's seed {}",
            game.match_seed, run.seed
        ));
    }
    let Some(scheduled) = run.schedule.get(game.index) else {
        return Err(format!(
            "index {} is past the run's {} games",
            game.index,
            run.schedule.len()
        ));
    };
    let names_fit =
        run.names.get(white) == Some(&game.white) && run.names.get(black) == Some(&game.black);
    if !names_fit || (scheduled.white, scheduled.black) != (white, black) {
        return Err(format!(
            "the results to resume are of another run (game {}: {} vs {}; players here: {})",
            game.index + 1,
            game.white,
            game.black,
            run.names.join(", ")
        ));
    }
    if game.pair != scheduled.pair {
        return Err(format!(
            "pair {} is not game {}'s pair {} in the run's schedule",
            game.pair,
            game.index + 1,
            scheduled.pair
        ));
    }
    if game.seed != scheduled.seed {
        return Err(format!(
            "seed {} is not game {}'s seed {} in the run's schedule",
            game.seed,
            game.index + 1,
            scheduled.seed
        ));
    }
    Ok(())
}

/// The winner a result names (`None`: a draw).
fn winner_of(result: &str) -> Result<Option<Color>, String> {
    match result {
        "1-0" => Ok(Some(Color::White)),
        "0-1" => Ok(Some(Color::Black)),
        "1/2-1/2" => Ok(None),
        _ => Err(format!("result {result:?} is not 1-0, 0-1 or 1/2-1/2")),
    }
}

fn termination_of(text: &str) -> Result<Termination, String> {
    TERMINATIONS
        .into_iter()
        .find(|t| t.as_str() == text)
        .ok_or_else(|| {
            let known: Vec<&str> = TERMINATIONS.iter().map(|t| t.as_str()).collect();
            format!("termination {text:?} is not one of {}", known.join(", "))
        })
}

/// That the way the game ended fits its final position: the rules end it (with exactly its
/// result) when it ended `normal`, and only then; an adjudication is a draw, at the run's
/// `--max-plies` when the file says what that was.
fn check_ending(
    game: &GameLine,
    winner: Option<Color>,
    termination: Termination,
    outcome: Option<Outcome>,
    played: usize,
    run: &RunRules<'_>,
) -> Result<(), String> {
    match (termination, outcome) {
        (Termination::Normal, None) => Err(
            "termination \"normal\", but the game is not over by the rules after its moves"
                .to_owned(),
        ),
        (Termination::Normal, Some(outcome)) if outcome.winner != winner => Err(format!(
            "result {} disagrees with the rules, which end the game {} ({outcome})",
            game.result,
            outcome.result_str()
        )),
        (Termination::Normal, Some(_)) => Ok(()),
        (termination, Some(outcome)) => Err(format!(
            "termination {:?}, but the game is over by the rules after its moves ({outcome}): \
             that ends \"normal\"",
            termination.as_str()
        )),
        (Termination::Adjudication, None) => {
            if winner.is_some() {
                return Err(format!(
                    "result {} of an adjudication, which is a draw (1/2-1/2)",
                    game.result
                ));
            }
            match run.max_plies {
                Some(Some(max)) if played != max => Err(format!(
                    "adjudicated after {played} plies, but the run adjudicates after {max}"
                )),
                Some(None) => Err("adjudicated, but the run has no --max-plies".to_owned()),
                _ => Ok(()),
            }
        }
        (termination, None) => match run.max_plies {
            Some(Some(max)) if played >= max => Err(format!(
                "termination {:?} after {played} plies, but the run adjudicates after {max}",
                termination.as_str()
            )),
            _ => Ok(()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::schedule::{self, Format, ScheduleSpec};
    use tavola_sdk::games::ataxx::Ataxx;

    /// The run of the tests: a match of two players, 4 games, seed 7, max plies 40.
    struct Run {
        names: Vec<String>,
        schedule: Vec<ScheduledGame>,
    }

    impl Run {
        fn new() -> Run {
            Run {
                names: vec!["a".to_owned(), "b".to_owned()],
                schedule: schedule::schedule(&ScheduleSpec {
                    players: 2,
                    format: Format::RoundRobin,
                    games_per_encounter: 4,
                    openings: 0,
                    seed: 7,
                }),
            }
        }

        fn rules(&self) -> RunRules<'_> {
            RunRules {
                variant: "standard",
                names: &self.names,
                schedule: &self.schedule,
                seed: 7,
                max_plies: Some(Some(40)),
            }
        }
    }

    /// Game `index` of [`Run`] from `opening` with `moves`, as the runner writes it.
    fn line(run: &Run, index: usize, opening: &str, moves: &[String]) -> GameLine {
        let scheduled = run.schedule[index];
        GameLine {
            index,
            pair: scheduled.pair,
            white: run.names[scheduled.white].clone(),
            black: run.names[scheduled.black].clone(),
            white_player: scheduled.white,
            black_player: Some(scheduled.black),
            opening: opening.to_owned(),
            moves: moves.join(" "),
            result: "1/2-1/2".to_owned(),
            termination: "adjudication".to_owned(),
            reason: String::new(),
            plies: moves.len(),
            duration: 0.5,
            match_seed: 7,
            seed: scheduled.seed,
        }
    }

    /// The first `count` legal moves in turn from the start: a game that goes on.
    fn first_moves(count: usize) -> (String, Vec<String>) {
        let start = Ataxx::start(None).unwrap();
        let mut position = start.clone();
        let mut moves = Vec::new();
        for _ in 0..count {
            let mv = position.legal_moves()[0];
            moves.push(mv.to_string());
            position.play(mv).unwrap();
        }
        assert!(!position.is_game_over());
        (start.to_string(), moves)
    }

    /// One White clone (`a2`) takes Black's last stone: White wins by the rules.
    const WON_BY_WHITE: &str = "7/7/7/7/1o5/7/x6 x 0 1";

    fn check(game: &GameLine, run: &Run) -> Result<(), String> {
        check_game::<Ataxx>(game, &run.rules())
    }

    #[test]
    fn every_termination_is_listed() {
        // Exhaustive: a new termination fails to compile here until it is given its place in
        // TERMINATIONS.
        let place = |termination| match termination {
            Termination::Normal => 0,
            Termination::TimeForfeit => 1,
            Termination::IllegalMove => 2,
            Termination::UnparsableMove => 3,
            Termination::BotError => 4,
            Termination::Panic => 5,
            Termination::Crash => 6,
            Termination::Resignation => 7,
            Termination::Adjudication => 8,
        };
        for (i, termination) in TERMINATIONS.into_iter().enumerate() {
            assert_eq!(place(termination), i);
            assert_eq!(termination_of(termination.as_str()), Ok(termination));
        }
    }

    #[test]
    fn games_as_the_runner_writes_them_pass() {
        let run = Run::new();
        let (start, moves) = first_moves(40);
        check(&line(&run, 0, &start, &moves), &run).unwrap();
        let mut won = line(&run, 1, WON_BY_WHITE, &["a2".to_owned()]);
        won.result = "1-0".to_owned();
        won.termination = "normal".to_owned();
        check(&won, &run).unwrap();
        let mut forfeit = line(&run, 2, &start, &moves[..3]);
        forfeit.result = "0-1".to_owned();
        forfeit.termination = "time forfeit".to_owned();
        check(&forfeit, &run).unwrap();
        // A seat that could not start: no move at all.
        let mut crash = line(&run, 3, &start, &[]);
        crash.result = "1-0".to_owned();
        crash.termination = "crash".to_owned();
        check(&crash, &run).unwrap();
        // Lines of older versions name no Black player: the other one.
        crash.black_player = None;
        check(&crash, &run).unwrap();
    }

    #[test]
    fn a_result_and_a_termination_must_be_known_ones() {
        let run = Run::new();
        let (start, moves) = first_moves(40);
        let mut game = line(&run, 0, &start, &moves);
        game.result = "banana".to_owned();
        assert_eq!(
            check(&game, &run).unwrap_err(),
            "result \"banana\" is not 1-0, 0-1 or 1/2-1/2"
        );
        game.result = "1/2-1/2".to_owned();
        game.termination = "boredom".to_owned();
        let error = check(&game, &run).unwrap_err();
        assert!(
            error.starts_with("termination \"boredom\" is not one of normal, time forfeit"),
            "{error}"
        );
    }

    #[test]
    fn every_move_must_be_a_legal_move_in_turn() {
        let run = Run::new();
        let (start, mut moves) = first_moves(40);
        moves[11] = "zz".to_owned();
        let error = check(&line(&run, 0, &start, &moves), &run).unwrap_err();
        assert_eq!(error, "move 12 \"zz\" is not a move of this position");
        // A well-formed move that cannot be played there: a clone onto Black's stone.
        let (_, mut moves) = first_moves(40);
        moves[0] = "a1".to_owned();
        let error = check(&line(&run, 0, &start, &moves), &run).unwrap_err();
        assert!(
            error.starts_with("move 1 \"a1\" is not legal in this position (x5o/"),
            "{error}"
        );
        // After the game's end, no move is.
        let mut after = line(&run, 1, WON_BY_WHITE, &["a2".to_owned(), "a3".to_owned()]);
        after.result = "1-0".to_owned();
        after.termination = "normal".to_owned();
        let error = check(&after, &run).unwrap_err();
        assert!(
            error.starts_with("move 2 \"a3\" comes after the end of the game (White wins"),
            "{error}"
        );
    }

    #[test]
    fn the_opening_must_be_a_position_of_the_game() {
        let run = Run::new();
        let game = line(&run, 0, "not a position", &[]);
        let error = check(&game, &run).unwrap_err();
        assert!(
            error.starts_with("the opening is not a position of ataxx (standard): "),
            "{error}"
        );
    }

    #[test]
    fn plies_must_be_the_number_of_moves() {
        let run = Run::new();
        let (start, moves) = first_moves(40);
        let mut game = line(&run, 0, &start, &moves[..10]);
        game.termination = "resignation".to_owned();
        game.result = "1-0".to_owned();
        check(&game, &run).unwrap();
        game.plies = 14;
        assert_eq!(
            check(&game, &run).unwrap_err(),
            "plies 14 disagrees with the 10 moves played"
        );
    }

    #[test]
    fn a_finished_game_ends_normal_with_the_rules_result() {
        let run = Run::new();
        let mut won = line(&run, 1, WON_BY_WHITE, &["a2".to_owned()]);
        won.termination = "normal".to_owned();
        won.result = "0-1".to_owned();
        let error = check(&won, &run).unwrap_err();
        assert!(
            error.starts_with("result 0-1 disagrees with the rules, which end the game 1-0"),
            "{error}"
        );
        won.result = "1-0".to_owned();
        won.termination = "time forfeit".to_owned();
        let error = check(&won, &run).unwrap_err();
        assert!(
            error.starts_with("termination \"time forfeit\", but the game is over by the rules"),
            "{error}"
        );
    }

    #[test]
    fn an_unfinished_game_does_not_end_normal() {
        let run = Run::new();
        let (start, moves) = first_moves(10);
        let mut game = line(&run, 0, &start, &moves);
        game.termination = "normal".to_owned();
        game.result = "1-0".to_owned();
        let error = check(&game, &run).unwrap_err();
        assert!(error.contains("not over by the rules"), "{error}");
    }

    #[test]
    fn an_adjudication_is_a_draw_at_the_runs_max_plies() {
        let run = Run::new();
        let (start, moves) = first_moves(40);
        let mut game = line(&run, 0, &start, &moves);
        game.result = "1-0".to_owned();
        let error = check(&game, &run).unwrap_err();
        assert!(error.contains("which is a draw"), "{error}");
        // Adjudicated too early, or a game going on past the limit.
        let early = line(&run, 0, &start, &moves[..30]);
        let error = check(&early, &run).unwrap_err();
        assert_eq!(
            error,
            "adjudicated after 30 plies, but the run adjudicates after 40"
        );
        let mut forfeit = line(&run, 0, &start, &moves);
        forfeit.termination = "time forfeit".to_owned();
        forfeit.result = "0-1".to_owned();
        let error = check(&forfeit, &run).unwrap_err();
        assert!(error.contains("the run adjudicates after 40"), "{error}");
        // Where the file does not say the run's max plies, any number of plies will do.
        let unknown = RunRules {
            max_plies: None,
            ..run.rules()
        };
        check_game::<Ataxx>(&early, &unknown).unwrap();
        let none = RunRules {
            max_plies: Some(None),
            ..run.rules()
        };
        let error = check_game::<Ataxx>(&early, &none).unwrap_err();
        assert!(error.contains("no --max-plies"), "{error}");
    }

    #[test]
    fn a_game_must_be_one_of_the_runs_schedule() {
        let run = Run::new();
        let (start, moves) = first_moves(40);
        let good = line(&run, 0, &start, &moves);
        let refused = |change: fn(&mut GameLine)| {
            let mut game = good.clone();
            change(&mut game);
            check(&game, &run).unwrap_err()
        };
        assert_eq!(
            refused(|g| g.white_player = 2),
            "white_player 2 is not one of the run's 2 players"
        );
        assert_eq!(
            refused(|g| g.black_player = Some(5)),
            "black_player 5 is not one of the run's 2 players"
        );
        assert_eq!(
            refused(|g| g.index = 4),
            "index 4 is past the run's 4 games"
        );
        assert!(refused(|g| g.pair = 1).starts_with("pair 1 is not game 1's pair 0"));
        assert!(refused(|g| g.seed ^= 1).starts_with("seed "));
        assert!(refused(|g| g.match_seed = 8).contains("the run's seed 7"));
        // The colours swapped, or another player's name.
        let swapped = refused(|g| {
            std::mem::swap(&mut g.white_player, g.black_player.as_mut().unwrap());
            std::mem::swap(&mut g.white, &mut g.black);
        });
        assert!(swapped.contains("another run"), "{swapped}");
        assert!(refused(|g| g.white = "c".to_owned()).contains("another run"));
    }

    #[test]
    fn a_good_file_passes_and_a_refused_line_is_named_by_file_and_line() {
        use crate::arena::results;
        use crate::arena::resume::{Header, RunSettings};
        let run = Run::new();
        let (start, moves) = first_moves(40);
        let dir = std::env::temp_dir().join(format!("tavola-verify-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("results.jsonl");
        let header = serde_json::to_string(&Header {
            tavola_run: RunSettings {
                game: "ataxx".to_owned(),
                variant: "standard".to_owned(),
                format: "round-robin".to_owned(),
                games: 4,
                time_ns: None,
                increment_ns: 0,
                movetime_ns: Some(20_000_000),
                margin_ns: None,
                opening_plies: 0,
                openings: None,
                openings_hash: None,
                max_plies: Some(40),
                seed: 7,
                players: vec!["random".to_owned(), "random".to_owned()],
                shard: None,
                sprt: None,
                concurrency: None,
            },
        })
        .unwrap();
        let json = |game: &GameLine| serde_json::to_string(game).unwrap();
        let good = [line(&run, 0, &start, &moves), line(&run, 1, &start, &moves)];
        let text = format!("{header}\n{}\n{}\n", json(&good[0]), json(&good[1]));
        std::fs::write(&path, &text).unwrap();
        let read = results::read_run(&path).unwrap();
        assert_eq!(read.settings.unwrap().max_plies, Some(40));
        assert_eq!(
            read.games.iter().map(|g| g.line).collect::<Vec<_>>(),
            [2, 3]
        );
        check_games::<Ataxx>(&path, &read.games, &run.rules()).unwrap();

        let mut bad = good[1].clone();
        bad.result = "banana".to_owned();
        std::fs::write(
            &path,
            format!("{header}\n{}\n{}\n", json(&good[0]), json(&bad)),
        )
        .unwrap();
        let read = results::read_run(&path).unwrap();
        let error = check_games::<Ataxx>(&path, &read.games, &run.rules()).unwrap_err();
        assert_eq!(
            format!("{error:#}"),
            format!(
                "{}:3: result \"banana\" is not 1-0, 0-1 or 1/2-1/2",
                path.display()
            )
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
