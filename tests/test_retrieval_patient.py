"""The retrieval patient driven by realistic question lists in five languages: what it says
(content), in which language and voice, and what it denies."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from core.agents.retrieval_patient import RetrievalPatient
from core.agents.templates import PHRASES, phrase
from core.agents.voice import first_person, listing
from core.case import Case
from core.caseio import load_bundled_cases
from core.transcript import Turn
from core.views import patient_view

BUNDLED = {c.id: c for c in load_bundled_cases()}


def make_case(lang: str, patient: dict[str, Any]) -> Case:
    return Case.model_validate({"id": f"p-{lang}", "title": "test", "language": lang,
                                "specialty": "test", "objective": "Assess.",
                                "patient": patient, "truth": {"diagnosis": "Hidden"}})


# A case written like the bundled ones, in the first person.
BILIARY = make_case("en", {
    "demographics": {"age": "52", "sex": "female", "occupation": "school cook"},
    "chief_complaint": "I've got a terrible pain under my right ribs.",
    "history_of_present_illness": "It began after a fried dinner. Taking a deep breath "
                                  "catches the pain.",
    "primary_symptoms": [{"name": "abdominal pain", "synonyms": ["RUQ pain"],
                          "onset": "about 30 hours ago, an hour after a fatty meal",
                          "duration": "constant since it started",
                          "character": "a gripping ache under the right ribs, going through "
                                       "to my right shoulder blade, worse on deep breathing"}],
    "secondary_symptoms": [
        {"name": "vomiting", "description": "I've vomited three times.",
         "onset": "this morning"},
        {"name": "fever", "synonyms": ["shivering"], "description": "Hot and cold since last night."},
        {"name": "jaundice", "present": False, "synonyms": ["yellow skin"],
         "description": "My husband says I'm not yellow."},
        {"name": "diarrhoea", "present": False}],
    "history": [
        {"kind": "past_medical", "text": "Prediabetes and mild reflux."},
        {"kind": "medication", "text": "Omeprazole when needed."},
        {"kind": "family", "text": "My mother had her gallbladder out."},
        {"kind": "social", "text": "I don't smoke; a glass of wine on Fridays."}]})

# A case imported from a third-person source (AgentClinic / AI Hospital style).
IMPORTED = make_case("en", {
    "demographics": {"age": "58", "sex": "male", "occupation": "Retired Teacher"},
    "history_of_present_illness": "The patient reports crushing chest pain for one hour. He "
                                  "is sweating heavily. He denies any cough.",
    "primary_symptoms": [{"name": "chest pain", "onset": "an hour ago, on exertion",
                          "character": "heavy, radiating to the jaw and left arm"}],
    "secondary_symptoms": [{"name": "sweating", "synonyms": ["diaphoresis"],
                            "description": "He is drenched in sweat."},
                           {"name": "nausea", "description": "She feels sick."},
                           {"name": "palpitations", "present": False,
                            "description": "No racing heartbeat."}],
    "history": [{"kind": "medication", "text": "Amlodipine daily; he stopped his statin."},
                {"kind": "allergy", "text": "Penicillin gives her a rash."},
                {"kind": "family", "text": "His father died of a heart attack at 61."},
                {"kind": "social", "text": "The patient smokes 20 cigarettes a day."}]})

SPANISH = make_case("es", {
    "demographics": {"age": "58", "occupation": "dueño de un restaurante"},
    "chief_complaint": "Me duele muchísimo el dedo gordo del pie.",
    "primary_symptoms": [{"name": "dolor en el dedo gordo", "synonyms": ["dolor del pie"],
                          "onset": "a las 4 de la madrugada",
                          "character": "quemante, 10/10, no soporto la sábana"}],
    "secondary_symptoms": [{"name": "fiebre", "description": "Me noto destemplado."},
                           {"name": "dolor en otras articulaciones", "present": False,
                            "description": "No me duelen otras articulaciones."}],
    "history": [{"kind": "past_medical", "text": "Hipertensión desde hace seis años."},
                {"kind": "family", "text": "Mi padre tenía ácido úrico alto."},
                {"kind": "medication", "text": "Enalapril e hidroclorotiazida."}]})

FRENCH = make_case("fr", {
    "demographics": {"age": "34", "occupation": "ingénieure informatique"},
    "chief_complaint": "J'ai un mal de tête qui ne passe pas depuis hier.",
    "primary_symptoms": [{"name": "maux de tête", "synonyms": ["céphalée"],
                          "onset": "hier après-midi", "character": "frontale, pulsatile, 7/10"}],
    "secondary_symptoms": [{"name": "troubles visuels", "description": "Je vois des éclairs."},
                           {"name": "fièvre", "present": False, "description": "Pas de fièvre."}],
    "history": [{"kind": "past_medical", "text": "Aucun antécédent."},
                {"kind": "family", "text": "Ma mère a eu de la tension pendant sa grossesse."}]})

GERMAN = make_case("de", {
    "demographics": {"age": "68", "occupation": "Apothekerin im Ruhestand"},
    "chief_complaint": "Sie konnte auf einmal nicht mehr reden.",
    "primary_symptoms": [{"name": "Sprachstörung", "synonyms": ["kann nicht sprechen"],
                          "onset": "plötzlich, zwischen 7:10 und 7:40 Uhr",
                          "character": "spricht nur einzelne Silben"}],
    "secondary_symptoms": [{"name": "Herzstolpern", "description": "Seit Monaten ab und zu."},
                           {"name": "Kopfschmerzen", "present": False,
                            "description": "Keine Kopfschmerzen."}],
    "history": [{"kind": "medication", "text": "Ramipril und Metformin."},
                {"kind": "family", "text": "Ihre Mutter hatte Vorhofflimmern."}]})

CHINESE = make_case("zh-Hans", {
    "demographics": {"age": "67", "occupation": "退休工人"},
    "chief_complaint": "这三个礼拜小便时不时是红的。",
    "primary_symptoms": [{"name": "血尿", "synonyms": ["尿血", "小便发红"],
                          "onset": "三周前首次出现", "character": "全程血尿，无痛"}],
    "secondary_symptoms": [{"name": "血块", "description": "尿里有几块小血块。"},
                           {"name": "夜尿增多", "description": "每晚起夜两次。"},
                           {"name": "尿痛", "present": False, "synonyms": ["排尿疼痛"],
                            "description": "小便时不痛不烧。"}],
    "history": [{"kind": "social", "name": "吸烟", "synonyms": ["抽烟", "smoking"],
                 "text": "每天一包烟，四十多年。"},
                {"kind": "past_medical", "text": "高血压十年。"},
                {"kind": "family", "text": "父亲因肺癌去世。"}]})


def interview(case: Case, questions: list[str]) -> list[str]:
    """Ask the questions in order, passing the dialogue so far, as the engine does."""
    patient, turns, answers = RetrievalPatient(patient_view(case)), [], []
    for q in questions:
        reply = asyncio.run(patient.answer(q, list(turns), lambda _: None))
        answers.append(reply.text)
        turns += [Turn(index=len(turns), role="doctor", kind="question", content=q),
                  Turn(index=len(turns) + 1, role="patient", kind="answer", content=reply.text)]
    return answers


def test_an_english_interview_answers_from_the_case() -> None:
    a = dict(zip(QUESTIONS := [
        "What brings you in today?", "When did it start?", "How long has it lasted?",
        "Do you feel dizzy?", "Are you tired?", "Any pain in your shoulder?",
        "Does it hurt when you breathe in?", "What did you eat?",
        "Any illnesses in the family?", "Do you take any medications?", "How old are you?",
        "What do you do for work?", "Any other symptoms?", "Are your eyes yellow?",
        "Any diarrhoea?", "Tell me about the vomiting.", "When did that begin?",
        "Do you smoke?"], interview(BILIARY, QUESTIONS), strict=False))
    assert a["What brings you in today?"] == "I've got a terrible pain under my right ribs."
    assert a["When did it start?"] == "It started about 30 hours ago, an hour after a fatty meal."
    # The stored duration is a pattern, not a length: when it began says how long.
    assert a["How long has it lasted?"] == ("It started about 30 hours ago, an hour after a "
                                            "fatty meal. Constant since it started.")
    no = phrase("en", "absent_generic")
    assert a["Do you feel dizzy?"] == a["Are you tired?"] == no  # not the pain's character
    assert "shoulder blade" in a["Any pain in your shoulder?"]
    assert "breath" in a["Does it hurt when you breathe in?"]
    assert a["What did you eat?"] == phrase("en", "wh_unknown")  # not a yes/no denial
    assert a["Any illnesses in the family?"] == "My mother had her gallbladder out."
    assert a["Do you take any medications?"] == "Omeprazole when needed."
    assert a["How old are you?"] == "I'm 52."
    assert a["What do you do for work?"] == "I'm a school cook."
    assert a["Any other symptoms?"] == "I've also had vomiting and fever."
    assert a["Are your eyes yellow?"] == "No. My husband says I'm not yellow."
    assert a["Any diarrhoea?"] == no
    assert a["Tell me about the vomiting."] == "Yes, I've vomited three times."
    assert a["When did that begin?"] == "It started this morning."  # the vomiting now
    assert a["Do you smoke?"] == "I don't smoke; a glass of wine on Fridays."


def test_facets_follow_the_symptom_under_discussion() -> None:
    answers = interview(BILIARY, ["Have you been vomiting?", "When did it start?"])
    assert answers[1] == "It started this morning."  # the vomiting, not the pain
    fresh = interview(BILIARY, ["When did it start?"])
    assert fresh[0].startswith("It started about 30 hours ago")  # the main symptom


def test_third_person_imported_text_is_spoken_in_the_first_person() -> None:
    a = dict(zip(QUESTIONS := [
        "Are you sweating?", "Do you feel sick?", "Do you take any medications?",
        "Any allergies?", "Any heart disease in the family?", "Do you smoke?",
        "What brings you in?", "What do you do for a living?", "Any palpitations?"],
        interview(IMPORTED, QUESTIONS), strict=False))
    assert a["Are you sweating?"] == "Yes, I'm drenched in sweat."
    assert a["Do you feel sick?"] == "Yes, I feel sick."
    assert a["Do you take any medications?"] == "Amlodipine daily; I stopped my statin."
    assert a["Any allergies?"] == "Penicillin gives me a rash."
    assert a["Any heart disease in the family?"] == "My father died of a heart attack at 61."
    assert a["Do you smoke?"] == "I smoke 20 cigarettes a day."
    assert a["What brings you in?"] == ("I have crushing chest pain for one hour. "
                                        "I'm sweating heavily.")
    assert a["What do you do for a living?"] == "I'm a retired teacher."
    assert a["Any palpitations?"] == "No racing heartbeat."
    for answer in a.values():
        assert not re.search(r"\b(He|She|he|she|his|her|The patient)\b", answer), answer
        assert "Yes, He" not in answer


@pytest.mark.parametrize("text, spoken", [
    ("He is drenched in sweat.", "I'm drenched in sweat."),
    ("Amlodipine 5 mg daily; he stopped his statin a year ago.",
     "Amlodipine 5 mg daily; I stopped my statin a year ago."),
    ("Penicillin gives her a rash.", "Penicillin gives me a rash."),
    ("Her husband says she is not yellow.", "My husband says I'm not yellow."),
    ("The patient reports experiencing headaches.", "I have been experiencing headaches."),
    ("Patient denies any chest pain.", "I haven't had any chest pain."),
    ("She also smokes and lives with her husband.", "I also smoke and live with my husband."),
    ("The pain began while he was lifting boxes.", "The pain began while I was lifting boxes."),
    ("My father died when he was 61.", "My father died when he was 61."),  # he is the father
    ("He often unwell lately.", "He often unwell lately."),  # no verb found: left as written
    ("Smokes 20 a day.", "Smokes 20 a day."),
])
def test_first_person_conversion_is_conservative(text: str, spoken: str) -> None:
    assert first_person(text, "en") == spoken
    assert first_person("Sie konnte nicht reden.", "de") == "Sie konnte nicht reden."


def test_a_spanish_interview_answers_in_spanish() -> None:
    a = dict(zip(QUESTIONS := [
        "¿Qué le trae por aquí?", "¿Tiene náuseas?", "¿Tiene fiebre?",
        "¿Qué enfermedades tiene?", "¿Qué enfermedad tiene?", "¿Cuántos años tiene?",
        "¿A qué se dedica?", "¿Le duelen otras articulaciones?", "¿Qué comió anoche?",
        "¿Alguien en su familia tiene alguna enfermedad?", "¿Cuándo empezó?",
        "¿Cómo es el dolor?", "Do you have a fever?"], interview(SPANISH, QUESTIONS), strict=False))
    assert a["¿Qué le trae por aquí?"] == "Me duele muchísimo el dedo gordo del pie."
    assert a["¿Tiene náuseas?"] == phrase("es", "absent_generic")
    assert a["¿Tiene fiebre?"] == "Sí, me noto destemplado."
    assert a["¿Qué enfermedades tiene?"] == "Hipertensión desde hace seis años."
    assert a["¿Qué enfermedad tiene?"] == phrase("es", "no_diagnosis")
    assert a["¿Cuántos años tiene?"] == "Tengo 58 años."
    assert a["¿A qué se dedica?"] == "Soy dueño de un restaurante."
    assert a["¿Le duelen otras articulaciones?"] == "No me duelen otras articulaciones."
    assert a["¿Qué comió anoche?"] == phrase("es", "wh_unknown")
    assert a["¿Alguien en su familia tiene alguna enfermedad?"] == \
        "Mi padre tenía ácido úrico alto."
    assert a["¿Cuándo empezó?"] == "Empezó a las 4 de la madrugada."
    assert a["¿Cómo es el dolor?"] == "Quemante, 10/10, no soporto la sábana."
    assert a["Do you have a fever?"] == "Sí, me noto destemplado."  # English asked, Spanish said
    _assert_not_english(a.values())


def test_a_french_interview_answers_in_french() -> None:
    a = dict(zip(QUESTIONS := [
        "Qu'est-ce qui vous amène ?", "Avez-vous mal à la tête ?", "Avez-vous de la fièvre ?",
        "Quel âge avez-vous ?", "Avez-vous des antécédents familiaux ?",
        "Avez-vous des nausées ?", "Quand est-ce que ça a commencé ?",
        "Que faites-vous dans la vie ?"], interview(FRENCH, QUESTIONS), strict=False))
    assert a["Qu'est-ce qui vous amène ?"] == "J'ai un mal de tête qui ne passe pas depuis hier."
    assert a["Avez-vous mal à la tête ?"] == "Oui, frontale, pulsatile, 7/10."
    assert a["Avez-vous de la fièvre ?"] == "Pas de fièvre."
    assert a["Quel âge avez-vous ?"] == "J'ai 34 ans."
    assert a["Avez-vous des antécédents familiaux ?"] == \
        "Ma mère a eu de la tension pendant sa grossesse."
    assert a["Avez-vous des nausées ?"] == phrase("fr", "absent_generic")
    assert a["Quand est-ce que ça a commencé ?"] == "Ça a commencé hier après-midi."
    assert a["Que faites-vous dans la vie ?"] == "Je suis ingénieure informatique."
    _assert_not_english(a.values())


def test_a_german_interview_answers_in_german() -> None:
    a = dict(zip(QUESTIONS := [
        "Was führt Sie zu uns?", "Haben Sie Fieber?", "Wann hat es angefangen?",
        "Können Sie das beschreiben?", "Wie alt sind Sie?", "Haben Sie Kopfschmerzen?",
        "Hat sie Herzstolpern?", "Gibt es Krankheiten in der Familie?",
        "Was hat sie gegessen?"], interview(GERMAN, QUESTIONS), strict=False))
    assert a["Was führt Sie zu uns?"] == "Sie konnte auf einmal nicht mehr reden."
    assert a["Haben Sie Fieber?"] == phrase("de", "absent_generic")
    assert a["Wann hat es angefangen?"] == \
        "Angefangen hat es plötzlich, zwischen 7:10 und 7:40 Uhr."
    assert a["Können Sie das beschreiben?"] == "Spricht nur einzelne Silben."
    assert "fühlt sich" not in a["Können Sie das beschreiben?"]
    assert a["Wie alt sind Sie?"] == "Ich bin 68 Jahre alt."
    assert a["Haben Sie Kopfschmerzen?"] == "Keine Kopfschmerzen."
    assert a["Hat sie Herzstolpern?"] == "Ja, seit Monaten ab und zu."
    assert a["Gibt es Krankheiten in der Familie?"] == "Ihre Mutter hatte Vorhofflimmern."
    assert a["Was hat sie gegessen?"] == phrase("de", "wh_unknown")
    _assert_not_english(a.values())


def test_a_chinese_interview_answers_in_chinese() -> None:
    a = dict(zip(QUESTIONS := [
        "您好，哪里不舒服？", "什么时候开始的？", "有腹痛吗？", "尿的时候疼吗？", "抽烟吗？",
        "家里人有什么病吗？", "您多大年纪？", "还有其他症状吗？", "最近吃了什么？",
        "您得的是什么病？", "Do you smoke?"], interview(CHINESE, QUESTIONS), strict=False))
    assert a["您好，哪里不舒服？"] == "这三个礼拜小便时不时是红的。"  # the complaint first
    assert a["什么时候开始的？"] == "三周前首次出现。"
    assert a["有腹痛吗？"] == phrase("zh-Hans", "absent_generic")
    assert a["尿的时候疼吗？"] == "没有。小便时不痛不烧。"
    assert a["抽烟吗？"] == a["Do you smoke?"] == "每天一包烟，四十多年。"
    assert a["家里人有什么病吗？"] == "父亲因肺癌去世。"  # family, not a diagnosis probe
    assert a["您多大年纪？"] == "我67岁。"
    assert a["还有其他症状吗？"] == "我还有血块、夜尿增多。"  # a Chinese list, no ", "
    assert a["最近吃了什么？"] == phrase("zh-Hans", "wh_unknown")
    assert a["您得的是什么病？"] == phrase("zh-Hans", "no_diagnosis")
    assert all(re.search(r"[\u4e00-\u9fff]", x) and ", " not in x for x in a.values())


def _assert_not_english(answers: Any) -> None:
    english = {v for v in PHRASES["en"].values() if len(v) > 12 and "{" not in v}
    for answer in answers:
        assert answer not in english and not answer.startswith(("Yes", "I'm", "It ", "I've")), \
            answer


def test_templates_are_complete_and_lists_read_naturally() -> None:
    for lang, table in PHRASES.items():
        assert set(table) == set(PHRASES["en"]), lang
    assert listing(["Sweating", "Nausea", "Fever"], "en") == "sweating, nausea and fever"
    assert listing(["fiebre", "tos"], "es") == "fiebre y tos"
    assert listing(["血块", "夜尿增多", "尿痛"], "zh-Hans") == "血块、夜尿增多、尿痛"
    assert phrase("zh-Hans", "join") == ""  # an empty template is not replaced by English


# -- bundled cases (facts the case rewrite keeps) ------------------------------------------
def ask(case_id: str, *questions: str) -> list[str]:
    return interview(BUNDLED[case_id], list(questions))


def test_bundled_cases_answer_the_audited_questions() -> None:
    no = phrase("en", "absent_generic")
    onset, dizzy, family = ask("card-001", "When did the chest pain start?",
                               "Do you feel dizzy?", "Any illnesses in the family?")
    assert "70 minutes" in onset and dizzy == no
    assert "father" in family and "blood pressure" not in family.lower()
    shoulder, breath, eat = ask("gi-002", "Any pain in your shoulder?",
                                "Does it hurt when you breathe in?", "What did you eat?")
    assert "shoulder" in shoulder and "breath" in breath and eat == phrase("en", "wh_unknown")
    complaint, = ask("uro-002", "您好，哪里不舒服？")
    assert complaint == BUNDLED["uro-002"].patient.chief_complaint
    nausea, = ask("rheum-001", "¿Tiene náuseas?")
    assert nausea.startswith("No")
    headache, = ask("id-002", "Avez-vous mal à la tête ?")
    assert headache.startswith("Oui")


def test_answers_are_deterministic_and_short() -> None:
    questions = ["What brings you in?", "Tell me about medications, allergies, smoking, "
                 "family, surgery, and past medical history"]
    first, second = ask("card-001", *questions), ask("card-001", *questions)
    assert first == second and len(first[1]) < 600


def test_a_record_without_symptom_details_still_answers_when_it_started() -> None:
    record = make_case("en", {"chief_complaint": "Headaches and dizziness for 3 days.",
                              "history_of_present_illness": "The patient reports persistent "
                              "headaches for 3 days. No fever."})
    assert interview(record, ["When did it start?"]) == ["Headaches and dizziness for 3 days."]
    assert interview(record, ["Any fever?"]) == ["No fever."]
    told = make_case("en", {"history_of_present_illness": "She has had double vision for a "
                            "month. It is worse in the evening.",
                            "primary_symptoms": [{"name": "double vision"}]})
    assert interview(told, ["When did it start?"]) == ["I have had double vision for a month."]


def test_a_proxy_speaks_of_the_patient_and_keeps_their_own_voice() -> None:
    # The mother answers for her son (peds-001), the husband for his wife (neuro-003): the
    # templates speak of the patient, and the stored text is not turned into "I".
    cases = {c.id: c for c in load_bundled_cases()}
    mother = RetrievalPatient(patient_view(cases["peds-001"]))
    assert mother.respond("How old is he?", []) == "He's 9 months old."
    vomiting = mother.respond("Has he been vomiting?", [])
    assert vomiting.startswith("Yes, he") and "I've been sick" not in vomiting
    assert mother.respond("Any other symptoms?", []).startswith("He's also had")
    husband = RetrievalPatient(patient_view(cases["neuro-003"]))
    assert husband.respond("Wie alt ist Ihre Frau?", []) == "Sie ist 68 Jahre alt."
    patient = RetrievalPatient(patient_view(cases["card-001"]))
    assert patient.respond("How old are you?", []) == "I'm 58."
