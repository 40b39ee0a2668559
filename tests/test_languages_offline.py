"""One offline consultation per language (issue 12), through the real engine and batch:
scripted doctor, retrieval patient and examiner, exact moderator, stored in SQLite. In each
of the eight languages the doctor asks in the case's language and the patient and examiner
answer in it (`core.language` reads each answer; none may read as another language), the
examiner's "normal" is the case language's word, and a verdict is reached."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.agents.templates import phrase
from core.caseio import load_bundled_cases
from core.language import detect_language
from db.store import open_store
from tui.cli import main

LANGUAGES = ("en", "es", "fr", "de", "zh-Hans", "hi", "fa", "ko")
CASES = {lang: next(c for c in load_bundled_cases() if c.language == lang) for lang in LANGUAGES}


def _base(tag: str) -> str:
    return tag.split("-")[0]


def test_one_consultation_per_language_stays_in_its_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "x.db")
    ids = ",".join(c.id for c in CASES.values())
    assert main(["run", "--db", db, "--cases", ids, "--json"]) == 0
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    store = open_store(db)
    rows = {c.case_id: c for c in store.list_consultations(run_id=run_id)}
    assert set(rows) == {c.id for c in CASES.values()}
    for lang, case in CASES.items():
        row = rows[case.id]
        assert row.status == "finished" and row.correct is not None, (lang, row.status)
        turns = list(store.db["turns"].rows_where("consultation_id = ?", [row.id],
                                                  order_by="idx"))
        said = {role: [t["content"] for t in turns if t["role"] == role]
                for role in ("doctor", "patient", "examiner")}
        questions = [t for t in said["doctor"] if not t.startswith(("REQUEST TEST",
                                                                    "DIAGNOSIS READY"))]
        answers = said["patient"] + said["examiner"]
        read = [detect_language(t) for t in [*questions, *answers]]
        assert len(questions) >= 6 and len(said["patient"]) >= 6, lang
        # Every text that says its language says the case's; most of them say it.
        assert {r for r in read if r} == {_base(lang)}, (lang, read)
        assert read.count(_base(lang)) >= len(read) // 2, (lang, read)
        normal = phrase(lang, "normal")
        assert any(f": {normal}" in t for t in said["examiner"]), (lang, said["examiner"])
