#!/bin/bash
# Tests the Slurm path for real, on this machine: installs Debian's slurm-wlm and munge if they
# are missing (as root), starts a one-node cluster on localhost, submits a match in 4 shards and
# its merge with submit.sh, waits for them, and checks that the merged results and summary are
# those of the same match played in one process (deterministic players: depth-limited built-in
# bots). Everything it starts is stopped at the end.
#
#   sudo scripts/slurm/test-local.sh        # about a minute once tavola is built
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tavola=${TAVOLA:-$root/target/release/tavola}
if [ ! -x "$tavola" ]; then
    (cd "$root" && cargo build --release -p tavola)
fi
tavola=$(cd "$(dirname "$tavola")" && pwd)/$(basename "$tavola")
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge
fi
work=$(mktemp -d /tmp/tavola-slurm.XXXXXX)
chmod 755 "$work"
host=$(hostname -s)
cpus=$(nproc)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT

# munge: the authentication Slurm's daemons and clients share.
mkdir -p "$work/munge" /run/munge
[ -s /etc/munge/munge.key ] || mungekey --create --keyfile /etc/munge/munge.key
chown munge:munge /etc/munge/munge.key "$work/munge" /run/munge 2>/dev/null || true
chmod 400 /etc/munge/munge.key
runuser -u munge -- munged --foreground --socket "$work/munge/munge.socket" \
    --pid-file "$work/munge/munged.pid" --log-file "$work/munge/munged.log" \
    --seed-file "$work/munge/munged.seed" >"$work/munge/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$work/munge/munge.socket" ] && break; sleep 0.1; done

mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<CONF
ClusterName=tavola
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=tavola Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld -D -i >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D >"$work/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 120); do
    [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break
    sleep 0.5
done
sinfo

match=(match --game ataxx builtin:depth=1 builtin:depth=2 --games 16 --seed 5 --tc 0 --opening-plies 2)
echo "One process:"
"$tavola" "${match[@]}" --concurrency 1 --results "$work/single.jsonl" | tail -3
echo "Slurm, 4 shards:"
TAVOLA=$tavola "$root/scripts/slurm/submit.sh" "$work/run" 4 "${match[@]}"
# Until the queue is empty (the merge done, or every job failed), at most 10 minutes.
for _ in $(seq 600); do
    [ -z "$(squeue -h 2>/dev/null)" ] && break
    sleep 1
done
cat "$work"/run/tavola-*.out
python3 - "$work/single" "$work/run/run" <<'PY'
import json, sys
def lines(path):
    out = []
    for line in open(path + ".jsonl"):
        value = json.loads(line)
        value.pop("duration", None)
        # The concurrency a run started with: a merged run has none.
        value.get("tavola_run", {}).pop("concurrency", None)
        out.append(value)
    return out
def summary(path):
    value = json.load(open(path + ".summary.json"))
    value.pop("concurrency", None)
    return value
single, merged = sys.argv[1], sys.argv[2]
assert lines(single) == lines(merged), "the merged results differ from the one-process run's"
assert summary(single) == summary(merged), "the merged summary differs from the one-process run's"
print("OK: the merged results and summary are the one-process run's (%d games)" % (len(lines(single)) - 1))
PY
rm -rf "$work"
