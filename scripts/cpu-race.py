#!/usr/bin/env python3
"""Races shell commands by CPU time: each round runs every command once, in turn, so that what
the machine is doing weighs on all of them alike; then prints each command's median CPU time
(user + system, its children included) and its ratio to the first command's.

    scripts/cpu-race.py [--rounds N] COMMAND...

For example, Tavola's perft beside a peer's (the README's Benchmarks section says how the peer
programs were built):

    scripts/cpu-race.py --rounds 7 '/path/to/libataxx-perft 7' \\
        'target/release/tavola perft --depth 7' \\
        'TAVOLA_CPU=baseline target/release/tavola perft --depth 7'

A command that fails stops the race with its exit status and its command line.
"""

import argparse
import resource
import statistics
import subprocess
import sys


def cpu_seconds(command: str) -> float:
    """Runs `command` in a shell; returns the CPU time it and its children used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"cpu-race: exit status {done.returncode} from: {command}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Median CPU time of commands run in interleaved rounds, and ratios."
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("commands", nargs="+", metavar="COMMAND")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    times = {command: [] for command in args.commands}
    for _ in range(args.rounds):
        for command in args.commands:
            times[command].append(cpu_seconds(command))
    first = statistics.median(times[args.commands[0]])
    print(f"median CPU seconds over {args.rounds} rounds; ratio to the first command")
    for command in args.commands:
        median = statistics.median(times[command])
        ratio = median / first if first > 0 else float("nan")
        print(f"{median:9.3f} s  {ratio:5.2f}  {command}")


if __name__ == "__main__":
    main()
