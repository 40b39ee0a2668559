"""Every command the CLI offers is documented in the README (and vice versa)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from tui.cli import build_parser

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
