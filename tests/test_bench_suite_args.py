"""`benchmarks.bench_suite --log DIR` makes its folder before the first run (it used to fail
after ten minutes of testing, writing the first run's output to a folder not there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import bench_suite


def test_the_log_folder_is_made_before_any_run(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Path | None] = []

    def run_once(side: bench_suite.Side, workers: int, durations: bool,
                 log: Path | None = None) -> None:
        assert log is not None and log.parent.is_dir()  # where the real run writes
        seen.append(log)
        side.walls.append(1.0)
        side.cpus.append(1.0)

    monkeypatch.setattr(bench_suite, "run_once", run_once)
    monkeypatch.setattr(bench_suite, "report", lambda sides, files: None)
    folder = tmp_path / "not" / "there"
    assert bench_suite.main(["--runs", "1", "--log", str(folder)]) == 0
    assert seen == [folder / "this-1.txt"]
