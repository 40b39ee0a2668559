"""The Agent Hospital patient generator: the same seed gives byte-identical cases (in
another process too), train and test never share a presentation, the cases are ordinary
cases that keep the information partition, and `bedside agenthospital generate` stores
them (an LLM rewrite of the account through the local server included)."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

from core.agenthospital.generator import (at_level, case_id, generate, split_patient, stream)
from core.agenthospital.kb import bundled_kb
from core.agenthospital.tasks import encounter_of, key_of
from core.caseio import case_to_json
from core.views import doctor_view, patient_view
from tests.fake_openai_server import FakeOpenAIServer
from tui.cli import main

ROOT = Path(__file__).resolve().parents[1]
_DIGEST = ("import hashlib,sys; from core.agenthospital.generator import generate; "
           "from core.agenthospital.kb import bundled_kb; from core.caseio import case_to_json; "
           "h=hashlib.sha256(); [h.update(case_to_json(c).encode()) for s in ('train','test') "
           "for c in generate(bundled_kb(), 11, s, 40)]; print(h.hexdigest())")


def _digest(seed: int, n: int = 40) -> str:
    h = hashlib.sha256()
    for split in ("train", "test"):
        for case in generate(bundled_kb(), seed, split, n):  # type: ignore[arg-type]
            h.update(case_to_json(case).encode())
    return h.hexdigest()


def test_same_seed_same_bytes_in_another_process_other_seed_other_cases() -> None:
    here = _digest(11)
    # A fresh interpreter with another hash seed draws exactly the same patients.
    out = subprocess.run([sys.executable, "-c", _DIGEST], cwd=ROOT, capture_output=True,
                         text=True, env={"PYTHONHASHSEED": "123", "PATH": ""}, check=True)
    assert out.stdout.strip() == here
    assert _digest(12) != here


def test_a_patient_does_not_depend_on_how_many_were_drawn() -> None:
    kb = bundled_kb()
    alone = list(generate(kb, 5, "train", 3, start=18))
    within = list(generate(kb, 5, "train", 20))[17:20]
    assert [case_to_json(c) for c in alone] == [case_to_json(c) for c in within]
    assert [c.id for c in alone] == [case_id(5, "train", i) for i in (18, 19, 20)]


def test_train_and_test_never_share_a_presentation() -> None:
    kb = bundled_kb()
    train = [split_patient(kb, 3, "train", i) for i in range(1, 1501)]
    test = [split_patient(kb, 3, "test", i) for i in range(1, 301)]
    assert {p.signature() for p in train}.isdisjoint(p.signature() for p in test)
    assert all(p.region() == "train" for p in train) and all(p.region() == "test" for p in test)
    # Every disease and level is drawn, about uniformly.
    count = Counter((p.disease, p.level) for p in train)
    assert len(count) == 24 and min(count.values()) > 1500 / 24 / 2


def test_cases_keep_the_partition_and_match_the_fast_path() -> None:
    kb = bundled_kb()
    cases = list(generate(kb, 2, "test", 30))
    fast = list(stream(kb, 2, "test", 30))
    names = {d.name.lower() for d in kb.diseases} | {s.lower() for d in kb.diseases
                                                     for s in d.synonyms if len(s) > 4}
    for case, (enc, key) in zip(cases, fast, strict=True):
        assert encounter_of(case) == enc and key_of(case) == key
        assert key.disease == case.truth.diagnosis and key.suitable
        assert len(case.physical_exam) + len(case.tests) == 16
        assert {i.name for i in [*case.physical_exam, *case.tests] if i.relevant} == \
            set(key.suitable)
        # The patient's view has no finding and no diagnosis; the account names no disease.
        pv = patient_view(case).model_dump_json().lower()
        assert not any(n in pv for n in names), case.id
        assert "consolidation" not in pv and "rna detected" not in pv
        assert doctor_view(case).objective == case.objective
        assert case.truth.options == kb.disease_names and case.source == "agenthospital"


def test_a_patient_gets_better_or_worse_and_stays_the_same_person() -> None:
    kb = bundled_kb()
    p = split_patient(kb, 4, "train", 7)
    worse = at_level(kb, p, "severe", random.Random(1), days_later=2)
    assert (worse.disease, worse.age, worse.sex, worse.history) == (p.disease, p.age, p.sex,
                                                                    p.history)
    assert worse.level == "severe" and worse.days == p.days + 2
    kept = dict(p.symptoms)
    assert all(kept[i] == j for i, j in worse.symptoms if i in kept)  # same phrasing


def test_generate_command_stores_cases_out_of_the_library(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "g.db")
    assert main(["agenthospital", "generate", "--train", "30", "--test", "10", "--seed", "4",
                 "--db", db]) == 0
    assert "30 training and 10 test patients" in capsys.readouterr().out
    assert main(["agenthospital", "generate", "--train", "30", "--test", "10", "--seed", "4",
                 "--db", db]) == 0
    assert "0 new, 0 updated, 40 unchanged" in capsys.readouterr().out
    from core.usecases.library import library
    from db.store import open_store

    store = open_store(db)
    assert len(store.list_cases(sources=["agenthospital"])) == 40
    assert not any(c.source == "agenthospital" for c in library(store, []))
    assert main(["cases", "show", "ah4-test-00003", "--db", db]) == 0
    assert "suitable_examinations" in capsys.readouterr().out
    assert main(["agenthospital", "generate", "--db", db]) == 2
    assert "--train" in capsys.readouterr().err


def test_rewrite_retells_the_account_through_a_model(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "r.db")
    with FakeOpenAIServer() as server:
        assert main(["agenthospital", "generate", "--test", "2", "--seed", "9", "--db", db,
                     "--rewrite", "openai/fake", "--api-base", server.base_url]) == 0
        prompts = [b["messages"][-1]["content"] for b in server.requests]
    from db.store import open_store

    case = open_store(db).get_case("ah9-test-00001")
    original = next(generate(bundled_kb(), 9, "test", 1)).patient.opening or ""
    assert case.patient.opening == "Well, doctor, here it is. " + original
    assert original in (case.notes or "") and "openai/fake" in (case.notes or "")
    # The model saw what the patient knows, nothing of the findings or the diagnosis.
    assert len(prompts) == 2 and all("bedside/ah-rewrite/v1" in p for p in prompts)
    assert not any(case.truth.diagnosis in p or "Chest X-ray" in p for p in prompts)


def test_a_failed_rewrite_keeps_the_generated_text_and_exits_one(tmp_path: Path,
                                                                  capsys) -> None:
    db = str(tmp_path / "f.db")
    with FakeOpenAIServer(fault_rule=lambda body, n: "401") as server:
        code = main(["agenthospital", "generate", "--test", "1", "--seed", "9", "--db", db,
                     "--rewrite", "openai/fake", "--api-base", server.base_url])
    err = capsys.readouterr().err
    assert code == 1 and "1 rewrite(s) failed" in err and "Traceback" not in err
    from db.store import open_store

    case = open_store(db).get_case("ah9-test-00001")
    assert case.patient.opening == next(generate(bundled_kb(), 9, "test", 1)).patient.opening
    assert json.loads(case.model_dump_json())["notes"].startswith("Generated")
