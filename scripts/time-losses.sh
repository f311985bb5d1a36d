#!/bin/sh
# Fair clocks on a busy machine (issue 12): the built-in bot against builtin:depth=3, 200 Ataxx
# games at --movetime 50 and 200 at --tc 1+0.01, each once with a busy loop on every core and
# once idle, and the time losses of each side.
#
#   scripts/time-losses.sh [OUT_DIR] [GAMES]     (default: tavola-runs/time-losses, 200)
#
# Each run writes OUT_DIR/NAME.jsonl, .pgn, .summary.json and its printed summary NAME.txt;
# the last lines printed are the table. The goal: no time loss by the built-in bot in any run.
set -eu
cd "$(dirname "$0")/.."
cargo build --release -p tavola
bin=target/release/tavola
out=${1:-tavola-runs/time-losses}
games=${2:-200}
mkdir -p "$out"
cores=$(getconf _NPROCESSORS_ONLN)

busy() { # start a busy loop on every core; their PIDs in $loops
    loops=
    i=0
    while [ "$i" -lt "$cores" ]; do
        sh -c 'while :; do :; done' &
        loops="$loops $!"
        i=$((i + 1))
    done
}
calm() {
    # shellcheck disable=SC2086
    [ -n "${loops:-}" ] && kill $loops 2>/dev/null || true
    loops=
}
trap calm EXIT INT TERM

run() { # NAME LOAD TIME-FLAGS...
    name=$1 load=$2
    shift 2
    rm -f "$out/$name.jsonl" "$out/$name.pgn" "$out/$name.summary.json"
    [ "$load" = busy ] && busy
    "$bin" match --game ataxx builtin builtin:depth=3 --games "$games" "$@" \
        --concurrency 1 --seed 12 --results "$out/$name.jsonl" > "$out/$name.txt" 2>&1
    calm
}

run movetime-busy busy --movetime 50
run tc-busy busy --tc 1+0.01
run movetime-idle idle --movetime 50
run tc-idle idle --tc 1+0.01

printf '%-16s %8s %22s %22s\n' run games "builtin time losses" "depth=3 time losses"
for name in movetime-busy tc-busy movetime-idle tc-idle; do
    python3 - "$out/$name.summary.json" "$name" <<'EOF'
import json, sys
summary = json.load(open(sys.argv[1]))
losses = [p["time_losses"] for p in summary["players"]]
print(f"{sys.argv[2]:<16} {summary['games']:>8} {losses[0]:>22} {losses[1]:>22}"
      f"   (margin {summary['time_margin_ms']:g} ms)")
EOF
done
