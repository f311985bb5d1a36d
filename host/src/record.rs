//! Game records: one PGN-style text format for every game, written and read.
//!
//! ```text
//! [Game "ataxx"]
//! [Variant "standard"]
//! [White "random"]
//! [Black "greedy"]
//! [Result "0-1"]
//! [Termination "normal"]
//!
//! 1. g1e2 {[%clk 0:01:59.998]} b1 {[%clk 0:01:59.999]} 2. e2g2 c1 0-1
//! ```
//!
//! Tag pairs first (`[FEN]` only when the game did not start from the variant's start), then the
//! moves in the game's own notation, numbered by pairs of plies, each optionally followed by the
//! mover's clock, and the result. A file may hold many games, one after another. Readers also take
//! `12.b6` and `12...b6`.

use std::fmt::{self, Write as _};
use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use anyhow::Context as _;

use tavola_sdk::{Game, ParseMoveError, ParsePositionError, Position};
use thiserror::Error;

/// One recorded move: its notation and the mover's clock after it, when timed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedMove {
    /// The move in the game's notation.
    pub text: String,
    /// Time left on the mover's clock after the move.
    pub clock: Option<Duration>,
}

/// Whether `token` is a game's result as a record writes it.
fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// A game record: tags, moves, result.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// Tag pairs, in order.
    pub tags: Vec<(String, String)>,
    /// The moves.
    pub moves: Vec<RecordedMove>,
    /// `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"` for an unfinished game.
    pub result: String,
}

/// The error of reading a record.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordError {
    /// The text is not a record.
    #[error("line {line}: {reason}")]
    Syntax {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A required tag is missing.
    #[error("the record has no [{0}] tag")]
    MissingTag(&'static str),
    /// The record is of another game.
    #[error("the record is a game of {found}, not {expected}")]
    WrongGame {
        /// The game asked for.
        expected: &'static str,
        /// The record's `[Game]` tag.
        found: String,
    },
    /// The start position does not parse.
    #[error("bad [FEN] tag: {0}")]
    Position(#[from] ParsePositionError),
    /// A move is not legal where it stands.
    #[error("move {ply} ({text:?}): {error}")]
    Move {
        /// The ply, from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        error: ParseMoveError,
    },
}

impl GameRecord {
    /// The value of tag `name`, if present.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing an earlier value or appending it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some((_, v)) => *v = value,
            None => self.tags.push((name.to_owned(), value)),
        }
    }

    /// Reads every game in `text`.
    ///
    /// # Errors
    /// [`RecordError::Syntax`] naming the line.
    pub fn parse_all(text: &str) -> Result<Vec<GameRecord>, RecordError> {
        let mut records = Vec::new();
        let mut current: Option<GameRecord> = None;
        let mut in_moves = false;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('%') {
                continue;
            }
            if line.starts_with('[') {
                if in_moves {
                    records.extend(current.take());
                    in_moves = false;
                }
                let (name, value) = parse_tag(line).ok_or_else(|| RecordError::Syntax {
                    line: number,
                    reason: format!("expected a tag like [Name \"value\"], found {line:?}"),
                })?;
                current
                    .get_or_insert_with(GameRecord::default)
                    .tags
                    .push((name, value));
            } else {
                in_moves = true;
                let record = current.get_or_insert_with(GameRecord::default);
                parse_movetext(line, record).map_err(|reason| RecordError::Syntax {
                    line: number,
                    reason,
                })?;
            }
        }
        records.extend(current);
        for record in &mut records {
            if record.result.is_empty() {
                // The tag's value, if it is a result (it ends the movetext when written).
                record.result = record
                    .tag("Result")
                    .filter(|r| is_result(r))
                    .unwrap_or("*")
                    .to_owned();
            }
        }
        Ok(records)
    }

    /// Replays the record under the rules of `G`: the start position, and the moves checked one by
    /// one.
    ///
    /// # Errors
    /// A [`RecordError`] naming the tag or the move that is wrong.
    pub fn replay<G: Game>(&self) -> Result<(G::Position, Vec<G::Move>), RecordError> {
        let game = self.tag("Game").ok_or(RecordError::MissingTag("Game"))?;
        if !game.eq_ignore_ascii_case(G::NAME) {
            return Err(RecordError::WrongGame {
                expected: G::NAME,
                found: game.to_owned(),
            });
        }
        let variant = self.tag("Variant");
        let start = match self.tag("FEN") {
            Some(text) => G::parse_position(text, variant)?,
            None => G::start(variant).map_err(ParsePositionError::from)?,
        };
        let mut position = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (index, recorded) in self.moves.iter().enumerate() {
            let mv = position
                .parse_move(&recorded.text)
                .map_err(|error| RecordError::Move {
                    ply: index + 1,
                    text: recorded.text.clone(),
                    error,
                })?;
            position.play_unchecked(mv);
            moves.push(mv);
        }
        Ok((start, moves))
    }
}

