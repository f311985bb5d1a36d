//! One game at the window: the referee, the two players (a person clicking, or a bot on its
//! seat's thread), the positions so far, take-backs and hints. No drawing here: the game screen
//! calls [`Session::update`] each frame and shows what the accessors say.
//!
//! Nothing here blocks: bots are polled, and a person's move is handed straight to the referee.

use std::sync::mpsc;
use std::time::Duration;

use anyhow::Context as _;
use tavola_sdk::{Color, EndReason, Game, Outcome, Position, SearchInfo};

use crate::builtin::{BuiltinBrain, Evaluate};
use crate::record::GameRecord;
use crate::referee::{GameResult, Referee, Termination};
use crate::seat::{ParseSeatSpecError, Request, Seat, SeatFailure, SeatKind, Wait};
use crate::text_ui::{seat_for, GameSetup};

/// A bot is asked to stop this long before its clock runs out, so that one that honours the stop
/// signal still answers in time.
const STOP_GRACE: Duration = Duration::from_millis(50);

/// Who plays one colour.
#[derive(Debug)]
enum Player<G: Game> {
    /// A person at the window.
    Human,
    /// A bot on its seat.
    Bot(Seat<G>),
    /// A bot being seated afresh on a thread of its own (after an undo), so that the window never
    /// waits for a plugin to start.
    Seating(mpsc::Receiver<anyhow::Result<Seat<G>>>),
    /// A bot that could not be seated again: it loses when its turn comes.
    Unseated(String),
}

/// Stops `seat` and lets it go on a thread of its own: a seat waits for its brain when dropped,
/// and a brain that ignores the stop must not hold up the window.
fn retire<G: Game>(seat: Seat<G>) {
    seat.stop();
    let spawned = std::thread::Builder::new()
        .name("retired seat".to_owned())
        .spawn(move || drop(seat));
    if let Err(e) = spawned {
        log::warn!("cannot start a thread to retire a seat: {e}");
    }
}

/// What the panel shows about a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerInfo {
    /// The name: "You", "builtin", the plugin's own name.
    pub name: String,
    /// What kind of player: "human", "built-in bot", "plugin greedy 0.1.0".
    pub kind: String,
}

/// A game in progress (or over) at the window.
#[derive(Debug)]
pub struct Session<G: Evaluate> {
    setup: GameSetup,
    referee: Referee<G>,
    players: [Player<G>; 2],
    infos: [PlayerInfo; 2],
    /// The position after each ply; `[0]` is the start.
    history: Vec<G::Position>,
    /// The last search report of each bot, kept after it moves.
    reports: [Option<SearchInfo>; 2],
    /// When the last move was played (the session's clock, seconds).
    last_move_at: f64,
    /// When the next turn may start (bots watching bots are paced so a person can follow).
    next_turn_at: f64,
    /// Whether the bots have heard that the game is over.
    told_over: bool,
    hint: Hint<G>,
}

/// The hint's state: asked (on its own seat), or found for a ply.
#[derive(Debug)]
enum Hint<G: Game> {
    None,
    Thinking { seat: Seat<G>, ply: usize },
    Found { mv: G::Move, ply: usize },
}

impl<G: Evaluate> Session<G> {
    /// Seats the players of `setup` (a person for `human`, else the seat `seat_for` builds).
    ///
    /// # Errors
    /// A bad variant or position, or a player that cannot be seated (a plugin that does not
    /// load: [`crate::seat::plugin::LoadError`]).
    pub fn new(setup: &GameSetup) -> anyhow::Result<Session<G>> {
        let (start, moves) = match (&setup.resume, &setup.position) {
            (Some(record), _) => record
                .replay::<G>()
                .context("continuing the recorded game")?,
            (None, Some(text)) => (
                G::parse_position(text, setup.variant.as_deref())?,
                Vec::new(),
            ),
            (None, None) => (G::start(setup.variant.as_deref())?, Vec::new()),
        };
        let variant = start.variant();
        let white = seat(&setup.players[0], Color::White, variant, setup)?;
        let black = seat(&setup.players[1], Color::Black, variant, setup)?;
        let ([white, black], [white_info, black_info]) = ([white.0, black.0], [white.1, black.1]);
        let referee = Referee::with_moves(start.clone(), &moves, setup.settings);
        let mut history = Vec::with_capacity(referee.moves().len() + 1);
        let mut position = start;
        history.push(position.clone());
        for &mv in referee.moves() {
            position.play_unchecked(mv);
            history.push(position.clone());
        }
        Ok(Session {
            setup: setup.clone(),
            referee,
            players: [white, black],
            infos: [white_info, black_info],
            history,
            reports: [None, None],
            last_move_at: f64::NEG_INFINITY,
            next_turn_at: 0.0,
            told_over: false,
            hint: Hint::None,
        })
    }

