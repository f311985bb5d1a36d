#!/usr/bin/env python3
"""Measures how good each first move of Gonnect is, by self-play (issue 17: the built-in bot's
first move and swap).

    scripts/gonnect-first-moves.py openings [--pairs K] [--seed S] > openings.txt
    tavola match --game gonnect builtin:nodes=3000 builtin:nodes=5000 --tc 0 \\
        --openings openings.txt --games N --concurrency 2 --results first-moves.jsonl
    scripts/gonnect-first-moves.py table first-moves.jsonl [MORE.jsonl ...] [--seed S ...]

The board's eight turns and reflections leave the rules unchanged, so the 169 first moves fall
in 28 classes, one for each point (column, row) with column <= row <= 7 in the lower left
quarter. For each class `openings` writes 2K positions, White to play after Black's first stone
(move 4, so that the swap is no longer legal), each with one more stone of each colour at random:
that random pair makes the games differ, and each pair is written twice, with the two random
stones' colours exchanged, so that on average neither side gains by them. The match plays each
position twice, colours swapped (N = 2 x 28 x 2K plays each once).

`table` reads the results (of runs whose openings had the seeds given, one `--seed` each) and
prints, for each class, Black's score (wins + half the draws over games) with its 95 % interval,
and that score drawn towards the mean of all classes by as much as the spread of the measured
scores is the games' noise (empirical Bayes); then the lines of the table
`host/src/builtin/eval/gonnect_book.rs` ships, that drawn score in thousandths. The shipped table
is from two runs, `--seed 1` and `--seed 2` (the matches with `--seed 5` and `--seed 6`),
7 168 games in 27 minutes on two cores.
"""

import argparse
import json
import math
import random
import sys

SIZE = 13
COLUMNS = "ABCDEFGHJKLMN"


def name(point: tuple[int, int]) -> str:
    """A point (column, row), 0-based from the lower left, as Gonnect writes it: `G7`."""
    column, row = point
    return f"{COLUMNS[column]}{row + 1}"


def images(point: tuple[int, int]) -> set[tuple[int, int]]:
    """The point's images under the square's eight symmetries."""
    x, y = point
    last = SIZE - 1
    found = set()
    for a, b in ((x, y), (y, x)):
        for c, d in ((a, b), (last - a, b), (a, last - b), (last - a, last - b)):
            found.add((c, d))
    return found


def classes() -> list[tuple[int, int]]:
    """One point of each class: column <= row <= 6, 28 of them."""
    return [(x, y) for y in range(7) for x in range(y + 1)]


def position(stones: dict[tuple[int, int], str]) -> str:
    """The position with `stones` ('X' or 'O' by point), White to play move 4."""
    rows = []
    for row in reversed(range(SIZE)):
        rows.append("".join(stones.get((column, row), ".") for column in range(SIZE)))
    return "/".join(rows) + " O 4"


def openings(pairs: int, seed: int) -> list[tuple[tuple[int, int], str]]:
    """The openings for `pairs` and `seed`, each with its first stone."""
    rng = random.Random(seed)
    everywhere = [(x, y) for y in range(SIZE) for x in range(SIZE)]
    found = []
    for first in classes():
        for _ in range(pairs):
            white, black = rng.sample([p for p in everywhere if p != first], 2)
            for w, b in ((white, black), (black, white)):
                found.append((first, position({first: "X", w: "O", b: "X"})))
    return found


def read_results(paths: list[str]) -> dict[str, list[float]]:
    """Black's score in each game, by opening text."""
    scores: dict[str, list[float]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as file:
            for line in file:
                record = json.loads(line)
                if "opening" not in record:
                    continue
                result = record["result"]
                black = {"1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5}.get(result)
                if black is None:
                    continue
                scores.setdefault(record["opening"], []).append(black)
    return scores


def write_table(paths: list[str], pairs: int, seeds: list[int]) -> None:
    # The openings again, to know which black stone came first.
    first_of: dict[str, tuple[int, int] | None] = {}
    for seed in seeds:
        for first, text in openings(pairs, seed):
            # A board two classes' openings can both give (the random black stone of one the
            # first of the other) says nothing of either: left out.
            first_of[text] = first if first_of.get(text, first) == first else None
    by_class: dict[tuple[int, int], list[float]] = {}
    for opening, scores in read_results(paths).items():
        if opening not in first_of:
            sys.exit(f"gonnect-first-moves: an opening not written with --pairs {pairs} "
                     f"and the seeds {seeds}: {opening}")
        if first_of[opening] is not None:
            by_class.setdefault(first_of[opening], []).extend(scores)
    rows = []
    for point, scores in by_class.items():
        n = len(scores)
        rows.append((sum(scores) / n, point, n))
    # Empirical Bayes: each class's score drawn toward the mean of all by as much as the spread
    # of the measured scores is due to the games' own noise rather than to the classes.
    games = sum(n for _, _, n in rows)
    mean = sum(score * n for score, _, n in rows) / games
    noise = [mean * (1 - mean) / n for _, _, n in rows]
    spread = sum((score - mean) ** 2 for score, _, _ in rows) / len(rows)
    between = max(0.0, spread - sum(noise) / len(noise))
    print(f"{games} games, Black's score {mean:.3f}; the classes' spread (sd) "
          f"{math.sqrt(spread):.3f}, of which not noise {math.sqrt(between):.3f}")
    print(f"{'first':>5} {'games':>5}  Black's score    drawn to the mean")
    shrunk = {}
    for (score, point, n), var in zip(rows, noise):
        shrunk[point] = mean + between / (between + var) * (score - mean)
    for score, point, n in sorted(rows, reverse=True):
        interval = 1.96 * math.sqrt(max(score * (1 - score), 1e-9) / n)
        print(f"{name(point):>5} {n:5}  {score:.3f} ± {interval:.3f}  {shrunk[point]:.3f}")
    print()
    for score, point, n in sorted(rows, key=lambda r: (r[1][1], r[1][0])):
        print(f"    ({point[0]}, {point[1]}, {round(shrunk[point] * 1000)}), "
              f"// {name(point)}: {score:.3f} in {n} games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    write = sub.add_parser("openings", help="write the openings, one a line")
    write.add_argument("--seed", type=int, default=1)
    table = sub.add_parser("table", help="Black's score by first move, from match results")
    table.add_argument("results", nargs="+")
    table.add_argument("--seed", type=int, action="append",
                       help="the seed of the openings of one of the runs (repeat; default 1)")
    for command in (write, table):
        command.add_argument("--pairs", type=int, default=32)
    args = parser.parse_args()
    if args.command == "openings":
        for _, text in openings(args.pairs, args.seed):
            print(text)
    else:
        write_table(args.results, args.pairs, args.seed or [1])


if __name__ == "__main__":
    main()
