//! The position editor, for every game (TablutTactics's tools, and its planned ones).
//!
//! Opened from a game with the Edit button or the `e` key, on the position shown. The mouse:
//! a left click on a piece selects it (another click deselects it) and marks the moves it has by
//! the rules; a left click on an empty square moves the selected piece there *without* the rules;
//! a right click puts the palette's piece on a square (or empties it); the wheel cycles the
//! palette. The keys: `r` the start position, `0`-`9` save the board in that slot (kept between
//! runs), the arrows load the slots in turn, `t` the side to move, `c` copies the position text
//! to the clipboard and prints it (Tablut: also as the challenge server's JSON state), `s` and
//! `l` save the board to and load it from a file, `g` plays from here (the SDK checks the
//! position first, and one line says why it refuses one), Esc goes back to the start screen.
//!
//! The editing is plain data ([`Editor`]), tested without a window; [`EditorScreen`] wires it to
//! the mouse, the keys and a board view, which gives only its geometry ([`Editable`]).

use std::fmt;
use std::path::{Path, PathBuf};

use macroquad::math::{Rect, Vec2};
use macroquad::shapes::{draw_circle, draw_rectangle_lines};
use macroquad::window::clear_background;
use tavola_sdk::games::ataxx::{self, Ataxx};
use tavola_sdk::games::dama::{self, Dama};
use tavola_sdk::games::gonnect;
use tavola_sdk::games::tablut::{self, Tablut};
use tavola_sdk::{Color, Game, Position};

use super::board::ataxx::AtaxxView;
use super::board::dama::DamaView;
use super::board::gonnect::GonnectView;
use super::board::tablut::TablutView;
use super::board::{BoardView, Scene};
use super::prompt::{FilePrompt, PromptAction, PromptLayout, PromptMode};
use super::screen::{Input, Nav, Screen};
use super::start::StartScreen;
use super::theme::{self, alpha, ButtonStyle, Theme, Weight};
use crate::text_ui::GameSetup;

/// What the editor needs of a board view: its squares under the mouse, and the game's pieces.
pub trait Editable: BoardView {
    /// What may stand on a square.
    type Piece: Copy + Eq + fmt::Debug;

    /// The palette: every piece, with its name; the editor adds "empty".
    fn palette() -> Vec<(Self::Piece, &'static str)>;

    /// What stands on `square`.
    fn piece_at(position: &Pos<Self>, square: Self::Square) -> Option<Self::Piece>;

    /// Puts `piece` (or nothing) on `square`, without any rule.
    fn put(position: &mut Pos<Self>, square: Self::Square, piece: Option<Self::Piece>);

    /// The side `piece` belongs to.
    fn owner(piece: Self::Piece) -> Color;

    /// Where the piece on `square` may go by the rules, were it its side's turn (empty for a
    /// game whose pieces do not move, such as Gonnect).
    fn moves_from(position: &Pos<Self>, square: Self::Square) -> Vec<Self::Square>;

    /// The position in another program's form, if the game has one (Tablut: the challenge
    /// server's JSON state), with its name.
    fn other_form(_position: &Pos<Self>) -> Option<(&'static str, String)> {
        None
    }
}

/// The editor of `V`'s board on `position`, as [`BoardView::edit_screen`] opens it.
#[must_use]
pub fn open<V: Editable>(position: &Pos<V>, setup: &GameSetup) -> Option<Box<dyn Screen>> {
    Some(Box::new(EditorScreen::<V>::new(
        position.clone(),
        setup,
        super::windowed(),
    )))
}

/// The position type of a view's game.
pub type Pos<V> = <<V as BoardView>::Game as Game>::Position;

/// Where a piece on `square` of `position` may go, by the rules, with its side to move.
fn destinations<G: Game, S: PartialEq>(
    position: &G::Position,
    owner: Color,
    side: impl Fn(&mut G::Position, Color),
    route: impl Fn(G::Move) -> Option<(S, S)>,
    square: &S,
) -> Vec<S> {
    let mut turned = position.clone();
    if turned.side_to_move() != owner {
        side(&mut turned, owner);
    }
    turned
        .legal_moves()
        .into_iter()
        .filter_map(&route)
        .filter(|(from, _)| from == square)
        .map(|(_, to)| to)
        .collect()
}

impl Editable for AtaxxView {
    type Piece = ataxx::Cell;

    fn palette() -> Vec<(ataxx::Cell, &'static str)> {
        vec![
            (ataxx::Cell::Piece(Color::White), "x"),
            (ataxx::Cell::Piece(Color::Black), "o"),
            (ataxx::Cell::Gap, "gap"),
        ]
    }

