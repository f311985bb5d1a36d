#!/bin/sh
# Trains a learned evaluation of the built-in bot again, from self-play (issue 17).
#
#   scripts/train.sh GAME [OUT_DIR] [GAMES]
#
# GAME is ataxx or dama; OUT_DIR defaults to tavola-runs/train-GAME, GAMES to 15000.
#
# 1. Self-play: the built-in bot against itself at 5 000 and 8 000 nodes a move, untimed (so the
#    games are the same on a busy machine), from random 8-ply openings, writing every position
#    with its search score and the game's result to OUT_DIR/positions.txt. An interrupted run is
#    resumed (the positions of the games it had finished are kept), a finished one not played again.
# 2. Training: `tavola-trainer` fits the network to them and writes OUT_DIR/GAME.nnue.
#
# `builtin:GAME_network=OUT_DIR/GAME.nnue` plays with it: let an SPRT against `builtin` decide
# (the README's "Learned evaluations" says how), then copy it over
# host/src/builtin/eval/GAME.nnue to build it into `tavola`.
set -eu
case "${1:-}" in
    ataxx | dama) game=$1 ;;
    *)
        echo "usage: scripts/train.sh ataxx|dama [OUT_DIR] [GAMES]" >&2
        exit 2
        ;;
esac
cd "$(dirname "$0")/.."
cargo build --release -p tavola -p tavola-trainer
bin=target/release
out=${2:-tavola-runs/train-$game}
games=${3:-15000}
mkdir -p "$out"

if [ -s "$out/games.jsonl" ]; then
    run="--resume $out/games.jsonl"
else
    run="--results $out/games.jsonl"
fi
# shellcheck disable=SC2086
"$bin/tavola" match --game "$game" builtin:nodes=5000 builtin:nodes=8000 --tc 0 \
    --games "$games" --opening-plies 8 --concurrency 2 --seed 12 $run \
    --positions "$out/positions.txt"
"$bin/tavola-trainer" --game "$game" "$out/positions.txt" --epochs 30 -o "$out/$game.nnue"
