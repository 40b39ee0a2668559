"""Hostile YAML (issue 18, item 3): an alias bomb and a deeply nested file are refused with
one line naming the file and line, by the case loader, `cases validate`, every command that
loads the case library, and the study loader, instead of hanging or raising RecursionError.

The bomb is the classic "billion laughs": nine anchors, each a list of nine aliases of the
one before, 343 bytes that expand to 9⁹ strings; line 6 is the first whose value
expands past the bound (9⁶ values). The loader's own tests run under a
SIGALRM deadline so that a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from core.caseio import load_case_file, load_cases
from core.errors import InputError
from core.usecases.case_checks import check_case_text

ROOT = Path(__file__).resolve().parents[1]


def bomb_text() -> str:
    lines = ['id: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def deep_text(levels: int = 900) -> str:
    """A case whose title is a list nested `levels` deep, one level a line (line 2 opens it)."""
    return "id: deep-001\ntitle:\n" + "".join("  " * i + "-\n" for i in range(1, levels)) \
        + "  " * levels + "- x\n"


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail (TimeoutError) instead of hanging when the code inside runs too long."""
    def _raise(*_: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, _raise)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_bomb_is_small() -> None:
    assert len(bomb_text().encode()) < 400


@pytest.mark.parametrize("name, text, line, words", [
    ("bomb.yaml", bomb_text(), 6, "aliases"),
    ("deep.yaml", deep_text(), 2 + 100, "nested"),
], ids=["bomb", "deep"])
def test_the_loader_refuses_with_file_and_line(tmp_path: Path, name: str, text: str,
                                               line: int, words: str) -> None:
    path = _write(tmp_path, name, text)
    with deadline(20):
        with pytest.raises(InputError) as got:
            load_case_file(path)
        assert str(got.value).startswith(f"{path}:{line}: ")
        assert words in str(got.value)
        with pytest.raises(InputError):
            load_cases(tmp_path)
        (problem,) = check_case_text(text, str(path))
        assert str(problem) == str(got.value)


def test_an_alias_that_contains_itself_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "loop.yaml", "id: loop-001\ntitle: &t [x, *t]\n")
    with deadline(20), pytest.raises(InputError, match=r"loop.yaml:2: .*contains itself"):
        load_case_file(path)


def test_a_few_aliases_still_load(tmp_path: Path) -> None:
    """Anchors are legal YAML: a case that reuses a value stays valid."""
    from core.caseio import bundled_cases_dir

    text = (bundled_cases_dir() / "cardiology" / "card-001-inferior-stemi.yaml").read_text()
    text = text.replace("title: ", "title: &title ", 1) + "# the same title\n"
    case = load_case_file(_write(tmp_path, "card.yaml", text))
    assert case.id == "card-001"


def _bedside(*args: str, home: Path, pythonpath: Path | None = None
             ) -> subprocess.CompletedProcess[str]:
    env = {"BEDSIDE_HOME": str(home), "PATH": "/usr/bin:/bin", "HOME": str(home)}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    # The working folder comes first on sys.path: the checkout's own `cases` would win.
    return subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=pythonpath or ROOT,
                          env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name, text, line", [("bomb.yaml", bomb_text(), 6),
                                              ("deep.yaml", deep_text(), 102)],
                         ids=["bomb", "deep"])
def test_cases_validate_says_which_file_and_line(tmp_path: Path, name: str, text: str,
                                                 line: int) -> None:
    path = _write(tmp_path, name, text)
    out = _bedside("cases", "validate", str(path), home=tmp_path)
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr and out.stderr == ""
    assert out.stdout.splitlines()[0].startswith(f"{path}:{line}: ")
    assert out.stdout.splitlines()[-1] == "1 files checked, 1 problems"


def test_a_bomb_in_the_library_stops_commands_with_one_line(tmp_path: Path) -> None:
    """The library is the `cases` package: a `cases` folder first on PYTHONPATH stands in
    for a checkout whose library holds the bomb."""
    library = tmp_path / "lib" / "cases"
    (library / "x").mkdir(parents=True)
    (library / "__init__.py").write_text("")
    bomb = _write(library / "x", "bomb.yaml", bomb_text())
    for command in (["cases", "list"], ["run", "--limit", "1"]):
        out = _bedside(*command, home=tmp_path, pythonpath=tmp_path / "lib")
        assert out.returncode == 2, (command, out.stderr)
        assert out.stderr.count("\n") == 1 and f"{bomb}:6: " in out.stderr, out.stderr


def test_a_study_file_bomb_is_refused(tmp_path: Path) -> None:
    from annotation.study import load_study_file

    for name, text in (("bomb.yaml", bomb_text()), ("deep.yaml", deep_text())):
        path = _write(tmp_path, name, text.replace("id:", "name:"))
        with deadline(20), pytest.raises(InputError, match=rf"{name}:\d+: "):
            load_study_file(path)
