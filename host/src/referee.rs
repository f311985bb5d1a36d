//! The referee: plays one game between two seats. It holds the authoritative position and the
//! clocks, validates every answer, and ends the game by the rules or for a recorded reason.

use std::fmt;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tavola_sdk::abi::Clocks;
use tavola_sdk::{Color, Game, ParseMoveError, Position, SearchInfo};

use crate::record::{GameRecord, RecordedMove};
use crate::seat::{self, Choice, GameOver, History, Request, Seat, SeatFailure, TypedAnswer, Wait};

/// The time control and adjudication settings of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Time per player for the whole game; `None` for an untimed game.
    pub time: Option<Duration>,
    /// Time added to a player's clock after each of their moves.
    pub increment: Duration,
    /// A fixed time for every move (`None`: none): the bot is told it with each request, and loses
    /// on time if it takes longer. Usually instead of a clock (`time: None`); with one, whichever
    /// runs out first counts.
    pub movetime: Option<Duration>,
    /// How far past its clock or time per move a move may go before it loses on time (as
    /// fastchess's and cutechess's `timemargin`). The time counted is fair time: what the bot
    /// had, not what a busy machine or the host took (see [`crate::seat::stopwatch`]).
    pub margin: Duration,
}

/// The time margin when none is given. Fair time leaves out a busy machine's waits for a core,
/// but not, for one, the time a hypervisor takes a virtual CPU away (steal): with 10 ms, the
/// built-in bot lost one game in 200 at 50 ms a move with every core busy on a 2-core VM, by more
/// than 15 ms of fair time past its 45 ms.
pub const DEFAULT_MARGIN: Duration = Duration::from_millis(25);

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            time: Some(Duration::from_secs(120)),
            increment: Duration::ZERO,
            movetime: None,
            margin: DEFAULT_MARGIN,
        }
    }
}

impl Settings {
    /// The time control as the record's `TimeControl` tag writes it: `base+increment` in seconds,
    /// `1/seconds` for a fixed time per move (PGN's "moves/seconds"), `-` for none.
    #[must_use]
    pub fn tag(&self) -> String {
        match (self.movetime, self.time) {
            (Some(movetime), _) => format!("1/{}", movetime.as_secs_f64()),
            (None, Some(time)) => {
                format!("{}+{}", time.as_secs_f64(), self.increment.as_secs_f64())
            }
            (None, None) => "-".to_owned(),
        }
    }
}

/// How a game ended, in the words of the record's `[Termination]` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// By the rules of the game.
    Normal,
    /// A player's clock ran out.
    TimeForfeit,
    /// A player answered with a move that is not legal.
    IllegalMove,
    /// A player answered with text that is not a move.
    UnparsableMove,
    /// A bot reported an error instead of a move.
    BotError,
    /// A bot panicked.
    Panic,
    /// A bot's thread or process died.
    Crash,
    /// A player resigned (or their input ended).
    Resignation,
    /// The host ended the game (a draw after the maximum number of plies).
    Adjudication,
}

impl Termination {
    /// The tag value: `"normal"`, `"time forfeit"`, ...
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::UnparsableMove => "unparsable move",
            Termination::BotError => "bot error",
            Termination::Panic => "panic",
            Termination::Crash => "crash",
            Termination::Resignation => "resignation",
            Termination::Adjudication => "adjudication",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// How the game ended.
    pub termination: Termination,
    /// The reason in words ("Black made an illegal move \"a1a1\"").
    pub reason: String,
}

impl GameResult {
    /// The result in PGN form: `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    #[must_use]
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl GameResult {
    /// The result in words: `"Black wins: no pieces left"`, `"Draw: position repeated"`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self.winner {
            Some(winner) => format!("{winner} wins: {}", self.reason),
            None => format!("Draw: {}", self.reason),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result_str(), self.describe())
    }
}