    /// The setup the game was started from.
    pub fn setup(&self) -> &GameSetup {
        &self.setup
    }

    /// The game's record so far (the result `*` while it goes on), with the players' names.
    pub fn record(&self) -> GameRecord {
        let [white, black] = &self.infos;
        self.referee.record(&white.name, &black.name)
    }

    /// Advances the game at time `now` (seconds, increasing): starts the next turn, collects a
    /// bot's answer, forfeits a player whose time ran out, collects the hint. Returns whether a
    /// move was played.
    pub fn update(&mut self, now: f64) -> bool {
        self.poll_hint();
        if self.referee.result().is_some() {
            if !self.told_over {
                self.told_over = true;
                for player in &self.players {
                    if let (Player::Bot(seat), Some(over)) = (player, self.referee.game_over()) {
                        seat.game_over(over);
                    }
                }
            }
            return false;
        }
        self.told_over = false;
        self.collect_seats();
        let me = self.referee.position().side_to_move();
        if !self.referee.turn_started() {
            if now < self.next_turn_at {
                return false;
            }
            match &mut self.players[me.index()] {
                Player::Human => {
                    self.referee.begin_turn();
                }
                Player::Bot(seat) => self.referee.start_turn(seat),
                Player::Seating(_) => return false,
                Player::Unseated(why) => {
                    let failure = SeatFailure::Crash(why.clone());
                    self.referee.begin_turn();
                    self.referee
                        .finish_turn(Wait::Answered(Err(failure)), None, None);
                    return false;
                }
            }
        }
        let Player::Bot(seat) = &mut self.players[me.index()] else {
            // A person's clock is the wall clock.
            if self.referee.time_left(me) == Some(Duration::ZERO) {
                self.referee.finish_turn(Wait::TimedOut, None, None);
            }
            return false;
        };
        // A bot's is fair time: what it had, not what the window or a busy machine took.
        if let Some(limit) = self.referee.turn_limit(me) {
            let used = seat.charged();
            if used + STOP_GRACE >= limit {
                seat.stop();
            }
            let give_up = limit + self.referee.settings().margin;
            if used > give_up || self.referee.turn_wall() > crate::seat::wall_cap(give_up) {
                seat.stop();
                self.referee.finish_turn(Wait::TimedOut, None, Some(used));
                return false;
            }
        }
        let Some(answer) = seat.poll() else {
            if let Some(info) = seat.search_info() {
                self.reports[me.index()] = Some(info);
            }
            return false;
        };
        let info = seat.search_info();
        if info.is_some() {
            self.reports[me.index()] = info.clone();
        }
        let played = self
            .referee
            .finish_turn(Wait::Answered(answer), info, seat.used())
            .is_some();
        if played {
            self.moved(now);
        }
        played
    }

    /// Plays the person's move `mv`, if a person is to move. Returns whether it was played.
    pub fn play_human(&mut self, mv: G::Move, now: f64) -> bool {
        let me = self.referee.position().side_to_move();
        if self.referee.result().is_some()
            || !matches!(self.players[me.index()], Player::Human)
            || !self.referee.position().is_legal(mv)
        {
            return false;
        }
        if !self.referee.turn_started() {
            self.referee.begin_turn();
        }
        let played = self
            .referee
            .finish_turn(Wait::Answered(Ok(mv.to_string())), None, None)
            .is_some();
        if played {
            self.moved(now);
        }
        played
    }

    fn moved(&mut self, now: f64) {
        self.history.push(self.referee.position().clone());
        self.last_move_at = now;
        let no_person = !self.players.iter().any(|p| matches!(p, Player::Human));
        self.next_turn_at = if no_person { now + 0.4 } else { now };
    }

