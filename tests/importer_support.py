"""Shared helpers for the importer tests: where the files in each peer format are, and small
readers of imported cases.

Two sets of files in the peer formats exist. `FIXTURES` are our own small files in
tests/fixtures/peers (original cases written for these tests, in the peers' layouts and key
names, with the real files' oddities), so that the default run needs nothing beside the
checkout. `real_samples()` are the peers' own samples, read in place from ../shared/peers (or
the folder named by the environment variable BEDSIDE_PEERS) by the extra run in tests/peers/
(see tests/conftest.py); a missing sample fails there with a message saying where it was
looked for — it is never skipped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from core.case import Case
from core.importers import ImportResult

TESTS = Path(__file__).resolve().parent
FIXTURE_ROOT = TESTS / "fixtures" / "peers"
RJUA_HEADER = "类目大项,类目子项,结果,约束,备注,上位词,得分项分类\n"


@dataclass(frozen=True)
class Samples:
    """One set of files in the peer formats (paths relative to `root`)."""

    root: Path
    medqa: str  # AgentClinic MedQA OSCE JSONL
    nejm: str  # AgentClinic NEJM JSONL
    aih_zh: str  # AI Hospital records, Chinese keys (JSON list)
    aih_en: str  # AI Hospital records, English keys (JSON list)
    dialog: str  # AI Hospital dialogue histories (JSONL)
    rjua: str  # RJUA standardized patient (CSV)
    checked: bool = False  # fail (never skip) when a file is missing

    def path(self, relative: str) -> Path:
        """The path of one file; for the real samples, fails with where it was expected."""
        path = self.root / relative
        if self.checked and not path.is_file():
            pytest.fail(f"peer sample '{relative}' not found in {self.root}: the samples are "
                        "expected in ../shared/peers beside the checkout, or in the folder "
                        "named by the environment variable BEDSIDE_PEERS", pytrace=False)
        return path

    def formats(self, *, dialog: bool = True, rjua: bool = True) -> list[tuple[str, str]]:
        """(format, relative path) of every file, for parametrised tests."""
        pairs = [("agentclinic", self.medqa), ("agentclinic-nejm", self.nejm),
                 ("aihospital", self.aih_zh), ("aihospital", self.aih_en)]
        return pairs + ([("aihospital-dialog", self.dialog)] if dialog else []) + \
            ([("rjua", self.rjua)] if rjua else [])


FIXTURES = Samples(
    root=FIXTURE_ROOT,
    medqa="agentclinic/medqa_fixture.jsonl",
    nejm="agentclinic/nejm_fixture.jsonl",
    aih_zh="ai_hospital/patients_zh_fixture.json",
    aih_en="ai_hospital/patients_en_fixture.json",
    dialog="ai_hospital/dialog_history_fixture.jsonl",
    rjua="rjua/sp_fixture.csv",
)


def peers_root() -> Path:
    """$BEDSIDE_PEERS (made absolute), else the shared folder beside the checkout."""
    override = os.environ.get("BEDSIDE_PEERS")
    return Path(override).resolve() if override else TESTS.parents[1] / "shared" / "peers"


def real_samples() -> Samples:
    """The peers' own samples, where `peers_root()` says (checked on use)."""
    return Samples(
        root=peers_root(),
        medqa="agentclinic/agentclinic_medqa_sample.jsonl",
        nejm="agentclinic/agentclinic_nejm_sample.jsonl",
        aih_zh="ai_hospital/patients_zh_sample.json",
        aih_en="ai_hospital/patients_en_sample.json",
        dialog="ai_hospital/dialog_history_sample.jsonl",
        rjua="rjua/sp_test_case.csv",
        checked=True,
    )


def roundtrip(result: ImportResult) -> None:
    """Every case validates and survives a dump/validate round trip unchanged."""
    for case in result.cases:
        again = Case.model_validate(case.model_dump())
        assert again == case
        assert Case.model_validate_json(case.model_dump_json()) == case


def tree_text(items: list[Any]) -> str:
    """The plain-text rendering of a list of finding trees."""
    return "\n".join(root.render() for root in items)


def string_leaves(value: Any) -> list[str]:
    """Every non-blank string leaf of a JSON value, depth first."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in string_leaves(v)]
    if isinstance(value, list):
        return [s for v in value for s in string_leaves(v)]
    return [value] if isinstance(value, str) and value.strip() else []


def find(items: list[Any], *path: str) -> Any:
    """The item at a name path (first match at each level)."""
    level, found = items, None
    for name in path:
        found = next(i for i in level if i.name == name)
        level = found.children
    return found


def rjua_sheet(tmp_path: Path, body: str, header: str = RJUA_HEADER, bom: bool = False) -> Path:
    """Write an RJUA sheet (header + body rows, optionally with a UTF-8 BOM) to sp.csv."""
    path = tmp_path / "sp.csv"
    path.write_bytes(("\ufeff" if bom else "").encode() + (header + body).encode("utf-8"))
    return path
