"""Patient-voice templates and question cues per language, for the retrieval agents.

`PHRASES[lang][key]` is a `str.format` template of the patient's voice; `CUES[lang][cue]`
lists words or phrases that signal what a doctor's question is about (syntax in
`core.agents.matching`: "^when" only at the start, "disease$" only as a whole word, four
letters or more also match as a word prefix). English cues are always added, since doctors
and models often ask in English whatever the case's language. Stored case text is mostly a
fragment ("70 minutes ago, on exertion"), so templates either frame it in a way any
fragment fits or let it stand as its own sentence. Written for bedside.

Must not import: anything but the standard library.
"""

from __future__ import annotations

VERSION = "templates/4"

PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "consent": "Yes, of course — go ahead.",
        "consent@m": "Yes, of course — go ahead and examine him.",
        "consent@f": "Yes, of course — go ahead and examine her.",
        "not_before": "This is the first time I've had anything like this.",
        "not_before@m": "This is the first time he's had anything like this.",
        "not_before@f": "This is the first time she's had anything like this.",
        "unknown_test": "{text}: not a test I know — please check the name.",
        "age@m": "He's {text}.", "age@f": "She's {text}.",
        "age_text@m": "He's {text} old.", "age_text@f": "She's {text} old.",
        "occupation@m": "He's {text}.", "occupation@f": "She's {text}.",
        "more_symptoms@m": "He's also had {text}.", "more_symptoms@f": "She's also had {text}.",
        "yes_name@m": "Yes, he has {text}.", "yes_name@f": "Yes, she has {text}.",
        "complaint": "{text}", "history": "{text}", "fact": "{text}.",
        "yes": "Yes, {text}", "yes_name": "Yes, I have {text}.", "no": "No. {text}",
        "absent_generic": "No, I haven't noticed anything like that.",
        "wh_unknown": "I'm not sure, doctor. Nothing out of the ordinary that I can think of.",
        "onset": "It started {text}.",
        "age": "I'm {text}.", "age_text": "I'm {text} old.", "occupation": "I'm {text}.",
        "more_symptoms": "I've also had {text}.", "no_more": "Nothing else that I've noticed.",
        "dont_know": "I'm not sure what you mean, doctor. Could you ask me another way?",
        "no_diagnosis": "I really don't know what it is — that's why I came to see you.",
        "no_results": "I haven't been told any test results, doctor.",
        "normal": "normal",
        "refusal": "Please name the specific tests or examinations you want.",
        "join": " ", "list_sep": ", ", "list_and": " and ",
    },
    "es": {
        "consent": "Sí, claro, adelante.",
        "consent@m": "Sí, claro, explórelo.", "consent@f": "Sí, claro, explórela.",
        "not_before": "Es la primera vez que me pasa algo así.",
        "not_before@m": "Es la primera vez que le pasa algo así.",
        "not_before@f": "Es la primera vez que le pasa algo así.",
        "unknown_test": "{text}: no conozco ninguna prueba con ese nombre; compruebe el nombre.",
        "age@m": "Tiene {text} años.", "age@f": "Tiene {text} años.",
        "age_text@m": "Tiene {text}.", "age_text@f": "Tiene {text}.",
        "occupation@m": "Es {text}.", "occupation@f": "Es {text}.",
        "more_symptoms@m": "También le he notado: {text}.",
        "more_symptoms@f": "También le he notado: {text}.",
        "yes_name@m": "Sí, tiene {text}.", "yes_name@f": "Sí, tiene {text}.",
        "complaint": "{text}", "history": "{text}", "fact": "{text}.",
        "yes": "Sí, {text}", "yes_name": "Sí, tengo {text}.", "no": "No. {text}",
        "absent_generic": "No, no he notado nada parecido.",
        "wh_unknown": "No sabría decirle, doctor; nada fuera de lo normal que yo recuerde.",
        "onset": "Empezó {text}.",
        "age": "Tengo {text} años.", "age_text": "Tengo {text}.", "occupation": "Soy {text}.",
        "more_symptoms": "También he notado: {text}.", "no_more": "Nada más que yo haya notado.",
        "dont_know": "No le entiendo bien, doctor. ¿Me lo puede preguntar de otra forma?",
        "no_diagnosis": "De verdad no sé qué tengo; por eso he venido.",
        "no_results": "No me han dado ningún resultado, doctor.",
        "normal": "normal",
        "refusal": "Indique qué pruebas o exploraciones concretas quiere.",
        "join": " ", "list_sep": ", ", "list_and": " y ",
    },
    "fr": {
        "consent": "Oui, bien sûr, allez-y.",
        "consent@m": "Oui, bien sûr, examinez-le.", "consent@f": "Oui, bien sûr, examinez-la.",
        "not_before": "C'est la première fois que j'ai quelque chose comme ça.",
        "not_before@m": "C'est la première fois qu'il a quelque chose comme ça.",
        "not_before@f": "C'est la première fois qu'elle a quelque chose comme ça.",
        "unknown_test": "{text} : je ne connais pas d'examen de ce nom ; vérifiez le nom.",
        "age@m": "Il a {text} ans.", "age@f": "Elle a {text} ans.",
        "age_text@m": "Il a {text}.", "age_text@f": "Elle a {text}.",
        "occupation@m": "Il est {text}.", "occupation@f": "Elle est {text}.",
        "more_symptoms@m": "J'ai aussi remarqué chez lui : {text}.",
        "more_symptoms@f": "J'ai aussi remarqué chez elle : {text}.",
        "yes_name@m": "Oui, il a : {text}.", "yes_name@f": "Oui, elle a : {text}.",
        "complaint": "{text}", "history": "{text}", "fact": "{text}.",
        "yes": "Oui, {text}", "yes_name": "Oui : {text}.", "no": "Non. {text}",
        "absent_generic": "Non, je n'ai rien remarqué de tel.",
        "wh_unknown": "Je ne saurais pas vous dire, docteur ; rien d'inhabituel à ma "
                      "connaissance.",
        "onset": "Ça a commencé {text}.",
        "age": "J'ai {text} ans.", "age_text": "J'ai {text}.", "occupation": "Je suis {text}.",
        "more_symptoms": "J'ai aussi remarqué : {text}.",
        "no_more": "Rien d'autre, à ma connaissance.",
        "dont_know": "Je ne comprends pas bien, docteur. Pouvez-vous reformuler ?",
        "no_diagnosis": "Je ne sais vraiment pas ce que j'ai, c'est pour ça que je viens.",
        "no_results": "On ne m'a donné aucun résultat, docteur.",
        "normal": "normal",
        "refusal": "Veuillez nommer les examens précis que vous souhaitez.",
        "join": " ", "list_sep": ", ", "list_and": " et ",
    },
    "de": {
        "consent": "Ja, natürlich, nur zu.",
        "consent@m": "Ja, natürlich, untersuchen Sie ihn.",
        "consent@f": "Ja, natürlich, untersuchen Sie sie.",
        "not_before": "So etwas hatte ich noch nie.",
        "not_before@m": "So etwas hatte er noch nie.",
        "not_before@f": "So etwas hatte sie noch nie.",
        "unknown_test": "{text}: eine Untersuchung dieses Namens kenne ich nicht – bitte prüfen "
                        "Sie den Namen.",
        "age@m": "Er ist {text} Jahre alt.", "age@f": "Sie ist {text} Jahre alt.",
        "age_text@m": "Er ist {text} alt.", "age_text@f": "Sie ist {text} alt.",
        "occupation@m": "Er ist {text}.", "occupation@f": "Sie ist {text}.",
        "more_symptoms@m": "Außerdem ist mir bei ihm aufgefallen: {text}.",
        "more_symptoms@f": "Außerdem ist mir bei ihr aufgefallen: {text}.",
        "yes_name@m": "Ja, er hat: {text}.", "yes_name@f": "Ja, sie hat: {text}.",
        "complaint": "{text}", "history": "{text}", "fact": "{text}.",
        "yes": "Ja, {text}", "yes_name": "Ja: {text}.", "no": "Nein. {text}",
        "absent_generic": "Nein, so etwas ist mir nicht aufgefallen.",
        "wh_unknown": "Das kann ich nicht genau sagen; mir ist nichts Ungewöhnliches "
                      "aufgefallen.",
        "onset": "Angefangen hat es {text}.",
        "age": "Ich bin {text} Jahre alt.", "age_text": "Ich bin {text} alt.",
        "occupation": "Ich bin {text}.",
        "more_symptoms": "Außerdem ist mir aufgefallen: {text}.",
        "no_more": "Sonst ist mir nichts aufgefallen.",
        "dont_know": "Das verstehe ich nicht ganz. Können Sie das anders fragen?",
        "no_diagnosis": "Ich weiß wirklich nicht, was ich habe – deshalb bin ich ja hier.",
        "no_results": "Mir wurden noch keine Ergebnisse genannt.",
        "normal": "unauffällig",
        "refusal": "Bitte nennen Sie die konkreten Untersuchungen, die Sie möchten.",
        "join": " ", "list_sep": ", ", "list_and": " und ",
    },
    "zh-Hans": {
        "consent": "好的，您检查吧。",
        "consent@m": "好的，您给他检查吧。", "consent@f": "好的，您给她检查吧。",
        "not_before": "这是第一次。",
        "not_before@m": "他这是第一次。", "not_before@f": "她这是第一次。",
        "unknown_test": "{text}：我不知道有这项检查，请核对名称。",
        "age@m": "他{text}岁。", "age@f": "她{text}岁。",
        "age_text@m": "他{text}。", "age_text@f": "她{text}。",
        "occupation@m": "他是{text}。", "occupation@f": "她是{text}。",
        "more_symptoms@m": "他还有{text}。", "more_symptoms@f": "她还有{text}。",
        "yes_name@m": "是的，他有{text}。", "yes_name@f": "是的，她有{text}。",
        "complaint": "{text}", "history": "{text}", "fact": "{text}。",
        "yes": "是的，{text}", "yes_name": "是的，有{text}。", "no": "没有。{text}",
        "absent_generic": "没有，我没注意到这种情况。",
        "wh_unknown": "这个我说不上来，没觉得有什么特别的。",
        "onset": "{text}。",
        "age": "我{text}岁。", "age_text": "我{text}。", "occupation": "我是{text}。",
        "more_symptoms": "我还有{text}。", "no_more": "别的我没注意到。",
        "dont_know": "医生，我不太明白您的意思，能换个方式问吗？",
        "no_diagnosis": "我真的不知道是什么病，所以才来看您。",
        "no_results": "医生，还没有人告诉我任何检查结果。",
        "normal": "正常",
        "refusal": "请说明您需要的具体检查项目。",
        "join": "", "list_sep": "、", "list_and": "、",
    },
}

