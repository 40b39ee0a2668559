"""Test-run configuration: the tests on the peers' own samples (tests/peers/) are an extra run.

The default run (the README's `python -m pytest -q -n auto --dist worksteal`) reads our own fixture files in
tests/fixtures/peers and needs nothing beside the checkout, so it does not collect
tests/peers/ at all (they are not shown as skipped). They are collected when asked for: with
the environment variable BEDSIDE_PEERS naming the folder that holds the samples (.ci/run
sets it to ../shared/peers), or with tests/peers named on the command line (the folder is
then ../shared/peers beside the checkout). Asked for with no such folder, the run stops at
once with an error saying where it looked — it never skips them or collects nothing.

Every test also gets its own bedside home (BEDSIDE_HOME): nothing a test saves (the last
physician's name in settings.json, a default database) lands in the user's ~/.bedside or is
seen by another test, whichever process (pytest-xdist worker) runs it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.importer_support import peers_root

PEER_TESTS = Path(__file__).resolve().parent / "peers"
_ASKED = pytest.StashKey[bool]()


def _inside_peer_tests(path: Path) -> bool:
    return path == PEER_TESTS or PEER_TESTS in path.parents


def peer_run_asked(args: list[str], invocation_dir: Path) -> bool:
    """True if BEDSIDE_PEERS is set or a command-line path lies in tests/peers."""
    if os.environ.get("BEDSIDE_PEERS"):
        return True
    paths = (invocation_dir / arg.split("::")[0] for arg in args if not arg.startswith("-"))
    return any(_inside_peer_tests(p.resolve()) for p in paths)


def pytest_configure(config: pytest.Config) -> None:
    """Decide once whether tests/peers runs; if it does, its folder must exist."""
    asked = peer_run_asked(config.args, config.invocation_params.dir)
    config.stash[_ASKED] = asked
    if asked and not peers_root().is_dir():
        raise pytest.UsageError(
            f"the tests on the peers' own samples were asked for, but {peers_root()} is not a "
            "folder: put the samples in ../shared/peers beside the checkout, or name their "
            "folder in the environment variable BEDSIDE_PEERS")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave tests/peers out of the default run (None: pytest's own rules decide)."""
    if not config.stash.get(_ASKED, False) and _inside_peer_tests(collection_path.resolve()):
        return True
    return None


@pytest.fixture(autouse=True)
def _own_bedside_home(tmp_path_factory: pytest.TempPathFactory,
                      monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty BEDSIDE_HOME for each test; no physician name from the environment."""
    home = tmp_path_factory.mktemp("bedside-home")
    monkeypatch.setenv("BEDSIDE_HOME", str(home))
    monkeypatch.delenv("BEDSIDE_DOCTOR", raising=False)
    return home

