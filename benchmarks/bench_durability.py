"""What a full sync at every commit (`PRAGMA synchronous=FULL`) costs, to decide where to pay
it (issue 18: a power cut must not lose a rating the screen showed as saved).

With WAL, `synchronous=NORMAL` (bedside's default) syncs the log at checkpoints only: a
process crash loses nothing committed, a power cut may lose the last commits. FULL syncs the
log at every commit. Measured on a temporary file beside the default database (same disk):
  (a) rating saves: 200 `save_ratings` calls (four answers each), NORMAL vs FULL;
  (b) an offline run: every bundled case, scripted doctor, retrieval patient and examiner,
      the Recorder committing every event, NORMAL vs FULL;
  (c) the same run (NORMAL) with and without the lease fence (the Recorder reads the run's
      lease in each event's transaction, so an owner that was taken over writes nothing).
Prints the median of several runs and the ratio FULL / NORMAL (fenced / unfenced) of each.

    .venv/bin/python -m benchmarks.bench_durability [--runs 6] [--dir PATH]

Decision it informs: ratings are written durably (one sync per save, a few milliseconds a
rater never notices); runs keep NORMAL when the ratio of (b) is large (a run's every event
would pay a sync, and a run lost to a power cut is resumed, not retyped).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from core.caseio import load_bundled_cases
from core.config import AgentSpec, ConsultationConfig
from core.usecases import runs
from db.store import open_store
from db.study_store import SqliteStudyStore

SAVES = 200
ITEMS = ("realism_doctor", "realism_patient", "realism_examiner", "empathy_doctor")
STUDY = """name = "bench"
raters = ["alice"]
overlap = 1
seed = 1
"""


def _sync(db: object, mode: str) -> None:
    db.conn.execute(f"PRAGMA synchronous={mode}")  # type: ignore[attr-defined]


def _seed(folder: Path) -> Path:
    """A database with one finished offline run and a study over its transcripts."""
    from annotation.assignment import create_study
    from annotation.study import load_study_file

    path = folder / "seed.db"
    store = open_store(path)
    config = ConsultationConfig(doctor=AgentSpec(kind="scripted"))
    spec = runs.create(store, load_bundled_cases()[:10], [config], concurrency=8)
    asyncio.run(runs.execute(store, spec))
    (folder / "study.toml").write_text(STUDY, encoding="utf-8")
    create_study(SqliteStudyStore(store.db), load_study_file(folder / "study.toml"))
    store.close()
    return path


def time_saves(seed: Path, folder: Path, durable: bool) -> float:
    """Seconds for SAVES rating saves (FULL sync when durable, else NORMAL)."""
    path = folder / "saves.db"
    shutil.copy(seed, path)
    store = SqliteStudyStore(open_store(path).db)
    if not durable:  # the ratings path asks for FULL itself; this measures without it
        import db.ratings as ratings

        plain = ratings.write
        ratings.write = lambda db, durable=False: plain(db)  # type: ignore[assignment]
    try:
        sid, rid = store.get_study("bench").id, store.get_rater("alice").id
        ids = [a.id for a in store.assignments(sid, rid)]
        start = time.perf_counter()
        for n in range(SAVES):
            store.save_ratings(ids[n % len(ids)], {(i, -1): (str(n % 5 + 1), None)
                                                   for i in ITEMS})
        return time.perf_counter() - start
    finally:
        if not durable:
            ratings.write = plain  # type: ignore[assignment]
        store.db.conn.close()


def time_run(folder: Path, mode: str, fenced: bool = True) -> float:
    """Seconds for an offline run of every bundled case with `synchronous=mode` (and the
    lease fence, unless not `fenced`)."""
    import db.consultations as recorder_module

    path = folder / f"run-{mode}-{fenced}.db"
    path.unlink(missing_ok=True)
    store = open_store(path)
    _sync(store.db, mode)
    config = ConsultationConfig(doctor=AgentSpec(kind="scripted"))
    spec = runs.create(store, load_bundled_cases(), [config], concurrency=8)
    check = recorder_module._HOLDS_LEASE
    if not fenced:  # a statement that always finds a row, as cheap as SQLite gets
        recorder_module._HOLDS_LEASE = "SELECT 1 WHERE ? IS NOT ? OR 1"
    try:
        start = time.perf_counter()
        asyncio.run(runs.execute(store, spec))
        took = time.perf_counter() - start
    finally:
        recorder_module._HOLDS_LEASE = check
    store.close()
    return took


def main(argv: list[str] | None = None) -> None:
    """Print the medians and ratios."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=6)
    p.add_argument("--dir", type=Path, default=None,
                   help="where the temporary files go (default: beside ~/.bedside's disk)")
    args = p.parse_args(argv)
    folder = Path(tempfile.mkdtemp(dir=args.dir))
    try:
        seed = _seed(folder)
        saves: dict[bool, list[float]] = {False: [], True: []}
        run: dict[str, list[float]] = {"NORMAL": [], "FULL": []}
        unfenced: list[float] = []
        kinds = [("NORMAL", True), ("FULL", True), ("NORMAL", False)]
        for i in range(args.runs):  # interleaved, in turns, so all see the same load
            for durable in (False, True):
                saves[durable].append(time_saves(seed, folder, durable))
            for mode, fenced in kinds[i % 3:] + kinds[:i % 3]:
                took = time_run(folder, mode, fenced)
                (run[mode] if fenced else unfenced).append(took)
        normal, full = statistics.median(saves[False]), statistics.median(saves[True])
        print(f"rating saves ({SAVES}): NORMAL {normal * 1000 / SAVES:.2f} ms/save, "
              f"FULL {full * 1000 / SAVES:.2f} ms/save, ratio {full / normal:.2f}")
        rn, rf = statistics.median(run["NORMAL"]), statistics.median(run["FULL"])
        print(f"offline run ({len(load_bundled_cases())} cases): NORMAL {rn:.2f} s, "
              f"FULL {rf:.2f} s, ratio {rf / rn:.2f}")
        ru = statistics.median(unfenced)
        print(f"lease fence (NORMAL): without {ru:.2f} s, with {rn:.2f} s, ratio {rn / ru:.2f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