    fn piece_at(position: &ataxx::Position, square: ataxx::Square) -> Option<ataxx::Cell> {
        Some(position.cell(square)).filter(|c| *c != ataxx::Cell::Empty)
    }

    fn put(position: &mut ataxx::Position, square: ataxx::Square, piece: Option<ataxx::Cell>) {
        position.set_cell(square, piece.unwrap_or(ataxx::Cell::Empty));
    }

    fn owner(piece: ataxx::Cell) -> Color {
        match piece {
            ataxx::Cell::Piece(color) => color,
            _ => Color::White,
        }
    }

    fn moves_from(position: &ataxx::Position, square: ataxx::Square) -> Vec<ataxx::Square> {
        let Some(ataxx::Cell::Piece(owner)) = Self::piece_at(position, square) else {
            return Vec::new();
        };
        let near = |mv: ataxx::Move| match mv {
            ataxx::Move::Clone(to) if to.distance(square) == 1 => Some((square, to)),
            ataxx::Move::Jump { from, to } => Some((from, to)),
            _ => None,
        };
        destinations::<Ataxx, _>(
            position,
            owner,
            ataxx::Position::set_side_to_move,
            near,
            &square,
        )
    }
}

impl Editable for TablutView {
    type Piece = tablut::Cell;

    fn palette() -> Vec<(tablut::Cell, &'static str)> {
        vec![
            (tablut::Cell::White, "white"),
            (tablut::Cell::Black, "black"),
            (tablut::Cell::King, "king"),
        ]
    }

    fn piece_at(position: &tablut::Position, square: tablut::Square) -> Option<tablut::Cell> {
        Some(position.cell(square)).filter(|c| *c != tablut::Cell::Empty)
    }

    fn put(position: &mut tablut::Position, square: tablut::Square, piece: Option<tablut::Cell>) {
        position.set_cell(square, piece.unwrap_or(tablut::Cell::Empty));
    }

    fn owner(piece: tablut::Cell) -> Color {
        piece.color().unwrap_or(Color::White)
    }

    fn moves_from(position: &tablut::Position, square: tablut::Square) -> Vec<tablut::Square> {
        let Some(piece) = Self::piece_at(position, square) else {
            return Vec::new();
        };
        let route = |mv: tablut::Move| Some((mv.from, mv.to));
        destinations::<Tablut, _>(
            position,
            Self::owner(piece),
            tablut::Position::set_side_to_move,
            route,
            &square,
        )
    }

    fn other_form(position: &tablut::Position) -> Option<(&'static str, String)> {
        Some((
            "challenge JSON",
            crate::protocol::challenge::game_state_json(position, None),
        ))
    }
}

impl Editable for GonnectView {
    type Piece = Color;

    fn palette() -> Vec<(Color, &'static str)> {
        vec![(Color::Black, "black X"), (Color::White, "white O")]
    }

    fn piece_at(position: &gonnect::Position, point: gonnect::Point) -> Option<Color> {
        position.stone(point)
    }

    fn put(position: &mut gonnect::Position, point: gonnect::Point, stone: Option<Color>) {
        position.set_stone(point, stone);
    }

    fn owner(stone: Color) -> Color {
        stone
    }

    fn moves_from(_position: &gonnect::Position, _point: gonnect::Point) -> Vec<gonnect::Point> {
        Vec::new()
    }
}

impl Editable for DamaView {
    type Piece = dama::Piece;

    fn palette() -> Vec<(dama::Piece, &'static str)> {
        vec![
            (dama::Piece::new(Color::White, false), "white man"),
            (dama::Piece::new(Color::White, true), "white king"),
            (dama::Piece::new(Color::Black, false), "black man"),
            (dama::Piece::new(Color::Black, true), "black king"),
        ]
    }

    fn piece_at(position: &dama::Position, square: dama::Square) -> Option<dama::Piece> {
        position.piece_at(square)
    }

    fn put(position: &mut dama::Position, square: dama::Square, piece: Option<dama::Piece>) {
        position.set_piece(square, piece);
    }

    fn owner(piece: dama::Piece) -> Color {
        piece.color()
    }

