"""Importer checks that hold for any file in a peer format, run twice: on our fixtures
(tests/test_importers*.py, tests/test_import_store.py, the default run) and on the peers' own
samples (tests/peers/, the extra run). Each takes a `Samples` set and the few facts that
differ between the two sets of files, so that every assertion is written once.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from core.errors import InputError
from core.importers import import_file
from core.transcript import Role
from core.views import doctor_view, patient_view
from db.cases import get_case, list_cases
from db.connection import open_db
from db.consultations import get_transcript
from tests.importer_support import Samples, roundtrip, string_leaves, tree_text
from tests.test_cli_cases import bedside


def _jsonl(path: Path) -> list[Any]:
    return [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln]


# ---------------------------------------------------------------- content, any file


def check_medqa_loses_no_leaf_text(samples: Samples) -> None:
    """Every string leaf of the exam and test sections is in the examiner's items."""
    path = samples.path(samples.medqa)
    for case, raw in zip(import_file("agentclinic", path).cases, _jsonl(path), strict=True):
        osce = raw["OSCE_Examination"]
        text = tree_text(case.physical_exam) + tree_text(case.tests)
        for leaf in string_leaves(osce["Physical_Examination_Findings"]) + \
                string_leaves(osce["Test_Results"]):
            assert leaf in text, (case.id, leaf)


def check_medqa_patient_sees_no_finding(samples: Samples) -> None:
    """No examination or test text of the file reaches the patient's view."""
    path = samples.path(samples.medqa)
    for case, line in zip(import_file("agentclinic", path).cases, _jsonl(path), strict=True):
        osce = line["OSCE_Examination"]
        seen = patient_view(case).model_dump_json()
        leaves = string_leaves(osce["Physical_Examination_Findings"]) + \
            string_leaves(osce["Test_Results"])
        for leaf in (x for x in leaves if len(x) > 20):
            assert leaf not in seen, (case.id, leaf)
        assert osce["Correct_Diagnosis"] not in seen


def _sentences(text: str) -> list[str]:
    """Rough sentence split for assertions (independent of the importer's own splitter)."""
    parts = re.split(r"(?<=[.?!])\s+|\s+-\s+|\s\d\.\s", text)
    return [p.strip(" .") for p in parts if len(p.strip(" .")) > 15]


def check_nejm_findings_leave_the_doctor(samples: Samples) -> None:
    """No sentence of the exam text, nor of the question's findings, reaches the doctor;
    the question and the exam text are kept whole in truth.extra."""
    path = samples.path(samples.nejm)
    raw = _jsonl(path)
    for case, record in zip(import_file("agentclinic-nejm", path).cases, raw, strict=True):
        shown = doctor_view(case).model_dump_json()
        for sentence in _sentences(record["physical_exams"]):
            assert sentence not in shown, (case.id, sentence)
        for marker in ("biopsy", "CT scan", "Dermoscopy", "On physical examination",
                       "computed tomography", "Laboratory testing"):
            assert marker.lower() not in case.objective.lower(), (case.id, marker)
        assert case.truth.extra["question"] == record["question"]  # nothing is lost
        assert case.truth.extra["physical_exams"] == record["physical_exams"]


def check_dialog_addressees(samples: Samples, reporters: int) -> None:
    """Doctor → patient; patient → the leading tag's addressee; Reporter → doctor (in every
    history a Reporter turn is followed by the Doctor's turn that uses it)."""
    path = samples.path(samples.dialog)
    result = import_file("aihospital-dialog", path)
    seen = 0
    for transcript, record in zip(result.transcripts, _jsonl(path), strict=True):
        history = record["dialog_history"]
        for turn, source in zip(transcript.turns, history, strict=True):
            if turn.role is Role.DOCTOR:
                assert turn.addressee is Role.PATIENT
            elif turn.role is Role.EXAMINER:
                seen += 1
                assert turn.addressee is Role.DOCTOR
                assert history[turn.index + 1]["role"] == "Doctor"
            else:
                lead = source["content"].lstrip()
                expected = Role.EXAMINER if lead.startswith("<对检查员讲>") else Role.DOCTOR
                assert turn.addressee is expected, (turn.index, source["content"][:30])
        assert transcript.meta["import"]["file"] == path.name
        assert len(transcript.meta["import"]["sha256"]) == 64
    assert seen == reporters
    again = import_file("aihospital-dialog", path)  # stable across imports
    assert [t.meta["import"]["sha256"] for t in again.transcripts] == \
        [t.meta["import"]["sha256"] for t in result.transcripts]


