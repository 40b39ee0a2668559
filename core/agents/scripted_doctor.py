"""The scripted doctor: a deterministic, model-free clinician for demos, tests and baselines.

It sees only its DoctorView and what it hears. It takes a history (complaint, onset,
character, associated symptoms, past history, medication, social and family history),
orders a generic work-up by common test names plus tests suggested by keywords in the
objective and the answers, then commits to the diagnosis whose keywords best fit
everything it heard (a small table written for bedside). Accuracy is modest by design.
When the case has images it was not shown, it asks for them after its first question
(`REQUEST IMAGES`, one turn), though it cannot look at them.

Seed 0 is the reference doctor: its seed only chooses among equivalent phrasings. Any other
seed is a doctor of another style, so that two scripted doctors can disagree (the offline
collaboration needs them to): it leaves out one or two of the later history questions,
orders the work-up in another order, and weighs each diagnosis keyword by its own factor
(0.5-1.5), so near ties go another way. A seed fully fixes the transcript either way.

In a collaboration (`core.solvers.collaborate`) it revises its diagnosis by the same
table: `revise` gives up its diagnosis for one another doctor holds when that one scores,
on what this doctor heard, at least `1 - round/4` of its own score (so it holds out in the
first round and concedes more as rounds pass).
"""

from __future__ import annotations

import random

from core.agents.base import DeltaFn, DoctorState, Reply
from core.agents.templates import lang_key
from core.caseindex.matching import normalise
from core.transcript import FinalReport, Role, Turn
from core.views import DoctorView

VERSION = "scripted-doctor/4"
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


Table = list[tuple[str, dict[str, float]]]
# A non-reference style: how many later history questions it leaves out, the range of its
# keyword weight factors; in a collaboration, the round by which it concedes to any
# diagnosis it can weigh (it needs `1 - round / _CONCEDE_BY` of its own score).
_DROPPED = (1, 2)
_WEIGHTS = (0.3, 1.7)
_CONCEDE_BY = 4


def _scores(heard: str, table: Table) -> list[tuple[str, float]]:
    text = f" {normalise(heard)} "
    return [(name, sum(w for k, w in keywords.items() if f" {normalise(k)}" in text))
            for name, keywords in table]


def tests_for(heard: str) -> list[str]:
    """The tests the reference scripted doctor would order after hearing `heard`: its
    routine work-up, then the tests its keywords call for (RJUA's diagnostic-reasoning
    task, offline)."""
    text = normalise(heard)
    out = [t for group in _WORKUP for t in group]
    for keys, tests in _KEYWORD_TESTS:
        if any(normalise(k) in text for k in keys):
            out.extend(t for t in tests if t not in out)
    return out


def guess_diagnosis(heard: str, table: Table | None = None) -> str:
    """The best-scoring diagnosis for everything heard; ties go to the earlier table row."""
    best, best_score = "Undifferentiated presentation", 0.0
    for name, score in _scores(heard, table or _DIAGNOSES):
        if score > best_score:
            best, best_score = name, score
    return best


def _style(rng: random.Random) -> tuple[list[int], list[int], Table]:
    """A non-reference doctor's style: the history questions it asks (by index), the
    order of its work-up groups, and its keyword weights."""
    later = list(range(3, len(_QUESTIONS)))
    dropped = set(rng.sample(later, rng.choice(_DROPPED)))
    questions = [i for i in range(len(_QUESTIONS)) if i not in dropped]
    workup = list(range(len(_WORKUP)))
    rng.shuffle(workup)
    table = [(name, {k: round(w * rng.uniform(*_WEIGHTS), 3) for k, w in keywords.items()})
             for name, keywords in _DIAGNOSES]
    return questions, workup, table


