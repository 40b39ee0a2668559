"""`bedside …` in the test's own process, answered as `subprocess.run` would answer it
(return code, stdout, stderr): the same command line and home, without an interpreter
start and its imports to pay for, where a process of its own is not what is tested."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import traceback
from pathlib import Path

from tui.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, home: Path) -> subprocess.CompletedProcess:
    """Run `bedside ARGS` with BEDSIDE_HOME and HOME at `home`, in the project folder; an
    exception that escapes is code 1 and its traceback on stderr, as Python would exit."""
    out, err = io.StringIO(), io.StringIO()
    saved_env = {k: os.environ.get(k) for k in ("BEDSIDE_HOME", "HOME")}
    saved_cwd = os.getcwd()
    os.environ.update(BEDSIDE_HOME=str(home), HOME=str(home))
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as done:  # argparse's usage errors, --help
                code = done.code if isinstance(done.code, int) else (0 if done.code is None
                                                                      else 1)
            except Exception:
                traceback.print_exc()
                code = 1
    finally:
        os.chdir(saved_cwd)
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return subprocess.CompletedProcess(["bedside", *args], code, out.getvalue(),
                                       err.getvalue())