    fn moves_from(position: &dama::Position, square: dama::Square) -> Vec<dama::Square> {
        let Some(piece) = position.piece_at(square) else {
            return Vec::new();
        };
        let route = |mv: dama::Move| Some((mv.from(), mv.to()));
        destinations::<Dama, _>(
            position,
            piece.color(),
            dama::Position::set_side_to_move,
            route,
            &square,
        )
    }
}

/// The editing state: the board, the selection, the palette, the slots.
#[derive(Debug, Clone)]
pub struct Editor<V: Editable> {
    /// The board being edited.
    pub position: Pos<V>,
    /// The variant, for the start position and the checks.
    pub variant: String,
    /// The selected square.
    pub selected: Option<V::Square>,
    /// The palette entry right clicks put: an index into [`Editable::palette`], or its length for
    /// "empty".
    pub palette: usize,
    /// The saved boards, by slot.
    pub slots: [Option<String>; 10],
    /// The slot the arrows loaded last.
    pub slot: Option<usize>,
    /// One line about the last action (or why it was refused).
    pub status: String,
}

impl<V: Editable> Editor<V> {
    /// An editor of `position`, with `slots`.
    #[must_use]
    pub fn new(position: Pos<V>, slots: [Option<String>; 10]) -> Editor<V> {
        Editor {
            variant: position.variant().to_owned(),
            position,
            selected: None,
            palette: 0,
            slots,
            slot: None,
            status: "Edit the board; g plays from it".to_owned(),
        }
    }

    /// The palette's entries, "empty" last.
    #[must_use]
    pub fn entries() -> Vec<(Option<V::Piece>, &'static str)> {
        let mut entries: Vec<_> = V::palette()
            .into_iter()
            .map(|(p, n)| (Some(p), n))
            .collect();
        entries.push((None, "empty"));
        entries
    }

    /// The palette's chosen entry.
    #[must_use]
    pub fn chosen(&self) -> (Option<V::Piece>, &'static str) {
        let entries = Self::entries();
        entries[self.palette.min(entries.len() - 1)]
    }

    /// Cycles the palette by `steps` (the wheel).
    pub fn cycle(&mut self, steps: i32) {
        let n = Self::entries().len() as i32;
        self.palette = (self.palette as i32 + steps).rem_euclid(n) as usize;
    }

    /// A left click on `square` (`None`: off the board).
    pub fn left_click(&mut self, square: Option<V::Square>) {
        let Some(square) = square else {
            self.selected = None;
            return;
        };
        let here = V::piece_at(&self.position, square);
        match (self.selected, here) {
            (Some(from), _) if from == square => self.selected = None,
            (Some(from), None) => {
                let piece = V::piece_at(&self.position, from);
                V::put(&mut self.position, from, None);
                V::put(&mut self.position, square, piece);
                self.selected = None;
                self.status = format!("Moved {from} to {square}");
            }
            (_, Some(_)) => self.selected = Some(square),
            (None, None) => {}
        }
    }

    /// A right click on `square`: the palette's piece goes there.
    pub fn right_click(&mut self, square: Option<V::Square>) {
        if let Some(square) = square {
            let (piece, name) = self.chosen();
            V::put(&mut self.position, square, piece);
            self.selected = None;
            self.status = format!("{name} on {square}");
        }
    }

    /// Where the selected piece may go by the rules.
    #[must_use]
    pub fn targets(&self) -> Vec<V::Square> {
        self.selected
            .map(|square| V::moves_from(&self.position, square))
            .unwrap_or_default()
    }

    /// The start position again.
    pub fn reset(&mut self) {
        if let Ok(start) = V::Game::start(Some(&self.variant)) {
            self.position = start;
            self.selected = None;
            self.status = "The start position".to_owned();
        }
    }

    /// Gives the move to the other side.
    pub fn toggle_side(&mut self) {
        let side = self.position.side_to_move().other();
        let text = self.position.to_string();
        // Through the text, which every game can set the side in; else by the game's own call.
        if let Some(turned) = turn_text(&text, side)
            .and_then(|t| V::Game::parse_position(&t, Some(&self.variant)).ok())
        {
            self.position = turned;
        } else {
            set_side::<V>(&mut self.position, side);
        }
        self.status = format!("{side} to move");
    }

    /// Saves the board in `slot`.
    pub fn save_slot(&mut self, slot: usize) {
        if let Some(place) = self.slots.get_mut(slot) {
            *place = Some(self.position.to_string());
            self.slot = Some(slot);
            self.status = format!("Saved in slot {slot}");
        }
    }

