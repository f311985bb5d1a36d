#!/bin/sh
# Trains a learned evaluation of the built-in bot again, from self-play (issue 17).
#
#   scripts/train.sh GAME [OUT_DIR] [GAMES] [SEED] [EARLIER_POSITIONS...]
#
# GAME is ataxx, dama, gonnect or tablut; OUT_DIR defaults to tavola-runs/train-GAME, GAMES to
# 15000, SEED (of the self-play's openings) to 12. A next generation plays new openings (another
# SEED) with the network built into `tavola` and learns from its own positions and the earlier
# ones:
#   scripts/train.sh gonnect runs/gonnect-2 16000 13 runs/gonnect-1/positions.txt
# With INIT=PATH set (a network file, usually the shipped one; a path from the repository's
# root, like OUT_DIR), the training starts from that network's weights instead of random
# ones, at a lower rate (0.001) for 4 epochs; its width and activation are the file's. Ataxx's
# network 6 was network 5 trained so on new positions:
#   INIT=host/src/builtin/eval/ataxx.nnue scripts/train.sh ataxx runs/ataxx-7 22000 19 \
#       runs/ataxx-6/positions.txt runs/ataxx-6b/positions.txt
# and network 7 was network 6 trained so, on its own games from 14-ply openings and those:
#   INIT=host/src/builtin/eval/ataxx.nnue scripts/train.sh ataxx runs/ataxx-8 12000 20 \
#       runs/ataxx-6/positions.txt runs/ataxx-6b/positions.txt runs/ataxx-7/positions.txt
# Network 8 (256 hidden values) was trained by hand: from random weights with `--hidden 256`,
# then from those weights on network 7's games; network 11 is network 8 trained further by
# hand on its own games at 20 000 and 25 000 nodes a move and at 5 000 and 8 000, and network
# 15 (shipped) network 11 trained further on its own games at 5 000 to 25 000 nodes a move
# from 8- and 14-ply openings (the README gives the commands);
# INIT=host/src/builtin/eval/ataxx.nnue continues from its 256.
#
# 1. Self-play: the built-in bot against itself at 5 000 and 8 000 nodes a move (Gonnect, whose
#    nodes cost more, 3 000 and 5 000), untimed (so the games are the same on a busy machine),
#    from random 8-ply openings (Ataxx's, 14), writing every position with its search score
#    and the game's result to OUT_DIR/positions.txt. An interrupted run is resumed (the
#    positions of the games it had finished are kept), a finished one not played again.
# 2. Training: `tavola-trainer` fits the network to them and to EARLIER_POSITIONS (paths from
#    the repository's root, like OUT_DIR) and writes OUT_DIR/GAME.nnue (for Gonnect
#    and Tablut, a correction to the hand-written evaluation, fitted to the search scores alone).
#
# `builtin:GAME_network=OUT_DIR/GAME.nnue` plays with it: let an SPRT against `builtin` decide
# (the README's "Learned evaluations" says how), then copy it over
# host/src/builtin/eval/GAME.nnue to build it into `tavola`.
set -eu
cap= width= plies=8
case "${1:-}" in
    ataxx | dama | gonnect | tablut) game=$1 ;;
    *)
        echo "usage: scripts/train.sh ataxx|dama|gonnect|tablut [OUT_DIR] [GAMES] [SEED] [EARLIER_POSITIONS...]" >&2
        exit 2
        ;;
esac
cd "$(dirname "$0")/.."
# Checked before the self-play, not after it.
if [ -n "${INIT:-}" ] && [ ! -f "$INIT" ]; then
    echo "scripts/train.sh: INIT=$INIT: no such network file" >&2
    exit 2
fi
cargo build --release -p tavola -p tavola-trainer
bin=target/release
out=${2:-tavola-runs/train-$game}
games=${3:-15000}
seed=${4:-12}
shift $(($# < 4 ? $# : 4))
if [ "$game" = gonnect ]; then
    # The network corrects the hand-written evaluation, learning the search's scores alone
    # (its results are too far from the positions: --lambda 1 or 0.5 lost to the evaluation).
    fast=3000 slow=5000 epochs=12 fit="--lambda 0 --scale 100"
elif [ "$game" = tablut ]; then
    # A correction too, as Gonnect's (Tablut's scores are wider: half within +-260). A side
    # that thinks itself ahead may shuffle for tens of thousands of plies rather than repeat a
    # state (which draws): such games are drawn at 1 000 plies, which changes no label (the
    # network learns the search's scores alone).
    fast=5000 slow=8000 epochs=12 fit="--lambda 0 --scale 200" cap="--max-plies 1000"
elif [ "$game" = ataxx ]; then
    # Network 3's held-out loss was lowest at epoch 5 of 30; network 4's, on twice the
    # positions, at epoch 8 of 12 and as low at 12; network 5's, twice as wide on three runs'
    # positions, at epoch 9 of 10.
    # Openings of 14 random plies, as Zataxx's generator uses 14 to 17: network 7 learned from
    # such games (their share of its gain was not measured alone). Without INIT the network is
    # networks 5-7's 128 wide (network 8's 256 cost 1.7 times as much an evaluation).
    fast=5000 slow=8000 epochs=10 fit="" width="--hidden 128" plies=14
else
    fast=5000 slow=8000 epochs=30 fit=""
fi
if [ -n "${INIT:-}" ]; then
    # Network 6 (Ataxx), from network 5 so, gained +60 Elo at 5 000 nodes a move where one
    # from random weights on the same 3.3 million positions (10 epochs) gained +28.
    # (Appended to the trainer's other arguments, the earlier positions, so that a path with
    # spaces stays one argument.)
    # The width is the file's: the game's own is not asked for (so a start of another width,
    # say 64, is trained as it is rather than refused after the self-play).
    epochs=4 width=
    set -- "$@" --init "$INIT" --lr 0.001
fi
mkdir -p "$out"

if [ -s "$out/games.jsonl" ]; then
    run="--resume $out/games.jsonl"
else
    run="--results $out/games.jsonl"
fi
# shellcheck disable=SC2086
"$bin/tavola" match --game "$game" "builtin:nodes=$fast" "builtin:nodes=$slow" --tc 0 \
    --games "$games" --opening-plies "$plies" --concurrency 2 --seed "$seed" $run $cap \
    --positions "$out/positions.txt"
# shellcheck disable=SC2086
"$bin/tavola-trainer" --game "$game" "$out/positions.txt" "$@" --epochs "$epochs" $fit $width \
    -o "$out/$game.nnue"