    /// The colour a person plays now, when it is their turn and the game goes on.
    pub fn human_to_move(&self) -> Option<Color> {
        let me = self.referee.position().side_to_move();
        (self.referee.result().is_none() && matches!(self.players[me.index()], Player::Human))
            .then_some(me)
    }

    /// Whether `color` is played by a person.
    pub fn is_human(&self, color: Color) -> bool {
        matches!(self.players[color.index()], Player::Human)
    }

    /// The bot thinking now (or being seated again to think), if any.
    pub fn thinking(&self) -> Option<Color> {
        let me = self.referee.position().side_to_move();
        if self.referee.result().is_some() {
            return None;
        }
        match &self.players[me.index()] {
            Player::Bot(seat) if seat.is_thinking() => Some(me),
            Player::Seating(_) => Some(me),
            _ => None,
        }
    }

    /// Takes the seats made on their own threads (see [`Session::undo`]) that are ready.
    fn collect_seats(&mut self) {
        for player in &mut self.players {
            let Player::Seating(receiver) = player else {
                continue;
            };
            *player = match receiver.try_recv() {
                Ok(Ok(seat)) => Player::Bot(seat),
                Ok(Err(e)) => Player::Unseated(format!("cannot be seated again: {e:#}")),
                Err(mpsc::TryRecvError::Empty) => continue,
                Err(mpsc::TryRecvError::Disconnected) => {
                    Player::Unseated("cannot be seated again: the seating thread died".to_owned())
                }
            };
        }
    }

    /// Asks the thinking bot to move now.
    pub fn move_now(&self) {
        let me = self.referee.position().side_to_move();
        if let Player::Bot(seat) = &self.players[me.index()] {
            seat.stop();
        }
    }

