"""Question cues per language: the words that say what a doctor's question is about.

`CUES[lang][cue]` lists words or phrases (syntax in `core.caseindex.matching`: "^when" only
at the start, "disease$" only as a whole word, four letters or more also match as a word
prefix). English cues are always added, since doctors and models often ask in English
whatever the case's language. The retrieval patient answers by them and the pathway metrics
credit history items by them, so both read the same lists. Written for bedside.
"""

from __future__ import annotations

CUES: dict[str, dict[str, list[str]]] = {
    "en": {
        "complaint": ["what brings", "brought you", "what's wrong", "what is wrong",
                      "how can i help", "what can i do for you", "what happened",
                      "what seems to be", "main complaint", "how are you", "what's the problem",
                      "what is the problem", "what's bothering", "what is bothering",
                      "why are you here", "why have you come", "reason for your visit"],
        "onset": ["^when", "when did", "when was", "when it start", "start", "began", "begin",
                  "onset", "first notice", "come on", "came on", "since when"],
        "duration": ["how long", "duration", "lasted", "lasting", "since when",
                     "constant or", "come and go", "comes and goes"],
        "character": ["describe", "what is it like", "what's it like", "what does it feel like",
                      "feel like", "^where", "where is", "where does", "spread", "radiat",
                      "severe", "severity", "scale", "worse", "better", "character", "type of",
                      "kind of pain", "sharp", "dull", "how bad", "go anywhere",
                      "move anywhere", "out of 10", "relieve", "aggravat", "ease"],
        "other": ["other symptom", "anything else", "any other", "associated", "other problem",
                  "else you have noticed", "else you've noticed"],
        "age": ["how old", "your age", "age$"],
        "occupation": ["what do you do for", "your job", "occupation", "work as",
                       "do for a living", "your work", "where do you work", "profession"],
        "diagnosis": ["diagnosis", "diagnose$", "what disease", "which disease",
                      "what illness do you have", "what condition do you have",
                      "name of your condition", "your condition", "your disease",
                      "what do you have$", "what you have$", "wrong with you",
                      "ground truth", "answer key", "icd", "you think it is",
                      "what is it called", "correct option", "options is correct"],
        "results": ["result", "test", "lab$", "labs$", "scan", "x-ray", "xray", "ecg",
                    "blood work", "findings", "your record"],
        "past_medical": ["medical history", "past medical", "illnesses", "conditions",
                         "diseases", "health problems", "chronic", "diabetes",
                         "blood pressure", "hospital", "previous illness", "been diagnosed",
                         "medical problems", "any illness"],
        "medication": ["medication", "medicine", "drug", "pill", "tablet", "take any",
                       "prescription", "taking anything"],
        "surgical": ["surgery", "operation", "operated", "surgical", "procedure"],
        "allergy": ["allerg"],
        "social": ["smoke", "smoking", "cigarette", "alcohol", "drink", "travel", "live with",
                   "live alone", "where do you live",
                   "social", "exercise", "recreational", "tobacco", "home situation"],
        "family": ["family", "parents", "mother", "father", "sibling", "relatives", "brother",
                   "sister", "runs in"],
        "menstrual_obstetric": ["period", "pregnan", "menstru", "contracept", "children",
                                "obstetric"],
        "review_of_systems": ["fever", "weight", "night sweats", "appetite", "bowel", "urine",
                              "sleep", "waterworks", "review of systems"],
    },
    "es": {
        "complaint": ["qué le trae", "qué le pasa", "qué le ocurre", "motivo de consulta",
                      "en qué puedo ayudarle", "cuénteme qué le pasa", "cómo se encuentra",
                      "por qué ha venido", "qué le sucede"],
        "onset": ["^cuándo", "cuándo empez", "cuándo comenz", "empezó", "empezo", "comenzó",
                  "inicio", "desde cuándo", "de repente"],
        "duration": ["cuánto tiempo", "desde hace cuánto", "cuánto dura", "duración",
                     "desde cuándo"],
        "character": ["cómo es", "describa", "descríbame", "dónde", "irradia", "se corre",
                      "intens", "peor", "mejor", "qué tipo", "del 1 al 10", "alivia", "empeora"],
        "other": ["otro síntoma", "otros síntomas", "algo más", "alguna otra molestia"],
        "age": ["edad", "cuántos años"],
        "occupation": ["a qué se dedica", "trabaja", "trabajo", "profesión", "ocupación"],
        "diagnosis": ["diagnóstico", "qué enfermedad$", "cuál es su enfermedad", "qué tiene$",
                      "su enfermedad"],
        "results": ["resultado", "pruebas", "análisis", "radiografía"],
        "past_medical": ["antecedentes", "enfermedades", "problemas de salud", "hipertensión",
                         "diabetes", "ingresado", "ingresos", "tensión alta"],
        "medication": ["medicamento", "medicación", "medicina", "pastilla", "toma algo",
                       "tratamiento"],
        "surgical": ["operación", "operado", "operada", "cirugía", "intervenido"],
        "allergy": ["alerg"],
        "social": ["fuma", "tabaco", "alcohol", "bebe", "viaj", "vive con", "cerveza"],
        "family": ["familia", "padre", "madre", "hermanos", "padres"],
        "menstrual_obstetric": ["regla", "embaraz", "menstru", "anticoncept"],
        "review_of_systems": ["peso", "apetito", "sueño", "orina"],
    },
    "fr": {
        "complaint": ["qu est ce qui vous amene", "qu est ce qui ne va pas",
                      "quel est le probleme", "que puis je faire pour vous", "motif",
                      "comment allez vous", "pourquoi venez vous", "qu est ce qui vous arrive"],
        "onset": ["^quand", "quand est ce que", "quand ca a commence", "commence", "début",
                  "depuis quand"],
        "duration": ["depuis combien", "combien de temps", "durée", "depuis quand"],
        "character": ["décrire", "décrivez", "comment est", "à quoi ressemble", "^où",
                      "où avez", "où est", "irradie", "intensité", "pire", "soulag",
                      "quel type", "sur 10"],
        "other": ["autre symptôme", "autres symptômes", "autre chose", "d autres"],
        "age": ["âge", "quel âge"],
        "occupation": ["travail", "métier", "profession", "que faites vous dans la vie"],
        "diagnosis": ["diagnostic", "quelle maladie", "ce que vous avez$", "votre maladie",
                      "de quoi souffrez"],
        "results": ["résultat", "examens", "analyse", "bilan", "radio$"],
        "past_medical": ["antécédents", "maladies", "problèmes de santé", "diabète",
                         "tension", "hospitalis"],
        "medication": ["médicament", "traitement", "comprimé", "prenez vous"],
        "surgical": ["opération", "chirurgie", "opéré", "opérée"],
        "allergy": ["allerg"],
        "social": ["fume", "tabac", "alcool", "boit", "buvez", "voyag", "vivez"],
        "family": ["famille", "familia", "père", "mère", "parents", "frères", "sœurs"],
        "menstrual_obstetric": ["règles", "enceinte", "grossesse", "contracept"],
        "review_of_systems": ["poids", "appétit", "sommeil", "urines"],
    },
    "de": {
        "complaint": ["was führt sie", "was fehlt ihnen", "welche beschwerden", "was ist passiert",
                      "was kann ich für sie tun", "wie geht es ihnen", "warum sind sie hier",
                      "was ist los"],
        "onset": ["wann", "angefangen", "begonnen", "beginn", "seit wann"],
        "duration": ["wie lange", "seit wann", "dauer"],
        "character": ["beschreiben", "wie fühlt", "^wo", "wo genau", "ausstrahl", "stark",
                      "schlimmer", "besser", "was für", "von 1 bis 10"],
        "other": ["andere symptome", "andere beschwerden", "sonst noch", "weitere"],
        "age": ["wie alt", "alter"],
        "occupation": ["beruf", "arbeiten sie", "was machen sie beruflich", "tätig"],
        "diagnosis": ["diagnose", "welche krankheit", "was sie haben$", "ihre krankheit"],
        "results": ["ergebnis", "befund", "test", "labor", "werte", "untersuchungen",
                    "ergeben"],
        "past_medical": ["vorerkrankung", "krankheiten", "erkrankungen", "diabetes",
                         "blutdruck", "krankenhaus"],
        "medication": ["medikament", "tabletten", "nehmen sie", "arznei"],
        "surgical": ["operation", "operiert", "eingriff"],
        "allergy": ["allerg"],
        "social": ["rauchen", "raucher", "alkohol", "trinken", "reise", "wohnen"],
        "family": ["familie", "vater", "mutter", "eltern", "geschwister"],
        "menstrual_obstetric": ["periode", "schwanger", "regel", "verhütung"],
        "review_of_systems": ["gewicht", "appetit", "schlaf", "wasserlassen"],
    },
    "zh-Hans": {
        "complaint": ["哪里不舒服", "哪儿不舒服", "怎么了", "什么问题", "主诉", "什么不舒服",
                      "有什么可以帮", "怎么不舒服", "来看什么"],
        "onset": ["什么时候", "开始", "起病", "哪天"],
        "duration": ["多久", "多长时间", "持续", "几天"],
        "character": ["什么样", "描述", "哪里", "哪个部位", "放射", "程度", "严重", "加重",
                      "缓解", "怎么样的"],
        "other": ["其他症状", "还有什么", "别的症状", "其他不舒服"],
        "age": ["多大", "年龄", "几岁"],
        "occupation": ["工作", "职业", "做什么的"],
        "diagnosis": ["诊断", "什么病", "得了什么", "什么毛病"],
        "results": ["结果", "检查", "化验", "报告"],
        "past_medical": ["既往", "病史", "以前得过", "以前有过", "慢性病", "高血压", "糖尿病"],
        "medication": ["药", "服用"],
        "surgical": ["手术"],
        "allergy": ["过敏"],
        "social": ["吸烟", "抽烟", "喝酒", "饮酒", "旅行"],
        "family": ["家族", "家里人", "父亲", "母亲", "家人"],
        "menstrual_obstetric": ["月经", "怀孕"],
        "review_of_systems": ["体重", "胃口", "睡眠", "大小便"],
    },
}


def cue_lang(tag: str) -> str:
    """The cue language for a BCP-47 tag (zh → zh-Hans, unknown → en)."""
    if tag in CUES:
        return tag
    base = tag.split("-")[0].lower()
    if base == "zh":
        return "zh-Hans"
    return base if base in CUES else "en"


def cues(tag: str, cue: str) -> list[str]:
    """Cue words for a language; English cues are always included (doctors mix languages)."""
    lang = cue_lang(tag)
    extra = CUES[lang].get(cue, []) if lang != "en" else []
    return [*CUES["en"].get(cue, []), *extra]