/// One move as the referee accepted it.
#[derive(Debug)]
pub struct MoveEvent<'a, G: Game> {
    /// The ply number, from 1.
    pub ply: usize,
    /// Who moved.
    pub color: Color,
    /// The move.
    pub mv: G::Move,
    /// The position after the move.
    pub position: &'a G::Position,
    /// Time the player took.
    pub elapsed: Duration,
    /// Time left on the player's clock after the move (with the increment), if timed.
    pub clock: Option<Duration>,
    /// The player's last search report for this move, if it sent any.
    pub info: Option<SearchInfo>,
}

/// Plays one game.
#[derive(Debug)]
pub struct Referee<G: Game> {
    settings: Settings,
    start_text: String,
    start: G::Position,
    position: G::Position,
    moves: Vec<G::Move>,
    /// Names `moves` for the requests ([`Request::history`]): a new one whenever moves are taken
    /// back, so that a request of the same history is always behind the referee's moves.
    history: History,
    /// The mover's clock after each move, for the record.
    clocks_after: Vec<Option<Duration>>,
    clocks: [Option<Duration>; 2],
    turn_started: Option<Instant>,
    result: Option<GameResult>,
    /// Adjudicate a draw once this many plies have been played.
    max_plies: Option<usize>,
    /// Whether an untimed turn's wall time is measured (for people who watch; the arena does not).
    untimed_walls: bool,
}

impl<G: Game> Referee<G> {
    /// A referee for a game from `start` under `settings`.
    pub fn new(start: G::Position, settings: Settings) -> Referee<G> {
        Referee {
            settings,
            start_text: start.to_string(),
            result: rules_result::<G>(&start),
            start: start.clone(),
            position: start,
            // Room for a long game from the start, rather than growing a few times in each.
            moves: Vec::with_capacity(256),
            history: History::fresh(),
            clocks_after: Vec::with_capacity(256),
            clocks: [settings.time; 2],
            turn_started: None,
            max_plies: None,
            untimed_walls: true,
        }
    }

    /// Measures no wall time of the turns of an untimed game (their [`MoveEvent::elapsed`] is
    /// the fair time given to [`Referee::finish_turn`], or zero): two clock reads a ply fewer.
    #[must_use]
    pub fn without_untimed_walls(mut self) -> Referee<G> {
        self.untimed_walls = false;
        self
    }

    /// Ends the game as a draw ([`Termination::Adjudication`]) once `max_plies` plies have been
    /// played without a result (`None`: no limit).
    #[must_use]
    pub fn with_max_plies(mut self, max_plies: Option<usize>) -> Referee<G> {
        self.max_plies = max_plies;
        self.adjudicate();
        self
    }

    fn adjudicate(&mut self) {
        if self.result.is_none() && self.max_plies.is_some_and(|max| self.moves.len() >= max) {
            self.result = Some(GameResult {
                winner: None,
                termination: Termination::Adjudication,
                reason: format!("adjudicated after {} plies", self.moves.len()),
            });
        }
    }

    /// A referee continuing a game from `start` after `moves` (legal moves, as from
    /// [`crate::record::GameRecord::replay`]); the clocks start afresh.
    pub fn with_moves(start: G::Position, moves: &[G::Move], settings: Settings) -> Referee<G> {
        let mut referee = Referee::new(start, settings);
        for &mv in moves {
            if referee.result.is_some() {
                break;
            }
            referee.push_move(mv, None);
        }
        referee
    }

    fn push_move(&mut self, mv: G::Move, clock: Option<Duration>) {
        self.position.play_unchecked(mv);
        self.moves.push(mv);
        self.clocks_after.push(clock);
        self.result = rules_result::<G>(&self.position);
        self.adjudicate();
    }