    /// The number of plies an undo would go back to, if it can: the person's previous turn (with
    /// two people, one ply; with no person, nothing).
    pub fn undo_target(&self) -> Option<usize> {
        let plies = self.referee.moves().len();
        let humans: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|&c| self.is_human(c))
            .collect();
        if humans.is_empty() {
            return None;
        }
        (0..plies)
            .rev()
            .find(|&p| humans.contains(&self.history[p].side_to_move()))
    }

    /// Takes moves back to the person's previous turn (see [`Session::undo_target`]); a thinking
    /// bot is stopped and seated afresh, so that its late answer is never taken. Returns whether
    /// anything was taken back.
    pub fn undo(&mut self, now: f64) -> bool {
        let Some(target) = self.undo_target() else {
            return false;
        };
        self.cancel_bots();
        self.referee.take_back_to(target);
        self.history.truncate(target + 1);
        self.last_move_at = now;
        self.next_turn_at = now;
        if let Hint::Thinking { seat, .. } = std::mem::replace(&mut self.hint, Hint::None) {
            retire(seat);
        }
        true
    }

    /// Replaces every thinking bot with a fresh seat (its thread cannot be cancelled): the old
    /// seat is retired and the new one made on a thread of its own, so the window never waits.
    fn cancel_bots(&mut self) {
        let variant = self.referee.position().variant().to_owned();
        for color in Color::ALL {
            let player = &mut self.players[color.index()];
            if !matches!(player, Player::Bot(seat) if seat.is_thinking()) {
                continue;
            }
            let (sender, receiver) = mpsc::channel();
            let Player::Bot(old) = std::mem::replace(player, Player::Seating(receiver)) else {
                continue;
            };
            retire(old);
            let spec = self.setup.players[color.index()].clone();
            let setup = self.setup.clone();
            let variant = variant.clone();
            let spawned = std::thread::Builder::new()
                .name("seating".to_owned())
                .spawn(move || {
                    let seated = seat_for::<G>(&spec, color, &variant, &setup)
                        .map(|seated| seated.seat)
                        .with_context(|| format!("seating {spec}"));
                    let _ = sender.send(seated);
                });
            if let Err(e) = spawned {
                *player = Player::Unseated(format!("cannot be seated again: {e}"));
            }
        }
    }

    /// Asks the built-in bot for a move in the current position, for a short fixed time, on the
    /// hint seat's own thread (the GUI polls it each frame).
    pub fn ask_hint(&mut self) {
        let ply = self.referee.moves().len();
        if self.referee.result().is_some()
            || matches!(self.hint, Hint::Found { ply: p, .. } if p == ply)
        {
            return;
        }
        let brain = BuiltinBrain::<G>::hint(self.setup.seed ^ ply as u64);
        let mut seat = Seat::new("hint", Box::new(brain));
        seat.request(Request::new(
            self.referee.start_text().to_owned(),
            self.referee.moves().to_vec(),
            self.referee.position().clone(),
            crate::seat::clocks(None, None, 0),
        ));
        if let Hint::Thinking { seat: old, .. } =
            std::mem::replace(&mut self.hint, Hint::Thinking { seat, ply })
        {
            retire(old);
        }
    }

    fn poll_hint(&mut self) {
        if let Hint::Thinking { seat, ply } = &mut self.hint {
            let ply = *ply;
            if let Some(answer) = seat.poll() {
                let position = &self.history[ply.min(self.history.len() - 1)];
                self.hint = match answer.ok().and_then(|text| position.parse_move(&text).ok()) {
                    Some(mv) => Hint::Found { mv, ply },
                    None => Hint::None,
                };
            }
        }
    }

    /// The hint for the current position, once found.
    pub fn hint(&self) -> Option<G::Move> {
        match self.hint {
            Hint::Found { mv, ply } if ply == self.referee.moves().len() => Some(mv),
            _ => None,
        }
    }

    /// Whether a hint is being searched.
    pub fn hint_pending(&self) -> bool {
        matches!(self.hint, Hint::Thinking { ply, .. } if ply == self.referee.moves().len())
    }

    /// The position after `ply` plies (`0`: the start).
    pub fn position_at(&self, ply: usize) -> &G::Position {
        &self.history[ply.min(self.history.len() - 1)]
    }

    /// The current position.
    pub fn position(&self) -> &G::Position {
        self.referee.position()
    }

    /// The moves played.
    pub fn moves(&self) -> &[G::Move] {
        self.referee.moves()
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<&GameResult> {
        self.referee.result()
    }

    /// The result in words, once the game is over: a headline ("White wins") and the reason, in
    /// this game's own words when the rules ended it (see [`end_reason`]).
    pub fn result_words(&self) -> Option<(String, String)> {
        let result = self.referee.result()?;
        let mut words = result_words(result);
        let position = self.referee.position();
        if let (Termination::Normal, Some(outcome)) = (result.termination, position.outcome()) {
            words.1 = end_reason(G::NAME, outcome, position.side_to_move());
        }
        Some(words)
    }

    /// The result as one line ("White wins: the king escaped"), once the game is over.
    pub fn result_line(&self) -> Option<String> {
        let result = self.referee.result()?;
        Some(join_words(result, self.result_words()?))
    }

    /// The time left on `color`'s clock, if timed.
    pub fn time_left(&self, color: Color) -> Option<Duration> {
        self.referee.time_left(color)
    }

    /// Who plays `color`.
    pub fn player(&self, color: Color) -> &PlayerInfo {
        &self.infos[color.index()]
    }

    /// `color`'s latest search report (while it thinks, and after its move).
    pub fn report(&self, color: Color) -> Option<&SearchInfo> {
        self.reports[color.index()].as_ref()
    }

    /// When the last move was played (as `now` was given).
    pub fn last_move_at(&self) -> f64 {
        self.last_move_at
    }

    /// Stops every bot: the window is closing.
    pub fn stop_all(&mut self) {
        for player in &self.players {
            if let Player::Bot(seat) = player {
                seat.stop();
            }
        }
    }
}

impl<G: Evaluate> Drop for Session<G> {
    /// Retires the seats on threads of their own: leaving a game never waits for its bots.
    fn drop(&mut self) {
        for player in &mut self.players {
            if let Player::Bot(seat) = std::mem::replace(player, Player::Human) {
                retire(seat);
            }
        }
        if let Hint::Thinking { seat, .. } = std::mem::replace(&mut self.hint, Hint::None) {
            retire(seat);
        }
    }
}

