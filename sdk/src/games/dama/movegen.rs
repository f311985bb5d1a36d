//! Move generation and legality on 32-square bitboards.
//!
//! Steps and the pieces able to capture come from shifting whole bitboards
//! ([`Direction::shift`]); capture sequences from a depth-first search over the jump tables that
//! lives on the call stack (at most 18 jumps deep: only the 18 dark squares off the edges can be
//! jumped) and hands each complete sequence to a [`Sink`]: a move list, a counter, or the best
//! precedence key. Nothing allocates.

use super::moves::Move;
use super::position::Position;
use super::square::{Direction, Square, Squares, JUMP, NONE, STEP};
use super::Variant;

/// The FID precedence of a complete capture; a larger key is preferred. From the most
/// significant bits: the number of pieces taken, whether a king captures, the number of kings
/// taken, then one bit per jump (the first jump highest) set where a king is taken, so that the
/// sequence meeting a king first compares larger.
type Key = u64;

/// Where the capture search puts each complete sequence, with the pieces it takes (a bit per
/// square).
trait Sink {
    fn leaf(&mut self, mv: Move, key: Key, captured: u32);
}

/// What makes two capture sequences one move: the origin, the destination and the pieces taken.
/// A king going round a ring of pieces takes them clockwise or anticlockwise: one move, kept as
/// the sequence found first.
type Identity = (u8, u8, u32);

fn identity(mv: Move, captured: u32) -> Identity {
    (mv.from().index() as u8, mv.to().index() as u8, captured)
}

/// Whether another sequence can be the same move as `mv`: only one that takes the same pieces in
/// another order, which needs a closed loop of jumps in it, and a loop on the board's diagonals
/// has at least four. Shorter captures (nearly all of them) skip the check.
fn may_repeat(mv: Move) -> bool {
    mv.jumps() >= 4
}

/// Appends sequences to a move list, each move once; under precedence only those with the best
/// key so far, dropping the ones a better sequence beats.
struct Collect<'a> {
    out: &'a mut Vec<Move>,
    base: usize,
    best: Key,
    precedence: bool,
    seen: Vec<Identity>,
}

impl Sink for Collect<'_> {
    #[inline]
    fn leaf(&mut self, mv: Move, key: Key, captured: u32) {
        if self.precedence {
            if key < self.best {
                return;
            }
            if key > self.best {
                self.out.truncate(self.base);
                self.seen.clear();
                self.best = key;
            }
        }
        if may_repeat(mv) {
            let id = identity(mv, captured);
            if self.seen.contains(&id) {
                return;
            }
            self.seen.push(id);
        }
        self.out.push(mv);
    }
}

/// Counts moves (each capture once however its path runs); under precedence only those with the
/// best key.
struct Count {
    best: Key,
    precedence: bool,
    /// Captures too short to be another's twin, counted as they come.
    short: u32,
    /// The longer ones, each move once.
    seen: Vec<Identity>,
}

impl Sink for Count {
    #[inline]
    fn leaf(&mut self, mv: Move, key: Key, captured: u32) {
        if self.precedence && key < self.best {
            return;
        }
        if self.precedence && key > self.best {
            self.best = key;
            self.short = 0;
            self.seen.clear();
        }
        if !may_repeat(mv) {
            self.short += 1;
            return;
        }
        let id = identity(mv, captured);
        if !self.seen.contains(&id) {
            self.seen.push(id);
        }
    }
}

/// Finds the best key.
struct Best(Key);

impl Sink for Best {
    #[inline]
    fn leaf(&mut self, _mv: Move, key: Key, _captured: u32) {
        self.0 = self.0.max(key);
    }
}

/// Finds the first sequence that is the same move as one given (its identity, and its key
/// under precedence): the one the move list keeps.
struct FirstOf {
    id: Identity,
    key: Option<Key>,
    found: Option<Move>,
}

impl Sink for FirstOf {
    #[inline]
    fn leaf(&mut self, mv: Move, key: Key, captured: u32) {
        if self.found.is_none()
            && self.key.is_none_or(|k| k == key)
            && identity(mv, captured) == self.id
        {
            self.found = Some(mv);
        }
    }
}

/// What one piece's capture search needs to know.
struct Jumper {
    /// The pieces it may jump: every enemy piece for a king, the enemy men for a man.
    targets: u32,
    /// The enemy kings (for the precedence key).
    enemy_kings: u32,
    /// The squares it may land on: empty, including the square it started from.
    empty: u32,
    /// The directions it captures in.
    directions: &'static [Direction],
    /// The key bit saying a king captures.
    with_king: Key,
}