def check_list_errors_name_the_line(samples: Samples, tmp_path: Path) -> None:
    """Errors inside a JSON list name the line where that record starts (real format)."""
    records = json.loads(samples.path(samples.aih_en).read_text(encoding="utf-8"))
    records[1]["medical_record"]["diagnostic_results"] = "；"
    del records[1]["medical_record"]["preliminary_diagnosis"]
    path = tmp_path / "patients_en.json"
    text = json.dumps(records, indent=1, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    second = text.index("\n {", text.index("\n {") + 1)  # where record 2's '{' is
    start = text.count("\n", 0, second) + 2
    with pytest.raises(InputError) as err:
        import_file("aihospital", path)
    assert str(err.value) == (f"{path}:{start}: field 'medical_record.diagnostic_results': "
                              "holds no diagnosis name")


# ---------------------------------------------------------------- fuzzing


def _mutations(value: Any, rng: Any) -> Any:
    """One random nasty change somewhere in a JSON value: a key dropped or respelled, a
    value replaced by a wrong type, nested in a dict, wrapped in a list."""
    if isinstance(value, dict) and value:
        value = dict(value)
        key = rng.choice(list(value))
        op = rng.randrange(6)
        if op == 0:
            del value[key]
        elif op == 1:
            value[key.upper().replace("_", " ")] = value.pop(key)
        elif op == 2:
            value[key] = [value[key], value[key]]
        elif op == 3:
            value[key] = {"nested": value[key], "n": 3}
        elif op == 4:
            value[key] = rng.choice([None, 1, 2.5, True, "", [], {}, "，，", "；", "1.\n2.",
                                     "\u2028", "<结束>"])
        else:
            value[key] = _mutations(value[key], rng)
        return value
    if isinstance(value, list) and value:
        value = list(value)
        i = rng.randrange(len(value))
        value[i] = rng.choice([None, 7, {"x": value[i]}, _mutations(value[i], rng)])
        return value
    return rng.choice(["", None, 0, [value], {"t": value}, "<对检查员讲>x"])


def check_fuzzed_json(tmp_path: Path, fmt: str, samples: Samples, relative: str) -> None:
    """200 seeded mutations of a JSON/JSONL file: each imports, or fails with a one-line
    InputError naming the file and a line — never another exception."""
    sample = samples.path(relative)
    text = sample.read_text(encoding="utf-8")
    records = json.loads(text) if text.lstrip().startswith("[") else \
        [json.loads(ln) for ln in text.splitlines() if ln.strip()]
    rng = random.Random(f"{fmt}:{relative}")
    outcomes = set()
    for n in range(200):
        mutated = [_mutations(r, rng) if rng.random() < 0.6 else r for r in records]
        path = tmp_path / f"{n}.json"
        if sample.name.endswith(".json"):
            path.write_text(json.dumps(mutated, ensure_ascii=False, indent=1), encoding="utf-8")
        else:
            path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in mutated),
                            encoding="utf-8")
        try:
            result = import_file(fmt, path)
        except InputError as err:
            message = str(err)
            assert "\n" not in message and message.startswith(f"{path}:"), message
            outcomes.add("error")
            continue
        roundtrip(result)
        outcomes.add("ok")
    assert outcomes == {"ok", "error"}  # the mutations exercise both paths


def check_fuzzed_rjua(tmp_path: Path, sample: Path) -> None:
    """150 seeded damages of an RJUA sheet (rows dropped, cut short, lengthened, emptied,
    cells blanked or replaced, header shuffled): import, or a one-line InputError."""
    import csv
    import io

    rows = list(csv.reader(io.StringIO(sample.read_text(encoding="utf-8"))))
    outcomes = set()
    for seed in range(150):
        rng = random.Random(seed)
        damaged = [list(r) for r in rows]
        for _ in range(rng.randrange(1, 5)):
            i = rng.randrange(1, len(damaged))
            op = rng.randrange(5)
            if op == 0:
                del damaged[i]
            elif op == 1:
                damaged[i] = damaged[i][:rng.randrange(len(damaged[i]) + 1)] + ["extra"] * op
            elif op == 2 and damaged[i]:
                damaged[i][rng.randrange(len(damaged[i]))] = rng.choice(
                    ["", "，，", "无", "诊断", "正确顺序", "预计轮次", "手术史", ">>=", "\u2028"])
            elif op == 3:
                damaged[0] = rng.sample(damaged[0], len(damaged[0]))
            else:
                damaged[i] = []
        out = io.StringIO()
        csv.writer(out).writerows(damaged)
        path = tmp_path / "sp.csv"
        path.write_text(out.getvalue(), encoding="utf-8")
        try:
            roundtrip(import_file("rjua", path))
            outcomes.add("ok")
        except InputError as err:
            assert "\n" not in str(err) and str(err).startswith(f"{path}"), str(err)
            outcomes.add("error")
    assert outcomes == {"ok", "error"}


# ---------------------------------------------------------------- through the CLI and the store


def cli_import(fmt: str, path: Path, db_path: Path, home: Path):
    """`bedside cases import FMT PATH --db DB` in a real process."""
    return bedside("cases", "import", fmt, str(path), "--db", str(db_path), home=home)


