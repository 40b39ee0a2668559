"""Importers reading files: dispatch, encodings, JSON/JSONL layouts and malformed records,
each refused with a one-line InputError naming the file, the line and the field.

Per-format content tests are in test_importers.py; fuzzing in test_importers_fuzz.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.errors import InputError
from core.importers import FORMATS, import_file
from tests import importer_checks as checks
from tests.importer_support import FIXTURES, real_samples, rjua_sheet


# ---------------------------------------------------------------- formats and dispatch


def test_formats_are_listed_and_unknown_format_names_them(tmp_path: Path) -> None:
    assert set(FORMATS) == {"agentclinic", "agentclinic-nejm", "aihospital",
                            "aihospital-dialog", "aihospital-collaboration", "rjua"}
    with pytest.raises(InputError) as err:
        import_file("medqa", FIXTURES.path(FIXTURES.medqa))
    assert "unknown format 'medqa'" in str(err.value) and "aihospital-dialog" in str(err.value)
    with pytest.raises(InputError, match="no such file"):
        import_file("rjua", tmp_path / "missing.csv")


def test_missing_peer_sample_fails_with_where_it_is_expected(tmp_path: Path,
                                                              monkeypatch) -> None:
    """The real-sample run (tests/peers/) fails, never skips, on a sample that is missing."""
    monkeypatch.setenv("BEDSIDE_PEERS", str(tmp_path / "nowhere"))
    real = real_samples()
    with pytest.raises(pytest.fail.Exception) as err:
        real.path(real.medqa)
    message = str(err.value)
    assert str(tmp_path / "nowhere") in message and "BEDSIDE_PEERS" in message
    assert "../shared/peers" in message
    (tmp_path / "mine" / "agentclinic").mkdir(parents=True)
    (tmp_path / "mine" / real.medqa).write_text("{}", encoding="utf-8")
    monkeypatch.setenv("BEDSIDE_PEERS", str(tmp_path / "mine"))
    real = real_samples()
    assert real.path(real.medqa) == tmp_path / "mine" / real.medqa


# ---------------------------------------------------------------- reading files


def test_fixture_files_keep_the_real_files_oddities() -> None:
    """Our fixtures keep what the peers' files do and a tidy file would not: no final
    newline, CRLF rows with bare LFs inside quoted cells, escaped and typographic characters,
    nested free-form keys, English inside Chinese text."""
    medqa = FIXTURES.path(FIXTURES.medqa).read_bytes()
    assert not medqa.endswith(b"\n") and medqa.count(b"\n") == 4 and "’".encode() in medqa
    for listed in (FIXTURES.aih_zh, FIXTURES.aih_en):
        assert FIXTURES.path(listed).read_bytes().endswith(b"]")
    assert "\\u2019" in FIXTURES.path(FIXTURES.nejm).read_text(encoding="utf-8")
    sheet = FIXTURES.path(FIXTURES.rjua).read_bytes()
    assert sheet.endswith(b"\r\n") and sheet.replace(b"\r\n", b"").count(b"\n") >= 3
    records = json.loads(FIXTURES.path(FIXTURES.aih_en).read_text(encoding="utf-8"))
    assert any(isinstance(v, dict) for r in records for v in r["medical_record"].values())
    dialog = FIXTURES.path(FIXTURES.dialog).read_text(encoding="utf-8")
    assert "amoxicillin" in dialog and "GERD" in dialog and "<结束>\"}" in dialog


_OSCE_LINE = json.dumps({"OSCE_Examination": {"Correct_Diagnosis": "Gout\u2028(acute)",
                                               "Objective_for_Doctor": "Assess\u2029the toe.",
                                               "Patient_Actor": {"History": "Pain\u0085"}}},
                        ensure_ascii=False)


@pytest.mark.parametrize(("name", "data"), [
    ("crlf", (_OSCE_LINE + "\r\n\r\n" + _OSCE_LINE + "\r\n").encode()),
    ("bom", b"\xef\xbb\xbf" + (_OSCE_LINE + "\n" + _OSCE_LINE).encode()),
    ("no-final-newline", (_OSCE_LINE + "\n\n   \n" + _OSCE_LINE).encode()),
    ("json-list", ("[\n" + _OSCE_LINE + ",\n" + _OSCE_LINE + "\n]").encode()),
])
def test_jsonl_variants_load(tmp_path: Path, name: str, data: bytes) -> None:
    """U+2028/U+2029/U+0085 inside strings (json.dumps writes them raw) do not end lines."""
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(data)
    cases = import_file("agentclinic", path).cases
    assert len(cases) == 2 and cases[0].truth.diagnosis == "Gout\u2028(acute)"
    assert cases[1].id.endswith(str(3 if name in ("crlf", "json-list") else
                                    4 if name == "no-final-newline" else 2))


@pytest.mark.parametrize(("fmt", "data", "line", "needle"), [
    ("agentclinic", b"", None, "no cases in the file"),
    ("aihospital", b"[]", None, "no records in the file"),
    ("aihospital-dialog", b"\n\n", None, "no dialogues in the file"),
    ("agentclinic-nejm", "caf\u00e9\n".encode("latin-1") * 2, 1, "not UTF-8"),
    ("aihospital", "[{}]".encode("utf-16"), 1, "UTF-16"),
    ("agentclinic", b'{"OSCE_Examination": {}}\n' + b"[" * 5000 + b"]" * 5000, 2,
     "nested too deeply"),
    ("aihospital", b"[\n" + b'{"a":' * 3000 + b"1" + b"}" * 3000 + b"\n]", 2,
     "nested too deeply"),
    ("aihospital-dialog", b'{"dialog_history": ' + b"[" * 150 + b"]" * 150 + b"}", 1,
     "nested too deeply"),
    ("aihospital", b'[{"medical_record": {"x": 1}},\n 7]', 2, "expected a JSON object"),
    ("aihospital", b'[{"id": 1}] trailing', 1, "extra data after the list"),
    ("agentclinic-nejm", b'{\n  "question": "Q",\n  "answers": [,]\n}', 3, "not valid JSON"),
])
def test_bad_files_give_one_line_errors(tmp_path: Path, fmt: str, data: bytes,
                                        line: int | None, needle: str) -> None:
    path = tmp_path / "bad.data"
    path.write_bytes(data)
    with pytest.raises(InputError) as err:
        import_file(fmt, path)
    message = str(err.value)
    assert "\n" not in message and needle in message
    assert message.startswith(f"{path}:{line}:" if line else f"{path}:")


# ---------------------------------------------------------------- malformed records


@pytest.mark.parametrize(("content", "line", "needle"), [
    ('{"OSCE_Examination": {"Correct_Diagnosis": "X"}}\n{"OSCE_Examination": ', 2,
     "not valid JSON"),
    ('\n\n{"Something": 1}\n', 3, "OSCE_Examination"),
    ('{"OSCE_Examination": {"Objective_for_Doctor": "x"}}', 1, "Correct_Diagnosis"),
    ('[1, 2]\n', 1, "expected a JSON object"),
])
def test_agentclinic_malformed(tmp_path: Path, content: str, line: int, needle: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_file("agentclinic", path)
    assert f"{path}:{line}" in str(err.value) and needle in str(err.value)
    assert "\n" not in str(err.value)


def test_nejm_malformed(tmp_path: Path) -> None:
    good = {"question": "Q?", "answers": [{"text": "A", "correct": True}]}
    bad = {"question": "Q?", "answers": [{"text": "A", "correct": False}]}
    path = tmp_path / "nejm.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_file("agentclinic-nejm", path)
    assert f"{path}:2" in str(err.value) and "field 'answers'" in str(err.value)
    path.write_text(json.dumps({"answers": good["answers"]}), encoding="utf-8")
    with pytest.raises(InputError, match=r":1: field 'question'"):
        import_file("agentclinic-nejm", path)


def test_aihospital_jsonl_and_errors(tmp_path: Path) -> None:
    rec = {"medical_record": {"chief_complaint": "Cough", "diagnostic_results": "Asthma",
                              "physical_examination": "Wheeze", "unexpected_field": "kept"}}
    path = tmp_path / "recs.jsonl"
    path.write_text(json.dumps(rec) + "\n\n" + json.dumps(rec), encoding="utf-8")
    result = import_file("aihospital", path)
    assert [c.id for c in result.cases] == ["aihospital-recs-1", "aihospital-recs-3"]
    assert result.cases[0].truth.extra["unexpected_field"] == "kept"
    assert result.cases[0].physical_exam[0].value == "Wheeze"
    no_dx = {"medical_record": {"chief_complaint": "Cough"}}
    path.write_text(json.dumps(rec) + "\n" + json.dumps(no_dx) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_file("aihospital", path)
    assert f"{path}:2" in str(err.value) and "medical_record" in str(err.value)
    listed = tmp_path / "list.json"
    text = json.dumps([rec, {"id": 7}], indent=2)  # the real files are pretty-printed lists
    listed.write_text(text, encoding="utf-8")
    second = text[:text.index('"id": 7')].rstrip().rstrip("{").count("\n") + 1
    with pytest.raises(InputError) as err:
        import_file("aihospital", listed)
    assert str(err.value) == f"{listed}:{second}: field 'medical_record': missing or not an object"
    listed.write_text('[{"id": 1},\n{"id": 2,,}]', encoding="utf-8")
    with pytest.raises(InputError, match=r"list\.json:2: not valid JSON"):
        import_file("aihospital", listed)


def test_aihospital_list_errors_name_the_line_of_each_record(tmp_path: Path) -> None:
    checks.check_list_errors_name_the_line(FIXTURES, tmp_path)


def test_dialog_malformed_and_fallback_id(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    ok = {"dialog_history": [{"turn": 0, "role": "Doctor", "content": "Hi"}]}
    path.write_text(json.dumps(ok) + "\n", encoding="utf-8")
    assert import_file("aihospital-dialog", path).transcripts[0].case_id == "aihospital-dialog-1"
    bad = {"dialog_history": [{"turn": 0, "role": "Nurse", "content": "Hi"}]}
    path.write_text(json.dumps(ok) + "\n" + json.dumps(bad), encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_file("aihospital-dialog", path)
    assert f"{path}:2" in str(err.value) and "dialog_history[0].role" in str(err.value)
    path.write_text(json.dumps({"patient_id": 3}), encoding="utf-8")
    with pytest.raises(InputError, match=r":1: field 'dialog_history'"):
        import_file("aihospital-dialog", path)


def test_rjua_missing_column(tmp_path: Path) -> None:
    path = rjua_sheet(tmp_path, "诊断,核心诊断,肾结石\n", header="类目大项,类目子项,约束\n")
    with pytest.raises(InputError) as err:
        import_file("rjua", path)
    assert f"{path}:1" in str(err.value) and "field '结果'" in str(err.value)


def test_rjua_malformed_rows(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"sp\.csv: field '诊断'"):
        import_file("rjua", rjua_sheet(tmp_path, "症状,发热,,2天,,,\n"))
    with pytest.raises(InputError, match=r"sp\.csv:2: field '类目大项'"):
        import_file("rjua", rjua_sheet(tmp_path, ",发热,,2天,,,\n"))
    with pytest.raises(InputError, match=r"sp\.csv:3: bad CSV"):
        import_file("rjua", rjua_sheet(tmp_path, '诊断,核心诊断,肾结石,,,,\n检验,尿常规,"a"b,,,,\n'))