    /// The game's record, with the players' names and the result so far.
    pub fn record(&self, white: &str, black: &str) -> GameRecord {
        let start = G::parse_position(&self.start_text, Some(self.position.variant())).ok();
        let standard_start = G::start(Some(self.position.variant())).ok();
        let mut record = GameRecord::default();
        record.set_tag("Game", G::NAME);
        record.set_tag("Variant", self.position.variant());
        record.set_tag("White", white);
        record.set_tag("Black", black);
        record.set_tag("Date", today());
        record.set_tag("TimeControl", self.settings.tag());
        let is_standard_start = match (&start, &standard_start) {
            (Some(a), Some(b)) => a.to_string() == b.to_string(),
            _ => false,
        };
        if !is_standard_start {
            record.set_tag("FEN", self.start_text.clone());
        }
        let (result, termination) = match &self.result {
            Some(result) => (result.result_str(), result.termination.as_str()),
            None => ("*", "unterminated"),
        };
        record.set_tag("Result", result);
        record.set_tag("Termination", termination);
        if let Some(result) = &self.result {
            record.set_tag("Reason", result.describe());
        }
        record.moves = self
            .moves
            .iter()
            .zip(&self.clocks_after)
            .map(|(mv, &clock)| RecordedMove {
                text: mv.to_string(),
                clock,
            })
            .collect();
        record.result = result.to_owned();
        record
    }

    /// The current position.
    pub fn position(&self) -> &G::Position {
        &self.position
    }

