"""Replay files: the doctor's messages of each case, said exactly as written.

A replay file is JSON Lines, one line per case or glob of cases:

    {"case": "card-001", "say": ["What brings you in?", "REQUEST TEST: ECG"],
     "diagnosis": "Inferior STEMI"}
    {"case": "*", "say": ["Do you smoke?"]}

`say` is the doctor's messages in order (questions, `REQUEST TEST: ...` lines); the doctor
then writes `DIAGNOSIS READY:` with `diagnosis` (or nothing). A case's own line wins over a
glob; among globs, the first line of the file that matches wins. Ids and globs compare
case-insensitively, as `--cases` does. Holding the doctor fixed this way lets patient and
examiner agents be compared on identical questions, and a physician's recorded questions be
replayed against a model patient.

`load_replay(path)` reads and checks a file (a bad line is one `InputError` naming the file
and line) and gives its content hash, which the replay doctor's spec carries: a changed
file makes a new configuration, and a run whose file changed since it began stops with a
clear message instead of replaying other questions.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import InputError
from core.protocol import parse_doctor_message

#: The doctor's turn budget is at most this (ConsultationConfig.max_turns), and the
#: diagnosis takes one turn: a case may have at most this many messages.
MAX_MESSAGES = 199


class ReplayLine(BaseModel):
    """One line of a replay file: what the doctor says on the cases it names."""

    model_config = ConfigDict(extra="forbid")

    case: str = Field(min_length=1, description="A case id, or a glob of ids ('*', "
                      "'card-*'); a case's own line wins over a glob.")
    say: list[str] = Field(description="The doctor's messages, in order: questions and "
                           "`REQUEST TEST: ...` lines.")
    diagnosis: str | None = Field(None, description="What the doctor writes after "
                                  "`DIAGNOSIS READY:` (nothing when absent).")

    @property
    def is_glob(self) -> bool:
        """Whether the line names cases by a pattern."""
        return any(c in self.case for c in "*?[")


@dataclass(frozen=True)
class ReplayScript:
    """A loaded replay file."""

    path: str  # absolute
    digest: str  # sha256 of the file's bytes
    lines: tuple[ReplayLine, ...]

    def for_case(self, case_id: str) -> ReplayLine | None:
        """The line that applies to a case: its own, else the first glob matching it."""
        low = case_id.lower()
        for line in self.lines:
            if not line.is_glob and line.case.lower() == low:
                return line
        for line in self.lines:
            if line.is_glob and fnmatchcase(low, line.case.lower()):
                return line
        return None

    def uncovered(self, case_ids: list[str]) -> list[str]:
        """The cases no line applies to."""
        return [c for c in case_ids if self.for_case(c) is None]

    def longest(self, case_ids: list[str]) -> int:
        """The most messages any of these cases is given."""
        return max((len(line.say) for c in case_ids if (line := self.for_case(c))),
                   default=0)


def file_digest(data: bytes) -> str:
    """The content hash a replay doctor records (sha256, hex)."""
    return hashlib.sha256(data).hexdigest()


def read_bytes(path: Path) -> bytes:
    """The file's bytes; an unreadable file is one InputError naming it."""
    try:
        return path.read_bytes()
    except OSError as err:
        raise InputError(f"cannot read the replay file ({err.strerror or err})",
                         path=str(path)) from None


def load_replay(path: Path | str) -> ReplayScript:
    """Read and check a replay file."""
    where = Path(path).expanduser().resolve()
    data = read_bytes(where)
    return parse_replay(data, str(where))


def parse_replay(data: bytes, path: str) -> ReplayScript:
    """Check a replay file's content; every problem is one InputError naming file and line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", path=path) from None
    lines: list[ReplayLine] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        line = _parse_line(raw, path, number)
        key = line.case.lower()
        if key in seen:
            raise InputError(f"a second line for '{line.case}' (the first is line "
                             f"{seen[key]})", path=path, line=number, field="case")
        seen[key] = number
        lines.append(line)
    if not lines:
        raise InputError("no line in the replay file", path=path)
    return ReplayScript(path=path, digest=file_digest(data), lines=tuple(lines))


def _parse_line(raw: str, path: str, number: int) -> ReplayLine:
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as err:
        raise InputError(f"not JSON ({err.msg})", path=path, line=number) from None
    if not isinstance(value, dict):
        raise InputError("expected a JSON object with 'case' and 'say'", path=path,
                         line=number)
    try:
        line = ReplayLine.model_validate(value)
    except ValidationError as err:
        first = err.errors()[0]
        field = ".".join(str(x) for x in first["loc"]) or None
        raise InputError(first["msg"], path=path, line=number, field=field) from None
    _check_messages(line, path, number)
    return line


def _check_messages(line: ReplayLine, path: str, number: int) -> None:
    if len(line.say) > MAX_MESSAGES:
        raise InputError(f"{len(line.say)} messages; at most {MAX_MESSAGES} fit the "
                         "200-turn budget with the diagnosis", path=path, line=number,
                         field="say")
    for i, message in enumerate(line.say):
        if not message.strip():
            raise InputError("an empty message", path=path, line=number, field=f"say.{i}")
        if parse_doctor_message(message).kind == "diagnosis":
            raise InputError("a diagnosis among the messages would end the consultation "
                             "there; put it in 'diagnosis'", path=path, line=number,
                             field=f"say.{i}")