# Onset text that fits after "It started …" (a time or a manner); other text stands alone.
ONSET_FITS: dict[str, str] = {
    "en": r"^(about|around|approximately|roughly|over|at|on|in|after|while|during|when|since|"
          r"yesterday|today|this|last|early|late|suddenly|gradually|abruptly|slowly|a|an|\d+|"
          r"one|two|three|four|five|six|seven|eight|nine|ten|several|some)\b",
    "es": r"^(hace|a las|a la|ayer|hoy|esta|este|anoche|anteayer|el|la|en|tras|después|"
          r"durante|desde|de repente|de golpe|bruscamente|poco a poco|al|\d+)\b",
    "fr": r"^(il y a|hier|ce|cette|avant-hier|le|la|en|après|pendant|depuis|brutalement|"
          r"progressivement|soudainement|au|à|\d+|une|un)\b",
    "de": r"^(plötzlich|vor|gestern|heute|am|um|seit|gleichzeitig|nach|beim|langsam|"
          r"allmählich|während|in der|\d+)\b",
}

CUES: dict[str, dict[str, list[str]]] = {
    "en": {
        "complaint": ["what brings", "brought you", "brought him", "brought her", "brings him",
                      "brings her", "brought your", "what's wrong", "what is wrong",
                      "how can i help", "what can i do for you", "what happened",
                      "what seems to be", "main complaint", "how are you$", "how are you feeling",
                      "what's the problem",
                      "what is the problem", "what's bothering", "what is bothering",
                      "why are you here", "why have you come", "reason for your visit",
                      "what's the matter", "what is the matter", "what's going on",
                      "what is going on", "what's been happening", "what has been happening",
                      "what's happening", "what is happening", "what's up with",
                      "the trouble", "what's happened", "what has happened",
                      "tell me about your problem", "tell me what happened"],
        "onset": ["^when", "when did", "when was", "when it start", "start", "began", "begin",
                  "onset", "first notice", "come on", "came on", "since when", "brought on",
                  "bring on", "brought it on", "brought the", "brings it on", "trigger",
                  "set it off", "set off", "suddenly", "sudden", "gradually", "gradual",
                  "abruptly", "all at once", "out of the blue"],
        "duration": ["how long", "duration", "lasted", "lasting", "since when",
                     "constant or", "come and go", "comes and goes"],
        "character": ["describe", "what is it like", "what's it like", "what does it feel like",
                      "feel like", "^where", "where is", "where does", "spread", "radiat",
                      "severe", "severity", "scale", "worse", "better", "character", "type of",
                      "kind of pain", "sharp", "dull", "how bad", "go anywhere",
                      "move anywhere", "out of 10", "out of ten", "relieve", "aggravat",
                      "ease", "tell me about", "tell me more"],
        "other": ["other symptom", "anything else", "any other", "associated", "other problem",
                  "else you have noticed", "else you've noticed"],
        "age": ["how old", "your age", "age$"],
        "occupation": ["what do you do for", "your job", "occupation", "work as",
                       "do for a living", "your work", "where do you work", "profession"],
        "diagnosis": ["diagnosis", "diagnose$", "what disease", "which disease",
                      "what illness do you have", "what condition do you have",
                      "name of your condition", "your condition", "your disease",
                      "you think this is", "you think that is", "you think it s",
                      "could this be", "might this be",
                      "what do you have$", "what you have$", "wrong with you$",
                      "ground truth", "answer key", "icd", "you think it is",
                      "what is it called", "correct option", "options is correct"],
        "results": ["result", "findings", "your record", "came back", "come back", "what did the",
                    "what did your", "lab values", "blood work show"],
        "tests": ["test$", "tests$", "lab$", "labs$", "scan$", "scans$", "x-ray", "xray", "ecg",
                  "blood work", "blood test"],
        "past_medical": ["medical history", "past medical", "illnesses", "conditions",
                         "diseases", "health problems", "chronic", "diabet",
                         "blood pressure", "hospital", "previous illness", "been diagnosed",
                         "medical problems", "any illness"],
        "medication": ["medication", "medicine", "drug", "pill", "tablet", "take any",
                       "prescription", "taking anything", "blood thinner", "anticoagul",
                       "anything for it", "anything for the", "given him", "given her",
                       "give him", "give her"],
        "surgical": ["surgery", "operation", "operated", "surgical", "procedure"],
        "allergy": ["allerg"],
        "social": ["smoke", "smoking", "cigarette", "alcohol", "drink", "travel", "live with",
                   "live alone", "where do you live",
                   "social", "exercise", "recreational", "tobacco", "home situation",
                   "diet", "vegetarian", "vegan", "what do you eat", "anyone else at home",
                   "at home"],
        "family": ["family", "parents", "mother", "father", "sibling", "relatives", "brother",
                   "sister", "runs in"],
        "menstrual_obstetric": ["period", "pregnan", "menstru", "contracept", "children",
                                "obstetric"],
        "review_of_systems": ["fever", "weight", "night sweats", "appetite", "bowel", "urine",
                              "sleep", "waterworks", "review of systems", "infection"],
    },
    "es": {
        "complaint": ["qué le trae", "qué le pasa", "qué le ocurre", "motivo de consulta",
                      "en qué puedo ayudarle", "cuénteme qué le pasa", "cómo se encuentra",
                      "por qué ha venido", "qué le sucede", "qué ha pasado", "qué le ha pasado"],
        "onset": ["^cuándo", "cuándo empez", "cuándo comenz", "empezó", "empezo", "comenzó",
                  "inicio", "desde cuándo", "de repente", "de golpe", "poco a poco",
                  "bruscamente"],
        "duration": ["cuánto tiempo", "desde hace cuánto", "cuánto dura", "duración",
                     "desde cuándo"],
        "character": ["cómo es", "describa", "descríbame", "dónde", "irradia", "se corre",
                      "intens", "peor", "mejor", "qué tipo", "del 1 al 10", "alivia", "empeora"],
        "other": ["otro síntoma", "otros síntomas", "algo más", "alguna otra molestia"],
        "age": ["edad", "cuántos años"],
        "occupation": ["a qué se dedica", "trabaja", "trabajo", "profesión", "ocupación"],
        "diagnosis": ["diagnóstico", "qué enfermedad$", "cuál es su enfermedad", "qué tiene$",
                      "su enfermedad"],
        "results": ["resultado", "qué salió", "qué mostró", "qué ha salido"],
        "tests": ["pruebas", "análisis", "radiografía"],
        "past_medical": ["antecedentes", "enfermedades", "problemas de salud", "hipertensión",
                         "diabetes", "ingresado", "ingresos", "tensión alta"],
        "medication": ["medicamento", "medicación", "medicina", "pastilla", "toma algo",
                       "tratamiento"],
        "surgical": ["operación", "operado", "operada", "cirugía", "intervenido"],
        "allergy": ["alerg"],
        "social": ["fuma", "tabaco", "alcohol", "bebe", "viaj", "vive con", "cerveza"],
        "family": ["familia", "padre", "madre", "hermanos", "padres"],
        "menstrual_obstetric": ["regla", "embaraz", "menstru", "anticoncept"],
        "review_of_systems": ["peso", "apetito", "sueño", "orina", "infección", "infecciones"],
    },
    "fr": {
        "complaint": ["qu est ce qui vous amene", "qu est ce qui ne va pas",
                      "quel est le probleme", "que puis je faire pour vous", "motif",
                      "comment allez vous", "pourquoi venez vous", "qu est ce qui vous arrive"],
        "onset": ["^quand", "quand est ce que", "quand ca a commence", "commence", "début",
                  "depuis quand", "brutalement", "brusquement", "progressivement", "soudain"],
        "duration": ["depuis combien", "combien de temps", "durée", "depuis quand"],
        "character": ["décrire", "décrivez", "comment est", "à quoi ressemble", "^où",
                      "où avez", "où est", "irradie", "intensité", "pire", "soulag",
                      "quel type", "sur 10"],
        "other": ["autre symptôme", "autres symptômes", "autre chose", "d autres"],
        "age": ["âge", "quel âge"],
        "occupation": ["travail", "métier", "profession", "que faites vous dans la vie"],
        "diagnosis": ["diagnostic", "quelle maladie", "ce que vous avez$", "votre maladie",
                      "de quoi souffrez"],
        "results": ["résultat", "qu a montré", "qu ont montré", "qu a donné"],
        "tests": ["examens", "analyse", "bilan", "radio$"],
        "past_medical": ["antécédents", "maladies", "problèmes de santé", "diabète",
                         "tension", "hospitalis"],
        "medication": ["médicament", "traitement", "comprimé", "prenez vous"],
        "surgical": ["opération", "chirurgie", "opéré", "opérée"],
        "allergy": ["allerg"],
        "social": ["fume", "tabac", "alcool", "boit", "buvez", "voyag", "vivez"],
        "family": ["famille", "familia", "père", "mère", "parents", "frères", "sœurs"],
        "menstrual_obstetric": ["règles", "enceinte", "grossesse", "contracept"],
        "review_of_systems": ["poids", "appétit", "sommeil", "urines", "infection"],
    },
    "de": {
        "complaint": ["was führt sie", "was fehlt ihnen", "welche beschwerden", "was ist passiert",
                      "was kann ich für sie tun", "wie geht es ihnen", "warum sind sie hier",
                      "was ist los", "was ist mit ihrer", "was ist mit ihrem", "was fehlt ihr",
                      "was fehlt ihm", "was hat ihre", "was hat ihr"],
        "onset": ["wann", "angefangen", "begonnen", "beginn", "seit wann", "plötzlich",
                  "allmählich", "schlagartig"],
        "duration": ["wie lange", "seit wann", "dauer"],
        "character": ["beschreiben", "wie fühlt", "^wo", "wo genau", "ausstrahl", "stark",
                      "schlimmer", "besser", "was für", "von 1 bis 10"],
        "other": ["andere symptome", "andere beschwerden", "sonst noch", "weitere"],
        "age": ["wie alt", "alter"],
        "occupation": ["beruf", "arbeiten sie", "was machen sie beruflich", "tätig"],
        "diagnosis": ["diagnose", "welche krankheit", "was sie haben$", "ihre krankheit"],
        "results": ["ergebnis", "befund", "ergeben", "gezeigt"],
        "tests": ["test$", "labor", "werte", "untersuchungen"],
        "past_medical": ["vorerkrankung", "krankheiten", "erkrankungen", "diabetes",
                         "blutdruck", "krankenhaus"],
        "medication": ["medikament", "tabletten", "nehmen sie", "arznei"],
        "surgical": ["operation", "operiert", "eingriff"],
        "allergy": ["allerg"],
        "social": ["rauchen", "raucher", "alkohol", "trinken", "reise", "wohnen"],
        "family": ["familie", "vater", "mutter", "eltern", "geschwister"],
        "menstrual_obstetric": ["periode", "schwanger", "regel", "verhütung"],
        "review_of_systems": ["gewicht", "appetit", "schlaf", "wasserlassen", "infekt"],
    },
    "zh-Hans": {
        "complaint": ["哪里不舒服", "哪儿不舒服", "怎么了", "什么问题", "主诉", "什么不舒服",
                      "有什么可以帮", "怎么不舒服", "来看什么", "因为什么", "为什么来", "什么事"],
        "onset": ["什么时候", "开始", "起病", "哪天", "突然", "慢慢"],
        "duration": ["多久", "多长时间", "持续", "几天"],
        "character": ["什么样", "描述", "哪里", "哪个部位", "放射", "程度", "严重", "加重",
                      "缓解", "怎么样的"],
        "other": ["其他症状", "还有什么", "别的症状", "其他不舒服"],
        "age": ["多大", "年龄", "几岁"],
        "occupation": ["工作", "职业", "做什么的"],
        "diagnosis": ["诊断", "什么病", "得了什么", "什么毛病"],
        "results": ["结果", "报告", "化验单", "显示"],
        "tests": ["检查", "化验"],
        "past_medical": ["既往", "病史", "以前得过", "以前有过", "慢性病", "高血压", "糖尿病"],
        "medication": ["药", "服用"],
        "surgical": ["手术"],
        "allergy": ["过敏"],
        "social": ["吸烟", "抽烟", "喝酒", "饮酒", "旅行"],
        "family": ["家族", "家里人", "父亲", "母亲", "家人"],
        "menstrual_obstetric": ["月经", "怀孕"],
        "review_of_systems": ["体重", "胃口", "睡眠", "大小便", "感染"],
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


def phrase(tag: str, key: str, text: str = "", about: str | None = None) -> str:
    """Fill one patient-voice template, falling back to English.

    `about` ('m' or 'f') is set when someone answers for the patient (`proxy`): templates
    that would say "I" then speak of the patient ("He's 9 months old."), where the
    language has such a variant.
    """
    lang = lang_key(tag)
    table = PHRASES[lang]
    if about and f"{key}@{about}" in table:
        return table[f"{key}@{about}"].format(text=text)
    template = table[key] if key in table else PHRASES["en"][key]
    return template.format(text=text)


_FEMALE = ("f", "w", "mujer", "femenino", "femme", "féminin", "weiblich", "frau", "女")


def grammatical_sex(sex: str | None) -> str:
    """'f' or 'm' from a free-text sex ('female', 'varón', 'weiblich', '女'); 'm' if unsure."""
    text = (sex or "").strip().lower()
    return "f" if text.startswith(_FEMALE) else "m"


def cues(tag: str, cue: str) -> list[str]:
    """Cue words for a language; English cues are always included (doctors mix languages)."""
    lang = lang_key(tag)
    extra = CUES[lang].get(cue, []) if lang != "en" else []
    return [*CUES["en"].get(cue, []), *extra]