impl Jumper {
    /// The landing square and the jumped square of a jump from `at` in `d`, if that jump is
    /// possible with the pieces in `captured` already taken (they stay on the board until the
    /// move ends, so they can be neither jumped again nor landed on).
    #[inline]
    fn jump(&self, at: usize, d: Direction, captured: u32) -> Option<(usize, u32)> {
        let land = JUMP[at][d as usize];
        if land == NONE || self.empty & (1 << land) == 0 {
            return None;
        }
        let over = 1 << STEP[at][d as usize];
        (self.targets & over & !captured != 0).then_some((usize::from(land), over))
    }

    /// Whether any jump is possible from `at`.
    #[inline]
    fn can_jump(&self, at: usize, captured: u32) -> bool {
        self.directions
            .iter()
            .any(|&d| self.jump(at, d, captured).is_some())
    }

    /// Extends the capture `mv`, standing on `at`, every way it can go, and hands each complete
    /// sequence to `sink`. A man reaching the far row can jump no further (men capture forward),
    /// so the move ends there as the rules want.
    fn extend<S: Sink>(&self, sink: &mut S, at: usize, captured: u32, mv: Move, key: Key) {
        let mut extended = false;
        if mv.jumps() < Move::MAX_JUMPS {
            for &d in self.directions {
                if let Some((land, over)) = self.jump(at, d, captured) {
                    extended = true;
                    let king = Key::from(self.enemy_kings & over != 0);
                    let key = key + (1 << 40) + (king << 32) + (king << (31 - mv.jumps()));
                    self.extend(sink, land, captured | over, mv.with_jump(d), key);
                }
            }
        }
        if !extended && mv.is_capture() {
            sink.leaf(mv, key | self.with_king, captured);
        }
    }
}

impl Position {
    /// The side to move's pieces, the enemy's, and the empty squares.
    #[inline]
    fn sides(&self) -> (u32, u32, u32) {
        let us = self.pieces[self.side.index()];
        let them = self.pieces[self.side.other().index()];
        (us, them, !(us | them))
    }

    /// The side to move's pieces that can capture something.
    #[inline]
    pub(super) fn capturers(&self) -> u32 {
        let (us, them, empty) = self.sides();
        let mut from = 0;
        for &d in Direction::forward(self.side.index() == 0) {
            let back = d.reverse();
            from |= back.shift(back.shift(empty) & them & !self.kings);
        }
        let our_kings = us & self.kings;
        let mut kings = 0;
        if our_kings != 0 {
            for d in Direction::ALL {
                let back = d.reverse();
                kings |= back.shift(back.shift(empty) & them);
            }
        }
        (from & us & !self.kings) | (kings & our_kings)
    }

    /// The capture search for the piece on `from`.
    #[inline]
    fn jumper(&self, from: usize) -> Jumper {
        let (_, them, empty) = self.sides();
        let king = self.kings & (1 << from) != 0;
        Jumper {
            targets: if king { them } else { them & !self.kings },
            enemy_kings: them & self.kings,
            empty: empty | 1 << from,
            directions: if king {
                &Direction::ALL
            } else {
                Direction::forward(self.side.index() == 0)
            },
            with_king: Key::from(king) << 39,
        }
    }

    /// Runs the capture search for every piece that can capture.
    fn search_captures<S: Sink>(&self, capturers: u32, sink: &mut S) {
        for from in Squares::of(capturers) {
            let jumper = self.jumper(from.index());
            jumper.extend(sink, from.index(), 0, Move::capture_start(from), 0);
        }
    }

    /// Whether a draw rule (repetition, the 80-ply rule, school material) has ended the game.
    #[inline]
    pub(super) fn is_drawn(&self) -> bool {
        self.repeated || u32::from(self.quiet) >= super::MOVE_LIMIT || self.is_dead_material()
    }

    /// School rules: one king each, or one king against two, and nothing else.
    #[inline]
    pub(super) fn is_dead_material(&self) -> bool {
        if self.rules != Variant::School || self.kings != self.pieces[0] | self.pieces[1] {
            return false;
        }
        let (w, b) = (self.pieces[0].count_ones(), self.pieces[1].count_ones());
        matches!((w, b), (1, 1) | (1, 2) | (2, 1))
    }

    /// The step targets of the side to move in direction `d`, from men or kings as allowed.
    #[inline]
    fn step_targets(&self, d: Direction, us: u32, empty: u32) -> u32 {
        let white = self.side.index() == 0;
        let movers = if Direction::forward(white).contains(&d) {
            us
        } else {
            us & self.kings
        };
        d.shift(movers) & empty
    }