    /// Loads the next (`forward`) or previous saved slot.
    pub fn load_next(&mut self, forward: bool) {
        let filled: Vec<usize> = (0..10).filter(|&i| self.slots[i].is_some()).collect();
        if filled.is_empty() {
            self.status = "No slot saved yet: 0-9 save the board".to_owned();
            return;
        }
        let next = match (self.slot, forward) {
            (None, true) => filled[0],
            (None, false) => filled[filled.len() - 1],
            (Some(at), true) => *filled.iter().find(|&&i| i > at).unwrap_or(&filled[0]),
            (Some(at), false) => *filled
                .iter()
                .rev()
                .find(|&&i| i < at)
                .unwrap_or(&filled[filled.len() - 1]),
        };
        let text = self.slots[next].clone().unwrap_or_default();
        match self.load_text(&text) {
            Ok(()) => {
                self.slot = Some(next);
                self.status = format!("Slot {next}");
            }
            Err(why) => self.status = format!("Slot {next}: {why}"),
        }
    }

    /// Loads a board from its position text (checked by the SDK).
    ///
    /// # Errors
    /// The SDK's one-line refusal.
    pub fn load_text(&mut self, text: &str) -> Result<(), String> {
        let position =
            V::Game::parse_position(text.trim(), Some(&self.variant)).map_err(|e| e.to_string())?;
        self.position = position;
        self.selected = None;
        Ok(())
    }

    /// The board as a position to play from, checked by the SDK.
    ///
    /// # Errors
    /// The SDK's one-line refusal (a Dama man on its promotion row, a Tablut board without a
    /// king, ...).
    pub fn checked(&self) -> Result<String, String> {
        let text = self.position.to_string();
        let parsed = V::Game::parse_position(&text, Some(&self.variant))
            .map_err(|e| format!("This position cannot be played: {e}"))?;
        if parsed.is_game_over() {
            return Err(format!(
                "This position cannot be played: the game is already over ({})",
                parsed.outcome().map_or_else(String::new, |o| o.to_string())
            ));
        }
        Ok(text)
    }

    /// What `c` copies and prints: the position text, and the other form if the game has one.
    #[must_use]
    pub fn copy_text(&self) -> String {
        let text = self.position.to_string();
        match V::other_form(&self.position) {
            Some((name, other)) => format!("{text}\n{name}: {other}"),
            None => text,
        }
    }
}

/// The position text with its side to move changed, for games whose text names it as its own
/// word (`x`/`o`, `W`/`B`, `X`/`O`, Dama's leading `W:`/`B:`).
fn turn_text(text: &str, side: Color) -> Option<String> {
    if let Some(rest) = text.strip_prefix("W:").or_else(|| text.strip_prefix("B:")) {
        let letter = if side == Color::White { "W:" } else { "B:" };
        return Some(format!("{letter}{rest}"));
    }
    let words: Vec<&str> = text.split(' ').collect();
    let index = words
        .iter()
        .position(|w| matches!(*w, "x" | "o" | "W" | "B" | "X" | "O"))?;
    let replacement = match (words[index], side) {
        ("x" | "o", Color::White) => "x",
        ("x" | "o", Color::Black) => "o",
        ("W" | "B", Color::White) => "W",
        ("W" | "B", Color::Black) => "B",
        ("X" | "O", Color::White) => "O",
        ("X" | "O", Color::Black) => "X",
        _ => return None,
    };
    let mut words = words;
    words[index] = replacement;
    Some(words.join(" "))
}

/// Sets the side to move through the game's own position type.
fn set_side<V: Editable>(position: &mut Pos<V>, side: Color) {
    let any = position as &mut dyn std::any::Any;
    if let Some(p) = any.downcast_mut::<ataxx::Position>() {
        p.set_side_to_move(side);
    } else if let Some(p) = any.downcast_mut::<tablut::Position>() {
        p.set_side_to_move(side);
    } else if let Some(p) = any.downcast_mut::<gonnect::Position>() {
        p.set_side_to_move(side);
    } else if let Some(p) = any.downcast_mut::<dama::Position>() {
        p.set_side_to_move(side);
    }
}

/// Where the editor keeps its slots: `$TAVOLA_DATA_DIR`, else `$XDG_DATA_HOME/tavola`, else
/// `~/.local/share/tavola`; one file per game.
#[must_use]
pub fn slots_file(game: &str) -> Option<PathBuf> {
    let base = std::env::var_os("TAVOLA_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_DATA_HOME").map(|d| PathBuf::from(d).join("tavola")))
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/tavola"))
        })?;
    Some(base.join(format!("{game}-slots.txt")))
}

/// Reads the slots (`N<TAB>position text` lines); missing or bad lines are empty slots.
#[must_use]
pub fn read_slots(path: Option<&Path>) -> [Option<String>; 10] {
    let mut slots: [Option<String>; 10] = Default::default();
    let Some(text) = path.and_then(|p| std::fs::read_to_string(p).ok()) else {
        return slots;
    };
    for line in text.lines() {
        if let Some((n, position)) = line.split_once('\t') {
            if let Ok(n) = n.trim().parse::<usize>() {
                if let Some(slot) = slots.get_mut(n) {
                    *slot = Some(position.trim().to_owned());
                }
            }
        }
    }
    slots
}

