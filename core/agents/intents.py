"""What kind of thing a doctor's sentence to the patient is, beyond a question about a fact.

Three readings that change how a patient should answer, in English, Spanish, French, German
and Chinese:
- `is_exam_request`: the doctor asks to examine ("Can I examine your chest?", "¿Puedo
  explorarle el abdomen?", "Darf ich Sie untersuchen?", "我给您检查一下"). A patient consents;
  what the examination finds is the examiner's to report.
- `asks_past`: the question is about earlier episodes, not the present one ("Have you had
  chest pain like this before?", "¿Le había pasado antes?", "Avez-vous déjà eu…",
  "Hatten Sie das schon einmal?", "以前有过吗？"). "Before" that orders events within the
  episode ("Did you feel sick before the pain started?") is not about the past.
Both the offline patient and the fidelity checks use these readings.

Must not import: anything but the standard library and core.agents (matching).
"""

from __future__ import annotations

import re

from core.caseindex.matching import normalise

# Body parts, vital signs and the person examined: what an examination verb acts on.
_OBJECTS = (
    r"you|him|her|them|yourself|your|his|the (?:chest|tummy|belly|abdomen|leg|arm|back|neck|"
    r"throat|skin|rash|foot|feet|head|heart|lungs|pulse|eyes|ears)|"
    r"le|la|lo|les|su|sus|el pecho|la barriga|el abdomen|"
    r"vous|votre|vos|te|ton|ta|"
    r"sie|ihr|ihre|ihren|ihrem|ihn|dich|den bauch|die brust|das bein")
# Verbs that are an examination whatever follows ("examine you"), and verbs that are one
# only with a body part or vital sign after them ("check your pulse", not "check your
# medications").
_EXAM_VERBS = (r"examine|examined|examining|auscultate|palpate|percuss|inspect|listen|"
               r"listened|do a (?:quick )?(?:physical|examination|exam)|"
               r"do an (?:examination|exam)|perform an? (?:examination|exam)")
_BODY_VERBS = r"feel|felt|press|look|looked|see|watch|check|checked|take|took|measure|test"
_BODY = (r"chest|heart|lungs?|tummy|abdomen|belly|stomach|legs?|arms?|back|neck|throat|ears?|"
         r"eyes?|skin|rash|foot|feet|toes?|head|pulses?|blood pressure|temperature|reflexes|"
         r"knees?|joints?|mouth|tongue|glands?|breathing|ankles?|wrists?|hands?|fingers?|"
         r"spine|temples?|artery|arteries|testicles?|scrotum|groin|side|breasts?|pelvis|"
         r"shin|calf|calves|face|nose|teeth|gums|sats|oxygen|weight|heartbeat|walk|gait|"
         r"walking|strength|sensation|balance|eyelids?|lids|hair|nails|lips|scalp|sinuses|"
         r"lymph nodes|nodes|belly button|ribs|hips?|shoulders?|elbows?|muscles?|"
         r"coordination|co ordination|power|grip|vision|eyesight|hearing|movements?|"
         r"range of movement|swelling")
_EN = re.compile(
    r"\b(?:can|could|may|might|shall) i\b|\bso (?:that )?i can\b|\blet me\b|\blet s\b|"
    r"\bi (?:d|would) like to\b|"
    r"\bi (?:m|am) (?:just |now |only )?going to\b|\bi (?:will|ll|want to|need to|must)\b|"
    r"\bmind if i\b|\b(?:ok|okay|alright|all right|fine) (?:if i|for me to)\b|"
    r"\b(?:allow me|permit me) to\b")
_SKIP = r"(?:\s+(?!what|which|how|if|whether|when|why|who)\w+){0,3}?"
_EN_VERB = re.compile(
    rf"\b(?:{_EXAM_VERBS})\b{_SKIP}\s+(?:{_OBJECTS}|{_BODY})\b|"
    rf"\b(?:{_BODY_VERBS})\b{_SKIP}\s+(?:{_BODY})\b|"
    r"\b(?:have|take) a (?:quick |little )?look(?:\s+at\s+(?:you|him|her|it|that|this)\b|"
    r"\W*$)|\bexamine\b\W*$")