    /// Whether the side to move has a legal move, drawn games aside.
    #[inline]
    pub(super) fn has_moves(&self) -> bool {
        let (us, _, empty) = self.sides();
        self.capturers() != 0
            || Direction::ALL
                .into_iter()
                .any(|d| self.step_targets(d, us, empty) != 0)
    }

    /// Appends the legal moves: the captures (under precedence, only the preferred ones) if any,
    /// otherwise the steps, by direction and destination.
    pub(super) fn push_moves(&self, out: &mut Vec<Move>) {
        if self.is_drawn() {
            return;
        }
        let capturers = self.capturers();
        if capturers != 0 {
            let mut sink = Collect {
                base: out.len(),
                out,
                best: 0,
                precedence: self.rules == Variant::Fid,
                seen: Vec::new(),
            };
            self.search_captures(capturers, &mut sink);
            return;
        }
        let (us, _, empty) = self.sides();
        for d in Direction::ALL {
            let back = d.reverse() as usize;
            for to in Squares::of(self.step_targets(d, us, empty)) {
                let from = Square::from_index(usize::from(STEP[to.index()][back]));
                out.extend(from.and_then(|from| Move::step(from, d)));
            }
        }
    }

    /// The number of legal moves, without building the list: steps by popcount.
    #[must_use]
    pub fn count_moves(&self) -> u32 {
        if self.is_drawn() {
            return 0;
        }
        let capturers = self.capturers();
        if capturers != 0 {
            let mut sink = Count {
                best: 0,
                precedence: self.rules == Variant::Fid,
                short: 0,
                seen: Vec::new(),
            };
            self.search_captures(capturers, &mut sink);
            return sink.short + sink.seen.len() as u32;
        }
        let (us, _, empty) = self.sides();
        Direction::ALL
            .into_iter()
            .map(|d| self.step_targets(d, us, empty).count_ones())
            .sum()
    }

    /// Whether `mv` is legal; agrees with [`Position::push_moves`] for every move.
    pub(super) fn check_legal(&self, mv: Move) -> bool {
        let from = mv.from();
        let (us, _, empty) = self.sides();
        if self.is_drawn() || us & from.bit() == 0 {
            return false;
        }
        let capturers = self.capturers();
        if capturers == 0 {
            let d = mv.direction(0);
            let king = self.kings & from.bit() != 0;
            let to = STEP[from.index()][d as usize];
            return !mv.is_capture()
                && (king || Direction::forward(self.side.index() == 0).contains(&d))
                && to != NONE
                && empty & (1 << to) != 0;
        }
        if !mv.is_capture() || capturers & from.bit() == 0 {
            return false;
        }
        let jumper = self.jumper(from.index());
        let (mut at, mut captured, mut key) = (from.index(), 0, jumper.with_king);
        for i in 0..mv.jumps() {
            let d = mv.direction(i);
            if !jumper.directions.contains(&d) {
                return false;
            }
            let Some((land, over)) = jumper.jump(at, d, captured) else {
                return false;
            };
            let king = Key::from(jumper.enemy_kings & over != 0);
            key += (1 << 40) + (king << 32) + (king << (31 - i));
            (at, captured) = (land, captured | over);
        }
        if jumper.can_jump(at, captured) {
            return false;
        }
        let precedence = self.rules == Variant::Fid;
        if precedence {
            let mut best = Best(0);
            self.search_captures(capturers, &mut best);
            if key != best.0 {
                return false;
            }
        }
        // The same move by another path is legal once: as the sequence the list keeps.
        if !may_repeat(mv) {
            return true;
        }
        let mut first = FirstOf {
            id: identity(mv, captured),
            key: precedence.then_some(key | jumper.with_king),
            found: None,
        };
        jumper.extend(&mut first, from.index(), 0, Move::capture_start(from), 0);
        first.found == Some(mv)
    }

    /// The legal move that is `mv` written by another path (the same origin, destination and
    /// pieces taken), if there is one.
    pub(super) fn same_capture(&self, mv: Move) -> Option<Move> {
        let from = mv.from();
        let (us, _, _) = self.sides();
        if !mv.is_capture() || us & from.bit() == 0 {
            return None;
        }
        // The written path must be one the rules allow (every jump over a piece not yet taken,
        // onto an empty square, and no jump left at the end), whatever its order.
        let jumper = self.jumper(from.index());
        let (mut at, mut taken) = (from.index(), 0);
        for i in 0..mv.jumps() {
            let d = mv.direction(i);
            if !jumper.directions.contains(&d) {
                return None;
            }
            let (land, over) = jumper.jump(at, d, taken)?;
            (at, taken) = (land, taken | over);
        }
        if jumper.can_jump(at, taken) {
            return None;
        }
        let to = mv.to();
        let mut moves = Vec::new();
        self.push_moves(&mut moves);
        moves.into_iter().find(|m| {
            m.is_capture()
                && m.from() == from
                && m.to() == to
                && m.captured().fold(0u32, |bits, square| bits | square.bit()) == taken
        })
    }
}

