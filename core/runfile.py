"""Run files: a run, sweep included, written as TOML (`bedside run --config FILE.toml`).

The keys are those of `bedside run`'s options with underscores (`max_turns`, `api_base`):
every experimental factor (`core.factors`: a value or a list of values, the run is the grid)
and the run's settings below. Command-line options override the file's keys. The file as
given is stored with the run, so a published experiment is one file anyone can re-run.

    name = "bias sweep"
    cases = "cardiology"
    doctor = ["openai/model-a", "openai/model-b"]
    patient_bias = ["none", "self_diagnosis"]
    max_turns = [10, 20]
    api_base = "http://127.0.0.1:8000/v1"

A file that cannot be read, an unknown key, a value of the wrong type or a bad value is
one InputError naming the file, the line and the key. API keys never belong in a file that
is stored: a text that looks like one is refused (keys come from the environment, named by
`api_key_env`).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.factors import FACTORS

# Settings of a run that are not factors: key → (type(s) allowed, what the value is).
SETTINGS: dict[str, tuple[tuple[type, ...], str]] = {
    "name": ((str,), "a name for the run"),
    "cases": ((str, list), "case ids, sources, specialties or languages"),
    "limit": ((int,), "at most N cases"),
    "api_base": ((str,), "an OpenAI-compatible server URL"),
    "api_key_env": ((str,), "the environment variable holding the key"),
    "temperature": ((int, float), "sampling temperature"),
    "max_tokens": ((int,), "reply limit in tokens"),
    "timeout": ((int, float), "seconds per model call"),
    "retries": ((int,), "retries per model call"),
    "seed": ((int,), "the seed"),
    "final_report": ((bool,), "true or false"),
    "one_step": ((bool,), "true or false"),
    "concurrency": ((int,), "consultations at once"),
    "model_limit": ((dict,), "a table of MODEL = N"),
}
_KEY_LIKE = re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}")


@dataclass
class RunFile:
    """A run file, read and checked: its keys, their lines, and the text as given."""

    path: str
    text: str
    values: dict[str, Any] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)

    def factors(self) -> dict[str, list[str]]:
        """Each factor the file gives, as a list of value texts."""
        out: dict[str, list[str]] = {}
        for name in FACTORS:
            if name in self.values:
                raw = self.values[name]
                out[name] = [_text(v) for v in (raw if isinstance(raw, list) else [raw])]
        return out

    def error(self, key: str, message: str) -> InputError:
        """An InputError naming this file, the key's line and the key."""
        return InputError(message, path=self.path, line=self.lines.get(key), field=key)

    def stored(self) -> dict[str, Any]:
        """What the run stores of the file: its name, text and sha256."""
        return {"path": Path(self.path).name, "text": self.text,
                "sha256": hashlib.sha256(self.text.encode("utf-8")).hexdigest()}


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _key_lines(text: str) -> dict[str, int]:
    """The line each top-level key is written on (tomllib does not say)."""
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        m = re.match(r"\s*\"?([A-Za-z0-9_\-]+)\"?\s*=", line) or \
            re.match(r"\s*\[\s*([A-Za-z0-9_\-]+)\s*\]", line)
        if m and m.group(1) not in lines:
            lines[m.group(1)] = number
    return lines


def _check_value(run: RunFile, key: str, value: Any) -> None:
    if key in FACTORS:
        items = value if isinstance(value, list) else [value]
        if not items or any(isinstance(v, (list, dict)) for v in items) or \
                not all(isinstance(v, (str, int, float, bool)) for v in items):
            raise run.error(key, "must be a value or a list of values")
        return
    if key not in SETTINGS:
        known = ", ".join([*FACTORS, *SETTINGS])
        raise run.error(key, f"unknown key (known: {known})")
    types, what = SETTINGS[key]
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise run.error(key, f"must be {what} (got {value!r})")
    if isinstance(value, dict) and not all(isinstance(n, int) and not isinstance(n, bool)
                                           and n >= 1 for n in value.values()):
        raise run.error(key, "each MODEL = N must have N a whole number of at least 1")


def load(path: str | Path) -> RunFile:
    """Read and check a run file; InputError (file, line, key) when it cannot be used."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read the run file ({err.__class__.__name__}: "
                         f"{getattr(err, 'strerror', None) or err})", path=where) from None
    for number, line in enumerate(text.splitlines(), start=1):
        if _KEY_LIKE.search(line):
            raise InputError("this looks like an API key; keys are read from the "
                             "environment (api_key_env), never from a file that is stored "
                             "with the run", path=where, line=number)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"line (\d+)", str(err))
        raise InputError(f"not valid TOML ({str(err).split(' (at')[0]})", path=where,
                         line=int(m.group(1)) if m else None) from None
    run = RunFile(path=where, text=text, values=data, lines=_key_lines(text))
    for key, value in data.items():
        _check_value(run, key, value)
    return run
