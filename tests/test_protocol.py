"""The consultation protocol parser and the config/CLI-string helpers."""

from __future__ import annotations

import pytest

from core.config import AgentSpec, ConsultationConfig, parse_agent, parse_config
from core.errors import InputError
from core.protocol import parse_doctor_message, split_tests


@pytest.mark.parametrize("text, tests", [
    ("REQUEST TEST: ECG", ["ECG"]),
    ("request test: ECG, troponin; chest X-ray and D-dimer", ["ECG", "troponin", "chest X-ray",
                                                               "D-dimer"]),
    ("I'd like to check a few things. Request Tests: CBC / BMP", ["CBC", "BMP"]),
    ("REQUEST TEST: ECG, ecg, EKG.", ["ECG", "EKG"]),
    ("REQUEST TEST: Random glucose\n\nThanks, and then we'll talk.", ["Random glucose"]),
    ("REQUEST TEST:", []),
])
def test_test_requests_are_found_anywhere_and_split(text: str, tests: list[str]) -> None:
    action = parse_doctor_message(text)
    assert action.kind == "test_request"
    assert action.tests == tests


@pytest.mark.parametrize("text, tests", [
    ("U&E, U&Es and CRP", ["U&E", "U&Es", "CRP"]),
    ("U & E", ["U & E"]),
    ("hemograma y PCR", ["hemograma", "PCR"]),
    ("hemograma e iones", ["hemograma", "iones"]),
    ("NFS et CRP", ["NFS", "CRP"]),
    ("Blutbild und CRP", ["Blutbild", "CRP"]),
    ("血常规和C反应蛋白", ["血常规", "C反应蛋白"]),
    ("血常规、肝功能及肾功能", ["血常规", "肝功能", "肾功能"]),
    ("肝功能以及血脂，尿常规", ["肝功能", "血脂", "尿常规"]),
    ("血氧饱和度", ["血氧饱和度"]),  # 和 inside a word is not "and"
    ("肾功能与电解质", ["肾功能与电解质"]),
    ("T3/T4, PT/INR, sFlt-1/PlGF", ["T3/T4", "PT/INR", "sFlt-1/PlGF"]),
    ("ECG & troponin", ["ECG", "troponin"]),
    ("ECG AND troponin plus CXR", ["ECG", "troponin", "CXR"]),
    ("vitamin E and CRP", ["vitamin E", "CRP"]),
    ("hepatitis B e antigen", ["hepatitis B e antigen"]),
    ("urea and electrolytes, CT abdomen and pelvis", ["urea and electrolytes",
                                                      "CT abdomen and pelvis"]),
    ("group and save; B12 and folate", ["group and save", "B12 and folate"]),
    ("Urea y electrolitos", ["Urea y electrolitos"]),
    ("ECG\nDIAGNOSIS READY:", ["ECG"]),
])
def test_test_names_split_in_every_language_and_keep_compound_names(text: str,
                                                                      tests: list[str]) -> None:
    assert split_tests(text) == tests


@pytest.mark.parametrize("text, diagnosis", [
    ("**DIAGNOSIS READY**: Gout", "Gout"),
    ("**DIAGNOSIS READY:** Inferior STEMI", "Inferior STEMI"),
    ("*Diagnosis ready* — acute gout", "acute gout"),
    ("DIAGNOSIS READY - Gout", "Gout"),
    ("DIAGNOSIS READY – Gout", "Gout"),
    ("DIAGNOSIS READY：痛风", "痛风"),
    ("__Diagnosis Ready__: **Gout**.", "Gout"),
    ("I am confident now.\nDIAGNOSIS READY:\nGout", "Gout"),
])
def test_diagnosis_markers_in_markdown_and_with_other_separators(text: str,
                                                                 diagnosis: str) -> None:
    action = parse_doctor_message(text)
    assert (action.kind, action.diagnosis) == ("diagnosis", diagnosis)


@pytest.mark.parametrize("text, tests", [
    ("**REQUEST TEST**: ECG", ["ECG"]), ("__Request Tests__ - ECG, troponin", ["ECG", "troponin"]),
    ("*request test* — FBC", ["FBC"]), ("REQUEST TEST：血常规", ["血常规"]),
])
def test_request_markers_in_markdown_and_with_other_separators(text: str,
                                                               tests: list[str]) -> None:
    action = parse_doctor_message(text)
    assert (action.kind, action.tests) == ("test_request", tests)


@pytest.mark.parametrize("text", ["DIAGNOSIS READY:", "DIAGNOSIS READY: **", "DIAGNOSIS READY —",
                                  "diagnosis ready:   \n\n"])
def test_a_marker_with_nothing_after_it_is_not_a_diagnosis(text: str) -> None:
    assert parse_doctor_message(text).kind == "question"
    assert parse_doctor_message(f"REQUEST TEST: ECG\n{text}").kind == "test_request"


def test_diagnosis_is_case_insensitive_and_wins_over_a_request() -> None:
    action = parse_doctor_message("REQUEST TEST: ECG\nOK then. diagnosis ready: **Inferior STEMI**.")
    assert action.kind == "diagnosis"
    assert action.diagnosis == "Inferior STEMI"


def test_a_plain_sentence_is_a_question() -> None:
    assert parse_doctor_message("Do you test your sugar at home?").kind == "question"
    assert parse_doctor_message("Is your diagnosis ready?").kind == "question"


def test_split_caps_the_number_of_tests() -> None:
    assert len(split_tests(", ".join(f"t{i}" for i in range(50)))) == 20


def test_cli_strings_become_specs() -> None:
    assert parse_agent("retrieval", "patient") == AgentSpec(kind="retrieval")
    assert parse_agent("human:alice", "doctor").display() == "human:alice"
    spec = parse_agent("openai/gpt-4o-mini", "doctor", api_base="http://127.0.0.1:1/v1",
                       temperature=0.3)
    assert (spec.kind, spec.model, spec.temperature) == ("llm", "openai/gpt-4o-mini", 0.3)


@pytest.mark.parametrize("text, role", [("scripted", "patient"), ("exact", "doctor"),
                                        ("gpt 4", "doctor"), ("retrieval", "judge")])
def test_bad_cli_strings_are_one_line_input_errors(text: str, role: str) -> None:
    with pytest.raises(InputError) as info:
        parse_agent(text, role)
    assert "\n" not in str(info.value)


def test_config_defaults_are_offline_and_keys_are_stable() -> None:
    config = ConsultationConfig()
    assert (config.doctor.kind, config.patient.kind, config.examiner.kind) == (
        "scripted", "retrieval", "retrieval")
    assert [m.kind for m in config.moderators] == ["exact"]
    assert config.max_turns == 20
    assert config.config_key() == ConsultationConfig().config_key()
    assert config.config_key() != ConsultationConfig(seed=1).config_key()
    both = parse_config("openai/x", moderators="exact,openai/judge")
    assert [m.kind for m in both.moderators] == ["exact", "llm"]
    assert both.models() == ["openai/judge", "openai/x"]
    assert "api_key" not in str(both.describe())