_EN_BARE = re.compile(r"\b(?:examine|examin|auscultate|palpate)\w*\s+(?:you|him|her)\b")
_ES = re.compile(
    r"\b(?:puedo|podria|me permite|permitame|permite que|dejeme|deje que|me deja|me dejaria|"
    r"le importa que|voy a|vamos a|"
    r"quisiera|quiero|necesito|le importa si|tengo que)\b.*\b(?:explor|examin|auscult|palp|"
    r"revis|mir|ver|vistazo|tom(?:ar|arle) (?:la tension|la presion|el pulso|la temperatura)|"
    r"toc|escuch|"
    r"percut)\w*")
_FR = re.compile(
    r"\b(?:je peux|puis je|je vais|permettez moi|laissez moi|j aimerais|je voudrais|je dois|"
    r"est ce que je peux|vous permettez|je souhaiterais|on va|nous allons)\b.*"
    r"\b(?:examin|auscult|palp|regard|prendre (?:votre|la) (?:tension|pouls|temperature)|"
    r"touch|ecout|verifi|mesur|percut)\w*")
_DE = re.compile(
    r"\b(?:darf ich|kann ich|konnte ich|ich mochte|ich wurde gern|ich wurde gerne|ich werde|"
    r"lassen sie mich|ich muss|ich will|ich mochte gern|wir werden)\b.*"
    r"\b(?:untersuch|abhor|abtast|ansehen|anschauen|anseh|messen|fuhlen|tasten|abklopf|abhoren|"
    r"horen|schauen|betrachten)\w*")
_ZH = re.compile(
    r"(?:我|让我|咱们)(?:来|给您|给你|帮您|帮你|想|要|先|现在|需要|可以)*.{0,8}?"
    r"(?:检查|查体|查一下|指检|听诊|触诊|叩诊|听一下|听听|摸一下|摸摸|按一下|按按|看一下|看看|"
    r"量一下|量个|量量|测一下)")
# Words after which "before" orders events within the episode, not earlier episodes.
_BEFORE_WITHIN = frozenset("the it this that you your i he she starting eating meals meal bed "
                           "breakfast lunch dinner sleep going coming a an then my his her "
                           "taking getting waking".split())
# "Ever" asks about any time, the present included ("Did you ever lose consciousness?");
# "before", "previously", "the first time" ask about earlier episodes only.
_EVER = re.compile(r"\b(?:ever|alguna vez|deja|schon einmal|schon mal|jemals|je)\b")
_PAST = {
    "en": re.compile(r"\b(?:previously|previous episodes?|in the past|prior episodes?|"
                     r"first time|happened before|had this before|had it before|"
                     r"like this before|such (?:a|an) episode|earlier episodes?|"
                     r"other episodes?|similar episodes?|recurrent|used to (?:get|have))\b"),
    "es": re.compile(r"\b(?:anteriormente|previamente|en el pasado|otras veces|"
                     r"primera vez|le habia pasado|le ha pasado antes|episodios? previos?|"
                     r"episodios? anteriores|ya le)\b"),
    "fr": re.compile(r"\b(?:auparavant|par le passe|dans le passe|precedemment|"
                     r"anterieurement|premiere fois|episodes? precedents?|autrefois)\b"),
    "de": re.compile(r"\b(?:schon fruher|fruher|vorher|zuvor|in der vergangenheit|erste mal|"
                     r"ersten mal|erstes mal|"
                     r"bereits einmal|je zuvor)\b"),
}
_PAST_ZH = ("以前", "之前", "过去", "从前", "以往", "第一次", "犯过", "发作过")
_EVER_ZH = ("曾经", "有过", "得过", "出现过", "疼过", "痛过")
# Stored text that tells of earlier episodes ("Over the past year I've had…", "Hace dos años
# tuve un episodio parecido", "以前喝多了上腹也疼过"), or that there were none ("never").
_PAST_TEXT = re.compile(
    r"\b(?:before|previous|previously|in the past|past (?:year|years|few years|months)|"
    r"last (?:year|few years)|years? ago|as a (?:child|kid|teenager|baby)|in my (?:teens|"
    r"twenties|thirties|forties|fifties)|never|attacks|episodes|used to|history of|once before|"
    r"antes|anterior|anteriores|previo|previa|previos|hace (?:\w+ )?anos|nunca|alguna vez|"
    r"otras veces|de nino|de pequeno|adolescencia|infancia|"
    r"deja|avant|auparavant|autrefois|jamais|il y a (?:\w+ )?ans|dans l enfance|enfance|"
    r"adolescence|jeunesse|"
    r"fruher|schon (?:einmal|mal)|nie|niemals|vorher|zuvor|bereits|vor (?:\w+ )?jahren|"
    r"als kind|kindheit|jugend)\b")
