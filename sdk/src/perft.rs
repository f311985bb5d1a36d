//! Perft: counting the leaves of the move tree, the standard test of a move generator.

use crate::game::Position;

/// Counts the leaf nodes of the move tree of `position`, `depth` plies deep.
///
/// A finished game has no legal moves, so it contributes no leaves below depth 0. The count at
/// depth 1 is taken from the move list without playing the moves ("bulk counting").
pub fn perft<P: Position>(position: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // One move buffer per ply, allocated once: nothing allocates inside the recursion.
    let mut buffers: Vec<Vec<P::Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    perft_inner(position, depth, &mut buffers)
}

fn perft_inner<P: Position>(position: &P, depth: u32, buffers: &mut [Vec<P::Move>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    moves.clear();
    position.generate_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        nodes += perft_inner(&child, depth - 1, rest);
    }
    nodes
}

/// Perft split by first move: each legal move with the number of leaves below it, in move-generation
/// order (what `tavola perft --divide` prints).
pub fn divide<P: Position>(position: &P, depth: u32) -> Vec<(P::Move, u64)> {
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
