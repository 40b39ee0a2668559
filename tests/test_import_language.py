"""Imported AgentClinic files keep their cases' language (issue 12): each case's language is
read from its text (`core.language`), or given with `bedside cases import --language`; a text
that does not tell is read as English with a warning naming the line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.importers import import_file
from core.language import case_language, detect_language
from tui.cli import main


def _line(objective: str, history: str, diagnosis: str) -> str:
    return json.dumps({"OSCE_Examination": {
        "Objective_for_Doctor": objective,
        "Patient_Actor": {"Demographics": "", "History": history,
                          "Symptoms": {"Primary_Symptom": history.split()[0]}},
        "Physical_Examination_Findings": {"Vital_Signs": {"Heart_Rate": "112"}},
        "Test_Results": {"TSH": "<0.01"}, "Correct_Diagnosis": diagnosis}},
        ensure_ascii=False)


LINES = {
    "hi": _line("मरीज़ का इतिहास लें और निदान करें।", "दो महीने से दिल तेज़ धड़कता है और वज़न घट रहा है।",
                "ग्रेव्स रोग"),
    "fa": _line("شرح حال بگیرید و تشخیص بدهید.", "دو ماه است که قلبم تند می‌زند و لاغر شده‌ام.",
                "بیماری گریوز"),
    "ko": _line("병력을 청취하고 진단하십시오.", "두 달 전부터 가슴이 두근거리고 살이 빠졌어요.",
                "그레이브스병"),
    "zh-Hans": _line("请问诊并作出诊断。", "两个月来心慌，体重下降。", "格雷夫斯病"),
    "es": _line("Evalúe a la paciente y dé un diagnóstico.",
                "Desde hace dos meses tiene palpitaciones y ha perdido peso con buen apetito.",
                "Enfermedad de Graves"),
    "en": _line("Assess the patient and reach a diagnosis.",
                "For two months she has had palpitations and has lost weight.",
                "Graves disease"),
}


def test_each_case_keeps_its_own_language(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(LINES.values()) + "\n", encoding="utf-8")
    result = import_file("agentclinic", path)
    assert [c.language for c in result.cases] == list(LINES)
    assert not [w for w in result.warnings if "language" in w]


def test_language_given_on_the_command_line_wins_and_is_checked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fa.jsonl"
    path.write_text(LINES["fa"] + "\n", encoding="utf-8")
    db = str(tmp_path / "x.db")
    assert main(["cases", "import", "agentclinic", str(path), "--language", "fa-IR",
                 "--db", db]) == 0
    capsys.readouterr()
    assert main(["cases", "list", "--json", "--db", db]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["language"] for r in rows if r["source"] == "agentclinic"] == ["fa-IR"]
    assert main(["cases", "import", "agentclinic", str(path), "--language", "farsi",
                 "--db", db]) == 2
    assert "'farsi' is not a language tag" in capsys.readouterr().err
    assert main(["cases", "import", "rjua", str(path), "--language", "zh", "--db", db]) == 2
    assert "--language is for agentclinic files" in capsys.readouterr().err


def test_an_unclear_text_is_read_as_english_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "short.jsonl"
    path.write_text(_line("Dx?", "Palpitations", "GD") + "\n", encoding="utf-8")
    result = import_file("agentclinic", path)
    assert result.cases[0].language == "en"
    assert any("short.jsonl:1" in w and "language is unclear" in w for w in result.warnings)


def test_the_detector_tells_persian_from_arabic_and_korean_from_chinese() -> None:
    assert detect_language("لطفاً به فارسی پاسخ دهید، درد قفسه‌ی سینه دارم") == "fa"
    assert detect_language("الرجاء الإجابة باللغة العربية في المستشفى") is None
    assert case_language(["급성 A형 간염 진단", "肝炎"]) == "ko"
    assert case_language(["急性甲型肝炎"]) == "zh-Hans"