impl Position {
    /// Why a move from `from` to `to` (a capture if `capture`) is not legal (the rule it
    /// breaks), for [`crate::Position::why_illegal`] and the short form `31x8`.
    pub(super) fn explain_illegal(&self, from: Square, to: Square, capture: bool) -> String {
        if crate::Position::is_game_over(self) {
            return "the game is over".to_owned();
        }
        let (us, them, _) = self.sides();
        if us & from.bit() == 0 {
            return if them & from.bit() != 0 {
                format!(
                    "{from} holds a piece of {}'s, and it is {}'s turn",
                    self.side.other(),
                    self.side
                )
            } else {
                format!("there is no piece on {from}")
            };
        }
        let capturers = self.capturers();
        if capturers != 0 {
            let mut captures = crate::Position::legal_moves(self);
            let count = captures.len();
            captures.truncate(6);
            let mut list: Vec<String> = captures.iter().map(Move::to_string).collect();
            if count > list.len() {
                list.push(format!("and {} more", count - list.len()));
            }
            let list = list.join(", ");
            return if !capture {
                format!("a capture is compulsory: {list}")
            } else if capturers & from.bit() == 0 {
                format!("a capture is compulsory, and {from} has none: {list}")
            } else {
                format!(
                    "it is not one of the captures the rules allow here (a capture goes on while \
                     it can, and the Italian rules choose among them): {list}"
                )
            };
        }
        if capture {
            return "there is nothing to capture".to_owned();
        }
        let Some(direction) = from.step_direction(to) else {
            return format!("{to} is not next to {from} on a diagonal (kings do not fly)");
        };
        let king = self.kings & from.bit() != 0;
        if !king && !Direction::forward(self.side.index() == 0).contains(&direction) {
            return "a man moves forward only".to_owned();
        }
        if us & to.bit() != 0 || self.pieces[self.side.other().index()] & to.bit() != 0 {
            return format!("{to} is occupied");
        }
        "it is not a legal move here".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Dama, Move};
    use crate::{Game, Position as _};

    /// The legal moves of `fen` under `variant`, as sorted text.
    fn moves(fen: &str, variant: &str) -> Vec<String> {
        let position = Dama::parse_position(fen, Some(variant)).unwrap();
        let mut list: Vec<String> = position.legal_moves().iter().map(Move::to_string).collect();
        list.sort();
        list
    }

    /// The precedence checks of RULES.md section 4 (White to move → the only legal moves), and
    /// the captures the school rules allow in the same positions.
    const PRECEDENCE: &[(&str, &[&str], &[&str])] = &[
        // A man must capture.
        ("W:W30:B27", &["30x23"], &["30x23"]),
        // The capture goes on while it can.
        ("W:W31:B12,20,28", &["31x24x15x8"], &["31x24x15x8"]),
        // A man taking 3 beats a king taking 2.
        (
            "W:WK21,31:B10,18,27",
            &["31x22x13x6"],
            &["21x14x5", "31x22x13x6"],
        ),
        // Equal numbers: the king captures rather than the man.
        (
            "W:WK23,31:B19,26,27",
            &["23x30x21"],
            &["23x14", "23x30x21", "31x22x15"],
        ),
        // Equal numbers, both with the king: the most kings.
        ("W:WK23:B19,K28", &["23x32"], &["23x14", "23x32"]),
        // Equal numbers and kings: the king met first.
        (
            "W:WK30:B10,12,18,K20,K26,27",
            &["30x21x14x5"],
            &["30x21x14x5", "30x23x16x7"],
        ),
        // Everything equal: free choice.
        (
            "W:WK31:B18,20,K27,K28",
            &["31x22x13", "31x24x15"],
            &["31x22x13", "31x24x15"],
        ),
        // Men capture forward only.
        ("W:W24:B20,28", &["24x15"], &["24x15"]),
        // A man cannot capture a king.
        ("W:W30:BK26", &["30-27"], &["30-27"]),
        // A king captures backwards too.
        ("W:WK24:B20,28", &["24x15", "24x31"], &["24x15", "24x31"]),
    ];