/// Appends `record` to the file at `path`, creating it if needed; games in one file are
/// separated by a blank line.
///
/// # Errors
/// The file cannot be opened or written (the message names it).
pub fn append_to_file(path: &Path, record: &GameRecord) -> anyhow::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {} to save the game", path.display()))?;
    let separator = if file.metadata().map(|m| m.len() > 0).unwrap_or(false) {
        "\n"
    } else {
        ""
    };
    write!(file, "{separator}{record}")
        .with_context(|| format!("writing the game to {}", path.display()))
}

/// The last game recorded in the file at `path`.
///
/// # Errors
/// The file cannot be read, is not a record ([`RecordError::Syntax`]), or holds no game (the
/// message names the file).
pub fn last_in_file(path: &Path) -> anyhow::Result<GameRecord> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the game record {}", path.display()))?;
    GameRecord::parse_all(&text)
        .with_context(|| format!("reading the game record {}", path.display()))?
        .pop()
        .with_context(|| format!("{} holds no game", path.display()))
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next()? } else { c });
    }
    Some((name.to_owned(), value))
}

fn parse_movetext(line: &str, record: &mut GameRecord) -> Result<(), String> {
    let mut rest = line;
    loop {
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else {
            return Ok(());
        };
        if first == '{' {
            let end = rest
                .find('}')
                .ok_or_else(|| format!("unclosed comment in {line:?}"))?;
            let comment = &rest[1..end];
            if let (Some(clock), Some(last)) = (parse_clock(comment), record.moves.last_mut()) {
                last.clock = Some(clock);
            }
            rest = &rest[end + 1..];
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let token = &rest[..end];
        rest = &rest[end..];
        if is_result(token) {
            record.result = token.to_owned();
        } else if token
            .trim_end_matches('.')
            .chars()
            .all(|c| c.is_ascii_digit())
            && token.ends_with('.')
        {
            // A move number.
        } else if let Some((number, mv)) = token.split_once('.') {
            // `12.b6` or `12...b6`: a number glued to its move.
            let mv = mv.trim_start_matches('.');
            if !number.chars().all(|c| c.is_ascii_digit()) {
                return Err(format!("unexpected {token:?}"));
            }
            if is_result(mv) {
                // `18.1-0`: a number glued to the result.
                record.result = mv.to_owned();
                continue;
            }
            if !could_be_move(mv) {
                return Err(format!("unexpected {token:?}"));
            }
            record.moves.push(RecordedMove {
                text: mv.to_owned(),
                clock: None,
            });
        } else if !could_be_move(token) {
            return Err(format!("unexpected {token:?}"));
        } else {
            record.moves.push(RecordedMove {
                text: token.to_owned(),
                clock: None,
            });
        }
    }
}

/// Whether `token` may be a move in some game's notation (which the replay then checks): every
/// notation writes a move as printable ASCII without the record's own marks (`.` of move numbers,
/// brackets of tags, braces of comments, `%` of escapes, quotes), so a move is written back as
/// the same token, wherever it falls on a line.
fn could_be_move(token: &str) -> bool {
    !token.is_empty()
        && token
            .chars()
            .all(|c| c.is_ascii_graphic() && !"[]{}()<>.;%\"".contains(c))
}

/// Reads `[%clk H:MM:SS(.mmm)]` inside a comment.
fn parse_clock(comment: &str) -> Option<Duration> {
    let start = comment.find("[%clk ")? + "[%clk ".len();
    let end = start + comment[start..].find(']')?;
    let mut seconds = 0.0;
    for part in comment[start..end].trim().split(':') {
        seconds = seconds * 60.0 + part.parse::<f64>().ok()?;
    }
    Duration::try_from_secs_f64(seconds).ok()
}

fn write_clock(out: &mut String, clock: Duration) {
    let millis = clock.as_millis();
    let _ = write!(
        out,
        "{{[%clk {}:{:02}:{:02}.{:03}]}}",
        millis / 3_600_000,
        millis / 60_000 % 60,
        millis / 1000 % 60,
        millis % 1000
    );
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            // One line per tag: a bot's multi-line panic message must not break the record.
            let one_line: String = value
                .chars()
                .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
                .collect();
            let escaped = one_line.replace('\\', "\\\\").replace('"', "\\\"");
            writeln!(f, "[{name} \"{escaped}\"]")?;
        }
        writeln!(f)?;
        // Lines of at most about 80 characters, as PGN readers expect.
        let mut line = String::new();
        let flush = |line: &mut String, token: &str, f: &mut fmt::Formatter<'_>| {
            if !line.is_empty() && line.len() + 1 + token.len() > 79 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(token);
            Ok::<(), fmt::Error>(())
        };
        // Numbered by pairs of plies from the record's start, whoever moves first.
        for (index, mv) in self.moves.iter().enumerate() {
            if index % 2 == 0 {
                flush(&mut line, &format!("{}.", index / 2 + 1), f)?;
            }
            flush(&mut line, &mv.text, f)?;
            if let Some(clock) = mv.clock {
                let mut text = String::new();
                write_clock(&mut text, clock);
                flush(&mut line, &text, f)?;
            }
        }
        let result = if self.result.is_empty() {
            "*"
        } else {
            &self.result
        };
        flush(&mut line, result, f)?;
        writeln!(f, "{line}")
    }
}

