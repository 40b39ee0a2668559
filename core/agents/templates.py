"""Patient-voice templates and question cues per language, for the retrieval agents.

`PHRASES[lang][key]` is a `str.format` template of the patient's voice; `CUES[lang][cue]` is
a list of words or phrases (already lower case, accents kept) that signal what a doctor's
question is about. English is the fallback for every missing key. Written for bedside.

Must not import: anything but the standard library.
"""

from __future__ import annotations

PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "complaint": "{text}",
        "present": "Yes — {text}",
        "absent": "No. {text}",
        "absent_generic": "No, I haven't noticed anything like that.",
        "onset": "It started {text}.",
        "duration": "It has been {text}.",
        "character": "It feels {text}.",
        "history": "{text}",
        "age": "I'm {text}.",
        "occupation": "I work as a {text}.",
        "sex": "I'm {text}.",
        "more_symptoms": "I've also had {text}.",
        "no_more": "Nothing else that I've noticed.",
        "dont_know": "I'm not sure what you mean, doctor. Could you ask me another way?",
        "no_diagnosis": "I really don't know what it is — that's why I came to see you.",
        "no_results": "I haven't been told any test results, doctor.",
        "normal": "normal",
        "refusal": "Please name the specific tests or examinations you want.",
        "join": " ",
    },
    "es": {
        "present": "Sí — {text}",
        "absent": "No. {text}",
        "absent_generic": "No, no he notado nada parecido.",
        "onset": "Empezó {text}.",
        "duration": "Lleva así {text}.",
        "character": "Lo noto {text}.",
        "age": "Tengo {text} años.",
        "occupation": "Trabajo de {text}.",
        "sex": "Soy {text}.",
        "more_symptoms": "También he tenido {text}.",
        "no_more": "Nada más que yo haya notado.",
        "dont_know": "No le entiendo bien, doctor. ¿Me lo puede preguntar de otra forma?",
        "no_diagnosis": "De verdad no sé qué tengo; por eso he venido.",
        "no_results": "No me han dado ningún resultado, doctor.",
        "normal": "normal",
        "refusal": "Indique qué pruebas o exploraciones concretas quiere.",
    },
    "fr": {
        "present": "Oui — {text}",
        "absent": "Non. {text}",
        "absent_generic": "Non, je n'ai rien remarqué de tel.",
        "onset": "Ça a commencé {text}.",
        "duration": "Ça dure {text}.",
        "character": "Je le ressens {text}.",
        "age": "J'ai {text} ans.",
        "occupation": "Je travaille comme {text}.",
        "sex": "Je suis {text}.",
        "more_symptoms": "J'ai aussi eu {text}.",
        "no_more": "Rien d'autre, à ma connaissance.",
        "dont_know": "Je ne comprends pas bien, docteur. Pouvez-vous reformuler ?",
        "no_diagnosis": "Je ne sais vraiment pas ce que j'ai, c'est pour ça que je viens.",
        "no_results": "On ne m'a donné aucun résultat, docteur.",
        "normal": "normal",
        "refusal": "Veuillez nommer les examens précis que vous souhaitez.",
    },
    "de": {
        "present": "Ja — {text}",
        "absent": "Nein. {text}",
        "absent_generic": "Nein, so etwas ist mir nicht aufgefallen.",
        "onset": "Es hat {text} angefangen.",
        "duration": "Das geht schon {text} so.",
        "character": "Es fühlt sich {text} an.",
        "age": "Ich bin {text} Jahre alt.",
        "occupation": "Ich arbeite als {text}.",
        "sex": "Ich bin {text}.",
        "more_symptoms": "Außerdem hatte ich {text}.",
        "no_more": "Sonst ist mir nichts aufgefallen.",
        "dont_know": "Das verstehe ich nicht ganz, Herr Doktor. Können Sie anders fragen?",
        "no_diagnosis": "Ich weiß wirklich nicht, was ich habe – deshalb bin ich ja hier.",
        "no_results": "Mir wurden noch keine Ergebnisse genannt.",
        "normal": "normal",
        "refusal": "Bitte nennen Sie die konkreten Untersuchungen, die Sie möchten.",
    },
    "zh-Hans": {
        "present": "是的，{text}",
        "absent": "没有。{text}",
        "absent_generic": "没有，我没注意到这种情况。",
        "onset": "是{text}开始的。",
        "duration": "已经{text}了。",
        "character": "感觉{text}。",
        "age": "我{text}岁。",
        "occupation": "我是{text}。",
        "sex": "我是{text}。",
        "more_symptoms": "我还有{text}。",
        "no_more": "别的我没注意到。",
        "dont_know": "医生，我不太明白您的意思，能换个方式问吗？",
        "no_diagnosis": "我真的不知道是什么病，所以才来看您。",
        "no_results": "医生，还没有人告诉我任何检查结果。",
        "normal": "正常",
        "refusal": "请说明您需要的具体检查项目。",
        "join": "",
    },
}

