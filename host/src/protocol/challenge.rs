//! The Tablut challenge protocol of the University of Bologna's TablutCompetition server, both
//! ways: its framing and its two messages.
//!
//! Every message, both ways, is a 4-byte big-endian length and then that many bytes of UTF-8
//! JSON. The player first sends its name as a JSON string (`"Tavola"`). The server then sends
//! the state to both players at the start and after every move:
//!
//! ```text
//! {"board":[["EMPTY","EMPTY","EMPTY","BLACK",...],...],"turn":"WHITE"}
//! ```
//!
//! nine rows of nine of `EMPTY`, `WHITE`, `BLACK`, `KING` and `THRONE` (the empty castle e5),
//! row 1 first and column a first in each row, as Tavola's own Tablut notation counts them, and
//! the turn `WHITE`, `BLACK`, `WHITEWIN`, `BLACKWIN` or `DRAW`. The side to move answers with
//! its action, `{"from":"e3","to":"h3","turn":"WHITE"}`. White plays on port 5800, Black on
//! 5801.

use std::fmt;
use std::io::{self, Read, Write};

use serde::{Deserialize, Serialize};
use tavola_sdk::games::tablut::{Cell, Move, Position as TablutPosition, Square, Tablut};
use tavola_sdk::{Color, Game, Position};

/// The server's port for White's player.
pub const WHITE_PORT: u16 = 5800;
/// The server's port for Black's player.
pub const BLACK_PORT: u16 = 5801;
/// The server's default time per move, in seconds (its `-t`).
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 60;
/// The longest message either side accepts. A state is 691 bytes, an action about 40.
pub const MAX_MESSAGE: usize = 64 << 10;

/// The port of `color`'s player.
#[must_use]
pub const fn port(color: Color) -> u16 {
    match color {
        Color::White => WHITE_PORT,
        Color::Black => BLACK_PORT,
    }
}

/// The role's name as the launch convention and the sample clients write it.
#[must_use]
pub const fn role(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Why a message could not be read.
#[derive(Debug)]
pub enum FrameError {
    /// The other side closed the connection (before a message began), or reset it there.
    Closed,
    /// Reading failed, or the connection ended inside a message.
    Io(io::Error),
    /// The announced length is above [`MAX_MESSAGE`] (or negative, as a Java `int`).
    TooLong(u32),
    /// The message is not UTF-8.
    NotUtf8,
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::Closed => f.write_str("closed the connection"),
            FrameError::Io(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                f.write_str("closed the connection in the middle of a message")
            }
            FrameError::Io(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                f.write_str("sent nothing in time")
            }
            FrameError::Io(e) => write!(f, "cannot be read: {e}"),
            FrameError::TooLong(n) if *n > i32::MAX as u32 => write!(
                f,
                "sent a negative message length ({}), not the 4-byte big-endian length of the protocol",
                *n as i32
            ),
            FrameError::TooLong(n) => write!(
                f,
                "announced a message of {n} bytes (at most {MAX_MESSAGE}): not the 4-byte big-endian length of the protocol"
            ),
            FrameError::NotUtf8 => f.write_str("sent a message that is not UTF-8"),
        }
    }
}

impl std::error::Error for FrameError {}

/// Writes one message: its length, big-endian, then its bytes.
///
/// # Errors
/// The write's.
pub fn write_message(out: &mut impl Write, text: &str) -> io::Result<()> {
    let length = u32::try_from(text.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "message too long"))?;
    let mut frame = Vec::with_capacity(4 + text.len());
    frame.extend_from_slice(&length.to_be_bytes());
    frame.extend_from_slice(text.as_bytes());
    out.write_all(&frame)?;
    out.flush()
}

/// Reads one message.
///
/// # Errors
/// A [`FrameError`].
pub fn read_message(input: &mut impl Read) -> Result<String, FrameError> {
    let mut head = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match input.read(&mut head[got..]) {
            Ok(0) if got == 0 => return Err(FrameError::Closed),
            Ok(0) => return Err(FrameError::Io(io::ErrorKind::UnexpectedEof.into())),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // A peer that closes with our message still unread resets the connection instead of
            // ending it: between messages, that is the same goodbye.
            Err(e) if got == 0 && e.kind() == io::ErrorKind::ConnectionReset => {
                return Err(FrameError::Closed)
            }
            Err(e) => return Err(FrameError::Io(e)),
        }
    }
    let length = u32::from_be_bytes(head);
    if usize::try_from(length).map_or(true, |n| n > MAX_MESSAGE) {
        return Err(FrameError::TooLong(length));
    }
    let mut body = vec![0u8; length as usize];
    input.read_exact(&mut body).map_err(FrameError::Io)?;
    String::from_utf8(body).map_err(|_| FrameError::NotUtf8)
}