#[cfg(test)]
mod tests {
    use tavola_sdk::games::ataxx::Ataxx;

    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            tags: vec![
                ("Game".into(), "ataxx".into()),
                ("Variant".into(), "standard".into()),
                ("White".into(), "the \"best\" bot".into()),
                ("Black".into(), "C:\\bots\\b.dll".into()),
                ("Result".into(), "0-1".into()),
                ("Termination".into(), "normal".into()),
            ],
            moves: ["g1e2", "b1", "e2g2", "c1", "a7c6"]
                .iter()
                .enumerate()
                .map(|(i, m)| RecordedMove {
                    text: (*m).to_owned(),
                    clock: (i % 2 == 0).then(|| Duration::from_millis(119_998 - i as u64)),
                })
                .collect(),
            result: "0-1".into(),
        }
    }

    #[test]
    fn records_round_trip_through_text() {
        let record = sample();
        let text = record.to_string();
        assert!(
            text.contains("1. g1e2 {[%clk 0:01:59.998]} b1 2. e2g2"),
            "{text}"
        );
        assert!(text.trim_end().ends_with("0-1"), "{text}");
        assert_eq!(GameRecord::parse_all(&text), Ok(vec![record]));
    }

    #[test]
    fn a_multi_line_tag_is_written_on_one_line_and_a_bom_is_skipped() {
        let mut record = sample();
        record.set_tag(
            "Reason",
            "White panicked: assertion failed\n  left: 1\n right: 2",
        );
        let text = format!("\u{feff}{record}");
        let parsed = GameRecord::parse_all(&text).unwrap();
        assert_eq!(parsed.len(), 1);
        assert_eq!(
            parsed[0].tag("Reason"),
            Some("White panicked: assertion failed   left: 1  right: 2")
        );
    }

    #[test]
    fn many_games_in_one_file() {
        let text = format!("{}\n{}", sample(), sample());
        assert_eq!(GameRecord::parse_all(&text).unwrap().len(), 2);
    }

    #[test]
    fn replay_checks_every_move() {
        let (start, moves) = sample().replay::<Ataxx>().unwrap();
        assert_eq!(start.to_string(), "x5o/7/7/7/7/7/o5x x 0 1");
        assert_eq!(moves.len(), 5);

        let mut bad = sample();
        bad.moves[2].text = "a1a1".into();
        let error = bad.replay::<Ataxx>().unwrap_err();
        assert!(
            error.to_string().starts_with("move 3 (\"a1a1\")"),
            "{error}"
        );

        bad.set_tag("Game", "chess");
        assert!(matches!(
            bad.replay::<Ataxx>(),
            Err(RecordError::WrongGame { .. })
        ));
    }

    #[test]
    fn glued_numbers_and_black_first() {
        let text = "[Game \"ataxx\"]\n[FEN \"x5o/7/7/7/7/7/o5x o 0 1\"]\n\n1...f6 2.b6 *\n";
        let records = GameRecord::parse_all(text).unwrap();
        let moves: Vec<&str> = records[0].moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["f6", "b6"]);
        assert_eq!(records[0].result, "*");
        // A Result tag that is no result is not taken as one (found by the fuzz target
        // `records`: it was written at the end of the moves, and read back as a move).
        let odd =
            GameRecord::parse_all("[Game \"ataxx\"]\n[Result \".M10-1\"]\n\n1. b6 *\n").unwrap();
        assert_eq!(odd[0].result, "*");
        let odd =
            GameRecord::parse_all("[Game \"ataxx\"]\n[Result \".M10-1\"]\n\n1. b6\n").unwrap();
        assert_eq!(odd[0].result, "*");
        let again = GameRecord::parse_all(&odd[0].to_string()).unwrap();
        assert_eq!(again[0].to_string(), odd[0].to_string());
        // Nor is a control character a move (also found by `records`).
        let err = GameRecord::parse_all("[Game \"ataxx\"]\n\n1. b6 37.\u{1}\0x.\n").unwrap_err();
        assert!(err.to_string().contains("unexpected"), "{err}");
        assert!(GameRecord::parse_all("[Game \"ataxx\"]\n\n1. b6 \u{7}\n").is_err());
        // A result glued to a move number is the result (found by `records` too).
        let glued = GameRecord::parse_all("[Game \"ataxx\"]\n\n1. b6 2.1-0\n").unwrap();
        assert_eq!((glued[0].moves.len(), glued[0].result.as_str()), (1, "1-0"));
        // Nor a tag's bracket in the moves (a tag written there would start a line when wrapped).
        assert!(GameRecord::parse_all("[Game \"ataxx\"]\n\n1. b6 [Game \"ataxx\"]\n").is_err());
        assert!(records[0].replay::<Ataxx>().is_ok());
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let error = GameRecord::parse_all("[Game \"ataxx\"]\n[Broken\n").unwrap_err();
        assert_eq!(
            error,
            RecordError::Syntax {
                line: 2,
                reason: "expected a tag like [Name \"value\"], found \"[Broken\"".into()
            }
        );
        assert!(GameRecord::parse_all("1. b6 {unclosed").is_err());
    }
}
