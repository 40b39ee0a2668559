"""`bedside cases translate` (issue 12) against the local OpenAI-compatible server, through
litellm: the copy is a new case in the target language, linked to its original and flagged
for review (in `cases list` and its JSON), with every text translated and every code,
number and kind kept; names keep their originals; the expected inquiry order still resolves.
A reply that leaves texts untranslated, or a failed call, saves nothing and exits non-zero."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.caseio import load_bundled_cases, load_case_file
from core.metrics.trace import case_items, step_key
from tests.fake_openai_server import FakeOpenAIServer
from tui.cli import main

ORIGINAL = {c.id: c for c in load_bundled_cases()}["card-001"]


def test_a_translated_copy_is_linked_flagged_and_complete(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, out = str(tmp_path / "x.db"), tmp_path / "card-001-hi.yaml"
    with FakeOpenAIServer(latency=0.0) as server:
        code = main(["cases", "translate", "card-001", "--to", "hi", "--model", "openai/fake",
                     "--api-base", server.base_url, "--db", db, "-o", str(out)])
        system = server.requests[-1]["messages"][0]["content"]
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert "card-001-hi" in printed.out and "flagged for review" in printed.out
    assert "bedside/translator/v1" in system and "Hindi (हिन्दी)" in system
    copy = load_case_file(out)
    assert (copy.id, copy.language, copy.translated_from) == ("card-001-hi", "hi", "card-001")
    assert copy.machine_translated and copy.needs_review and "card-001" in (copy.notes or "")
    assert copy.title.startswith("हिन्दी: ") and copy.patient.chief_complaint.startswith("हिन्दी: ")
    assert all(h.text.startswith("हिन्दी: ") for h in copy.patient.history)
    # Codes, numbers and kinds are kept; names keep their originals beside the translation.
    assert copy.truth.icd10 == ORIGINAL.truth.icd10 and copy.specialty == ORIGINAL.specialty
    assert [h.kind for h in copy.patient.history] == [h.kind for h in ORIGINAL.patient.history]
    assert ORIGINAL.truth.diagnosis in copy.truth.synonyms
    assert "ECG" in copy.tests[0].synonyms and "हिन्दी: ECG" in copy.tests[0].synonyms
    items = case_items(copy)
    assert all(step_key(s, items) for s in copy.expected_inquiry_order)
    # Listed with its flag, in the table and the JSON.
    assert main(["cases", "list", "--db", db]) == 0
    table = capsys.readouterr().out
    assert "[MT review]" in table and "needs review" in table and "card-001-hi" in table
    assert main(["cases", "list", "--json", "--db", db]) == 0
    row = next(r for r in json.loads(capsys.readouterr().out) if r["id"] == "card-001-hi")
    assert row["needs_review"] and row["translated_from"] == "card-001"


def test_an_incomplete_reply_or_a_failed_call_saves_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "x.db")
    half = {"translator": lambda body, n: json.dumps({"1": "अधूरा"})}
    with FakeOpenAIServer(latency=0.0, replies=half) as server:
        code = main(["cases", "translate", "card-001", "--to", "ko", "--model", "openai/fake",
                     "--api-base", server.base_url, "--db", db])
        assert code == 2
        assert "untranslated" in capsys.readouterr().err
        server.faults.append("401")
        code = main(["cases", "translate", "card-001", "--to", "ko", "--model", "openai/fake",
                     "--api-base", server.base_url, "--db", db, "--retries", "0"])
    assert code != 0 and "nothing saved" in capsys.readouterr().err
    assert main(["cases", "list", "--json", "--db", db]) == 0
    assert not [r for r in json.loads(capsys.readouterr().out) if r["id"].startswith("card-001-")]


@pytest.mark.parametrize("args, message", [
    (["--to", "english"], "'english' is not a language tag"),
    (["--to", "en"], "already in 'en'"),
    (["--to", "hi", "--model", "gpt"], "not a provider/model string"),
])
def test_bad_options_are_one_clear_line(args: list[str], message: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    full = ["cases", "translate", "card-001", "--model", "openai/fake", "--db",
            str(tmp_path / "x.db"), *args]
    assert main(full) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
