//! `tavola menu`: a numbered menu in the terminal, as the Dama exam asks for, for every game.
//!
//! The board is always shown, drawn with `-`, `+` and `|`; under it the menu, chosen by typing a
//! number and Enter:
//!
//! ```text
//! 1. Start a new game
//! 2. Make a move
//! 3. Find the best move
//! 4. End the current game
//! 5. Exit
//! ```
//!
//! 2, 3 and 4 wait for a game. "Make a move" lists the pieces that can move, then the moves of
//! the chosen piece (0 chooses another piece); in Gonnect, where nothing moves, it asks for a
//! point. The opponent (random unless told otherwise) answers at once. "Find the best move" scores
//! every move by a look-ahead search of the built-in bot and shows the best with its expected
//! value (in pieces, for the side to move) and the next best alternatives. With `--matrix` the
//! board is also printed as a matrix of integers (Dama: 0 empty, 1 white man, 2 white king,
//! 3 black man, 4 black king; the other games likewise, see [`MenuGame::INTEGERS`]).

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

use tavola_sdk::games::ataxx::{self, Ataxx};
use tavola_sdk::games::dama::{self, Dama};
use tavola_sdk::games::gonnect::{self, Gonnect};
use tavola_sdk::games::tablut::{self, Tablut};
use tavola_sdk::{Color, Game, Position};

use crate::builtin::search::{Limits, Score, Searcher};
use crate::builtin::Evaluate;
use crate::referee::Settings;
use crate::seat::{self, Request, Seat, SeatSpec, Wait};
use crate::text_ui::{seat_for, GameSetup};

/// A board drawn in characters: rows top first, each cell a few characters wide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// The cells, row by row from the top.
    pub cells: Vec<Vec<String>>,
    /// The label over each column.
    pub columns: Vec<String>,
    /// The label left of each row.
    pub rows: Vec<String>,
}

/// What the menu needs of a game beyond the SDK's rules.
pub trait MenuGame: Evaluate {
    /// What the integers of [`MenuGame::integers`] mean.
    const INTEGERS: &'static str;
    /// How deep "Find the best move" looks by default.
    const DEPTH: u32;

    /// The board, for people.
    fn grid(position: &Self::Position) -> Grid;

    /// The board as a matrix of integers, rows top first.
    fn integers(position: &Self::Position) -> Vec<Vec<u8>>;

    /// The squares of the pieces `mv` can be said to move (a clone in Ataxx comes from any of
    /// the mover's pieces next to it), named as the notation names them; empty for a move that
    /// moves no piece (a Gonnect stone, a pass).
    fn origins(position: &Self::Position, mv: Self::Move) -> Vec<String>;

    /// A side as people call it in this game.
    fn side(color: Color) -> String {
        color.to_string()
    }
}

/// A grid of `width`-wide cells for a `columns` x `rows` board.
fn grid_of(
    columns: impl IntoIterator<Item = String>,
    rows: impl IntoIterator<Item = String>,
    mut cell: impl FnMut(usize, usize) -> String,
) -> Grid {
    let columns: Vec<String> = columns.into_iter().collect();
    let rows: Vec<String> = rows.into_iter().collect();
    let cells = (0..rows.len())
        .map(|r| (0..columns.len()).map(|c| cell(r, c)).collect())
        .collect();
    Grid {
        cells,
        columns,
        rows,
    }
}

impl MenuGame for Ataxx {
    const INTEGERS: &'static str = "0 empty, 1 x, 3 o, 5 a gap";
    const DEPTH: u32 = 4;

    fn side(color: Color) -> String {
        match color {
            Color::White => "x (White)".to_owned(),
            Color::Black => "o (Black)".to_owned(),
        }
    }

    fn grid(position: &ataxx::Position) -> Grid {
        grid_of(
            ('a'..='g').map(String::from),
            (1..=7).rev().map(|r: u8| r.to_string()),
            |r, c| {
                let square =
                    ataxx::Square::from_coords(c as u8, 6 - r as u8).expect("on the board");
                match position.cell(square) {
                    ataxx::Cell::Empty => " ".to_owned(),
                    cell => cell.symbol().to_string(),
                }
            },
        )
    }