/// Writes the slots.
///
/// # Errors
/// The write's, in one line with the path.
pub fn write_slots(path: &Path, slots: &[Option<String>; 10]) -> Result<(), String> {
    let text: String = slots
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.as_ref().map(|s| format!("{i}\t{s}\n")))
        .collect();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The file the board prompts offer first.
pub const BOARD_FILE: &str = "tavola-board.txt";

/// The editor's side panel.
#[derive(Debug, Clone, PartialEq)]
pub struct EditorLayout {
    /// Where the board goes.
    pub board_area: Rect,
    /// The panel.
    pub panel: Rect,
    /// The palette's chips, "empty" last.
    pub palette: Vec<Rect>,
    /// The side to move.
    pub side: Rect,
    /// Play from here, Reset, Copy, Save board, Load board, Back.
    pub actions: [Rect; 6],
}

/// The labels of [`EditorLayout::actions`].
pub const ACTIONS: [&str; 6] = [
    "Play (g)",
    "Reset (r)",
    "Copy (c)",
    "Save (s)",
    "Load (l)",
    "Back (Esc)",
];

impl EditorLayout {
    /// The layout for a window of `size` with `entries` palette entries.
    #[must_use]
    pub fn new(size: Vec2, entries: usize) -> EditorLayout {
        let margin = 16.0;
        let panel_w = (size.x * 0.3).clamp(250.0, 380.0);
        let height = (size.y - 2.0 * margin).max(100.0);
        let panel = Rect::new(size.x - panel_w - margin, margin, panel_w, height);
        let board_area = Rect::new(margin, margin, (panel.x - 2.0 * margin).max(50.0), height);
        let chip_h = 34.0;
        let palette = (0..entries)
            .map(|i| {
                Rect::new(
                    panel.x,
                    panel.y + 40.0 + i as f32 * (chip_h + 6.0),
                    panel.w,
                    chip_h,
                )
            })
            .collect::<Vec<_>>();
        let after = panel.y + 40.0 + entries as f32 * (chip_h + 6.0) + 10.0;
        let side = Rect::new(panel.x, after, panel.w, chip_h);
        let mut actions = [Rect::default(); 6];
        let w = (panel.w - 8.0) / 2.0;
        for (i, rect) in actions.iter_mut().enumerate() {
            let (row, column) = (i / 2, i % 2);
            *rect = Rect::new(
                panel.x + column as f32 * (w + 8.0),
                side.bottom() + 16.0 + row as f32 * (chip_h + 8.0),
                w,
                chip_h,
            );
        }
        EditorLayout {
            board_area,
            panel,
            palette,
            side,
            actions,
        }
    }
}

/// The editor as a screen of the window.
pub struct EditorScreen<V: Editable> {
    view: V,
    /// The editing state.
    pub editor: Editor<V>,
    setup: GameSetup,
    slots_path: Option<PathBuf>,
    prompt: Option<FilePrompt>,
    board_file: String,
    layout: EditorLayout,
    mouse: Vec2,
    /// Whether a window is there to take the clipboard (tests drive the screen without one).
    windowed: bool,
}

impl<V: Editable> fmt::Debug for EditorScreen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EditorScreen")
            .field("position", &self.editor.position.to_string())
            .finish_non_exhaustive()
    }
}

impl<V: Editable> EditorScreen<V> {
    /// The editor of `position`, coming from a game set up as `setup` (whose players and clock
    /// the start screen offers again).
    #[must_use]
    pub fn new(position: Pos<V>, setup: &GameSetup, windowed: bool) -> EditorScreen<V> {
        let slots_path = slots_file(V::Game::NAME);
        let slots = read_slots(slots_path.as_deref());
        EditorScreen {
            view: V::default(),
            editor: Editor::new(position, slots),
            setup: setup.clone(),
            slots_path,
            prompt: None,
            board_file: BOARD_FILE.to_owned(),
            layout: EditorLayout::new(Vec2::new(1280.0, 800.0), Editor::<V>::entries().len()),
            mouse: Vec2::ZERO,
            windowed,
        }
    }

    /// The view, as laid out (tests click on its squares).
    #[must_use]
    pub fn view(&self) -> &V {
        &self.view
    }

    /// The layout of the last frame.
    #[must_use]
    pub fn layout(&self) -> &EditorLayout {
        &self.layout
    }

