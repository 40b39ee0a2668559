"""The test run's own setup (tests/conftest.py): the tests on the peers' own samples are left
out of the default run and fail loudly when asked for without their folder; every test has
its own bedside home, never the user's ~/.bedside.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import PEER_TESTS, peer_run_asked

ROOT = Path(__file__).resolve().parents[1]


def _pytest(*args: str, peers: str | None = None) -> subprocess.CompletedProcess:
    """pytest in a fresh process (one worker), BEDSIDE_PEERS as given (unset by default)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("BEDSIDE_PEERS", "PYTEST_ADDOPTS") and not k.startswith("PYTEST_XDIST")}
    if peers is not None:
        env["BEDSIDE_PEERS"] = peers
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)


# Collecting only what is not a tests/test_*.py module keeps these runs short: what is left
# to collect is tests/peers/, which the default run must leave out.
ONLY_PEERS = "--ignore-glob=tests/test_*.py"  # relative to the checkout, where _pytest runs


def test_the_default_run_leaves_the_peer_tests_out(tmp_path: Path) -> None:
    out = _pytest("--collect-only", "-q", ONLY_PEERS)
    assert out.returncode == 5, out.stdout + out.stderr  # pytest's "no tests collected"
    assert "tests/peers" not in out.stdout
    asked = _pytest("--collect-only", "-q", ONLY_PEERS, peers=str(tmp_path))
    assert asked.returncode == 0, asked.stdout + asked.stderr
    assert "tests/peers/test_real_importers.py::test_agentclinic_sample" in asked.stdout


def test_asked_for_without_the_samples_the_run_stops_saying_where(tmp_path: Path) -> None:
    nowhere = tmp_path / "nowhere"
    out = _pytest("-q", "tests/peers", peers=str(nowhere))
    assert out.returncode == 4  # pytest's usage error: nothing ran, nothing was skipped
    assert f"{nowhere} is not a folder" in out.stderr and "BEDSIDE_PEERS" in out.stderr
    assert "passed" not in out.stdout and "skipped" not in out.stdout


def test_asked_for_the_peer_tests_are_collected(tmp_path: Path) -> None:
    out = _pytest("--collect-only", "-q", "tests/peers", peers=str(tmp_path))
    assert out.returncode == 0, out.stdout + out.stderr
    peer_tests = [ln for ln in out.stdout.splitlines() if ln.startswith("tests/peers/")]
    assert len(peer_tests) >= 50
    assert "tests/peers/test_real_importers.py::test_agentclinic_sample" in peer_tests


def test_what_asks_for_the_peer_tests(monkeypatch) -> None:
    monkeypatch.delenv("BEDSIDE_PEERS", raising=False)
    assert not peer_run_asked([], ROOT)
    assert not peer_run_asked(["tests"], ROOT)  # the default run names the parent folder
    assert not peer_run_asked(["tests/test_importers.py", "-k", "peers"], ROOT)
    assert peer_run_asked(["tests/peers"], ROOT)
    assert peer_run_asked(["peers/test_real_store.py::test_x"], ROOT / "tests")
    assert peer_run_asked([str(PEER_TESTS / "test_real_shapes.py")], Path("/"))
    monkeypatch.setenv("BEDSIDE_PEERS", "/anywhere")
    assert peer_run_asked(["tests/test_importers.py"], ROOT)


def test_each_test_has_its_own_bedside_home() -> None:
    from db.connection import bedside_home
    from tui.app.services import save_settings, settings_path

    home = Path(os.environ["BEDSIDE_HOME"])
    assert home != Path.home() / ".bedside" and home.is_dir() and not any(home.iterdir())
    assert "BEDSIDE_DOCTOR" not in os.environ
    assert bedside_home() == home and settings_path().parent == home
    save_settings(doctor_name="dr-setup")  # what playing a case saves
    assert [p.name for p in home.iterdir()] == ["settings.json"]


def test_ci_runs_the_readme_test_command_then_the_peer_tests() -> None:
    """.ci/run: the README's test command exactly, then the real samples apart."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)\n```", readme, re.S)
    (command,) = [b for b in blocks if "pip install -e '.[test]'" in b]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in ci and "pytest -q" in command
    peers = "BEDSIDE_PEERS=../shared/peers .venv/bin/python -m pytest -q tests/peers"
    assert ci.index(peers) > ci.index(command) and peers in blocks
    assert "set -euo pipefail" in ci  # a failing run fails CI
