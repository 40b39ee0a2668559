"""The scripted doctor: a deterministic, model-free clinician for demos, tests and baselines.

It sees only its DoctorView and what it hears. It takes a history (complaint, onset,
character, associated symptoms, past history, medication, social and family history),
orders a generic work-up by common test names plus tests suggested by keywords in the
objective and the answers, then commits to the diagnosis whose keywords best fit
everything it heard (a small table written for bedside). Accuracy is modest by design.
When the case has images it was not shown, it asks for them after its first question
(`REQUEST IMAGES`, one turn), though it cannot look at them.
The seed only chooses among equivalent phrasings, so a seed fully fixes the transcript.
"""

from __future__ import annotations

import random

from core.agents.base import DeltaFn, DoctorState, Reply
from core.agents.templates import lang_key
from core.caseindex.matching import normalise
from core.transcript import FinalReport, Role
from core.views import DoctorView

VERSION = "scripted-doctor/3"
IMAGES_REQUEST = "REQUEST IMAGES"  # asked after the first question, when images wait
_QUESTIONS: list[tuple[str, ...]] = [
    ("What brings you in today?", "How can I help you today?"),
    ("When did it start, and how long has it been going on?",
     "When did this begin, and how long has it lasted?"),
    ("Can you describe it — what does it feel like, and does it spread anywhere?",
     "What is it like, how severe is it, and does it spread anywhere?"),
    ("Have you noticed any other symptoms?", "Is there anything else you've noticed?"),
    ("Do you have any past medical history or long-term conditions?",),
    ("Do you take any medications, and do you have any allergies?",),
    ("Do you smoke or drink alcohol, and have you travelled recently?",),
    ("Does any illness run in your family?",),
]
# The same history in the case's language (one phrasing each), so that an offline run of
# the whole library is a consultation the retrieval patient can follow in every language.
# Test orders stay the English names every examiner knows (clinicians mix them in anyway).
_QUESTIONS_BY_LANG: dict[str, list[str]] = {
    "es": ["¿Qué le trae hoy por aquí?", "¿Cuándo empezó y cuánto tiempo lleva así?",
           "¿Cómo es? Descríbamelo: ¿se le corre hacia algún sitio?",
           "¿Ha notado algún otro síntoma?", "¿Tiene alguna enfermedad o antecedente médico?",
           "¿Toma algún medicamento? ¿Tiene alguna alergia?",
           "¿Fuma o bebe alcohol? ¿Ha viajado recientemente?",
           "¿Hay alguna enfermedad en su familia?"],
    "fr": ["Qu'est-ce qui vous amène aujourd'hui ?",
           "Quand est-ce que ça a commencé, et depuis combien de temps ?",
           "Pouvez-vous décrire ce que vous ressentez ? Est-ce que ça irradie ?",
           "Avez-vous remarqué d'autres symptômes ?",
           "Avez-vous des antécédents médicaux ou des maladies chroniques ?",
           "Prenez-vous des médicaments ? Avez-vous des allergies ?",
           "Est-ce que vous fumez ou buvez de l'alcool ? Avez-vous voyagé récemment ?",
           "Y a-t-il des maladies dans votre famille ?"],
    "de": ["Was führt Sie heute zu uns?", "Wann hat es angefangen, und wie lange geht das schon?",
           "Können Sie es beschreiben – wie fühlt es sich an, strahlt es aus?",
           "Sind Ihnen noch andere Beschwerden aufgefallen?",
           "Haben Sie Vorerkrankungen oder chronische Krankheiten?",
           "Nehmen Sie Medikamente? Haben Sie Allergien?",
           "Rauchen Sie oder trinken Sie Alkohol? Waren Sie kürzlich auf Reisen?",
           "Gibt es Krankheiten in Ihrer Familie?"],
    "zh-Hans": ["您今天哪里不舒服？", "什么时候开始的，持续多久了？",
                "能描述一下是什么样的感觉吗？会放射到别的地方吗？", "还有其他症状吗？",
                "您以前有什么慢性病吗？", "您平时吃什么药吗？有没有过敏？",
                "您抽烟喝酒吗？最近有没有出去旅行？", "家里人有什么病吗？"],
    "hi": ["आज आपको क्या तकलीफ़ है?", "यह कब शुरू हुआ, और कितने दिन से है?",
           "यह कैसा है, ज़रा बताइए — कहीं फैलता है क्या?", "और कोई तकलीफ़ महसूस हुई है?",
           "क्या आपको कोई पुरानी बीमारी है?", "क्या आप कोई दवा लेते हैं? किसी दवा से एलर्जी है?",
           "क्या आप सिगरेट या शराब पीते हैं? हाल में कहीं यात्रा की?",
           "परिवार में किसी को कोई बीमारी है?"],
    "fa": ["چه مشکلی دارید؟", "از کی شروع شد و چند وقت است؟",
           "چه شکلی است؟ توصیفش کنید؛ جایی پخش می‌شود؟", "علامت دیگری هم متوجه شده‌اید؟",
           "سابقه‌ی بیماری خاصی دارید؟", "دارویی مصرف می‌کنید؟ به دارویی حساسیت دارید؟",
           "سیگار یا الکل مصرف می‌کنید؟ اخیراً سفر رفته‌اید؟",
           "در خانواده کسی بیماری خاصی دارد؟"],
    "ko": ["어디가 불편해서 오셨어요?", "언제부터 그랬고, 얼마나 오래 됐어요?",
           "어떤 느낌인지 설명해 주시겠어요? 다른 데로 퍼지기도 하나요?", "다른 증상도 있으세요?",
           "과거에 앓은 병이나 지병이 있으세요?", "드시는 약 있으세요? 약 알레르기는요?",
           "담배나 술 하세요? 최근에 여행 다녀오셨어요?", "가족 중에 앓는 병 있는 분 계세요?"],
}
_WORKUP = [
    ["vital signs", "physical examination"],
    ["complete blood count", "basic metabolic panel", "ECG"],
    ["chest X-ray", "urinalysis"],
]
# keyword in what was heard → extra tests to order
_KEYWORD_TESTS: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
    (("chest pain", "chest pressure", "jaw", "left arm", "dolor torácico", "douleur thoracique",
      "brustschmerz", "胸痛", "सीने में दर्द", "छाती में दर्द", "درد قفسه", "가슴 통증", "흉통"),
     ("troponin",)),
    (("breath", "calf", "flight", "haemoptysis", "blood in"),
     ("D-dimer", "CT pulmonary angiogram")),
    (("cough", "fever", "phlegm", "sputum", "fiebre", "tos", "fièvre", "toux", "fieber",
      "husten", "发热", "咳嗽", "बुखार", "खाँसी", "تب", "سرفه", "발열", "기침"),
     ("C-reactive protein", "blood cultures")),
    (("palpitation", "racing", "irregular"), ("thyroid function tests", "echocardiogram")),
    (("swollen", "swelling", "ankle", "orthopnoea", "pillows"), ("NT-proBNP", "echocardiogram")),
    (("abdominal", "belly", "stomach", "dolor abdominal", "ventre", "bauch", "腹痛", "पेट",
      "شکم", "복통", "윗배"), ("abdominal ultrasound", "lipase")),
    (("headache", "confusion", "weakness", "speech", "cefalea", "céphalée", "kopfschmerz",
      "头痛", "सिरदर्द", "سردرد", "두통", "경련"), ("CT head",)),
    (("urine", "burning", "urinat", "orina", "urin", "尿", "पेशाब", "ادرار", "소변"),
     ("urine culture",)),
    (("thirst", "glucose", "sugar"), ("blood glucose", "HbA1c")),
]
# diagnosis → weighted keywords (written for bedside; modest on purpose)
_DIAGNOSES: list[tuple[str, dict[str, float]]] = [
    ("ST-elevation myocardial infarction", {"st elevation": 5, "troponin": 2, "crushing": 1,
     "left arm": 1, "jaw": 1, "chest pain": 1, "sweat": 1}),
    ("Atrial fibrillation", {"atrial fibrillation": 5, "irregularly irregular": 4,
     "absent p waves": 4, "palpitation": 2, "racing": 1}),
    ("Acute decompensated heart failure", {"bnp": 3, "oedema": 2, "edema": 2, "pillows": 2,
     "orthopnoea": 2, "crackles": 1, "cardiomegaly": 2, "ejection fraction": 2}),
    ("Community-acquired pneumonia", {"consolidation": 4, "fever": 2, "cough": 1,
     "crackles": 1, "sputum": 1, "bronchial breathing": 2, "crp": 1}),
    ("Pulmonary embolism", {"filling defect": 5, "d dimer": 2, "calf": 2, "flight": 2,
     "pleuritic": 1, "haemoptysis": 1, "contracept": 1}),
    ("Spontaneous pneumothorax", {"pneumothorax": 5, "absent breath sounds": 3,
     "hyperresonant": 3, "tall": 1, "sudden": 1}),
    ("Acute appendicitis", {"right iliac fossa": 4, "periumbilical": 2, "rebound": 2}),
    ("Diabetic ketoacidosis", {"ketones": 4, "glucose": 1, "thirst": 1, "acidosis": 2}),
    ("Urinary tract infection", {"nitrite": 4, "dysuria": 3, "burning": 1, "leukocyte": 2}),
    ("Acute ischaemic stroke", {"weakness": 2, "slurred": 2, "facial droop": 3, "infarct": 2}),
    ("Asthma exacerbation", {"wheeze": 3, "peak flow": 3, "inhaler": 1}),
    ("Acute coronary syndrome", {"chest pain": 2, "troponin": 1}),
]