    #[test]
    fn precedence_positions_of_the_rules() {
        for &(fen, fid, school) in PRECEDENCE {
            assert_eq!(moves(fen, "fid"), fid, "fid: {fen}");
            assert_eq!(moves(fen, "school"), school, "school: {fen}");
            for variant in ["fid", "school"] {
                let position = Dama::parse_position(fen, Some(variant)).unwrap();
                assert_eq!(
                    position.count_moves() as usize,
                    position.legal_moves().len()
                );
                for text in if variant == "fid" { fid } else { school } {
                    assert!(position.is_legal(text.parse().unwrap()), "{text} in {fen}");
                }
            }
            // What school allows and fid forbids, is_legal refuses under fid.
            let position = Dama::parse_position(fen, None).unwrap();
            for text in school.iter().filter(|m| !fid.contains(m)) {
                assert!(!position.is_legal(text.parse().unwrap()), "{text} in {fen}");
            }
        }
    }

    #[test]
    fn kings_met_first_compares_every_captured_piece_in_order() {
        // Both take three pieces, two of them kings, the first a king: 5x14x21x30 takes its
        // second king second, 5x14x23x16 only third.
        let fen = "W:WK5:BK4,K10,K11,K18,19,K20,26";
        assert_eq!(moves(fen, "fid"), ["5x14x21x30"]);
        assert_eq!(moves(fen, "school"), ["5x14x21x30", "5x14x23x16", "5x14x7"]);
    }

    #[test]
    fn a_piece_is_never_jumped_twice() {
        // Without the rule the king would come back over 18: 22x13x22.
        assert_eq!(moves("W:WK22:B18", "fid"), ["22x13"]);
        let back = Move::capture(sq(22), &[sq(13), sq(22)]).unwrap();
        let position = Dama::parse_position("W:WK22:B18", None).unwrap();
        assert!(!position.is_legal(back));
        // Nor backwards: is_legal checks the direction of every jump.
        let position = Dama::parse_position("W:W10:B13", None).unwrap();
        assert!(!position.is_legal("10x17".parse().unwrap()));
        assert_eq!(moves("W:W10:B13", "fid"), ["10-5", "10-6"]);
        // A man cannot jump a king in the middle of a capture either.
        assert_eq!(moves("W:W31:B27,K18", "fid"), ["31x22"]);
    }

    #[test]
    fn promotion_ends_a_capture() {
        // As a king, the man landing on 3 could go on over 7; it may not.
        assert_eq!(moves("W:W10:B6,7", "fid"), ["10x3"]);
        assert_eq!(moves("B:WK27,28:B23", "fid"), ["23x32"]);
    }

    #[test]
    fn a_kings_loop_may_come_back_to_its_start_and_is_one_move_either_way() {
        // Around the diamond 18 10 11 19 either way: the same five men, so one move.
        assert_eq!(moves("W:WK29:B10,11,18,19,26", "fid"), ["29x22x13x6x15x22"]);
        assert_eq!(moves("W:WK22:B10,11,18,19", "fid"), ["22x13x6x15x22"]);
        assert_eq!(moves("W:WK22:B10,11,18,19", "school"), ["22x13x6x15x22"]);
        // The ring of the issue: clockwise and anticlockwise, one move; both paths read.
        let position =
            super::super::Position::from_fen("W:WK23:B18,19,26,27", super::super::Variant::Fid)
                .unwrap();
        assert_eq!(position.count_moves(), 1);
        assert_eq!(crate::Position::perft(&position, 1), 1);
        let kept: Move = "23x14x21x30x23".parse().unwrap();
        let other: Move = "23x30x21x14x23".parse().unwrap();
        assert!(crate::Position::is_legal(&position, kept));
        assert!(!crate::Position::is_legal(&position, other));
        for text in ["23x14x21x30x23", "23x30x21x14x23"] {
            assert_eq!(
                crate::Position::parse_move(&position, text),
                Ok(kept),
                "{text}"
            );
        }
        // A path that jumps a man twice is no way round the ring.
        let diamond =
            super::super::Position::from_fen("W:WK22:B10,11,18,19", super::super::Variant::Fid)
                .unwrap();
        assert!(crate::Position::parse_move(&diamond, "22x13x22x13x6x15x22").is_err());
    }

    #[test]
    fn steps_of_both_sides() {
        assert_eq!(
            moves("W:W21-32:B1-12", "fid"),
            ["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]
        );
        assert_eq!(
            moves("B:W21-32:B1-12", "fid"),
            ["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]
        );
        assert_eq!(moves("B:W29:BK1,6", "fid"), ["1-5", "6-10", "6-11"]);
        assert_eq!(moves("W:WK32:B1", "fid"), ["32-28"]);
    }

    fn sq(n: u8) -> super::super::Square {
        super::super::Square::new(n).unwrap()
    }
}