    fn integers(position: &ataxx::Position) -> Vec<Vec<u8>> {
        (0..7u8)
            .map(|r| {
                (0..7u8)
                    .map(|c| {
                        let square = ataxx::Square::from_coords(c, 6 - r).expect("on the board");
                        match position.cell(square) {
                            ataxx::Cell::Empty => 0,
                            ataxx::Cell::Gap => 5,
                            ataxx::Cell::Piece(Color::White) => 1,
                            ataxx::Cell::Piece(Color::Black) => 3,
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn origins(position: &ataxx::Position, mv: ataxx::Move) -> Vec<String> {
        match mv {
            ataxx::Move::Jump { from, .. } => vec![from.to_string()],
            ataxx::Move::Clone(to) => {
                let own = position.pieces(position.side_to_move());
                ataxx::Square::ALL
                    .iter()
                    .filter(|s| own.contains(**s) && to.distance(**s) == 1)
                    .map(ToString::to_string)
                    .collect()
            }
            ataxx::Move::Pass => Vec::new(),
        }
    }
}

impl MenuGame for Tablut {
    const INTEGERS: &'static str = "0 empty, 1 white soldier, 2 king, 3 black soldier";
    const DEPTH: u32 = 3;

    fn grid(position: &tablut::Position) -> Grid {
        grid_of(
            ('a'..='i').map(String::from),
            (1..=9).map(|r: u8| r.to_string()),
            |r, c| {
                let square = tablut::Square::from_coords(c as u8, r as u8).expect("on the board");
                match position.cell(square) {
                    tablut::Cell::Empty if square.is_castle() => "#".to_owned(),
                    tablut::Cell::Empty if square.is_camp() => ":".to_owned(),
                    tablut::Cell::Empty => " ".to_owned(),
                    cell => cell.symbol().to_string(),
                }
            },
        )
    }

    fn integers(position: &tablut::Position) -> Vec<Vec<u8>> {
        (0..9u8)
            .map(|r| {
                (0..9u8)
                    .map(|c| {
                        let square = tablut::Square::from_coords(c, r).expect("on the board");
                        match position.cell(square) {
                            tablut::Cell::Empty => 0,
                            tablut::Cell::White => 1,
                            tablut::Cell::King => 2,
                            tablut::Cell::Black => 3,
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn origins(_position: &tablut::Position, mv: tablut::Move) -> Vec<String> {
        vec![mv.from.to_string()]
    }
}

impl MenuGame for Gonnect {
    const INTEGERS: &'static str = "0 empty, 1 white stone (O), 3 black stone (X)";
    const DEPTH: u32 = 2;

    fn side(color: Color) -> String {
        format!("{color} ({})", gonnect::symbol(color))
    }

    fn grid(position: &gonnect::Position) -> Grid {
        let letters: Vec<String> = (0..13u8)
            .map(|c| {
                gonnect::Point::from_coords(c, 0)
                    .expect("on the board")
                    .column_letter()
                    .to_string()
            })
            .collect();
        grid_of(
            letters,
            (1..=13).rev().map(|r: u8| r.to_string()),
            |r, c| {
                let point =
                    gonnect::Point::from_coords(c as u8, 12 - r as u8).expect("on the board");
                match position.stone(point) {
                    Some(color) => gonnect::symbol(color).to_string(),
                    None => " ".to_owned(),
                }
            },
        )
    }

    fn integers(position: &gonnect::Position) -> Vec<Vec<u8>> {
        (0..13u8)
            .map(|r| {
                (0..13u8)
                    .map(|c| {
                        let point = gonnect::Point::from_coords(c, 12 - r).expect("on the board");
                        match position.stone(point) {
                            None => 0,
                            Some(Color::White) => 1,
                            Some(Color::Black) => 3,
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn origins(_position: &gonnect::Position, _mv: gonnect::Move) -> Vec<String> {
        Vec::new()
    }
}

impl MenuGame for Dama {
    const INTEGERS: &'static str = "0 empty, 1 white man, 2 white king, 3 black man, 4 black king";
    const DEPTH: u32 = 6;

    fn grid(position: &dama::Position) -> Grid {
        grid_of(
            ('a'..='h').map(String::from),
            (1..=8).rev().map(|r: u8| r.to_string()),
            |r, c| match dama::Square::from_coords(r as u8, c as u8) {
                None => "   ".to_owned(),
                Some(square) => {
                    let piece = position.piece_at(square).map_or(' ', dama::Piece::symbol);
                    format!("{piece}{:>2}", square.number())
                }
            },
        )
    }

    fn integers(position: &dama::Position) -> Vec<Vec<u8>> {
        position
            .to_integers()
            .iter()
            .map(|row| row.to_vec())
            .collect()
    }

    fn origins(_position: &dama::Position, mv: dama::Move) -> Vec<String> {
        vec![mv.from().number().to_string()]
    }
}

/// Draws `grid` with `+`, `-` and `|`.
#[must_use]
pub fn draw(grid: &Grid) -> String {
    let width = grid
        .cells
        .iter()
        .flatten()
        .map(|cell| cell.chars().count())
        .chain(grid.columns.iter().map(|c| c.chars().count()))
        .max()
        .unwrap_or(1)
        + 2;
    let label = grid.rows.iter().map(|r| r.len()).max().unwrap_or(1);
    let rule = format!(
        "{:label$} +{}\n",
        "",
        vec!["-".repeat(width); grid.columns.len()].join("+") + "+"
    );
    let centred = |text: &str| format!("{text:^width$}");
    let mut out = format!(
        "{:label$}  {}\n",
        "",
        grid.columns
            .iter()
            .map(|c| centred(c))
            .collect::<Vec<_>>()
            .join(" ")
    );
    out.push_str(&rule);
    for (row, cells) in grid.rows.iter().zip(&grid.cells) {
        let line: Vec<String> = cells.iter().map(|c| centred(c)).collect();
        out.push_str(&format!("{row:>label$} |{}| {row}\n", line.join("|")));
        out.push_str(&rule);
    }
    out
}

/// Writes an integer matrix, one row a line.
#[must_use]
pub fn matrix_text(matrix: &[Vec<u8>]) -> String {
    matrix
        .iter()
        .map(|row| {
            row.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

/// What the menu is given.
#[derive(Debug, Clone)]
pub struct MenuSetup {
    /// The variant (`None`: the game's default).
    pub variant: Option<String>,
    /// The opponent.
    pub opponent: SeatSpec,
    /// The opponent's colour; the person plays the other.
    pub opponent_color: Color,
    /// How deep "Find the best move" looks.
    pub depth: Option<u32>,
    /// Whether to print the integer matrix under the board.
    pub matrix: bool,
    /// The game setup the opponent's seat is made with (seed, isolation).
    pub game: GameSetup,
}

/// A game in progress.
struct Current<G: Game> {
    start_text: String,
    moves: Vec<G::Move>,
    position: G::Position,
    opponent: Seat<G>,
}

/// Reads numbers (or, where asked, text) from the input; `None` once it ends.
struct Input<R> {
    reader: R,
}

impl<R: BufRead> Input<R> {
    fn line(&mut self, out: &mut impl Write, prompt: &str) -> anyhow::Result<Option<String>> {
        write!(out, "{prompt}")?;
        out.flush()?;
        let mut line = String::new();
        if self.reader.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        Ok(Some(line.trim().to_owned()))
    }

    /// A number from 0 to `max` (0 only when `zero` says what it does).
    fn number(
        &mut self,
        out: &mut impl Write,
        prompt: &str,
        max: usize,
        zero: bool,
    ) -> anyhow::Result<Option<usize>> {
        loop {
            let Some(text) = self.line(out, prompt)? else {
                return Ok(None);
            };
            match text.parse::<usize>() {
                Ok(n) if n <= max && (n > 0 || zero) => return Ok(Some(n)),
                _ => {
                    let low = usize::from(!zero);
                    writeln!(out, "Please type a number from {low} to {max}.")?;
                }
            }
        }
    }
}

/// Runs the menu on `input` and `out` until Exit or the end of the input.
///
/// # Errors
/// A failed write, an opponent that cannot be seated, or a bad variant.
pub fn run<G: MenuGame>(
    setup: &MenuSetup,
    input: impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let variant = setup.variant.as_deref();
    let shown_start = G::start(variant)?;
    let mut input = Input { reader: input };
    let mut game: Option<Current<G>> = None;
    let me = setup.opponent_color.other();
    writeln!(
        out,
        "{} ({}): you play {}, {} plays {}.",
        G::NAME,
        shown_start.variant(),
        G::side(me),
        setup.opponent,
        G::side(setup.opponent_color)
    )?;
    loop {
        let position = game.as_ref().map_or(&shown_start, |g| &g.position);
        show::<G>(position, setup.matrix, out)?;
        let playing = game.is_some();
        let later = if playing { "" } else { " (start a game first)" };
        writeln!(out, "1. Start a new game")?;
        writeln!(out, "2. Make a move{later}")?;
        writeln!(out, "3. Find the best move{later}")?;
        writeln!(out, "4. End the current game{later}")?;
        writeln!(out, "5. Exit")?;
        let Some(choice) = input.number(out, "Choose 1-5: ", 5, false)? else {
            writeln!(out, "The input ended: goodbye.")?;
            return Ok(());
        };
        match (choice, game.as_mut()) {
            (1, _) => {
                let start = G::start(variant)?;
                let seated = seat_for::<G>(
                    &setup.opponent,
                    setup.opponent_color,
                    start.variant(),
                    &setup.game,
                )?;
                writeln!(out, "A new game: {} against you.", seated.description)?;
                let mut new = Current {
                    start_text: start.to_string(),
                    moves: Vec::new(),
                    position: start,
                    opponent: seated.seat,
                };
                let over = opponent_turns(&mut new, me, out)?;
                game = (!over).then_some(new);
            }
            (5, _) => {
                writeln!(out, "Goodbye.")?;
                return Ok(());
            }
            (_, None) => writeln!(out, "There is no game yet: 1 starts one.")?,
            (2, Some(current)) => {
                let Some(mv) = choose_move::<G>(&current.position, &mut input, out)? else {
                    continue;
                };
                writeln!(out, "You play {mv}.")?;
                current.position.play_unchecked(mv);
                current.moves.push(mv);
                if finished::<G>(current, out)? || opponent_turns(current, me, out)? {
                    game = None;
                }
            }
            (3, Some(current)) => best_moves::<G>(&current.position, setup.depth, out)?,
            (4, Some(_)) => {
                writeln!(out, "The game is ended.")?;
                game = None;
            }
            _ => unreachable!("the choice is 1-5"),
        }
    }
}

fn show<G: MenuGame>(
    position: &G::Position,
    matrix: bool,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    writeln!(out)?;
    write!(out, "{}", draw(&G::grid(position)))?;
    if matrix {
        writeln!(out, "As integers ({}):", G::INTEGERS)?;
        write!(out, "{}", matrix_text(&G::integers(position)))?;
    }
    if !position.is_game_over() {
        writeln!(out, "{} to move.", G::side(position.side_to_move()))?;
    }
    Ok(())
}

/// Says the result if the game is over; `true` then.
fn finished<G: MenuGame>(game: &Current<G>, out: &mut impl Write) -> anyhow::Result<bool> {
    let Some(outcome) = game.position.outcome() else {
        return Ok(false);
    };
    show::<G>(&game.position, false, out)?;
    writeln!(out, "The game is over: {outcome}. 1 starts a new one.")?;
    Ok(true)
}

/// Lets the opponent play while it is its turn; `true` once the game is over.
fn opponent_turns<G: MenuGame>(
    game: &mut Current<G>,
    me: Color,
    out: &mut impl Write,
) -> anyhow::Result<bool> {
    while game.position.side_to_move() != me {
        if finished::<G>(game, out)? {
            return Ok(true);
        }
        game.opponent.request(Request::new(
            game.start_text.clone(),
            game.moves.clone(),
            game.position.clone(),
            seat::clocks(None, None, 0),
        ));
        let answer = match game.opponent.wait(None, std::time::Duration::ZERO) {
            Wait::Answered(answer) => answer,
            Wait::TimedOut => unreachable!("no limit"),
        };
        let mv = match answer.map(|text| game.position.parse_move(text.trim())) {
            Ok(Ok(mv)) => mv,
            Ok(Err(e)) => {
                writeln!(
                    out,
                    "The opponent answered a bad move ({e}): you win. 1 starts a new game."
                )?;
                return Ok(true);
            }
            Err(failure) => {
                writeln!(
                    out,
                    "The opponent failed ({failure}): you win. 1 starts a new game."
                )?;
                return Ok(true);
            }
        };
        writeln!(out, "{} plays {mv}.", G::side(game.position.side_to_move()))?;
        game.position.play_unchecked(mv);
        game.moves.push(mv);
    }
    finished::<G>(game, out)
}

/// Asks the person for a move: a piece, then one of its moves; a point in Gonnect.
fn choose_move<G: MenuGame>(
    position: &G::Position,
    input: &mut Input<impl BufRead>,
    out: &mut impl Write,
) -> anyhow::Result<Option<G::Move>> {
    let legal = position.legal_moves();
    let mut pieces: Vec<String> = Vec::new();
    for mv in &legal {
        for origin in G::origins(position, *mv) {
            if !pieces.contains(&origin) {
                pieces.push(origin);
            }
        }
    }
    if pieces.is_empty() {
        return choose_by_name::<G>(position, &legal, input, out);
    }
    sort_squares(&mut pieces);
    loop {
        writeln!(out, "Pieces that can move:")?;
        writeln!(out, "{}", numbered(&pieces))?;
        let Some(n) = input.number(
            out,
            "Choose a piece (0: back to the menu): ",
            pieces.len(),
            true,
        )?
        else {
            return Ok(None);
        };
        if n == 0 {
            return Ok(None);
        }
        let piece = &pieces[n - 1];
        let moves: Vec<G::Move> = legal
            .iter()
            .copied()
            .filter(|mv| G::origins(position, *mv).contains(piece))
            .collect();
        let texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
        writeln!(out, "Moves of {piece}:")?;
        writeln!(out, "{}", numbered(&texts))?;
        let Some(m) = input.number(out, "Choose a move (0: another piece): ", moves.len(), true)?
        else {
            return Ok(None);
        };
        if m > 0 {
            return Ok(Some(moves[m - 1]));
        }
    }
}

/// Asks for a move by name (a Gonnect point, a pass), with `moves` listing them.
fn choose_by_name<G: MenuGame>(
    position: &G::Position,
    legal: &[G::Move],
    input: &mut Input<impl BufRead>,
    out: &mut impl Write,
) -> anyhow::Result<Option<G::Move>> {
    if let [only] = legal {
        writeln!(out, "Your only move is {only}.")?;
        return Ok(Some(*only));
    }
    loop {
        let Some(text) = input.line(
            out,
            "Type a point such as G7 (moves: list them, 0: back to the menu): ",
        )?
        else {
            return Ok(None);
        };
        match text.as_str() {
            "0" => return Ok(None),
            "moves" => {
                let texts: Vec<String> = legal.iter().map(ToString::to_string).collect();
                writeln!(out, "{}", texts.join(" "))?;
            }
            _ => match position.parse_move(&text) {
                Ok(mv) => return Ok(Some(mv)),
                Err(e) => writeln!(out, "{e}")?,
            },
        }
    }
}

/// Squares in reading order: numbers by value, names by row then column.
fn sort_squares(squares: &mut [String]) {
    squares.sort_by_key(|s| match s.parse::<u32>() {
        Ok(n) => (0, n, String::new()),
        Err(_) => (1, 0, s.clone()),
    });
}

fn numbered(items: &[String]) -> String {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| format!("{:>3}. {item}", i + 1))
        .collect::<Vec<_>>()
        .chunks(6)
        .map(|row| row.join("  "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Scores every move by the built-in bot's look-ahead and shows the best three.
fn best_moves<G: MenuGame>(
    position: &G::Position,
    depth: Option<u32>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let depth = depth.unwrap_or(G::DEPTH);
    let mut searcher = Searcher::<G>::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut scored = searcher.score_root_moves(position, depth, limits, &AtomicBool::new(false));
    scored.sort_by_key(|(_, value)| std::cmp::Reverse(*value));
    let describe = |value: i32| match Score::from_value(value) {
        Score::Centi(c) => format!("{:+.2}", f64::from(c) / 100.0),
        Score::Mate(m) if m > 0 => format!("a win in {m}"),
        Score::Mate(m) => format!("a loss in {}", -m),
    };
    let Some((best, value)) = scored.first() else {
        writeln!(out, "There is no move to play.")?;
        return Ok(());
    };
    writeln!(
        out,
        "Best move: {best}, expected value {} (looking {depth} plies ahead; in pieces, for {}).",
        describe(*value),
        G::side(position.side_to_move())
    )?;
    let others: Vec<String> = scored
        .iter()
        .skip(1)
        .take(3)
        .map(|(mv, value)| format!("{mv} ({})", describe(*value)))
        .collect();
    if !others.is_empty() {
        writeln!(out, "Next best: {}.", others.join(", "))?;
    }
    Ok(())
}

/// The settings an opponent's seat is made under: untimed.
#[must_use]
pub fn untimed() -> Settings {
    Settings {
        time: None,
        increment: std::time::Duration::ZERO,
        movetime: None,
        margin: crate::referee::DEFAULT_MARGIN,
    }
}