/// The `turn` of a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Turn {
    /// White to move.
    White,
    /// Black to move.
    Black,
    /// White has won.
    WhiteWin,
    /// Black has won.
    BlackWin,
    /// A draw.
    Draw,
}

impl Turn {
    /// The turn of a game not over, `color` to move.
    #[must_use]
    pub const fn to_move(color: Color) -> Turn {
        match color {
            Color::White => Turn::White,
            Color::Black => Turn::Black,
        }
    }

    /// The turn of a finished game: `winner`'s win, or a draw.
    #[must_use]
    pub const fn over(winner: Option<Color>) -> Turn {
        match winner {
            Some(Color::White) => Turn::WhiteWin,
            Some(Color::Black) => Turn::BlackWin,
            None => Turn::Draw,
        }
    }

    /// The side to move, `None` once the game is over.
    #[must_use]
    pub const fn side(self) -> Option<Color> {
        match self {
            Turn::White => Some(Color::White),
            Turn::Black => Some(Color::Black),
            _ => None,
        }
    }
}

/// The name of what stands on a square, as the server writes it.
fn cell_name(square: Square, cell: Cell) -> &'static str {
    match cell {
        Cell::Empty if square.is_castle() => "THRONE",
        Cell::Empty => "EMPTY",
        Cell::White => "WHITE",
        Cell::Black => "BLACK",
        Cell::King => "KING",
    }
}

/// The state message of `position` with `turn`, byte for byte as the server writes it.
#[must_use]
pub fn state_json(position: &TablutPosition, turn: Turn) -> String {
    let rows: Vec<Vec<&str>> = (0..9u8)
        .map(|row| {
            (0..9u8)
                .map(|column| {
                    let square = Square::from_coords(column, row).expect("a square of the board");
                    cell_name(square, position.cell(square))
                })
                .collect()
        })
        .collect();
    #[derive(Serialize)]
    struct State<'a> {
        board: Vec<Vec<&'a str>>,
        turn: Turn,
    }
    serde_json::to_string(&State { board: rows, turn }).expect("a state serialises")
}

/// The state message of a game: `turn` is the side to move's, or the result once it is over.
#[must_use]
pub fn game_state_json(position: &TablutPosition, winner: Option<Option<Color>>) -> String {
    let turn = match winner {
        Some(winner) => Turn::over(winner),
        None => Turn::to_move(position.side_to_move()),
    };
    state_json(position, turn)
}

/// Reads a state message into a position (with no history) and its turn.
///
/// # Errors
/// One line saying what is wrong with `text`.
pub fn parse_state(text: &str) -> Result<(TablutPosition, Turn), String> {
    #[derive(Deserialize)]
    struct State {
        board: Vec<Vec<String>>,
        turn: Turn,
    }
    let state: State =
        serde_json::from_str(text).map_err(|e| format!("not a state message: {e}"))?;
    if state.board.len() != 9 || state.board.iter().any(|row| row.len() != 9) {
        return Err("the board is not 9 rows of 9 squares".to_owned());
    }
    let mut rows = Vec::with_capacity(9);
    for row in &state.board {
        let mut letters = String::with_capacity(9);
        for cell in row {
            letters.push(match cell.as_str() {
                "EMPTY" => 'O',
                "WHITE" => 'W',
                "BLACK" => 'B',
                "KING" => 'K',
                "THRONE" => 'T',
                other => return Err(format!("unknown square {other:?}")),
            });
        }
        rows.push(letters);
    }
    // The side to move of a finished game does not matter; White is as good as any.
    let side = match state.turn.side() {
        Some(Color::Black) => 'B',
        _ => 'W',
    };
    let position_text = format!("{} - {side}", rows.join("/"));
    let position = Tablut::parse_position(&position_text, None)
        .map_err(|e| format!("not a Tablut position: {e}"))?;
    Ok((position, state.turn))
}

/// An action message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    /// The square the piece leaves, such as `e3`.
    pub from: String,
    /// The square it goes to.
    pub to: String,
    /// The side that moves (the server ignores it and takes the side to move).
    #[serde(default)]
    pub turn: Option<String>,
}

/// The action message of `mv`, played by `color`.
#[must_use]
pub fn action_json(mv: Move, color: Color) -> String {
    let action = Action {
        from: mv.from.to_string(),
        to: mv.to.to_string(),
        turn: Some(role(color).to_uppercase()),
    };
    serde_json::to_string(&action).expect("an action serialises")
}