/// Seats one player: `None` for a person at the window.
fn seat<G: Evaluate>(
    spec: &crate::seat::SeatSpec,
    color: Color,
    variant: &str,
    setup: &GameSetup,
) -> anyhow::Result<(Player<G>, PlayerInfo)> {
    if spec.kind == SeatKind::Human {
        if !spec.options.is_empty() {
            return Err(ParseSeatSpecError {
                spec: spec.to_string(),
                reason: "human takes no options".to_owned(),
            }
            .into());
        }
        let info = PlayerInfo {
            name: "Human".to_owned(),
            kind: "human".to_owned(),
        };
        return Ok((Player::Human, info));
    }
    let seated = seat_for::<G>(spec, color, variant, setup)?;
    let kind = match &spec.kind {
        SeatKind::Builtin => "built-in bot".to_owned(),
        SeatKind::Random => "random mover".to_owned(),
        _ => seated.description.clone(),
    };
    let info = PlayerInfo {
        name: seated.seat.name().to_owned(),
        kind,
    };
    Ok((Player::Bot(seated.seat), info))
}

/// The result in words: a headline ("White wins", "Draw") and the reason ("no pieces left",
/// "on time").
#[must_use]
pub fn result_words(result: &GameResult) -> (String, String) {
    let headline = match result.winner {
        Some(winner) => format!("{winner} wins"),
        None => "Draw".to_owned(),
    };
    let reason = match result.termination {
        Termination::TimeForfeit => "on time".to_owned(),
        _ => result.reason.clone(),
    };
    (headline, reason)
}

/// The result as one line: "White wins: no pieces left", "Black wins on time", "Draw: move limit
/// without progress".
#[must_use]
pub fn result_line(result: &GameResult) -> String {
    join_words(result, result_words(result))
}

fn join_words(result: &GameResult, (headline, reason): (String, String)) -> String {
    if result.termination == Termination::TimeForfeit {
        format!("{headline} {reason}")
    } else {
        format!("{headline}: {reason}")
    }
}