    /// The start position as text.
    pub fn start_text(&self) -> &str {
        &self.start_text
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The moves played so far in notation, separated by spaces.
    pub fn moves_text(&self) -> String {
        seat::moves_text::<G>(&self.moves)
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// Time left on `color`'s clock now (counting the current turn), if timed.
    pub fn time_left(&self, color: Color) -> Option<Duration> {
        let left = self.clocks[color.index()]?;
        match self.turn_started {
            Some(started) if self.position.side_to_move() == color => {
                Some(left.saturating_sub(started.elapsed()))
            }
            _ => Some(left),
        }
    }

    /// The start position.
    pub fn start(&self) -> &G::Position {
        &self.start
    }

    /// The time control.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Sends the side to move its request and starts its clock.
    pub fn start_turn(&mut self, seat: &mut Seat<G>) {
        seat.request(self.begin_turn());
    }

    /// Starts the side to move's clock and returns the request for its player; for a player
    /// without a seat (a person at the window), whose answer is given straight to
    /// [`Referee::finish_turn`].
    pub fn begin_turn(&mut self) -> Request<G> {
        let mut request = Request::new(
            String::new(),
            Vec::new(),
            self.position.clone(),
            seat::clocks(None, None, 0),
        );
        self.begin_turn_into(&mut request);
        request
    }

    /// As [`Referee::begin_turn`], writing the request over `request` (whose buffers are
    /// reused: a game's requests are made once a ply). A request of this referee's history is
    /// brought up to date by appending the moves played since; any other is overwritten and
    /// takes the referee's history.
    pub fn begin_turn_into(&mut self, request: &mut Request<G>) {
        let me = self.position.side_to_move();
        let ms = |d: Option<Duration>| d.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        if request.history == self.history && request.moves.len() <= self.moves.len() {
            request
                .moves
                .extend_from_slice(&self.moves[request.moves.len()..]);
        } else {
            request.history = self.history;
            request.start_text.clone_from(&self.start_text);
            request.moves.clone_from(&self.moves);
        }
        request.position.clone_from(&self.position);
        request.clocks = Clocks {
            movetime_ms: ms(self.settings.movetime).into(),
            ..seat::clocks(
                ms(self.clocks[me.index()]),
                ms(self.clocks[me.other().index()]),
                ms(Some(self.settings.increment)).unwrap_or(0),
            )
        };
        let timed = self.settings.time.is_some() || self.settings.movetime.is_some();
        if timed || self.untimed_walls {
            self.turn_started = Some(Instant::now());
        }
    }

    /// The most time `color` may take for its move now: its clock, or the time per move if that is
    /// shorter; `None` without either.
    pub fn turn_limit(&self, color: Color) -> Option<Duration> {
        match (self.clocks[color.index()], self.settings.movetime) {
            (Some(left), Some(movetime)) => Some(left.min(movetime)),
            (left, movetime) => left.or(movetime),
        }
    }

    /// The wall time since the current turn began (zero between turns).
    pub fn turn_wall(&self) -> Duration {
        self.turn_started.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// Whether the side to move's clock is running (between [`Referee::begin_turn`] and
    /// [`Referee::finish_turn`]).
    pub fn turn_started(&self) -> bool {
        self.turn_started.is_some()
    }

    /// Takes moves back until `plies` moves remain: the position is rebuilt from the start
    /// position and the moves kept, the result cleared (or recomputed), any running turn
    /// cancelled. The clocks keep the time they have now; nothing is refunded.
    pub fn take_back_to(&mut self, plies: usize) {
        if let Some(started) = self.turn_started.take() {
            // The time spent on the cancelled turn is spent.
            let me = self.position.side_to_move().index();
            if let Some(left) = self.clocks[me] {
                self.clocks[me] = Some(left.saturating_sub(started.elapsed()));
            }
        }
        let kept: Vec<(G::Move, Option<Duration>)> = self
            .moves
            .drain(..)
            .zip(self.clocks_after.drain(..))
            .take(plies)
            .collect();
        self.position = self.start.clone();
        self.history = History::fresh();
        self.result = rules_result::<G>(&self.position);
        for (mv, clock) in kept {
            self.push_move(mv, clock);
        }
    }

    /// Takes the side to move's answer (or its time-out), its last search report and the fair
    /// time the move cost (`used`, from [`Seat::used`]; `None`: the wall time since the turn
    /// began, as for a person at the window), validates the answer, and plays it. Returns the
    /// accepted move's event, or `None` when the answer ended the game.
    pub fn finish_turn(
        &mut self,
        wait: Wait,
        info: Option<SearchInfo>,
        used: Option<Duration>,
    ) -> Option<MoveEvent<'_, G>> {
        let answer = match wait {
            Wait::TimedOut => None,
            Wait::Answered(answer) => Some(answer.map(Choice::Text)),
        };
        self.finish_typed_turn(answer, info, used)
    }

    /// As [`Referee::finish_turn`], for an answer from [`crate::seat::Brain::choose_typed`]
    /// (`None`: the time ran out). A typed move is checked as notation is: an illegal one loses,
    /// a code that is no move loses as an unparsable answer.
    pub fn finish_typed_turn(
        &mut self,
        answer: Option<TypedAnswer<G::Move>>,
        info: Option<SearchInfo>,
        used: Option<Duration>,
    ) -> Option<MoveEvent<'_, G>> {
        let me = self.position.side_to_move();
        let wall = self
            .turn_started
            .take()
            .map_or(Duration::ZERO, |t| t.elapsed());
        let elapsed = used.unwrap_or(wall);
        let margin = self.settings.margin;
        let Some(answer) = answer else {
            return self.forfeit(me, Termination::TimeForfeit, "ran out of time");
        };
        let choice = match answer {
            Ok(choice) => choice,
            Err(failure) => {
                let (termination, reason) = match failure {
                    SeatFailure::Error(e) => {
                        (Termination::BotError, format!("reported an error: {e}"))
                    }
                    SeatFailure::Panic(e) => (Termination::Panic, format!("panicked: {e}")),
                    SeatFailure::Crash(e) => (Termination::Crash, format!("crashed: {e}")),
                    SeatFailure::Resigned(e) => (Termination::Resignation, e),
                };
                return self.forfeit(me, termination, &reason);
            }
        };
        if self
            .settings
            .movetime
            .is_some_and(|movetime| elapsed > movetime + margin)
        {
            return self.forfeit(
                me,
                Termination::TimeForfeit,
                "took longer than the time per move",
            );
        }
        if let Some(left) = self.clocks[me.index()] {
            if elapsed > left + margin {
                return self.forfeit(me, Termination::TimeForfeit, "ran out of time");
            }
            self.clocks[me.index()] =
                Some((left.saturating_sub(elapsed)).saturating_add(self.settings.increment));
        }
        let mv = match choice {
            Choice::Text(text) => match self.position.parse_move(text.trim()) {
                Ok(mv) => mv,
                Err(ParseMoveError::Illegal { reason, .. }) => {
                    let reason = format!("played the illegal move {:?} ({reason})", text.trim());
                    return self.forfeit(me, Termination::IllegalMove, &reason);
                }
                Err(ParseMoveError::Invalid { .. }) => {
                    let reason = format!("answered {:?}, which is not a move", clip(&text));
                    return self.forfeit(me, Termination::UnparsableMove, &reason);
                }
            },
            Choice::Move(mv) if self.position.is_legal(mv) => mv,
            Choice::Move(mv) => {
                let why = (self.position.why_illegal(mv))
                    .unwrap_or_else(|| "it is not a legal move here".to_owned());
                let reason = format!("played the illegal move {:?} ({why})", mv.to_string());
                return self.forfeit(me, Termination::IllegalMove, &reason);
            }
            Choice::BadCode(code) => {
                let reason = format!("answered the move code {code:#x}, which is no move's");
                return self.forfeit(me, Termination::UnparsableMove, &reason);
            }
        };
        self.push_move(mv, self.clocks[me.index()]);
        Some(MoveEvent {
            ply: self.moves.len(),
            color: me,
            mv,
            position: &self.position,
            elapsed,
            clock: self.clocks[me.index()],
            info,
        })
    }

    fn forfeit(
        &mut self,
        loser: Color,
        termination: Termination,
        reason: &str,
    ) -> Option<MoveEvent<'_, G>> {
        log::info!("{loser} loses by {termination}: {reason}");
        self.result = Some(GameResult {
            winner: Some(loser.other()),
            termination,
            reason: format!("{loser} {reason}"),
        });
        None
    }