class ScriptedDoctor:
    """Deterministic doctor built from a DoctorView and a seed."""

    def __init__(self, view: DoctorView, seed: int = 0) -> None:
        self.objective = view.objective
        self.rng = random.Random(seed)
        self.phrasings = [self.rng.choice(options) for options in _QUESTIONS]
        local = _QUESTIONS_BY_LANG.get(lang_key(view.language))
        if local:  # the seed still draws, so a seed fixes the same choices in every language
            self.phrasings = list(local)
        self.ask_images = bool(view.images_on_request)
        self.questions = list(range(len(_QUESTIONS)))
        self.workup = list(range(len(_WORKUP)))
        self.table: Table = _DIAGNOSES
        if seed:
            self.questions, self.workup, self.table = _style(self.rng)
        self.label = "scripted" if not seed else f"scripted:seed={seed}"

    def _heard(self, state: DoctorState) -> str:
        return heard_text(self.objective, state.turns)

    def _plan(self, heard: str, opened: bool = False) -> list[str]:
        """Its questions, then its test orders; `opened`: the patient has already said why
        it came (AI Hospital's protocol), so the opening question is left out."""
        text = normalise(heard)
        extra: list[str] = []
        for keys, tests in _KEYWORD_TESTS:
            if any(normalise(k) in text for k in keys):
                extra.extend(t for t in tests if t not in extra)
        orders = [list(_WORKUP[i]) for i in self.workup]
        if extra:
            orders.append(extra)
        asked = [self.phrasings[i] for i in self.questions if not (opened and i == 0)]
        if self.ask_images:
            asked.insert(min(1, len(asked)), IMAGES_REQUEST)
        return [*asked, *("REQUEST TEST: " + ", ".join(o) for o in orders)]

    def diagnose(self, heard: str) -> str:
        """Its diagnosis for everything heard."""
        return guess_diagnosis(heard, self.table)

    async def act(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """Next step of the plan; the diagnosis when the plan is done or on the last turn."""
        heard = self._heard(state)
        step = state.doctor_turn - 1
        # The keyword tests are planned from what was heard by the time they are ordered.
        plan = self._plan(heard, any(t.kind == "complaint" for t in state.turns))
        if state.is_last or step >= len(plan):
            return Reply(text=f"DIAGNOSIS READY: {self.diagnose(heard)}", model="scripted")
        return Reply(text=plan[step], model="scripted")

    async def report(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """A plain structured report assembled from what was heard."""
        heard = self._heard(state)
        patient = [t.content for t in state.turns if t.role == Role.PATIENT
                   and t.kind != "relay"]
        results = [t.content for t in state.turns if t.role == Role.EXAMINER]
        report = FinalReport(
            symptoms=" ".join(patient[:4]) or None,
            examinations="\n".join(results) or None,
            diagnostic_results=self.diagnose(heard),
            rationale="Chosen by keyword fit to the history and results.",
            treatment_plan="Treat according to local guidelines for the diagnosis.",
        )
        return Reply(text=report.as_text(), model="scripted", report=report)

    def score(self, diagnosis: str | None, heard: str) -> float | None:
        """How well a diagnosis fits what was heard, by this doctor's table; None for a
        diagnosis the table does not hold (this doctor cannot weigh it)."""
        wanted = normalise(diagnosis or "")
        for name, score in _scores(heard, self.table):
            if normalise(name) == wanted:
                return score
        return None

    def revise(self, own: str | None, others: list[str | None], heard: str,
               round_: int) -> tuple[str | None, str]:
        """(its diagnosis after this round, why, in its own words): it takes the diagnosis
        the most other doctors hold (ties: the one it scores higher) when that one scores
        at least `1 - round / 4` of its own on what it heard; else it keeps its own."""
        held = [o for o in others if o and normalise(o) != normalise(own or "")]
        if not held:
            return own, "No other diagnosis to weigh: I keep mine."
        counts: dict[str, int] = {}
        for o in held:
            counts[o] = counts.get(o, 0) + 1
        mine = self.score(own, heard) if own else None
        weighable = [(counts[o], s, o) for o in counts if (s := self.score(o, heard)) is not None]
        if not weighable:
            return own, "I cannot weigh the other diagnoses by what I heard: I keep mine."
        _, theirs, other = max(weighable, key=lambda x: (x[0], x[1]))
        need = max(0.0, 1 - round_ / _CONCEDE_BY)
        if mine is None or theirs >= need * mine:
            against = "" if mine is None else f" against {mine:.1f} for mine"
            return other, (f"I take up {other}: on what I heard it scores {theirs:.1f}"
                           f"{against}, enough in round {round_}.")
        return own, (f"I keep my diagnosis: on what I heard it scores {mine:.1f}, "
                     f"{other} {theirs:.1f}.")


def heard_text(objective: str, turns: list[Turn]) -> str:
    """What a doctor heard: the objective and every patient and examiner message, but the
    test requests the patient relays to the examiner (the doctor's own words)."""
    said = [t.content for t in turns if t.role in (Role.PATIENT, Role.EXAMINER)
            and t.kind != "relay"]
    return "\n".join([objective, *said])


def tables() -> dict[str, object]:
    """What decides this doctor's turns, for the reproducibility hash."""
    return {"version": VERSION, "questions": _QUESTIONS, "local": _QUESTIONS_BY_LANG,
            "images": IMAGES_REQUEST, "workup": _WORKUP,
            "keyword_tests": _KEYWORD_TESTS, "diagnoses": _DIAGNOSES,
            "style": {"weights": _WEIGHTS, "dropped": _DROPPED, "concede_by": _CONCEDE_BY}}


def build(view: DoctorView, seed: int = 0) -> ScriptedDoctor:
    """Construct the scripted doctor from its view."""
    return ScriptedDoctor(view, seed)
