"""Every command the CLI offers is documented in the README; every key a screen shows is
documented in the README's Keys section and listed by the in-app help of that screen."""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

import tui.app.screens
from tui.cli import build_parser
from tui.app.screens.help import binding_keys, key_label

ROOT = Path(__file__).resolve().parents[1]


def _commands(parser: argparse.ArgumentParser, prefix: str = "bedside") -> list[str]:
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.append(f"{prefix} {name}")
                out.extend(_commands(sub, f"{prefix} {name}"))
    return out


def test_every_command_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`(bedside(?: [a-z][a-z-]*)*)", readme))
    commands = _commands(build_parser())
    leaves = [c for c in commands if not any(o.startswith(c + " ") for o in commands)]
    assert leaves, "no commands found"
    missing = [c for c in leaves if c not in documented]
    assert missing == []


# -- keys -------------------------------------------------------------------------------

def _screen_classes() -> dict[str, type[Any]]:
    """Every Screen and App class defined in the tui package (found, not listed by hand)."""
    names = ["tui.app.application", "tui.app.rating.screen", "tui.app.rating.widgets", "tui.app.widgets.confirm"] + [
        f"tui.app.screens.{m.name}" for m in pkgutil.iter_modules(tui.app.screens.__path__)]
    found: dict[str, type[Any]] = {}
    for name in names:
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Screen | App) and cls.__module__ == module.__name__:
                found[cls.__name__] = cls
    return found


def _shown(cls: type[Any]) -> list[Binding]:
    return [b for b in cls.BINDINGS if isinstance(b, Binding) and b.show and b.description]


def _keys_section() -> dict[str, list[str]]:
    """README Keys section: rows of the table under each '### … (`ClassName`)' heading."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Keys\n(.*?)(?=^## |\Z)", readme, re.M | re.S)
    assert match, "README has no '## Keys' section"
    sections: dict[str, list[str]] = {}
    current: list[str] = []
    for line in match.group(1).splitlines():
        heading = re.match(r"^### .*", line)
        if heading:
            current = []
            for name in re.findall(r"`(\w+)`", line):
                sections[name] = current
        elif line.startswith("|"):
            current.append(line)
    return sections


def _documented(rows: list[str], binding: Binding) -> bool:
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) < 2 or cells[1] != binding.description:
            continue
        shown = set(re.findall(r"`([^`]+)`", cells[0]))
        if all(key_label(k) in shown for k in binding_keys(binding)):
            return True
    return False


def test_every_shown_key_of_every_screen_is_in_the_readme() -> None:
    classes = _screen_classes()
    assert {"BedsideApp", "HomeScreen", "PlayScreen", "LiveScreen"} <= set(classes)
    sections = _keys_section()
    missing = []
    for name, cls in sorted(classes.items()):
        for binding in _shown(cls):
            rows = sections.get(name)
            if rows is None or not _documented(rows, binding):
                missing.append(f"{name}: {', '.join(binding_keys(binding))} "
                               f"({binding.description})")
    assert missing == []


def test_key_labels_read_as_people_write_them() -> None:
    assert [key_label(k) for k in ("ctrl+d", "f1", "escape", "question_mark", "p",
                                   "shift+tab", "pagedown")] == \
        ["Ctrl+D", "F1", "Esc", "?", "p", "Shift+Tab", "PgDn"]


def _in_app_screens(tmp_path: Path) -> dict[str, Any]:
    """A way to open each screen of the bedside app (rating has its own app and help)."""
    from core.caseio import load_bundled_cases
    from tui.app.screens.agenthospital import AgentHospitalScreen
    from tui.app.screens.analysis import AnalysisScreen
    from tui.app.screens.evolution import EvolutionScreen
    from tui.app.screens.fidelity import FidelityScreen
    from tui.app.screens.forms import DiagnosisScreen, PlaySetup, PlaySetupScreen
    from tui.app.screens.forms_batch import StartBatchScreen
    from tui.app.screens.forms_hospital import HospitalFormScreen
    from tui.app.screens.hospital import HospitalScreen
    from tui.app.screens.images import ImagesScreen
    from tui.app.screens.live import LiveScreen
    from tui.app.screens.patient_play import ActorSetup, ActorSetupScreen, PatientPlayScreen
    from tui.app.screens.play import PlayScreen
    from tui.app.screens.results import ResultsScreen
    from tui.app.screens.study_form import StudyFormScreen
    from tui.app.screens.transcript import TranscriptScreen
    from tui.app.widgets.confirm import ConfirmScreen

    case = load_bundled_cases()[0]
    return {
        "TranscriptScreen": lambda: TranscriptScreen("imp-seeded"),
        "LiveScreen": LiveScreen, "ResultsScreen": ResultsScreen,
        "FidelityScreen": FidelityScreen,
        "AnalysisScreen": lambda: AnalysisScreen(None), "StudyFormScreen": StudyFormScreen,
        "PlaySetupScreen": lambda: PlaySetupScreen(None, "ana"),
        "DiagnosisScreen": DiagnosisScreen, "ConfirmScreen": lambda: ConfirmScreen("Sure?"),
        "StartBatchScreen": StartBatchScreen,
        "ImagesScreen": lambda: ImagesScreen([], None),
        "PlayScreen": lambda: PlayScreen(case, PlaySetup("ana", case.id), hidden=False),
        "ActorSetupScreen": lambda: ActorSetupScreen(case.id, "sam"),
        "PatientPlayScreen": lambda: PatientPlayScreen(case, ActorSetup("sam", case.id)),
        "AgentHospitalScreen": lambda: AgentHospitalScreen("ana"),
        "EvolutionScreen": EvolutionScreen,
        "HospitalScreen": HospitalScreen, "HospitalFormScreen": HospitalFormScreen,
    }


async def test_the_help_of_every_screen_lists_its_shown_keys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.app_support import seed, wait_until
    from tui.app.application import BedsideApp
    from tui.app.screens.help import HelpScreen
    from tui.app.screens.home import HomeScreen

    monkeypatch.setenv("BEDSIDE_HOME", str(tmp_path))
    seed(tmp_path / "b.db")
    classes = _screen_classes()
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.cases)
        openers = {"HomeScreen": None, **_in_app_screens(tmp_path)}
        missing = []
        home = app.screen
        for name, opener in openers.items():
            if opener is not None:
                pushed = opener()
                await app.push_screen(pushed)  # waits until it is mounted
                await wait_until(pilot, lambda s=pushed: app.screen is s)
                await pilot.pause()  # its mount-time messages handled
            screen = app.screen
            await pilot.press("f1")
            await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
            listed = app.screen.bindings_shown
            for binding in [*_shown(classes[name]), *_shown(BedsideApp)]:
                labels = [key_label(k) for k in binding_keys(binding)]
                if not any(d == binding.description and set(labels) <= set(k.split(", "))
                           for k, d in listed):
                    missing.append(f"{name}: {binding.key} ({binding.description})")
            await pilot.press("escape")
            await wait_until(pilot, lambda s=screen: app.screen is s)
            if opener is not None:
                app.pop_screen()
                await wait_until(pilot, lambda: app.screen is home)
        assert missing == []