    fn start_screen(&self, position: Option<String>) -> Nav {
        let mut setup = self.setup.clone();
        setup.variant = Some(self.editor.variant.clone());
        setup.position = position;
        setup.resume = None;
        Nav::Replace(Box::new(StartScreen::with_setup(V::Game::NAME, &setup)))
    }

    fn action(&mut self, index: usize) -> Nav {
        match index {
            0 => match self.editor.checked() {
                Ok(text) => return self.start_screen(Some(text)),
                Err(why) => self.editor.status = why,
            },
            1 => self.editor.reset(),
            2 => self.copy(),
            3 => self.prompt = Some(FilePrompt::new(PromptMode::SaveBoard, &self.board_file)),
            4 => self.prompt = Some(FilePrompt::new(PromptMode::LoadBoard, &self.board_file)),
            _ => return self.start_screen(None),
        }
        Nav::Stay
    }

    fn copy(&mut self) {
        let text = self.editor.copy_text();
        println!("{text}");
        if self.windowed {
            macroquad::miniquad::window::clipboard_set(&text);
        }
        self.editor.status = "Copied to the clipboard and printed".to_owned();
    }

    fn save_slot(&mut self, slot: usize) {
        self.editor.save_slot(slot);
        if let Some(path) = &self.slots_path {
            if let Err(why) = write_slots(path, &self.editor.slots) {
                self.editor.status = format!("Slot {slot} kept for now; {why}");
            }
        }
    }

    fn prompt_input(&mut self, input: &Input) {
        let Some(prompt) = &mut self.prompt else {
            return;
        };
        let layout = PromptLayout::new(self.view.rect());
        match prompt.input(input, &layout) {
            PromptAction::Stay => {}
            PromptAction::Cancel => self.prompt = None,
            PromptAction::Confirm(path) => {
                let done = match prompt.mode {
                    PromptMode::LoadBoard => std::fs::read_to_string(&path)
                        .map_err(|e| format!("cannot read {}: {e}", path.display()))
                        .and_then(|text| {
                            let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                            self.editor
                                .load_text(line)
                                .map_err(|why| format!("{}: {why}", path.display()))
                        }),
                    _ => std::fs::write(&path, format!("{}\n", self.editor.position))
                        .map_err(|e| format!("cannot write {}: {e}", path.display())),
                };
                match done {
                    Ok(()) => {
                        self.editor.status = format!("Board: {}", path.display());
                        self.board_file = path.to_string_lossy().into_owned();
                        self.prompt = None;
                    }
                    Err(why) => {
                        if let Some(prompt) = &mut self.prompt {
                            prompt.error = Some(why);
                        }
                    }
                }
            }
        }
    }
}

impl<V: Editable> Screen for EditorScreen<V> {
    fn update(&mut self, input: &Input, size: Vec2, _now: f64) -> Nav {
        self.mouse = input.mouse;
        self.layout = EditorLayout::new(size, Editor::<V>::entries().len());
        self.view.layout(self.layout.board_area, false);
        if self.prompt.is_some() {
            self.prompt_input(input);
            return Nav::Stay;
        }
        if input.escape {
            return self.start_screen(None);
        }
        if input.left_click {
            if let Some(i) = self
                .layout
                .actions
                .iter()
                .position(|r| r.contains(input.mouse))
            {
                return self.action(i);
            }
            if let Some(i) = self
                .layout
                .palette
                .iter()
                .position(|r| r.contains(input.mouse))
            {
                self.editor.palette = i;
                return Nav::Stay;
            }
            if self.layout.side.contains(input.mouse) {
                self.editor.toggle_side();
                return Nav::Stay;
            }
            self.editor.left_click(self.view.square_at(input.mouse));
        }
        if input.right_click {
            self.editor.right_click(self.view.square_at(input.mouse));
        }
        if input.wheel != 0.0 {
            self.editor.cycle(if input.wheel > 0.0 { -1 } else { 1 });
        }
        if input.left || input.right {
            self.editor.load_next(input.right);
        }
        for key in input.typed.chars() {
            match key {
                '0'..='9' => self.save_slot(key as usize - '0' as usize),
                'r' => self.editor.reset(),
                't' => self.editor.toggle_side(),
                'c' => self.copy(),
                's' => return self.action(3),
                'l' => return self.action(4),
                'g' => return self.action(0),
                _ => {}
            }
        }
        Nav::Stay
    }

