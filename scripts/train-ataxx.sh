#!/bin/sh
# Trains the built-in bot's learned Ataxx evaluation again, from self-play (issue 17).
#
#   scripts/train-ataxx.sh [OUT_DIR] [GAMES]     (default: tavola-runs/train-ataxx, 15000 games)
#
# 1. Self-play: the built-in bot against itself at 5 000 and 8 000 nodes a move, untimed (so the
#    games are the same on a busy machine), from random 8-ply openings, writing every position
#    with its search score and the game's result to OUT_DIR/positions.txt. An interrupted run is
#    resumed (the positions of the games it had finished are kept), a finished one not played again.
# 2. Training: `tavola-trainer` fits the network to them and writes OUT_DIR/ataxx.nnue.
#
# `builtin:ataxx_network=OUT_DIR/ataxx.nnue` plays with it: let an SPRT against `builtin` decide
# (the README's "Learned evaluations" says how), then copy it over
# host/src/builtin/eval/ataxx.nnue to build it into `tavola`.
set -eu
cd "$(dirname "$0")/.."
cargo build --release -p tavola -p tavola-trainer
bin=target/release
out=${1:-tavola-runs/train-ataxx}
games=${2:-15000}
mkdir -p "$out"

if [ -s "$out/games.jsonl" ]; then
    run="--resume $out/games.jsonl"
else
    run="--results $out/games.jsonl"
fi
# shellcheck disable=SC2086
"$bin/tavola" match --game ataxx builtin:nodes=5000 builtin:nodes=8000 --tc 0 \
    --games "$games" --opening-plies 8 --concurrency 2 --seed 12 $run \
    --positions "$out/positions.txt"
"$bin/tavola-trainer" "$out/positions.txt" --epochs 30 -o "$out/ataxx.nnue"
