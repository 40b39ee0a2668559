"""Every prompt and template exists in all eight languages (issue 12): the offline agents'
templates and question cues, the scripted doctor's questions, the names of the routine
panel and of imaging and examination, and the language line each model-played role gets
(in English and in the language itself, before the prompt's closing id line)."""

from __future__ import annotations

import pytest

from core import prompts
from core.agents import scripted_doctor
from core.agents.llm_agents import LLMDoctor, LLMExaminer, LLMModerator, LLMPatient
from core.agents.templates import PHRASES, lang_key, phrase
from core.caseindex import vocab_imaging as vi
from core.caseindex import vocab_tests as vt
from core.caseindex.cues import CUES, cue_lang
from core.caseio import load_bundled_cases
from core.config import AgentSpec
from core.views import doctor_view, examiner_view, moderator_view, patient_view

LANGUAGES = ("en", "es", "fr", "de", "zh-Hans", "hi", "fa", "ko")
CASES = {lang: next(c for c in load_bundled_cases() if c.language == lang) for lang in LANGUAGES}
SPEC = AgentSpec(kind="llm", model="openai/fake")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_templates_cues_and_vocabularies_cover_the_language(lang: str) -> None:
    assert lang_key(lang) == lang and cue_lang(lang) == lang
    plain = {k for k in PHRASES["en"] if "@" not in k}
    assert plain <= set(PHRASES[lang]), sorted(plain - set(PHRASES[lang]))
    assert set(CUES["en"]) <= set(CUES[lang])
    if lang != "en":
        assert len(scripted_doctor._QUESTIONS_BY_LANG[lang]) == len(scripted_doctor._QUESTIONS)
    base = lang.split("-")[0]
    assert base in vt.GROUPS["bloods"] and all(base in vt.DISPLAY[m] for m in
                                               vt.GROUP_MEMBERS["bloods"])
    assert all(base in names for names in vi.MODALITIES.values()) and base in vi.EXAM_WORDS
    assert all(base in vi.EXPLICIT[c] for c in ("exam:vitals", "vital:bp", "xr:chest", "us:heart"))
    assert phrase(lang, "normal") and phrase(lang, "refusal") != phrase("en", "refusal") or \
        lang == "en"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_model_role_gets_the_language_line(lang: str) -> None:
    case = CASES[lang]
    name, endonym, instruction = prompts.LANGUAGES[lang]
    systems = {
        "doctor": LLMDoctor(doctor_view(case), SPEC, None, 20).system,
        "patient": LLMPatient(patient_view(case), SPEC, None).system,
        "examiner": LLMExaminer(examiner_view(case), SPEC, None).system,
        "moderator": LLMModerator(moderator_view(case), SPEC, None).system,
    }
    for role, system in systems.items():
        assert f"{name} ({endonym})" in system, role
        assert system.rstrip().splitlines()[-1].startswith(f"Prompt id: bedside/{role}/"), role
        assert role == "moderator" or instruction in system, role
        hashed = prompts.hashes_for({role: "llm"})
        assert "language-lines/v1" in hashed and (
            "language-moderator/v1" if role == "moderator" else "language/v1") in hashed