    fn draw(&self, theme: &Theme, _size: Vec2, _now: f64) {
        clear_background(theme::BACKGROUND);
        let scene = Scene::<V::Game> {
            position: &self.editor.position,
            before: None,
            last_move: None,
            since_last_move: f32::INFINITY,
            mover: None,
            hint: None,
        };
        self.view.draw(&scene, theme);
        if let Some(square) = self.editor.selected {
            let r = self.view.square_rect(square);
            draw_rectangle_lines(r.x, r.y, r.w, r.h, 4.0, theme::ACCENT);
        }
        for target in self.editor.targets() {
            let r = self.view.square_rect(target);
            draw_circle(
                r.x + r.w / 2.0,
                r.y + r.h / 2.0,
                r.w * 0.14,
                alpha(theme::GOOD, 0.8),
            );
        }
        let layout = &self.layout;
        theme.text(
            "Edit the position",
            layout.panel.x,
            layout.panel.y + 6.0,
            18.0,
            theme::TEXT,
            Weight::Bold,
        );
        for (i, (rect, (_, name))) in layout
            .palette
            .iter()
            .zip(Editor::<V>::entries())
            .enumerate()
        {
            let style = if i == self.editor.palette {
                ButtonStyle::Selected
            } else {
                ButtonStyle::Normal {
                    hot: rect.contains(self.mouse),
                }
            };
            theme.button(*rect, &format!("Right click: {name}"), style, 14.0);
        }
        let side = format!("{} to move (t)", self.editor.position.side_to_move());
        theme.button(
            layout.side,
            &side,
            ButtonStyle::Normal {
                hot: layout.side.contains(self.mouse),
            },
            14.0,
        );
        for (rect, label) in layout.actions.iter().zip(ACTIONS) {
            let style = if label.starts_with("Play") {
                ButtonStyle::Primary {
                    hot: rect.contains(self.mouse),
                }
            } else {
                ButtonStyle::Normal {
                    hot: rect.contains(self.mouse),
                }
            };
            theme.button(*rect, label, style, 14.0);
        }
        let below = layout.actions[5].bottom() + 20.0;
        let slots: String = (0..10)
            .map(|i| {
                if self.editor.slots[i].is_some() {
                    char::from(b'0' + i as u8)
                } else {
                    '.'
                }
            })
            .collect();
        let lines = [
            format!("Slots {slots}: 0-9 save, arrows load"),
            "Left click: select, move without rules".to_owned(),
            "Right click: put the piece; wheel: next".to_owned(),
        ];
        for (i, line) in lines.iter().enumerate() {
            theme.text(
                line,
                layout.panel.x,
                below + i as f32 * 20.0,
                14.0,
                theme::MUTED,
                Weight::Regular,
            );
        }
        theme.text_clipped(
            &self.editor.status,
            Vec2::new(layout.panel.x, below + 70.0),
            14.0,
            layout.panel.w,
            theme::TEXT,
            Weight::Regular,
        );
        if let Some(prompt) = &self.prompt {
            let board = self.view.rect();
            super::prompt::draw(prompt, &PromptLayout::new(board), board, theme, self.mouse);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn editor<V: Editable>(text: Option<&str>) -> Editor<V> {
        let position = match text {
            Some(t) => V::Game::parse_position(t, None).unwrap(),
            None => V::Game::start(None).unwrap(),
        };
        Editor::new(position, Default::default())
    }

    #[test]
    fn pieces_move_without_the_rules_and_the_palette_puts_pieces() {
        let mut e = editor::<TablutView>(None);
        let e3: tablut::Square = "e3".parse().unwrap();
        let a9: tablut::Square = "a9".parse().unwrap();
        e.left_click(Some(e3));
        assert_eq!(e.selected, Some(e3));
        assert!(
            e.targets().contains(&"h3".parse().unwrap()),
            "{:?}",
            e.targets()
        );
        // a9 is no legal destination; the editor moves the piece there all the same.
        e.left_click(Some(a9));
        assert_eq!(e.position.cell(a9), tablut::Cell::White);
        assert_eq!(e.position.cell(e3), tablut::Cell::Empty);
        e.cycle(2);
        assert_eq!(e.chosen().1, "king");
        e.right_click(Some(e3));
        assert_eq!(e.position.cell(e3), tablut::Cell::King);
        // The wheel comes round to "empty".
        e.cycle(1);
        assert_eq!(e.chosen(), (None, "empty"));
        e.right_click(Some(e3));
        e.right_click(Some("e5".parse().ok()).flatten());
        // No king left: the SDK refuses the board, in one line.
        let why = e.checked().unwrap_err();
        assert!(why.contains("no king"), "{why}");
        e.reset();
        assert_eq!(e.position, Tablut::start(None).unwrap());
        assert!(e.copy_text().contains("challenge JSON: {\"board\":"));
    }

    #[test]
    fn every_game_edits_and_checks_its_boards() {
        let mut dama = editor::<DamaView>(None);
        let top = dama::Square::new(2).unwrap();
        dama.right_click(Some(top));
        assert_eq!(
            dama.position.piece_at(top),
            Some(dama::Piece::new(Color::White, false))
        );
        assert!(dama
            .checked()
            .unwrap_err()
            .contains("where it would be a king"));
        let mut ataxx = editor::<AtaxxView>(None);
        ataxx.cycle(2);
        let d4: ataxx::Square = "d4".parse().unwrap();
        ataxx.right_click(Some(d4));
        assert_eq!(ataxx.position.cell(d4), ataxx::Cell::Gap);
        assert!(ataxx.checked().is_ok());
        let a7: ataxx::Square = "a7".parse().unwrap();
        ataxx.left_click(Some(a7));
        assert_eq!(ataxx.targets().len(), 8, "{:?}", ataxx.targets());
        let mut gonnect = editor::<GonnectView>(None);
        let g7: gonnect::Point = "G7".parse().unwrap();
        gonnect.right_click(Some(g7));
        assert_eq!(gonnect.position.stone(g7), Some(Color::Black));
        gonnect.toggle_side();
        assert_eq!(gonnect.position.side_to_move(), Color::White);
        assert!(gonnect.checked().is_ok());
    }

    #[test]
    fn the_side_to_move_turns_in_every_game() {
        let mut tablut = editor::<TablutView>(None);
        tablut.toggle_side();
        assert_eq!(tablut.position.side_to_move(), Color::Black);
        let mut dama = editor::<DamaView>(None);
        dama.toggle_side();
        assert_eq!(dama.position.side_to_move(), Color::Black);
        let mut ataxx = editor::<AtaxxView>(None);
        ataxx.toggle_side();
        assert_eq!(ataxx.position.side_to_move(), Color::Black);
        ataxx.toggle_side();
        assert_eq!(ataxx.position.side_to_move(), Color::White);
    }

    #[test]
    fn slots_are_saved_loaded_in_turn_and_kept_in_a_file() {
        let mut e = editor::<AtaxxView>(None);
        e.load_next(true);
        assert!(e.status.starts_with("No slot"));
        e.save_slot(3);
        let d4: ataxx::Square = "d4".parse().unwrap();
        e.right_click(Some(d4));
        e.save_slot(7);
        e.reset();
        e.load_next(true);
        assert_eq!((e.slot, e.position.cell(d4)), (Some(3), ataxx::Cell::Empty));
        e.load_next(true);
        assert_eq!(
            (e.slot, e.position.cell(d4)),
            (Some(7), ataxx::Cell::Piece(Color::White))
        );
        e.load_next(false);
        assert_eq!(e.slot, Some(3));
        let dir = std::env::temp_dir().join(format!("tavola-slots-{}", std::process::id()));
        let path = dir.join("ataxx-slots.txt");
        write_slots(&path, &e.slots).unwrap();
        let back = read_slots(Some(&path));
        assert_eq!(back, e.slots);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_screen_takes_keys_clicks_and_refuses_bad_boards_in_one_line() {
        let setup = crate::gui::start::StartScreen::new().setup().unwrap();
        let start = Dama::start(Some("fid")).unwrap();
        let mut screen = EditorScreen::<DamaView>::new(start, &setup, false);
        screen.slots_path = None;
        let size = Vec2::new(1280.0, 800.0);
        screen.update(&Input::default(), size, 0.0);
        let square = dama::Square::new(21).unwrap();
        let at = screen.view().square_rect(square).center();
        screen.update(&Input::click(at), size, 0.0);
        assert_eq!(screen.editor.selected, Some(square));
        // Promote a white man on the top row by hand: Play refuses it.
        let two = screen
            .view()
            .square_rect(dama::Square::new(2).unwrap())
            .center();
        let mut right = Input::hover(two);
        right.right_click = true;
        screen.update(&right, size, 0.0);
        let typed = Input {
            typed: "g".to_owned(),
            ..Input::default()
        };
        assert!(matches!(screen.update(&typed, size, 0.0), Nav::Stay));
        assert!(
            screen
                .editor
                .status
                .starts_with("This position cannot be played"),
            "{}",
            screen.editor.status
        );
        screen.update(
            &Input {
                typed: "r".to_owned(),
                ..Input::default()
            },
            size,
            0.0,
        );
        assert!(matches!(screen.update(&typed, size, 0.0), Nav::Replace(_)));
    }
}