_PAST_TEXT_ZH = ("以前", "之前", "过去", "曾", "从来", "从没", "从未", "年前", "既往", "小时候",
                 "上次", "前两次", "没得过", "没有过")
# Stored text that is itself a denial ("No fever.", "Nothing that I know of.", "没有…").
DENIAL_TEXT = re.compile(r"^(?:no|not|never|none|nothing|neither|sin|ningun|ninguna|nunca|"
                         r"nada|non|pas|aucun|aucune|rien|jamais|kein|keine|nicht|nie|nein)\b|"
                         r"^[没不无未]", re.IGNORECASE)
_BEFORE = re.compile(r"\b(?:before|antes|avant)\b(?:\s+(\w+))?")


def is_exam_request(question: str) -> bool:
    """True if the doctor asks to examine the patient (any supported language)."""
    if _ZH.search(question) and not question.strip().startswith(("您", "你")):
        return True
    q = normalise(question)
    if _EN.search(q) and (_EN_VERB.search(q) or _EN_BARE.search(q)):
        return True
    return bool(_ES.search(q) or _FR.search(q) or _DE.search(q))


def past_strength(question: str) -> str | None:
    """How a question asks about earlier episodes: "strong" ("before", "previously", "the
    first time": earlier episodes only), "weak" ("ever", "déjà", "jemals": any time, the
    present included), or None."""
    zh = question.replace("过敏", "")  # 过敏 (allergy) is not 过 (have had)
    q = normalise(question)
    if any(m in zh for m in _PAST_ZH) or any(p.search(q) for p in _PAST.values()):
        return "strong"
    for m in _BEFORE.finditer(q):
        after = m.group(1)
        if after is None or after not in _BEFORE_WITHIN and after not in ("de", "que", "d"):
            return "strong"
    if any(m in zh for m in _EVER_ZH) or _EVER.search(q):
        return "weak"
    return None


_FIRST_TIME = re.compile(r"\b(?:first time|primera vez|premiere fois|erste[ns]? mal)\b")


def asks_first_time(question: str) -> bool:
    """True if the question asks whether this is the first time (a "yes" says no earlier
    episode: "Is this the first time?")."""
    return "第一次" in question or bool(_FIRST_TIME.search(normalise(question)))


def asks_past(question: str) -> bool:
    """True if the question may be about earlier episodes rather than the present one."""
    return past_strength(question) is not None


# Markers that place a sentence of the story in an earlier episode, not earlier in this one
# ("before that I needed two pillows" is this episode).
_EARLIER_TEXT = re.compile(
    r"\b(?:previous|previously|in the past|past (?:year|years|few years)|last year|years? ago|"
    r"as a (?:child|kid|teenager)|attacks|episodes|anterior|anteriores|previo|previos|"
    r"hace (?:\w+ )?anos|otras veces|auparavant|autrefois|il y a (?:\w+ )?ans|fruher|"
    r"vor (?:\w+ )?jahren)\b")
_EARLIER_TEXT_ZH = ("以前", "过去", "年前", "既往")


def mentions_past(text: str, strict: bool = False) -> bool:
    """True if stored text speaks of earlier episodes (or of never having had them).
    `strict`: only markers that place it in an earlier episode (for sentences of the
    story, where "before" and "never" are about this one)."""
    if strict:
        return any(m in text for m in _EARLIER_TEXT_ZH) or bool(
            _EARLIER_TEXT.search(normalise(text)))
    if any(m in text for m in _PAST_TEXT_ZH):
        return True
    return bool(_PAST_TEXT.search(normalise(text)))


# A question about an ability or an amount ("Can you lie flat?", "Are you passing much
# water?", "Kann sie noch sprechen?"), or stored text that is itself limited ("hardly any",
# "nur einzelne Silben"): a "yes" before the answer would say the opposite of it.
_ABILITY = re.compile(
    r"^(?:can|could|cannot|can t) (?:you|he|she|they|i)\b|\b(?:are|is) (?:you|he|she) able\b|"
    r"\b(?:much|well|enough|properly|normally|as usual)\b|"
    r"^(?:puede|puedes|pueden|podria)\b|\b(?:bien|mucho|suficiente|con normalidad)\b|"
    r"^(?:pouvez|peux|peut|arrivez|arrive)\b|\b(?:bien|beaucoup|normalement)\b|"
    r"^(?:kann|kannst|konnen|konnte)\b|\b(?:gut|viel|genug|normal|noch)\b")
