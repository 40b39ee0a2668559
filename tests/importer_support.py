"""Shared helpers for the importer tests (tests/test_importers*.py): where the peer samples
are, and small readers of imported cases.

The samples are read in place from the shared folder beside the repo, never copied. They are
expected in ../shared/peers beside the checkout (as in CI); the environment variable
BEDSIDE_PEERS names another folder. A missing sample fails the test with a message saying
where it was looked for — it is never skipped.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from core.case import Case
from core.importers import ImportResult

MEDQA = "agentclinic/agentclinic_medqa_sample.jsonl"
NEJM = "agentclinic/agentclinic_nejm_sample.jsonl"
AIH_ZH = "ai_hospital/patients_zh_sample.json"
AIH_EN = "ai_hospital/patients_en_sample.json"
DIALOG = "ai_hospital/dialog_history_sample.jsonl"
RJUA = "rjua/sp_test_case.csv"
RJUA_HEADER = "类目大项,类目子项,结果,约束,备注,上位词,得分项分类\n"


def peers_root() -> Path:
    """$BEDSIDE_PEERS, else the shared folder beside the checkout."""
    override = os.environ.get("BEDSIDE_PEERS")
    return Path(override) if override else Path(__file__).resolve().parents[2] / "shared" / "peers"


def peer(relative: str) -> Path:
    """The path of a peer sample; fails (never skips) with where it was expected."""
    path = peers_root() / relative
    if not path.is_file():
        pytest.fail(f"peer sample '{relative}' not found in {peers_root()}: the samples are "
                    "expected in ../shared/peers beside the checkout, or in the folder named "
                    "by the environment variable BEDSIDE_PEERS", pytrace=False)
    return path


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
