"""`bedside serve` and the app entry point, plus the start-up path's imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import InputError
from tui.cli import build_parser
from tui.cmd_app import serve, serve_command

ROOT = Path(__file__).resolve().parents[1]


def test_serve_listens_on_localhost_by_default() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.func) == ("127.0.0.1", 8000, serve)
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9000"])
    assert (args.host, args.port) == ("0.0.0.0", 9000)


def test_serve_command_runs_the_app_on_the_chosen_database(tmp_path: Path) -> None:
    cmd = serve_command(str(tmp_path / "a b.db"))
    assert "-m tui.cli" in cmd and "'" + str(tmp_path / "a b.db") + "'" in cmd


def test_serve_rejects_a_bad_port() -> None:
    args = build_parser().parse_args(["serve", "--port", "70000"])
    with pytest.raises(InputError, match="--port"):
        serve(args)


def test_app_module_does_not_import_heavy_modules() -> None:
    # The start-up path: importing the app must not load litellm, the engine, the store
    # or pydantic models (they load after the first paint).
    code = ("import sys, tui.app\n"
            "print(sorted(m for m in ('litellm', 'core.engine', 'sqlite_utils', 'numpy',"
            " 'core.case') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[]"
