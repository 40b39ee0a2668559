"""`bedside serve`, the app's entry point and its database check, and the start-up path's
imports (through `tui.cli.main`, as the `bedside` script runs it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import InputError
from tui.cli import app_only_args, build_parser
from db.files import check_database
from tui.cli.interactive import serve, serve_command

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("litellm", "core.engine", "sqlite_utils", "numpy", "core.case", "tui.cli.cases",
         "db.metrics", "textual_serve")


def _bedside(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


def test_serve_listens_on_localhost_by_default() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.func) == ("127.0.0.1", 8000, serve)
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9000"])
    assert (args.host, args.port) == ("0.0.0.0", 9000)


def test_serve_command_runs_the_app_on_the_chosen_database(tmp_path: Path) -> None:
    cmd = serve_command(str(tmp_path / "a b.db"))
    assert "-m tui.cli" in cmd and "'" + str(tmp_path / "a b.db") + "'" in cmd


def test_serve_rejects_a_bad_port_and_a_bad_database(tmp_path: Path) -> None:
    args = build_parser().parse_args(["serve", "--port", "70000"])
    with pytest.raises(InputError, match="--port"):
        serve(args)
    (tmp_path / "x.db").write_text("not sqlite", encoding="utf-8")
    args = build_parser().parse_args(["serve", "--db", str(tmp_path / "x.db")])
    with pytest.raises(InputError, match="not a bedside database"):
        serve(args)


def test_only_the_app_forms_skip_the_full_parser() -> None:
    assert app_only_args([]).db is None
    assert app_only_args(["--db", "x.db"]).db == "x.db"
    assert app_only_args(["--db=x.db"]).db == "x.db"
    for argv in (["--help"], ["-h"], ["cases", "list"], ["--db", "x.db", "cases", "list"],
                 ["--db"], ["--db", "--help"], ["--dbx", "y"], ["serve"]):
        assert app_only_args(argv) is None, argv


def test_the_app_entry_path_imports_nothing_heavy(tmp_path: Path) -> None:
    # The real entry (`bedside --db X` → tui.cli.main): when the app is about to start, none
    # of the heavy modules may be loaded (they load after the first paint). App.run is
    # replaced so no terminal is needed; everything before it runs as for a user.
    code = (
        "import json, sys\n"
        "import textual.app\n"
        "def run(self, *a, **k):\n"
        f"    print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n"
        "textual.app.App.run = run\n"
        "from tui.cli import main\n"
        "sys.exit(main())\n")
    out = subprocess.run([sys.executable, "-c", code, "--db", str(tmp_path / "a.db")],
                         cwd=ROOT, capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_help_still_lists_every_command() -> None:
    out = _bedside("--help")
    assert out.returncode == 0
    assert all(name in out.stdout for name in ("cases", "run", "serve"))


@pytest.mark.parametrize("target, message", [
    ("notadb.db", "not a bedside database"),
    ("/proc/nope/x.db", "the folder /proc/nope does not exist"),
    (".", "is a folder"),
])
def test_a_bad_database_is_one_line_and_exit_status_2(tmp_path: Path, target: str,
                                                      message: str) -> None:
    (tmp_path / "notadb.db").write_text("hello, not a database\n", encoding="utf-8")
    path = str(tmp_path / target) if not target.startswith("/") else target
    out = subprocess.run([sys.executable, "-m", "tui.cli", "--db", path],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in out.stderr
    assert out.stdout == ""  # the app never took the terminal


def test_check_database_accepts_new_and_existing_databases(tmp_path: Path) -> None:
    from db.connection import open_db

    assert check_database(tmp_path / "new.db") == tmp_path / "new.db"
    with pytest.raises(InputError, match="does not exist"):
        check_database(tmp_path / "sub" / "new.db")  # a mistyped folder is not made
    assert not (tmp_path / "sub").exists()
    open_db(tmp_path / "old.db")
    before = (tmp_path / "old.db").read_bytes()
    assert check_database(tmp_path / "old.db") == tmp_path / "old.db"
    assert (tmp_path / "old.db").read_bytes() == before  # opened read-only


def test_open_app_returns_the_app_exit_status(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from tui.app.application import BedsideApp
    from tui.cli.interactive import open_app

    real_run = BedsideApp.run

    def headless(self: BedsideApp) -> None:  # the real app, without a terminal
        self._first_paint_hook = lambda app: app.exit(return_code=3)
        real_run(self, headless=True, size=(80, 24))

    monkeypatch.setattr(BedsideApp, "run", headless)
    assert open_app(argparse.Namespace(db=str(tmp_path / "a.db"))) == 3