/// Why a game of `game` ended by its rules, in that game's words: "the king escaped", "Black
/// cannot move", "80 plies without a capture or a man's move". `to_move` is the side to move in
/// the final position (the one that cannot move, when that is the reason).
#[must_use]
pub fn end_reason(game: &str, outcome: Outcome, to_move: Color) -> String {
    let counted = |what: &str| match outcome.winner {
        Some(_) => format!("{what}: more pieces wins"),
        None => format!("{what}: equal pieces"),
    };
    match (outcome.reason, game) {
        (EndReason::NoPieces, _) => match outcome.winner {
            Some(winner) => format!("{} has no pieces left", winner.other()),
            None => "no pieces left".to_owned(),
        },
        (EndReason::NoLegalMove, "ataxx") => counted(&format!("{to_move} cannot move")),
        (EndReason::NoLegalMove, _) => format!("{to_move} cannot move"),
        (EndReason::BoardBlocked, _) => counted("neither side can move"),
        (EndReason::MoveLimit, "ataxx") => "100 plies without a clone".to_owned(),
        (EndReason::MoveLimit, "dama") => "80 plies without a capture or a man's move".to_owned(),
        (EndReason::Repetition, "dama") => "the same position a third time".to_owned(),
        (EndReason::InsufficientMaterial, "dama") => "too few kings left to win".to_owned(),
        (reason, _) => reason.describe().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use tavola_sdk::games::ataxx::{Ataxx, Move};

    use super::*;

    fn setup(white: &str, black: &str, seconds: Option<u64>) -> GameSetup {
        GameSetup {
            variant: None,
            position: None,
            players: [white.parse().unwrap(), black.parse().unwrap()],
            settings: crate::referee::Settings {
                time: seconds.map(Duration::from_secs),
                increment: Duration::ZERO,
                movetime: None,
                margin: crate::referee::DEFAULT_MARGIN,
            },
            seed: 7,
            resume: None,
            record_path: None,
            isolation: None,
        }
    }

    /// Runs `session` until `done` or a few seconds pass, as frames would.
    fn run_until(
        session: &mut Session<Ataxx>,
        now: &mut f64,
        done: impl Fn(&Session<Ataxx>) -> bool,
    ) {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while !done(session) && std::time::Instant::now() < deadline {
            *now += 1.0;
            session.update(*now);
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(done(session), "timed out: {session:?}");
    }

    #[test]
    fn bots_play_a_whole_game_frame_by_frame() {
        let mut session = Session::<Ataxx>::new(&setup("random", "random", None)).unwrap();
        let mut now = 0.0;
        run_until(&mut session, &mut now, |s| s.result().is_some());
        let result = session.result().unwrap();
        assert_eq!(result.termination, Termination::Normal);
        assert_eq!(session.moves().len() + 1, session.history.len());
        assert_eq!(
            session.position_at(session.moves().len()),
            session.position()
        );
        assert_eq!(
            session.undo_target(),
            None,
            "no person: nothing to take back"
        );
    }

    #[test]
    fn a_person_moves_with_clicks_and_the_bot_answers() {
        let mut session = Session::<Ataxx>::new(&setup("human", "random", Some(60))).unwrap();
        assert_eq!(session.player(Color::White).kind, "human");
        let mut now = 0.0;
        session.update(now);
        assert_eq!(session.human_to_move(), Some(Color::White));
        assert!(
            !session.play_human(Move::Clone("d4".parse().unwrap()), now),
            "illegal"
        );
        assert!(session.play_human(Move::Clone("b6".parse().unwrap()), now));
        assert_eq!(session.human_to_move(), None);
        run_until(&mut session, &mut now, |s| s.moves().len() == 2);
        assert_eq!(session.human_to_move(), Some(Color::White));
        // Undo goes back to the person's previous turn: both moves taken back.
        assert_eq!(session.undo_target(), Some(0));
        assert!(session.undo(now));
        assert!(session.moves().is_empty());
        assert_eq!(session.position(), &Ataxx::start(None).unwrap());
        session.update(now);
        assert_eq!(session.human_to_move(), Some(Color::White));
    }

    #[test]
    fn undo_while_the_bot_thinks_discards_its_answer() {
        let mut session = Session::<Ataxx>::new(&setup("human", "builtin:depth=4", None)).unwrap();
        let now = 0.0;
        session.update(now);
        assert!(session.play_human(Move::Clone("b6".parse().unwrap()), now));
        session.update(now);
        assert!(session.undo(now));
        assert!(session.moves().is_empty());
        for _ in 0..200 {
            session.update(now);
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(session.moves().is_empty(), "the old answer was not taken");
        assert_eq!(session.human_to_move(), Some(Color::White));
    }

    #[test]
    fn after_an_undo_the_bot_seated_afresh_answers_the_next_move() {
        let mut session = Session::<Ataxx>::new(&setup("human", "builtin:depth=4", None)).unwrap();
        session.update(0.0);
        assert!(session.play_human(Move::Clone("b6".parse().unwrap()), 0.0));
        session.update(0.0);
        assert!(session.undo(0.0));
        assert!(matches!(session.players[1], Player::Seating(_)));
        assert!(session.play_human(Move::Clone("a6".parse().unwrap()), 0.0));
        assert_eq!(session.thinking(), Some(Color::Black));
        run_until(&mut session, &mut 0.0, |s| s.moves().len() == 2);
        assert_eq!(session.moves()[0].to_string(), "a6");
        assert!(matches!(session.players[1], Player::Bot(_)));
    }

    #[test]
    fn a_person_out_of_time_loses_on_time() {
        let mut session = Session::<Ataxx>::new(&setup("human", "random", Some(0))).unwrap();
        // Zero seconds is untimed on the command line; build a tiny clock by hand.
        session.referee = Referee::new(
            Ataxx::start(None).unwrap(),
            crate::referee::Settings {
                time: Some(Duration::from_millis(1)),
                increment: Duration::ZERO,
                movetime: None,
                margin: crate::referee::DEFAULT_MARGIN,
            },
        );
        session.update(0.0);
        std::thread::sleep(Duration::from_millis(5));
        session.update(1.0);
        let result = session.result().expect("over");
        assert_eq!(result_line(result), "Black wins on time");
    }

    #[test]
    fn hints_are_legal_moves_of_the_current_position() {
        let mut session = Session::<Ataxx>::new(&setup("human", "human", None)).unwrap();
        session.ask_hint();
        let mut now = 0.0;
        run_until(&mut session, &mut now, |s| s.hint().is_some());
        let hint = session.hint().unwrap();
        assert!(session.position().is_legal(hint));
        assert!(session.play_human(hint, now));
        assert_eq!(session.hint(), None, "a hint belongs to its position");
        // Two people: undo takes back one ply.
        assert_eq!(session.undo_target(), Some(0));
    }

    /// A session of two people playing `G` from `position`, after `moves`.
    fn played<G: Evaluate>(position: &str, moves: &[&str]) -> Session<G> {
        let mut setup = setup("human", "human", None);
        setup.position = Some(position.to_owned());
        let mut session = Session::<G>::new(&setup).unwrap();
        for text in moves {
            let mv = session.position().parse_move(text).unwrap();
            assert!(session.play_human(mv, 0.0), "{text}");
        }
        session
    }

    #[test]
    fn each_game_ends_in_its_own_words() {
        use tavola_sdk::games::gonnect::Gonnect;
        use tavola_sdk::games::tablut::Tablut;

        let escape = "OOOOOOOOO/OKOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOTOOOO/OOOOOOOOO/OOOOOOOOO/\
                      OOOOOOOOO/OOOOOOOOB - W";
        let session = played::<Tablut>(escape, &["b2-b1"]);
        assert_eq!(
            session.result_line().as_deref(),
            Some("White wins: the king escaped")
        );
        let (headline, reason) = session.result_words().unwrap();
        assert_eq!(
            (headline.as_str(), reason.as_str()),
            ("White wins", "the king escaped")
        );

        let rows: Vec<&str> = (0..13)
            .map(|r| {
                if r == 6 {
                    "............."
                } else {
                    "......X......"
                }
            })
            .collect();
        let session = played::<Gonnect>(&format!("{} X 30", rows.join("/")), &["G7"]);
        assert_eq!(
            session.result_line().as_deref(),
            Some("Black wins: two opposite sides connected")
        );
        let going_on = played::<Gonnect>(&format!("{} X 30", rows.join("/")), &[]);
        assert_eq!(going_on.result_line(), None);

        let session = played::<Ataxx>("xo5/7/7/7/7/7/7 x 0 1", &["b6"]);
        assert_eq!(
            session.result_line().as_deref(),
            Some("White wins: Black has no pieces left")
        );
    }

    #[test]
    fn end_reasons_in_each_game_s_words() {
        let win = |color, reason| Outcome::win(color, reason);
        let draw = Outcome::draw;
        let cases = [
            (
                "tablut",
                win(Color::Black, EndReason::KingCaptured),
                "the king was captured",
            ),
            ("tablut", draw(EndReason::Repetition), "position repeated"),
            (
                "tablut",
                win(Color::White, EndReason::NoLegalMove),
                "Black cannot move",
            ),
            (
                "dama",
                draw(EndReason::Repetition),
                "the same position a third time",
            ),
            (
                "dama",
                draw(EndReason::MoveLimit),
                "80 plies without a capture or a man's move",
            ),
            (
                "dama",
                draw(EndReason::InsufficientMaterial),
                "too few kings left to win",
            ),
            (
                "dama",
                win(Color::White, EndReason::NoPieces),
                "Black has no pieces left",
            ),
            (
                "ataxx",
                draw(EndReason::MoveLimit),
                "100 plies without a clone",
            ),
            (
                "ataxx",
                win(Color::White, EndReason::BoardBlocked),
                "neither side can move: more pieces wins",
            ),
            (
                "ataxx",
                win(Color::White, EndReason::NoLegalMove),
                "Black cannot move: more pieces wins",
            ),
            (
                "gonnect",
                win(Color::White, EndReason::Connection),
                "two opposite sides connected",
            ),
        ];
        for (game, outcome, words) in cases {
            assert_eq!(end_reason(game, outcome, Color::Black), words, "{game}");
        }
    }

    #[test]
    fn results_read_as_words() {
        let result = GameResult {
            winner: Some(Color::White),
            termination: Termination::Normal,
            reason: "no pieces left".to_owned(),
        };
        assert_eq!(result_line(&result), "White wins: no pieces left");
        let draw = GameResult {
            winner: None,
            termination: Termination::Normal,
            reason: "move limit without progress".to_owned(),
        };
        assert_eq!(result_line(&draw), "Draw: move limit without progress");
    }
}