_ABILITY_ZH = ("能", "可以", "正常吗", "好吗", "多吗")
_LIMITED = re.compile(
    r"\b(?:not|no|never|cannot|can t|couldn t|won t|don t|doesn t|isn t|hardly|barely|only|"
    r"unable|no puede|apenas|solo|nada|ne|pas|plus|nur|kaum|nicht|kein|keine|nie)\b")
_LIMITED_ZH = ("不", "没", "只", "无法")


# "Did you hurt your chest?" asks about an injury, not about pain ("hurt" is otherwise a
# pain word): the word for an injury in each language, added to what the question names.
_INJURY = re.compile(
    r"\b(?:did|have|has|had) (?:you|he|she|they) (?:ever )?(?:hurt|injure|injured|bang|banged|"
    r"bump|bumped|knock|knocked|hit|fall on|fallen on|fell on)\b|"
    r"\bse (?:ha|habia) (?:hecho dano|golpeado|lesionado)\b|\bse (?:dio|ha dado) un golpe\b|"
    r"\b(?:vous etes vous|s est il|s est elle|vous vous etes) (?:blesse|cogne)\w*|"
    r"\b(?:verletzt|gestossen|angeschlagen|gestuerzt|gesturzt)\b")
_INJURY_ZH = ("受伤", "撞到", "撞伤", "摔伤", "碰伤")
INJURY_WORD = {"en": "injury", "es": "herida", "fr": "blessure", "de": "verletzung",
               "zh": "外伤"}


# Stored text about an injury, or its absence ("I haven't hurt it", "no recent injury").
_INJURY_WORDS = (r"injury|injuries|injured|hurt (?:it|myself|himself|herself)|fall|fell|fallen|"
                 r"bang|banged|knock|knocked|hit|bumped|trauma|golpe|golpeado|herida|heridas|"
                 r"lesion|blessure|blesse|tombe|chute|verletzung|verletzt|gesturzt|sturz")
INJURY_TEXT = re.compile(rf"\b(?:{_INJURY_WORDS})\b|受伤|外伤|摔|撞")
_NO_INJURY = re.compile(
    r"\b(?:no|not|never|haven t|hasn t|didn t|wasn t|nothing|ningun|ninguna|sin|pas|aucun|"
    rf"aucune|kein|keine|nicht)\b(?:\W+\w+){{0,6}}?\W+(?:{_INJURY_WORDS})\b")
_NO_INJURY_ZH = re.compile(r"[没未无不].{0,2}(?:受伤|受过伤|外伤|摔|撞|伤)")


def denies_injury(text: str) -> bool:
    """True if stored text says there was no injury ("no recent injury", "I haven't hurt
    it", "No me he dado ningún golpe"): a negation shortly before the injury word."""
    return bool(_NO_INJURY.search(normalise(text)) or _NO_INJURY_ZH.search(text))


def asks_injury(question: str) -> bool:
    """True if the question asks whether something was injured ("Did you hurt your leg?")."""
    return bool(_INJURY.search(normalise(question))) or any(m in question for m in _INJURY_ZH)


def yes_misleads(question: str, text: str) -> bool:
    """True when a "yes" before `text` would mislead: the question asks about an ability or
    an amount, or the text itself is limited or negated."""
    q, t = normalise(question), normalise(text)
    return bool(_ABILITY.search(q) or _LIMITED.search(t)) or (
        any(m in question for m in _ABILITY_ZH) or any(m in text for m in _LIMITED_ZH))


def table_fingerprint() -> list[object]:
    """Everything that decides these readings, for the reproducibility hash."""
    patterns = [_EN, _EN_VERB, _EN_BARE, _ES, _FR, _DE, _ZH, _EVER, *_PAST.values(), _BEFORE,
                _PAST_TEXT, _EARLIER_TEXT, DENIAL_TEXT, _ABILITY, _LIMITED, _INJURY, INJURY_TEXT,
                _NO_INJURY, _NO_INJURY_ZH]
    return [[p.pattern for p in [*patterns, _FIRST_TIME]], sorted(_BEFORE_WITHIN), _PAST_ZH,
            _EVER_ZH, _PAST_TEXT_ZH, _EARLIER_TEXT_ZH, _ABILITY_ZH, _LIMITED_ZH, _INJURY_ZH,
            INJURY_WORD]