    /// The end of the game as the players hear it, once it has a result.
    pub fn game_over(&self) -> Option<GameOver<G>> {
        let result = self.result.as_ref()?;
        Some(GameOver {
            start_text: self.start_text.clone(),
            moves: self.moves.clone(),
            position: self.position.clone(),
            winner: result.winner,
        })
    }

    /// Plays the game to its end, blocking, with `seats[0]` as White and `seats[1]` as Black;
    /// `on_move` sees each accepted move.
    pub fn play(
        &mut self,
        seats: &mut [Seat<G>; 2],
        mut on_move: impl FnMut(&MoveEvent<'_, G>),
    ) -> GameResult {
        loop {
            if let Some(result) = &self.result {
                let result = result.clone();
                for seat in seats.iter() {
                    if let Some(over) = self.game_over() {
                        seat.game_over(over);
                    }
                }
                return result;
            }
            let me = self.position.side_to_move();
            let seat = &mut seats[me.index()];
            self.start_turn(seat);
            let wait = seat.wait(self.turn_limit(me), self.settings.margin);
            if let Some(event) = self.finish_turn(wait, seat.search_info(), seat.used()) {
                on_move(&event);
            }
        }
    }
}

/// The result the rules give `position`, if the game is over.
fn rules_result<G: Game>(position: &G::Position) -> Option<GameResult> {
    position.outcome().map(|outcome| GameResult {
        winner: outcome.winner,
        termination: Termination::Normal,
        reason: outcome.reason.describe().to_owned(),
    })
}

/// Today's date as PGN writes it, `YYYY.MM.DD` (UTC).
fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Shortens a bot's answer for a message (a bot may answer with anything, of any length).
fn clip(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::thread;

    use tavola_sdk::games::ataxx::Ataxx;

    use super::*;
    use crate::seat::random::RandomBrain;
    use crate::seat::{Answer, Brain, Control};

    /// Answers from a script, then plays randomly.
    struct Scripted(Vec<Answer>, RandomBrain<Ataxx>);

    impl Brain<Ataxx> for Scripted {
        fn choose(&mut self, request: &Request<Ataxx>, control: &Control) -> Answer {
            if self.0.is_empty() {
                self.1.choose(request, control)
            } else {
                self.0.remove(0)
            }
        }
    }

    struct Sleepy(Duration);

    impl Brain<Ataxx> for Sleepy {
        fn choose(&mut self, _request: &Request<Ataxx>, _control: &Control) -> Answer {
            thread::sleep(self.0);
            Ok("b6".to_owned())
        }
    }

    struct Panicky;

    impl Brain<Ataxx> for Panicky {
        fn choose(&mut self, _request: &Request<Ataxx>, _control: &Control) -> Answer {
            panic!("no idea")
        }
    }

    fn seat(name: &str, brain: impl Brain<Ataxx> + 'static) -> Seat<Ataxx> {
        Seat::new(name, Box::new(brain))
    }

    fn random(seed: u64) -> Seat<Ataxx> {
        seat("random", RandomBrain::<Ataxx>::new(seed))
    }

    fn play(
        white: Seat<Ataxx>,
        black: Seat<Ataxx>,
        settings: Settings,
    ) -> (GameResult, Vec<String>) {
        let start = Ataxx::start(None).unwrap();
        let mut referee = Referee::<Ataxx>::new(start, settings);
        let mut seats = [white, black];
        let mut seen = Vec::new();
        let result = referee.play(&mut seats, |event| seen.push(event.mv.to_string()));
        let played: Vec<String> = referee.moves().iter().map(ToString::to_string).collect();
        assert_eq!(seen, played, "every accepted move is reported once");
        (result, played)
    }

    #[test]
    fn random_games_end_by_the_rules() {
        for seed in 0..5 {
            let (result, moves) = play(random(seed), random(seed + 100), Settings::default());
            assert_eq!(result.termination, Termination::Normal, "{result}");
            assert!(!moves.is_empty());
        }
    }

    #[test]
    fn a_game_past_the_maximum_plies_is_adjudicated_a_draw() {
        let start = Ataxx::start(None).unwrap();
        let mut referee = Referee::<Ataxx>::new(start, Settings::default()).with_max_plies(Some(6));
        let mut seats = [random(1), random(2)];
        let result = referee.play(&mut seats, |_| {});
        assert_eq!(result.termination, Termination::Adjudication, "{result}");
        assert_eq!(result.winner, None);
        assert_eq!(referee.moves().len(), 6);
        assert_eq!(
            referee.record("a", "b").tag("Termination"),
            Some("adjudication")
        );
    }

    #[test]
    fn an_illegal_move_loses() {
        let white = seat("w", Scripted(vec![Ok("a7a7".into())], RandomBrain::new(1)));
        let (result, moves) = play(white, random(2), Settings::default());
        assert_eq!(result.winner, Some(Color::Black));
        assert!(moves.is_empty());
        // "a7a7" is well-formed Ataxx notation? Either way it must not be accepted.
        assert!(
            matches!(
                result.termination,
                Termination::IllegalMove | Termination::UnparsableMove
            ),
            "{result}"
        );
    }

    #[test]
    fn an_occupied_destination_is_an_illegal_move() {
        let black = seat("b", Scripted(vec![Ok("g1".into())], RandomBrain::new(1)));
        let (result, moves) = play(random(3), black, Settings::default());
        assert_eq!(
            (result.winner, result.termination),
            (Some(Color::White), Termination::IllegalMove)
        );
        assert_eq!(moves.len(), 1);
        assert!(result.reason.contains("\"g1\""), "{}", result.reason);
    }

    #[test]
    fn garbage_is_unparsable_and_clipped() {
        let garbage = "x".repeat(500);
        let white = seat("w", Scripted(vec![Ok(garbage)], RandomBrain::new(1)));
        let (result, _) = play(white, random(2), Settings::default());
        assert_eq!(result.termination, Termination::UnparsableMove);
        assert!(result.reason.len() < 100, "{}", result.reason);
    }

    #[test]
    fn failures_lose_with_their_reason() {
        let cases = [
            (SeatFailure::Error("oops".into()), Termination::BotError),
            (SeatFailure::Panic("boom".into()), Termination::Panic),
            (SeatFailure::Crash("signal 11".into()), Termination::Crash),
            (
                SeatFailure::Resigned("resigned".into()),
                Termination::Resignation,
            ),
        ];
        for (failure, termination) in cases {
            let white = seat(
                "w",
                Scripted(vec![Err(failure.clone())], RandomBrain::new(1)),
            );
            let (result, _) = play(white, random(2), Settings::default());
            assert_eq!(
                (result.winner, result.termination),
                (Some(Color::Black), termination)
            );
        }
        let (result, _) = play(seat("p", Panicky), random(2), Settings::default());
        assert_eq!(result.termination, Termination::Panic);
        assert!(result.reason.contains("no idea"), "{}", result.reason);
    }

    #[test]
    fn a_slow_player_loses_on_time_without_waiting_for_it() {
        let settings = Settings {
            time: Some(Duration::from_millis(50)),
            increment: Duration::ZERO,
            movetime: None,
            margin: crate::referee::DEFAULT_MARGIN,
        };
        let started = Instant::now();
        let (result, _) = play(
            seat("slow", Sleepy(Duration::from_secs(30))),
            random(1),
            settings,
        );
        assert_eq!(
            (result.winner, result.termination),
            (Some(Color::Black), Termination::TimeForfeit)
        );
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the referee must not wait for the bot"
        );
    }

