"""Grow a scored database to tens of thousands of consultations in seconds, for timing
`bedside results` (issue 18, Scale: 20,000 consultations in under 2 s).

Copies every run of a database `--copies` times in SQL — the run, its consultations, their
stored metrics and judged metrics — each copy with new run and consultation ids (the old id
with `-cK` appended). Turns and events are not copied: `bedside results` reads the stored
metrics, not the transcripts, once every metric is stored (run `bedside results` on the
source first so it is). The copies are exact otherwise, so every configuration's counts are
multiplied by `--copies + 1` and the results table keeps its rows.

    .venv/bin/bedside run --db base.db --doctor scripted:seed=1,…,scripted:seed=7 \\
        --max-turns 8,…,17 --concurrency 16      # ~3,000 offline consultations
    .venv/bin/bedside results --db base.db       # every metric stored
    .venv/bin/python -m benchmarks.make_big_db base.db big.db --copies 6
    time .venv/bin/bedside results --db big.db

Not a test: a tool for the benchmark. The SQL lives here rather than in `db/` because no
part of bedside copies runs; it writes only the new file.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
from pathlib import Path

# Each table copied, with the column that holds a consultation id or run id to rename.
_COPIED = (("runs", "id", None), ("consultations", "id", "run_id"),
           ("metrics", "consultation_id", None), ("judged_metrics", "consultation_id", None))


def columns(con: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in con.execute(f"PRAGMA table_info({table})")]


def grow(source: Path, target: Path, copies: int) -> int:
    """Copy `source` to `target` with every run repeated `copies` more times; the number of
    consultations in `target`."""
    shutil.copyfile(source, target)
    con = sqlite3.connect(target)
    try:
        originals = {table: f"_orig_{table}" for table, _, _ in _COPIED}
        for table, temp in originals.items():
            con.execute(f"CREATE TEMP TABLE {temp} AS SELECT * FROM {table}")
        for k in range(1, copies + 1):
            for table, key, other in _COPIED:
                cols = columns(con, table)
                picks = [f"{c} || '-c{k}'" if c in (key, other) else c for c in cols]
                con.execute(f"INSERT INTO {table} ({', '.join(cols)})"
                            f" SELECT {', '.join(picks)} FROM {originals[table]}")
        con.commit()
        return con.execute("SELECT count(*) FROM consultations").fetchone()[0]
    finally:
        con.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("source", type=Path)
    p.add_argument("target", type=Path)
    p.add_argument("--copies", type=int, default=6)
    args = p.parse_args()
    if args.target.exists():
        raise SystemExit(f"{args.target}: exists; choose a new file")
    print(f"{grow(args.source, args.target, args.copies)} consultations in {args.target}")


if __name__ == "__main__":
    main()
