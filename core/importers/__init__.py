"""Importers from the peer benchmarks' own file formats into our Case and Transcript models.

`import_file(fmt, path)` is the one entry point; `FORMATS` names and describes the formats.
Every problem with the input is a one-line `InputError` naming file, line and field.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.errors import InputError
from core.importers.agentclinic import import_agentclinic
from core.importers.agentclinic_nejm import import_agentclinic_nejm
from core.importers.aihospital import import_aihospital
from core.importers.aihospital_collab import import_aihospital_collaboration
from core.importers.aihospital_dialog import import_aihospital_dialog
from core.importers.base import ImportResult
from core.importers.rjua import import_rjua

FORMATS: dict[str, str] = {
    "agentclinic": "AgentClinic OSCE JSONL (MedQA / MedQA-extended), one case per line",
    "agentclinic-nejm": "AgentClinic NEJM image-challenge JSONL, one case per line",
    "aihospital": "AI Hospital / MVME patient records (JSON list or JSONL, Chinese or English)",
    "aihospital-dialog": "AI Hospital dialogue histories (JSONL) as imported transcripts",
    "aihospital-collaboration": "AI Hospital collaboration outputs (JSONL, one patient per "
                                "line) as joint results linked to the doctors' dialogues",
    "rjua": "RJUA-SPs standardized-patient CSV, one patient per file",
}

_IMPORTERS: dict[str, Callable[[Path], ImportResult]] = {
    "agentclinic": import_agentclinic,
    "agentclinic-nejm": import_agentclinic_nejm,
    "aihospital": import_aihospital,
    "aihospital-dialog": import_aihospital_dialog,
    "aihospital-collaboration": import_aihospital_collaboration,
    "rjua": import_rjua,
}


def import_file(fmt: str, path: Path, language: str | None = None) -> ImportResult:
    """Import one file in a peer format; InputError on an unknown format or bad input.
    `language` (AgentClinic files only) is the cases' language; without it each case's is
    read from its text."""
    importer = _IMPORTERS.get(fmt)
    if importer is None:
        raise InputError(f"unknown format '{fmt}' (formats: {', '.join(FORMATS)})",
                         field="format")
    if language is not None and fmt != "agentclinic":
        raise InputError(f"--language is for agentclinic files; {fmt} files say their own",
                         field="--language")
    path = Path(path)
    if path.is_dir():
        raise InputError("is a folder; give one file", path=str(path))
    if not path.is_file():
        raise InputError("no such file", path=str(path))
    return import_agentclinic(path, language) if fmt == "agentclinic" else importer(path)


__all__ = ["FORMATS", "ImportResult", "import_file"]
