"""Patient-voice templates per language, for the retrieval agents.

`PHRASES[lang][key]` is a `str.format` template of the patient's voice (the question cues
the retrieval patient listens for are `core.caseindex.cues`, shared with the metrics).
Stored case text is mostly a fragment ("70 minutes ago, on exertion"), so templates either
frame it in a way any fragment fits or let it stand as its own sentence. Written for bedside.

Must not import: anything but the standard library.
"""

from __future__ import annotations

import re

VERSION = "templates/5"

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
    "hi": {
        "consent": "हाँ, ज़रूर, जाँच कर लीजिए।",
        "consent@m": "हाँ, ज़रूर, इन्हें देख लीजिए।", "consent@f": "हाँ, ज़रूर, इन्हें देख लीजिए।",
        "not_before": "ऐसा पहली बार हुआ है।",
        "not_before@m": "इनके साथ ऐसा पहली बार हुआ है।",
        "not_before@f": "इनके साथ ऐसा पहली बार हुआ है।",
        "unknown_test": "{text}: इस नाम का कोई टेस्ट मुझे नहीं पता — कृपया नाम जाँच लीजिए।",
        "age@m": "उम्र {text} साल है।", "age@f": "उम्र {text} साल है।",
        "age_text@m": "उम्र {text} है।", "age_text@f": "उम्र {text} है।",
        "occupation@m": "वे {text} हैं।", "occupation@f": "वे {text} हैं।",
        "more_symptoms@m": "इसके अलावा इन्हें यह भी है: {text}।",
        "more_symptoms@f": "इसके अलावा इन्हें यह भी है: {text}।",
        "yes_name@m": "हाँ, इन्हें {text} है।", "yes_name@f": "हाँ, इन्हें {text} है।",
        "complaint": "{text}", "history": "{text}", "fact": "{text}।",
        "yes": "हाँ, {text}", "yes_name": "हाँ, {text} है।", "no": "नहीं। {text}",
        "absent_generic": "नहीं, ऐसा कुछ ध्यान में नहीं आया।",
        "wh_unknown": "इसके बारे में ठीक से पता नहीं, डॉक्टर साहब; कुछ अलग ध्यान में नहीं आया।",
        "onset": "यह {text} शुरू हुआ।",
        "age": "मेरी उम्र {text} साल है।", "age_text": "मेरी उम्र {text} है।",
        "occupation": "मैं {text} हूँ।",
        "more_symptoms": "इसके अलावा यह भी है: {text}।",
        "no_more": "इसके अलावा और कुछ ध्यान में नहीं आया।",
        "dont_know": "माफ़ कीजिए डॉक्टर साहब, बात समझ नहीं आई। दूसरे तरीक़े से पूछ लीजिए?",
        "no_diagnosis": "सच में नहीं पता कि क्या बीमारी है — इसीलिए तो आपके पास आए हैं।",
        "no_results": "डॉक्टर साहब, अभी तक किसी टेस्ट का नतीजा नहीं बताया गया।",
        "normal": "सामान्य",
        "refusal": "कृपया बताइए कि आपको कौन-से टेस्ट या जाँचें चाहिए।",
        "join": " ", "list_sep": ", ", "list_and": " और ",
    },
    "fa": {
        "consent": "بله، حتماً، بفرمایید معاینه کنید.",
        "consent@m": "بله، حتماً، بفرمایید معاینه‌اش کنید.",
        "consent@f": "بله، حتماً، بفرمایید معاینه‌اش کنید.",
        "not_before": "اولین بار است که چنین چیزی برایم پیش آمده.",
        "not_before@m": "اولین بار است که چنین چیزی برایش پیش آمده.",
        "not_before@f": "اولین بار است که چنین چیزی برایش پیش آمده.",
        "unknown_test": "{text}: آزمایشی به این اسم نمی‌شناسم؛ لطفاً اسمش را بررسی کنید.",
        "age@m": "{text} سالش است.", "age@f": "{text} سالش است.",
        "age_text@m": "سنش {text} است.", "age_text@f": "سنش {text} است.",
        "occupation@m": "{text} است.", "occupation@f": "{text} است.",
        "more_symptoms@m": "این‌ها را هم دارد: {text}.",
        "more_symptoms@f": "این‌ها را هم دارد: {text}.",
        "yes_name@m": "بله، {text} دارد.", "yes_name@f": "بله، {text} دارد.",
        "complaint": "{text}", "history": "{text}", "fact": "{text}.",
        "yes": "بله، {text}", "yes_name": "بله، {text} دارم.", "no": "نه. {text}",
        "absent_generic": "نه، چنین چیزی متوجه نشده‌ام.",
        "wh_unknown": "دقیق نمی‌دانم، دکتر؛ چیز غیرعادی‌ای یادم نمی‌آید.",
        "onset": "{text} شروع شد.",
        "age": "{text} سالم است.", "age_text": "سنم {text} است.", "occupation": "{text} هستم.",
        "more_symptoms": "این‌ها را هم دارم: {text}.",
        "no_more": "چیز دیگری متوجه نشده‌ام.",
        "dont_know": "منظورتان را درست متوجه نشدم، دکتر. می‌شود جور دیگری بپرسید؟",
        "no_diagnosis": "واقعاً نمی‌دانم چه بیماری‌ای است؛ برای همین پیش شما آمده‌ام.",
        "no_results": "هنوز جواب هیچ آزمایشی را به من نگفته‌اند، دکتر.",
        "normal": "طبیعی",
        "refusal": "لطفاً بفرمایید دقیقاً کدام آزمایش‌ها یا معاینه‌ها را می‌خواهید.",
        "join": " ", "list_sep": "، ", "list_and": " و ",
    },
    "ko": {
        "consent": "네, 그럼요. 진찰하세요.",
        "consent@m": "네, 그럼요. 진찰해 주세요.", "consent@f": "네, 그럼요. 진찰해 주세요.",
        "not_before": "이런 건 처음이에요.",
        "not_before@m": "이런 건 처음이에요.", "not_before@f": "이런 건 처음이에요.",
        "unknown_test": "{text}: 그런 이름의 검사는 모르겠습니다. 이름을 확인해 주세요.",
        "age@m": "{text}살이에요.", "age@f": "{text}살이에요.",
        "age_text@m": "{text}(이)에요.", "age_text@f": "{text}(이)에요.",
        "occupation@m": "{text}(이)에요.", "occupation@f": "{text}(이)에요.",
        "more_symptoms@m": "그 밖에 이런 증상도 있어요: {text}.",
        "more_symptoms@f": "그 밖에 이런 증상도 있어요: {text}.",
        "yes_name@m": "네, {text} 있어요.", "yes_name@f": "네, {text} 있어요.",
        "complaint": "{text}", "history": "{text}", "fact": "{text}.",
        "yes": "네, {text}", "yes_name": "네, {text} 있어요.", "no": "아니요. {text}",
        "absent_generic": "아니요, 그런 건 없었어요.",
        "wh_unknown": "글쎄요, 잘 모르겠어요. 특별히 이상한 건 없었던 것 같아요.",
        "onset": "{text} 시작됐어요.",
        "age": "{text}살이에요.", "age_text": "{text}(이)에요.", "occupation": "{text}(이)에요.",
        "more_symptoms": "그 밖에 이런 증상도 있어요: {text}.",
        "no_more": "다른 건 특별히 없어요.",
        "dont_know": "무슨 말씀이신지 잘 모르겠어요. 다시 한번 쉽게 말씀해 주시겠어요?",
        "no_diagnosis": "무슨 병인지 정말 모르겠어요. 그래서 병원에 온 거예요.",
        "no_results": "검사 결과는 아직 아무것도 못 들었어요.",
        "normal": "정상",
        "refusal": "원하시는 검사나 진찰 항목을 구체적으로 말씀해 주세요.",
        "join": " ", "list_sep": ", ", "list_and": ", ",
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
    # Hindi, Persian and Korean put the verb last: a time or manner opens the sentence
    # ("चार दिन पहले …", "حدود سه هفته پیش …", "닷새 전 저녁 …"); text ending in a verb of
    # its own stands alone (`voice.onset`).
    "hi": r"^(?:\d|कल|आज|परसों|पिछले|पिछली|करीब|क़रीब|लगभग|अचानक|धीरे|उसी|एक|दो|तीन|चार|"
          r"पाँच|पांच|छह|सात|आठ|नौ|दस|कुछ|शाम|सुबह|रात|दोपहर)",
    "fa": r"^(?:\d|[۰-۹]|حدود|تقریباً|تقریبا|از|دیروز|امروز|پریروز|دیشب|ناگهان|کم‌کم|کم کم|"
          r"یک|دو|سه|چهار|پنج|شش|هفت|هشت|نه|ده|چند|صبح|عصر|شب|ظهر|بعد)",
    "ko": r"^(?:\d|어제|오늘|그저께|그제|며칠|이틀|사흘|나흘|닷새|엿새|열흘|일주일|한|두|세|"
          r"약|지난|갑자기|서서히|점점|아침|점심|저녁|새벽|밤|열이)",
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
        template = table[f"{key}@{about}"]
    else:
        template = table[key] if key in table else PHRASES["en"][key]
    filled = template.format(text=text)
    return _korean_copula(filled) if lang == "ko" else filled


_COPULA = re.compile(r"(\S)\(이\)(에요|요|고)")


def _korean_copula(text: str) -> str:
    """'(이)에요' after a word: '이에요' after a final consonant (받침), '예요' after a vowel
    ("20개월이에요", "농부예요")."""
    def pick(m: re.Match[str]) -> str:
        last, ending = m.group(1), m.group(2)
        code = ord(last) - 0xAC00
        batchim = 0 <= code < 11172 and code % 28 != 0 or last.isdigit() and last in "013678"
        if ending == "에요":
            return last + ("이에요" if batchim else "예요")
        return last + ("이" if batchim else "") + ending
    return _COPULA.sub(pick, text)


_FEMALE = ("f", "w", "mujer", "femenino", "femme", "féminin", "weiblich", "frau", "女",
           "महिला", "स्त्री", "औरत", "लड़की", "زن", "دختر", "مونث", "여")


def grammatical_sex(sex: str | None) -> str:
    """'f' or 'm' from a free-text sex ('female', 'varón', 'weiblich', '女', 'महिला', 'زن',
    '여성'); 'm' if unsure."""
    text = (sex or "").strip().lower()
    return "f" if text.startswith(_FEMALE) else "m"
