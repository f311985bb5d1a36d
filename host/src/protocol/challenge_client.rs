//! `tavola challenge`: a Tavola player (the built-in bot, `random`, a plugin in its worker, an
//! outside engine) as a client of the Tablut challenge server, playing one game.
//!
//! The client follows the game from the states the server sends: each new state is matched to
//! the one legal move that leads to it from the last, so the player sees the whole game (the
//! repetition rule needs it). A state that no move explains starts the game afresh from it.
//! The player's time per move is the server's timeout less a safety margin; a player that gives
//! no usable move in time (it crashed, erred, or ran over) is replaced for that move by a random
//! legal one, with a warning, rather than lose the game to the server's timeout.

use std::io::Write;
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context as _};
use rand::seq::SliceRandom as _;
use rand::SeedableRng as _;
use tavola_sdk::games::tablut::{Move, Position as TablutPosition, Tablut};
use tavola_sdk::{Color, Position};

use super::challenge::{self as wire, FrameError, Turn};
use crate::referee::DEFAULT_MARGIN;
use crate::seat::{self, Request, Seat};

/// How the client connects and plays.
#[derive(Debug, Clone)]
pub struct ClientSetup {
    /// The server's host name or address.
    pub server: String,
    /// Its port (5800 for White, 5801 for Black on the real server).
    pub port: u16,
    /// The colour to play.
    pub color: Color,
    /// The name declared to the server.
    pub name: String,
    /// The server's time per move.
    pub timeout: Duration,
    /// How much of it the player leaves unused, for the network and the server's own timing.
    pub safety: Duration,
    /// The seed of the fallback moves.
    pub seed: u64,
}

impl ClientSetup {
    /// The time per move the player is given: the timeout less the safety margin, at least
    /// half the timeout.
    #[must_use]
    pub fn movetime(&self) -> Duration {
        self.timeout
            .saturating_sub(self.safety)
            .max(self.timeout / 2)
    }
}

/// How a game on the server ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The server sent the final state: the winner (`None` for a draw).
    Over(Option<Color>),
    /// The server closed the connection without a final state (its way of ending a game lost
    /// on time).
    Closed,
}

/// The game as the client follows it.
#[derive(Clone)]
struct Followed {
    start: TablutPosition,
    moves: Vec<Move>,
    position: TablutPosition,
}

impl Followed {
    fn new(position: TablutPosition) -> Followed {
        Followed {
            start: position.clone(),
            moves: Vec::new(),
            position,
        }
    }

    /// Brings the game to the server's `board` (with its side to move, unless `over`: a final
    /// state names no side): by the one legal move leading there, or afresh. Says which move was
    /// played, if one was.
    fn follow(&mut self, board: &TablutPosition, over: bool) -> Result<Option<Move>, ()> {
        // The hash counts the side to move: a final state's board takes the candidate's.
        let same = |a: &TablutPosition, b: &TablutPosition| {
            if over && a.side_to_move() != b.side_to_move() {
                let mut turned = b.clone();
                turned.set_side_to_move(a.side_to_move());
                a.zobrist() == turned.zobrist()
            } else {
                a.zobrist() == b.zobrist() && a.side_to_move() == b.side_to_move()
            }
        };
        if same(&self.position, board) {
            return Ok(None);
        }
        for mv in self.position.legal_moves() {
            let mut next = self.position.clone();
            next.play_unchecked(mv);
            if same(&next, board) {
                self.position = next;
                self.moves.push(mv);
                return Ok(Some(mv));
            }
        }
        *self = Followed::new(board.clone());
        Err(())
    }
}

/// Connects to the server, declares the name, and plays one game with `seat`, printing what
/// happens to `out`.
///
/// # Errors
/// No connection, a server that breaks the protocol, or a failed write to `out`.
pub fn play(
    setup: &ClientSetup,
    mut make_seat: impl FnMut() -> anyhow::Result<Seat<Tablut>>,
    out: &mut impl Write,
) -> anyhow::Result<Ending> {
    let mut seat = make_seat()?;
    let address = format!("{}:{}", setup.server, setup.port);
    let target = address
        .to_socket_addrs()
        .with_context(|| format!("cannot find the challenge server {address}"))?
        .next()
        .ok_or_else(|| anyhow!("cannot find the challenge server {address}"))?;
    let mut stream = TcpStream::connect_timeout(&target, Duration::from_secs(10))
        .with_context(|| format!("cannot connect to the challenge server at {address}"))?;
    let _ = stream.set_nodelay(true);
    let name = serde_json::to_string(&setup.name).expect("a string serialises");
    wire::write_message(&mut stream, &name)
        .with_context(|| format!("cannot send the name to {address}"))?;
    writeln!(
        out,
        "Connected to {address} as {} ({}); {} s a move, {} ms of it for the player",
        wire::role(setup.color),
        setup.name,
        setup.timeout.as_secs_f64(),
        setup.movetime().as_millis()
    )?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(setup.seed);
    let mut game: Option<Followed> = None;
    loop {
        let text = match wire::read_message(&mut stream) {
            Ok(text) => text,
            Err(FrameError::Closed) => {
                writeln!(
                    out,
                    "The server closed the connection without a result (it does so when a player runs out of time)"
                )?;
                return Ok(Ending::Closed);
            }
            Err(e) => bail!("the challenge server at {address} {e}"),
        };
        let (board, turn) = wire::parse_state(&text)
            .map_err(|why| anyhow!("the challenge server at {address} sent a bad state ({why})"))?;
        match game.as_mut() {
            None => game = Some(Followed::new(board.clone())),
            Some(followed) => match followed.follow(&board, turn.side().is_none()) {
                Ok(Some(mv)) => {
                    let mover = followed.position.side_to_move().other();
                    if mover != setup.color {
                        writeln!(out, "{mover} played {mv}")?;
                    }
                }
                Ok(None) => {}
                Err(()) => writeln!(
                    out,
                    "warning: the server's state follows from the last by no legal move; going on from it"
                )?,
            },
        }
        let followed = game.as_mut().expect("set above");
        let Some(side) = turn.side() else {
            let winner = match turn {
                Turn::WhiteWin => Some(Color::White),
                Turn::BlackWin => Some(Color::Black),
                _ => None,
            };
            let verdict = match winner {
                Some(color) if color == setup.color => format!("{color} wins: {} won", setup.name),
                Some(color) => format!("{color} wins: {} lost", setup.name),
                None => "a draw".to_owned(),
            };
            writeln!(
                out,
                "Result: {verdict} ({} moves seen)",
                followed.moves.len()
            )?;
            return Ok(Ending::Over(winner));
        };
        if side != setup.color {
            continue;
        }
        if followed.position.side_to_move() != side {
            // The state says it is our turn but the board follows otherwise: trust the server.
            let mut position = board.clone();
            position.set_side_to_move(side);
            *followed = Followed::new(position);
        }
        let (mv, lost) = choose(&mut seat, followed, setup, &mut rng, out)?;
        if lost {
            // A player abandoned past its time answers no more: a fresh one for the next move.
            seat = make_seat()?;
        }
        writeln!(out, "{} played {mv}", setup.color)?;
        wire::write_message(&mut stream, &wire::action_json(mv, setup.color))
            .with_context(|| format!("cannot send the move to {address}"))?;
    }
}