    /// Answers with a random move, after noting the time per move it was given.
    struct Timed(
        std::sync::Arc<std::sync::Mutex<Vec<Option<u64>>>>,
        RandomBrain<Ataxx>,
    );

    impl Brain<Ataxx> for Timed {
        fn choose(&mut self, request: &Request<Ataxx>, control: &Control) -> Answer {
            if let Ok(mut seen) = self.0.lock() {
                seen.push(request.clocks.movetime_ms.into_option());
            }
            self.1.choose(request, control)
        }
    }

    #[test]
    fn a_fixed_time_per_move_is_told_and_enforced() {
        let settings = Settings {
            time: None,
            increment: Duration::ZERO,
            movetime: Some(Duration::from_millis(300)),
            margin: crate::referee::DEFAULT_MARGIN,
        };
        let seen = std::sync::Arc::default();
        let white = seat(
            "w",
            Timed(std::sync::Arc::clone(&seen), RandomBrain::new(1)),
        );
        let (result, moves) = play(white, random(2), settings);
        assert_eq!(result.termination, Termination::Normal, "{result}");
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), moves.len().div_ceil(2));
        assert!(seen.iter().all(|&m| m == Some(300)), "{seen:?}");

        // A player slower than the time per move loses on time, whatever its clock.
        let settings = Settings {
            time: Some(Duration::from_secs(60)),
            movetime: Some(Duration::from_millis(50)),
            margin: crate::referee::DEFAULT_MARGIN,
            ..settings
        };
        let (result, _) = play(
            random(3),
            seat("slow", Sleepy(Duration::from_secs(30))),
            settings,
        );
        assert_eq!(
            (result.winner, result.termination),
            (Some(Color::White), Termination::TimeForfeit)
        );
        let start = Ataxx::start(None).unwrap();
        let referee = Referee::<Ataxx>::new(start, settings);
        assert_eq!(
            referee.turn_limit(Color::White),
            Some(Duration::from_millis(50))
        );
        assert_eq!(settings.tag(), "1/0.05");
        assert_eq!(Settings::default().tag(), "120+0");
    }

    #[test]
    fn the_increment_is_added_after_each_move() {
        let settings = Settings {
            time: Some(Duration::from_secs(10)),
            increment: Duration::from_secs(1),
            movetime: None,
            margin: crate::referee::DEFAULT_MARGIN,
        };
        let start = Ataxx::start(None).unwrap();
        let mut referee = Referee::<Ataxx>::new(start, settings);
        let mut white = random(1);
        referee.start_turn(&mut white);
        let wait = white.wait(None, Duration::ZERO);
        let event = referee
            .finish_turn(wait, None, white.used())
            .expect("a legal move");
        let left = event.clock.unwrap();
        assert!(
            left > Duration::from_secs(10) && left <= Duration::from_secs(11),
            "{left:?}"
        );
        assert_eq!(
            referee.time_left(Color::Black),
            Some(Duration::from_secs(10))
        );
    }

    #[test]
    fn a_finished_game_records_and_replays() {
        let (white, black) = (random(5), random(6));
        let start = Ataxx::start(None).unwrap();
        let mut referee = Referee::<Ataxx>::new(start, Settings::default());
        let result = referee.play(&mut [white, black], |_| {});
        let record = referee.record("random", "random");
        assert_eq!(record.tag("Result"), Some(result.result_str()));
        assert_eq!(record.tag("Termination"), Some("normal"));
        assert_eq!(record.tag("FEN"), None, "the standard start needs no FEN");
        assert!(record.moves.iter().all(|m| m.clock.is_some()));
        let date = record.tag("Date").unwrap();
        assert!(date.len() == 10 && date.starts_with("20"), "{date}");
        let parsed = &crate::record::GameRecord::parse_all(&record.to_string()).unwrap()[0];
        let (start, moves) = parsed.replay::<Ataxx>().unwrap();
        assert_eq!(moves, referee.moves());
        let resumed = Referee::<Ataxx>::with_moves(start, &moves, Settings::default());
        assert_eq!(
            resumed.position().to_string(),
            referee.position().to_string()
        );
        assert_eq!(
            resumed.result().map(GameResult::result_str),
            Some(result.result_str())
        );
    }

    #[test]
    fn moves_are_taken_back_from_the_start_position() {
        let start = Ataxx::start(None).unwrap();
        let mut referee = Referee::<Ataxx>::new(start.clone(), Settings::default());
        for text in ["a7c5", "g7e5", "g1f2", "a1b2"] {
            referee.begin_turn();
            referee
                .finish_turn(Wait::Answered(Ok(text.to_owned())), None, None)
                .expect("a legal move");
        }
        let after_two = {
            let mut p = start.clone();
            p.play(p.parse_move("a7c5").unwrap()).unwrap();
            p.play(p.parse_move("g7e5").unwrap()).unwrap();
            p
        };
        referee.begin_turn();
        referee.take_back_to(2);
        assert!(!referee.turn_started());
        assert_eq!(referee.moves().len(), 2);
        assert_eq!(referee.position(), &after_two);
        assert!(referee.result().is_none());
        // The game goes on from there, and the record text follows.
        referee.begin_turn();
        let event = referee.finish_turn(Wait::Answered(Ok("g1e3".into())), None, None);
        assert_eq!(event.map(|e| e.ply), Some(3));
        assert_eq!(
            referee
                .moves()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            ["a7c5", "g7e5", "g1e3"]
        );
        referee.take_back_to(0);
        assert_eq!(referee.position(), &start);
    }

    #[test]
    fn a_finished_start_position_is_over_before_any_move() {
        let start = Ataxx::parse_position("x5o/7/7/7/7/7/o5x x 100 1", None).unwrap();
        let referee = Referee::<Ataxx>::new(start, Settings::default());
        let result = referee.result().expect("drawn by the 100-ply rule");
        assert_eq!(
            (result.winner, result.termination),
            (None, Termination::Normal)
        );
    }
}