def guess_diagnosis(heard: str) -> str:
    """The best-scoring diagnosis for everything heard; ties go to the earlier table row."""
    text = f" {normalise(heard)} "
    best, best_score = "Undifferentiated presentation", 0.0
    for name, keywords in _DIAGNOSES:
        score = sum(w for k, w in keywords.items() if f" {normalise(k)}" in text)
        if score > best_score:
            best, best_score = name, score
    return best


class ScriptedDoctor:
    """Deterministic doctor built from a DoctorView and a seed."""

    def __init__(self, view: DoctorView, seed: int = 0) -> None:
        self.objective = view.objective
        self.rng = random.Random(seed)
        self.phrasings = [self.rng.choice(options) for options in _QUESTIONS]
        local = _QUESTIONS_BY_LANG.get(lang_key(view.language))
        if local:  # the seed still draws, so a seed fixes the same choices in every language
            self.phrasings = list(local)
        if view.images_on_request:
            self.phrasings.insert(1, IMAGES_REQUEST)
        self.label = "scripted"

    def _heard(self, state: DoctorState) -> str:
        said = [t.content for t in state.turns if t.role in (Role.PATIENT, Role.EXAMINER)]
        return "\n".join([self.objective, *said])

    def _plan(self, heard: str) -> list[str]:
        text = normalise(heard)
        extra: list[str] = []
        for keys, tests in _KEYWORD_TESTS:
            if any(normalise(k) in text for k in keys):
                extra.extend(t for t in tests if t not in extra)
        orders = [list(w) for w in _WORKUP]
        if extra:
            orders.append(extra)
        return [*self.phrasings, *("REQUEST TEST: " + ", ".join(o) for o in orders)]

    async def act(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """Next step of the plan; the diagnosis when the plan is done or on the last turn."""
        heard = self._heard(state)
        step = state.doctor_turn - 1
        # The keyword tests are planned from what was heard by the time they are ordered.
        plan = self._plan(heard)
        if state.is_last or step >= len(plan):
            return Reply(text=f"DIAGNOSIS READY: {guess_diagnosis(heard)}", model="scripted")
        return Reply(text=plan[step], model="scripted")

    async def report(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """A plain structured report assembled from what was heard."""
        heard = self._heard(state)
        patient = [t.content for t in state.turns if t.role == Role.PATIENT]
        results = [t.content for t in state.turns if t.role == Role.EXAMINER]
        report = FinalReport(
            symptoms=" ".join(patient[:4]) or None,
            examinations="\n".join(results) or None,
            diagnostic_results=guess_diagnosis(heard),
            rationale="Chosen by keyword fit to the history and results (scripted doctor).",
            treatment_plan="Treat according to local guidelines for the diagnosis.",
        )
        return Reply(text=report.model_dump_json(), model="scripted", report=report)


def tables() -> dict[str, object]:
    """What decides this doctor's turns, for the reproducibility hash."""
    return {"version": VERSION, "questions": _QUESTIONS, "local": _QUESTIONS_BY_LANG,
            "images": IMAGES_REQUEST,
            "workup": _WORKUP,
            "keyword_tests": _KEYWORD_TESTS, "diagnoses": _DIAGNOSES}


def build(view: DoctorView, seed: int = 0) -> ScriptedDoctor:
    """Construct the scripted doctor from its view."""
    return ScriptedDoctor(view, seed)