/// The player's move in the followed game, or a random legal one if it gives none in time (by
/// the wall clock, as the server counts); says too whether the player was lost.
fn choose(
    seat: &mut Seat<Tablut>,
    followed: &Followed,
    setup: &ClientSetup,
    rng: &mut rand::rngs::StdRng,
    out: &mut impl Write,
) -> anyhow::Result<(Move, bool)> {
    let movetime = setup.movetime();
    let mut clocks = seat::clocks(None, None, 0);
    clocks.movetime_ms = Some(u64::try_from(movetime.as_millis()).unwrap_or(u64::MAX)).into();
    seat.request(Request::new(
        followed.start.to_string(),
        followed.moves.clone(),
        followed.position.clone(),
        clocks,
    ));
    let started = Instant::now();
    let answer = loop {
        if let Some(answer) = seat.poll() {
            break Some(answer);
        }
        let elapsed = started.elapsed();
        if elapsed >= movetime {
            seat.stop();
        }
        if elapsed >= movetime + DEFAULT_MARGIN {
            break None;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let lost = !matches!(answer, Some(Ok(_)));
    let why = match answer {
        Some(Ok(text)) => match followed.position.parse_move(text.trim()) {
            Ok(mv) => return Ok((mv, false)),
            Err(e) => format!("answered {text:?}: {e}"),
        },
        Some(Err(failure)) => failure.to_string(),
        None => "gave no move in time".to_owned(),
    };
    let legal = followed.position.legal_moves();
    let mv = *legal
        .choose(rng)
        .ok_or_else(|| anyhow!("no legal move in {}", followed.position))?;
    writeln!(
        out,
        "warning: the player {} {why}; a random legal move instead",
        seat.name()
    )?;
    Ok((mv, lost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tavola_sdk::Game;

    #[test]
    fn the_game_is_followed_move_by_move() {
        let start = Tablut::start(None).unwrap();
        let mut followed = Followed::new(start.clone());
        let mut next = start.clone();
        let mv: Move = "e3-f3".parse().unwrap();
        next.play(mv).unwrap();
        let (board, _) = wire::parse_state(&wire::state_json(&next, Turn::Black)).unwrap();
        assert_eq!(followed.follow(&board, false), Ok(Some(mv)));
        assert_eq!(crate::seat::moves_text::<Tablut>(&followed.moves), "e3-f3");
        assert_eq!(followed.follow(&board, false), Ok(None));
        // A final state after White's move (the side its board says is White's, not Black's).
        let (after_white, _) = wire::parse_state(&wire::state_json(&next, Turn::WhiteWin)).unwrap();
        assert_eq!(
            Followed::new(start.clone()).follow(&after_white, true),
            Ok(Some(mv))
        );
        // A final state names no side to move: the board is enough.
        let mut last = next.clone();
        let reply: Move = "d1-d3".parse().unwrap();
        last.play(reply).unwrap();
        let (board, _) = wire::parse_state(&wire::state_json(&last, Turn::Draw)).unwrap();
        assert_eq!(followed.clone().follow(&board, true), Ok(Some(reply)));
        // A board no move explains: afresh.
        let (far, _) = wire::parse_state(&wire::state_json(&start, Turn::Black)).unwrap();
        assert_eq!(followed.follow(&far, false), Err(()));
        assert!(followed.moves.is_empty());
    }

    #[test]
    fn the_player_keeps_a_margin() {
        let setup = ClientSetup {
            server: "localhost".into(),
            port: 5800,
            color: Color::White,
            name: "x".into(),
            timeout: Duration::from_secs(60),
            safety: Duration::from_secs(1),
            seed: 0,
        };
        assert_eq!(setup.movetime(), Duration::from_secs(59));
        let short = ClientSetup {
            timeout: Duration::from_secs(1),
            ..setup
        };
        assert_eq!(short.movetime(), Duration::from_millis(500));
    }
}