def check_round_trip_through_the_store(fmt: str, path: Path, tmp_path: Path) -> None:
    """The file goes through the CLI into a real database file and back unchanged."""
    db_path = tmp_path / "p.db"
    out = cli_import(fmt, path, db_path, tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("imported ")
    assert "Traceback" not in out.stderr
    expected = import_file(fmt, path)
    db = open_db(db_path)
    for case in expected.cases:
        assert get_case(db, case.id) == case
    stored = [get_transcript(db, row["id"]) for row in db["consultations"].rows]
    assert len(stored) == len(expected.transcripts)
    for original in expected.transcripts:
        match = [t for t in stored if t.turns == original.turns]
        assert match and match[0].case_id == original.case_id
        assert match[0].meta == original.meta  # provenance (file, line, sha256) kept


def check_reimporting_dialogues_skips_them(path: Path, tmp_path: Path, count: int) -> None:
    """A second import (and one from a renamed copy) adds nothing; placeholders stand in."""
    db_path = tmp_path / "p.db"
    first = cli_import("aihospital-dialog", path, db_path, tmp_path)
    assert first.returncode == 0, first.stderr
    assert f"imported {count} transcripts from" in first.stdout
    again = cli_import("aihospital-dialog", path, db_path, tmp_path)
    assert again.returncode == 0, again.stderr
    assert f"imported 0 transcripts ({count} already imported, skipped)" in again.stdout
    db = open_db(db_path)
    assert db["consultations"].count == count
    placeholders = [c for c in list_cases(db) if c.placeholder]
    assert len(placeholders) == count
    assert all(c.truth.diagnosis == "unknown" for c in placeholders)
    # The same dialogue from a renamed copy is recognised too: the id hashes the record.
    copy = tmp_path / "renamed.jsonl"
    copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    renamed = cli_import("aihospital-dialog", copy, db_path, tmp_path)
    assert f"({count} already imported, skipped)" in renamed.stdout
    assert open_db(db_path)["consultations"].count == count


def check_reimporting_cases_updates_and_says_so(path: Path, tmp_path: Path) -> None:
    """Two records: new, then unchanged, then one updated — and the store says which."""
    db_path = tmp_path / "p.db"
    records = json.loads(path.read_text(encoding="utf-8"))
    assert len(records) == 2
    copy = tmp_path / "patients.json"
    copy.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    assert "2 cases (2 new, 0 updated, 0 unchanged)" in cli_import("aihospital", copy, db_path,
                                                                     tmp_path).stdout
    assert "2 cases (0 new, 0 updated, 2 unchanged)" in cli_import("aihospital", copy, db_path,
                                                                     tmp_path).stdout
    records[0]["medical_record"]["chief_complaint"] = "Headache for a week."
    copy.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    out = cli_import("aihospital", copy, db_path, tmp_path)
    assert "2 cases (0 new, 1 updated, 1 unchanged)" in out.stdout
    db = open_db(db_path)
    assert db["cases"].count == 2
    changed = get_case(db, f"aihospital-{records[0]['id']}")
    assert changed.patient.chief_complaint == "Headache for a week."


def check_real_record_replaces_the_placeholder(path: Path, tmp_path: Path, patient_id: int,
                                               diagnosis: str) -> None:
    """A dialogue's placeholder case is replaced when its record is imported."""
    db_path = tmp_path / "p.db"
    dialog = {"patient_id": patient_id, "dialog_history": [
        {"turn": 0, "role": "Doctor", "content": "What brings you in?"},
        {"turn": 1, "role": "Patient", "content": "<对医生讲> I keep feeling unwell."}]}
    dialog_path = tmp_path / "d.jsonl"
    dialog_path.write_text(json.dumps(dialog), encoding="utf-8")
    assert cli_import("aihospital-dialog", dialog_path, db_path, tmp_path).returncode == 0
    assert get_case(open_db(db_path), f"aihospital-{patient_id}").placeholder
    out = cli_import("aihospital", path, db_path, tmp_path)
    assert "(1 new, 1 updated, 0 unchanged)" in out.stdout
    assert "already have consultations" not in out.stderr  # imported ones were not "run"
    case = get_case(open_db(db_path), f"aihospital-{patient_id}")
    assert not case.placeholder and case.truth.diagnosis == diagnosis


BAD_IMPORTS = [
    ("aihospital", '[{"id": 1, "medical_record": {"主诉": "头痛", "诊断结果": "，，"}}]',
     ":1: field 'medical_record.诊断结果'"),
    ("aihospital-dialog", '{"dialog_history": ' + "[" * 2000 + "]" * 2000 + "}", ":1:"),
    ("agentclinic-nejm", "", ": no cases in the file"),
]


def check_bad_import_keeps_what_is_saved(tmp_path: Path, rjua: Path, rjua_id: str, fmt: str,
                                         content: str, where: str) -> None:
    """A file that fails to import changes nothing already saved."""
    db_path = tmp_path / "p.db"
    assert cli_import("rjua", rjua, db_path, tmp_path).returncode == 0
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    out = cli_import(fmt, bad, db_path, tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().count("\n") == 0 and f"{bad}{where}" in out.stderr
    db = open_db(db_path)
    assert [c.id for c in list_cases(db)] == [rjua_id]
    assert db["consultations"].count == 0