CUES: dict[str, dict[str, list[str]]] = {
    "en": {
        "complaint": ["what brings", "brought you", "what's wrong", "what is wrong", "problem",
                      "trouble", "how can i help", "what happened", "tell me about",
                      "main complaint", "how are you"],
        "onset": ["when", "start", "began", "begin", "onset", "first notice", "sudden"],
        "duration": ["how long", "duration", "lasted", "lasting", "since"],
        "character": ["describe", "like", "feel", "where", "spread", "radiat", "severe",
                      "scale", "worse", "better", "character", "type of", "sharp", "dull"],
        "other": ["other symptom", "anything else", "else", "associated", "any other",
                  "other problem"],
        "age": ["how old", "your age", "age"],
        "occupation": ["work", "job", "occupation", "do for a living"],
        "diagnosis": ["diagnos", "what do you have", "what you have", "disease", "condition",
                      "what is it", "illness you have", "you think it is"],
        "results": ["result", "test", "lab", "scan", "x-ray", "ecg"],
        "past_medical": ["medical history", "past medical", "illness", "conditions",
                         "health problems", "diabetes", "blood pressure", "hospital"],
        "medication": ["medication", "medicine", "drug", "pill", "tablet", "take any"],
        "surgical": ["surgery", "operation", "operated", "surgical"],
        "allergy": ["allerg"],
        "social": ["smoke", "smoking", "alcohol", "drink", "travel", "live with", "social",
                   "exercise", "recreational"],
        "family": ["family", "parents", "mother", "father", "sibling", "relatives"],
        "menstrual_obstetric": ["period", "pregnan", "menstru", "contracept"],
        "review_of_systems": ["fever", "weight", "night sweats", "appetite", "bowel",
                              "urine", "sleep"],
    },
    "es": {
        "complaint": ["qué le trae", "qué le pasa", "problema", "cuénteme", "motivo"],
        "onset": ["cuándo", "empez", "comenz", "inicio"],
        "duration": ["cuánto tiempo", "desde"],
        "character": ["cómo es", "describa", "dónde", "irradia", "intens"],
        "other": ["otro síntoma", "algo más", "otros"],
        "age": ["edad", "cuántos años"],
        "occupation": ["trabaj", "profesión", "ocupación"],
        "diagnosis": ["diagnóstico", "enfermedad", "qué tiene"],
        "results": ["resultado", "prueba", "análisis"],
        "past_medical": ["antecedentes", "enfermedades previas"],
        "medication": ["medicamento", "medicación", "pastilla", "toma"],
        "surgical": ["operación", "cirugía", "operado"],
        "allergy": ["alerg"],
        "social": ["fuma", "alcohol", "bebe", "viaj"],
        "family": ["familia", "padre", "madre"],
        "menstrual_obstetric": ["regla", "embaraz", "menstru"],
    },
    "fr": {
        "complaint": ["qu'est-ce qui vous amène", "problème", "racontez", "motif"],
        "onset": ["quand", "commencé", "début"],
        "duration": ["depuis combien", "depuis quand", "durée"],
        "character": ["décrire", "comment est", "où", "irradie", "intensité"],
        "other": ["autre symptôme", "autre chose", "autres"],
        "age": ["âge", "quel âge"],
        "occupation": ["travail", "métier", "profession"],
        "diagnosis": ["diagnostic", "maladie", "ce que vous avez"],
        "results": ["résultat", "examen", "analyse"],
        "past_medical": ["antécédents", "maladies"],
        "medication": ["médicament", "traitement", "comprimé"],
        "surgical": ["opération", "chirurgie", "opéré"],
        "allergy": ["allerg"],
        "social": ["fume", "alcool", "boit", "voyag"],
        "family": ["famille", "père", "mère"],
        "menstrual_obstetric": ["règles", "enceinte", "grossesse"],
    },
    "de": {
        "complaint": ["was führt sie", "beschwerden", "problem", "erzählen sie"],
        "onset": ["wann", "angefangen", "begonnen", "beginn"],
        "duration": ["wie lange", "seit wann", "dauer"],
        "character": ["beschreiben", "wie fühlt", "wo genau", "ausstrahl", "stark"],
        "other": ["andere symptome", "sonst noch", "weitere"],
        "age": ["wie alt", "alter"],
        "occupation": ["arbeit", "beruf"],
        "diagnosis": ["diagnose", "krankheit", "was sie haben"],
        "results": ["ergebnis", "befund", "test"],
        "past_medical": ["vorerkrankung", "krankheiten"],
        "medication": ["medikament", "tabletten", "nehmen sie"],
        "surgical": ["operation", "operiert"],
        "allergy": ["allerg"],
        "social": ["rauchen", "alkohol", "trinken", "reise"],
        "family": ["familie", "vater", "mutter", "eltern"],
        "menstrual_obstetric": ["periode", "schwanger", "regel"],
    },
    "zh-Hans": {
        "complaint": ["哪里不舒服", "怎么了", "什么问题", "主诉", "说说"],
        "onset": ["什么时候", "开始", "起病"],
        "duration": ["多久", "多长时间", "持续"],
        "character": ["什么样", "描述", "哪里", "放射", "程度"],
        "other": ["其他症状", "还有什么", "别的"],
        "age": ["多大", "年龄", "几岁"],
        "occupation": ["工作", "职业"],
        "diagnosis": ["诊断", "什么病"],
        "results": ["结果", "检查", "化验"],
        "past_medical": ["既往", "病史", "以前得过"],
        "medication": ["药", "服用"],
        "surgical": ["手术"],
        "allergy": ["过敏"],
        "social": ["吸烟", "抽烟", "喝酒", "饮酒", "旅行"],
        "family": ["家族", "家里人", "父亲", "母亲"],
        "menstrual_obstetric": ["月经", "怀孕"],
    },
}


def lang_key(tag: str) -> str:
    """The template language for a BCP-47 tag (zh → zh-Hans, unknown → en)."""
    if tag in PHRASES:
        return tag
    base = tag.split("-")[0].lower()
    if base == "zh":
        return "zh-Hans"
    return base if base in PHRASES else "en"


def phrase(tag: str, key: str, text: str = "") -> str:
    """Fill one patient-voice template, falling back to English."""
    lang = lang_key(tag)
    template = PHRASES[lang].get(key) or PHRASES["en"][key]
    return template.format(text=text)


def cues(tag: str, cue: str) -> list[str]:
    """Cue words for a language; English cues are always included (doctors mix languages)."""
    lang = lang_key(tag)
    extra = CUES[lang].get(cue, []) if lang != "en" else []
    return [*CUES["en"].get(cue, []), *extra]
