#!/bin/sh
# The built-in bot's strength runs (issue 7): at 100 ms per move, 200 games per pairing from
# balanced random openings (time-sensitive: run nothing else meanwhile).
#
#   scripts/strength.sh [-j N] [--ladder] [OUT_DIR] [GAME...]
#       (default: one game at a time, tavola-runs/strength, all four games)
#
# For each game: builtin against random and against greedy, then each level against the one
# below (level=K against level=K-1, K = 2..10); `--ladder` plays the levels only. `-j N` plays N
# games at once (at most one per core). Each match writes OUT_DIR/NAME.jsonl, .pgn,
# .summary.json and its printed summary in NAME.txt; a match already finished is skipped, and an
# interrupted one is resumed. Tablut's games are drawn at 1 000 plies.
set -eu
cd "$(dirname "$0")/.."
jobs=1 ladder=
while [ $# -gt 0 ]; do
    case $1 in
    -j)
        [ $# -ge 2 ] || { echo "scripts/strength.sh: -j needs a number of games at once" >&2 && exit 2; }
        jobs=$2 && shift 2
        ;;
    --ladder) ladder=1 && shift ;;
    -*) echo "scripts/strength.sh: unknown option $1 (known: -j N, --ladder)" >&2 && exit 2 ;;
    *) break ;;
    esac
done
cargo build --release -p tavola -p greedy-bot
bin=target/release
out=${1:-tavola-runs/strength}
[ $# -gt 0 ] && shift
games=${*:-ataxx tablut gonnect dama}
mkdir -p "$out"

run() { # NAME GAME A B
    name=$1 game=$2 a=$3 b=$4
    case $game in ataxx | dama) plies=4 ;; *) plies=2 ;; esac
    case $game in tablut) cap="--max-plies 1000" ;; *) cap= ;; esac
    if [ -s "$out/$name.txt" ]; then return; fi
    if [ -s "$out/$name.jsonl" ]; then
        resume="--resume $out/$name.jsonl"
    else
        resume="--results $out/$name.jsonl"
    fi
    # shellcheck disable=SC2086
    "$bin/tavola" match --game "$game" "$a" "$b" --games 200 --movetime 100 \
        --opening-plies "$plies" --concurrency "$jobs" --seed 2029 $cap $resume > "$out/$name.tmp"
    mv "$out/$name.tmp" "$out/$name.txt"
}

for game in $games; do
    if [ -z "$ladder" ]; then
        run "$game-random" "$game" builtin random
        run "$game-greedy" "$game" builtin "$bin/libgreedy_bot.so"
    fi
    for k in 2 3 4 5 6 7 8 9 10; do
        run "$game-level-$k" "$game" "builtin:level=$k" "builtin:level=$((k - 1))"
    done
done
for f in "$out"/*.txt; do echo "$f: $(grep -m1 -A2 "^builtin" "$f" | tail -2 | tr -s " " | tr "\n" " ")"; done