/// Reads an action message into Tavola's move text (`e3-h3`), which the referee then judges.
///
/// # Errors
/// One line saying what is wrong with `text`.
pub fn parse_action(text: &str) -> Result<String, String> {
    let action: Action =
        serde_json::from_str(text).map_err(|e| format!("not an action message: {e}"))?;
    let square = |name: &str| -> Result<String, String> {
        let name = name.trim();
        name.parse::<Square>()
            .map(|s| s.to_string())
            .map_err(|_| format!("{name:?} is not a square"))
    };
    Ok(format!("{}-{}", square(&action.from)?, square(&action.to)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_state_is_the_servers_byte_for_byte() {
        let start = Tablut::start(None).unwrap();
        let json = state_json(&start, Turn::White);
        assert_eq!(json.len(), 691);
        assert!(json.starts_with(
            r#"{"board":[["EMPTY","EMPTY","EMPTY","BLACK","BLACK","BLACK","EMPTY","EMPTY","EMPTY"],["EMPTY","EMPTY","EMPTY","EMPTY","BLACK","#
        ));
        assert!(json.contains(
            r#"["BLACK","BLACK","WHITE","WHITE","KING","WHITE","WHITE","BLACK","BLACK"]"#
        ));
        assert!(json.ends_with(r#"]],"turn":"WHITE"}"#));
        let (back, turn) = parse_state(&json).unwrap();
        assert_eq!((back.to_string(), turn), (start.to_string(), Turn::White));
    }

    #[test]
    fn an_empty_castle_is_the_throne() {
        let mut board = TablutPosition::start();
        board.set_cell(Square::CASTLE, Cell::Empty);
        board.set_cell("e4".parse().unwrap(), Cell::King);
        board.set_cell("d4".parse().unwrap(), Cell::White);
        let json = state_json(&board, Turn::over(Some(Color::Black)));
        assert!(json.contains(r#""WHITE","THRONE","WHITE""#), "{json}");
        assert!(json.ends_with(r#""turn":"BLACKWIN"}"#));
        let (back, turn) = parse_state(&json).unwrap();
        assert_eq!(back.cell(Square::CASTLE), Cell::Empty);
        assert_eq!(turn, Turn::BlackWin);
    }

    #[test]
    fn actions_both_ways() {
        let mv: Move = "e3-h3".parse().unwrap();
        let json = action_json(mv, Color::White);
        assert_eq!(json, r#"{"from":"e3","to":"h3","turn":"WHITE"}"#);
        assert_eq!(parse_action(&json).unwrap(), "e3-h3");
        assert_eq!(parse_action(r#"{"from":"E3","to":"h3"}"#).unwrap(), "e3-h3");
        assert!(parse_action(r#"{"from":"z9","to":"h3"}"#)
            .unwrap_err()
            .contains("\"z9\""));
        assert!(parse_action("hello")
            .unwrap_err()
            .starts_with("not an action"));
    }

    #[test]
    fn frames_carry_a_big_endian_length() {
        let mut wire = Vec::new();
        write_message(&mut wire, "\"Tavola\"").unwrap();
        assert_eq!(&wire[..4], &[0, 0, 0, 8]);
        assert_eq!(read_message(&mut wire.as_slice()).unwrap(), "\"Tavola\"");
        assert!(matches!(
            read_message(&mut &[][..]),
            Err(FrameError::Closed)
        ));
        let little_endian = [8u8, 0, 0, 0];
        let err = read_message(&mut &little_endian[..]).unwrap_err();
        assert!(err.to_string().contains("134217728 bytes"), "{err}");
        let cut = [0u8, 0, 0, 8, b'"'];
        let err = read_message(&mut &cut[..]).unwrap_err();
        assert!(err.to_string().contains("middle of a message"), "{err}");
        let negative = [0xffu8, 0xff, 0xff, 0xfe];
        assert!(read_message(&mut &negative[..])
            .unwrap_err()
            .to_string()
            .contains("negative"));
    }

    #[test]
    fn a_peer_that_leaves_with_a_message_unread_has_closed_the_connection() {
        use std::net::{TcpListener, TcpStream};
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut near = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (far, _) = listener.accept().unwrap();
        write_message(&mut near, "\"state\"").unwrap();
        // The far side sees the message arrive, then closes without reading it: a reset.
        let mut byte = [0u8; 1];
        assert_eq!(far.peek(&mut byte).unwrap(), 1);
        drop(far);
        assert!(matches!(read_message(&mut near), Err(FrameError::Closed)));
    }

    #[test]
    fn bad_states_are_refused_in_one_line() {
        assert!(parse_state("{}").is_err());
        let start = state_json(&Tablut::start(None).unwrap(), Turn::White);
        let two_kings = start.replacen("\"EMPTY\"", "\"KING\"", 1);
        assert!(parse_state(&two_kings)
            .unwrap_err()
            .starts_with("not a Tablut position"));
        let odd = start.replacen("\"EMPTY\"", "\"QUEEN\"", 1);
        assert_eq!(parse_state(&odd).unwrap_err(), "unknown square \"QUEEN\"");
    }
}
