#!/bin/bash
# Submits a Tavola run in N shards to Slurm: an array job of N tasks, then the merge, which
# starts once they have all succeeded.
#
#   scripts/slurm/submit.sh OUT_DIR N match --game ataxx A B --games 20000 --seed 7
#
# Prints the two job ids. TAVOLA (the tavola binary, default: tavola on the PATH) and
# SBATCH_OPTIONS (more sbatch flags, such as --partition or --cpus-per-task) are passed on.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: submit.sh OUT_DIR N match|tournament ARGS...}
n=${2:?usage: submit.sh OUT_DIR N match|tournament ARGS...}
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
# The tasks run in OUT_DIR: the binary's path must not be relative.
TAVOLA=${TAVOLA:-$(command -v tavola)}
[ -x "$TAVOLA" ] || { echo "submit.sh: no tavola binary at ${TAVOLA:-(none on the PATH)}" >&2; exit 1; }
TAVOLA=$(cd "$(dirname "$TAVOLA")" && pwd)/$(basename "$TAVOLA")
export TAVOLA
# shellcheck disable=SC2086 # SBATCH_OPTIONS is a list of flags.
array=$(sbatch --parsable --chdir "$out" --array "1-$n" ${SBATCH_OPTIONS:-} \
    "$here/tavola-shard.sbatch" "$out" "$@")
# shellcheck disable=SC2086
merge=$(sbatch --parsable --chdir "$out" --dependency "afterok:$array" ${SBATCH_OPTIONS:-} \
    "$here/tavola-merge.sbatch" "$out")
echo "shards: job $array (tasks 1-$n); merge: job $merge; results in $out"
