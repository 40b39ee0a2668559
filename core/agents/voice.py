"""The patient's voice: stored text turned into what the patient would say.

Imported cases (AgentClinic, AI Hospital) tell the patient's story in the third person ("The
patient reports…", "She has…", "He stopped his statin"). `first_person` rewrites English
clauses that start with the patient as subject (He, She, The patient, Patient) and their
common verb forms, and the patient's pronouns (his/her → my, him/her → me) — conservatively:
a clause whose verb it does not recognise is left exactly as written. Other languages are
left as written. `attach` joins a template lead-in ("Yes, …") to stored text with sensible
capitalisation, and `sentence`/`listing` make fragments and lists read naturally.

Must not import: anything but the standard library and core.agents.templates.
"""

from __future__ import annotations

import re

from core.agents.templates import ONSET_FITS, lang_key, phrase

_FIRST = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|my|My|me|myself|we|our)\b")
_SUBJECT = re.compile(r"^(?:the patient|patient|he|she)(?:'s|’s)?\b", re.IGNORECASE)
# Record shorthand with the patient left out: "Denies fever, cough." is the patient denying.
_BARE_REPORT = re.compile(r"^(?:Denies|Reports|Endorses|Complains of)\b")
_POSSESSIVE_START = re.compile(r"^(?:the patient's|the patient’s|his|her)\b", re.IGNORECASE)
_ADVERBS = frozenset("also never still often usually sometimes only just already recently "
                     "occasionally rarely always currently now previously mostly generally "
                     "further additionally".split())
_IRREGULAR = {"is": "am", "has": "have", "does": "do", "doesn't": "don't", "isn't": "am not",
              "hasn't": "haven't", "goes": "go", "was": "was", "wasn't": "wasn't",
              "says": "say", "denies": "deny", "reports": "have", "notes": "have noticed",
              "describes": "have", "endorses": "have", "complains": "complain"}
_KEEP = frozenset("had was were did didn't can can't could couldn't will won't would "
                  "wouldn't should may might must used felt took went came began became "
                  "got lost ate drank saw thought found gave left fell broke woke ran made "
                  "kept said told knew sent spent quit put noticed underwent drove rode slept "
                  "hurt cut met paid stood understood wore wrote grew threw flew forgot chose "
                  "spoke withdrew arose".split())
# Third-person verbs that may follow "and"/"but" in a converted clause ("… and lives with").
_COORDINATED = frozenset("maintains lives works drinks smokes takes uses eats feels reports "
                         "denies has is notes walks sleeps exercises enjoys drives does goes "
                         "complains describes experiences wakes needs gets keeps tries plays "
                         "says thinks wants looks seems stays".split())
_SUBORDINATORS = ("while|when|that|because|as|until|after|before|since|if|although|though|"
                  "which")
_DE_LOWER = frozenset("seit vor nach am im in an auf bei mit es er sie ich das die der den dem "
                      "ein eine kein keine nicht nur schon manchmal ab wenn als zu gelegentlich "
                      "immer oft hin und wieder etwas ganz sehr".split())
_OTHERS = re.compile(r"\b(?:father|mother|husband|wife|partner|son|daughter|brother|sister|"
                     r"friend|doctor|gp|colleague|boss|child|baby|boyfriend|girlfriend|parents?|"
                     r"nurse|man|woman|grandfather|grandmother|uncle|aunt|cousin)\b", re.I)
_OBJECT_NEXT = frozenset("a an the some any to in on at for with and or but that this from "
                         "about up down off out feel sick".split())
_GERUND_AFTER = frozenset({"reports", "describes", "notes", "endorses"})
# Gerunds that continue "reports …" as a verb ("reports vomiting" → "I have been vomiting");
# any other -ing word is an adjective ("reports crushing pain" → "I have crushing pain").
_GERUNDS = frozenset("experiencing having feeling getting noticing suffering taking seeing "
                     "hearing waking passing losing gaining coughing vomiting sweating "
                     "bleeding sleeping eating drinking using".split())


def _verb(word: str) -> str | None:
    """First-person form of a third-person verb, or None when unsure."""
    low = word.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _KEEP or (low.endswith("ed") and len(low) > 3):
        return low
    if low.endswith("ies") and len(low) > 4:
        return low[:-3] + "y"
    if re.search(r"(?:sh|ch|x|z|ss)es$", low):
        return low[:-2]
    if low.endswith("s") and not low.endswith(("ss", "us", "is")) and len(low) > 3:
        return low[:-1]
    return None


def _her(m: re.Match[str]) -> str:
    nxt = m.group(2)
    word = "me" if nxt is None or nxt.lower() in _OBJECT_NEXT else "my"
    return word.capitalize() if m.group(1)[0] == "H" else word


def _pronouns(text: str, gender: str | None) -> str:
    """The patient's pronouns in the first person: his → my, him → me, her → me/my (object
    before a preposition or article). `gender` "m"/"f" limits it to the patient's own
    pronouns ("his wife … her" keeps the wife's); None converts both."""
    if gender in (None, "f"):
        text = re.sub(r"\b([Hh]er)\b(?=(?:\s+(\w+))?)", _her, text)
        text = re.sub(r"\bherself\b", "myself", text)
    if gender in (None, "m"):
        text = re.sub(r"\bhis\b", "my", text)
        text = re.sub(r"\bHis\b", "My", text)
        text = re.sub(r"\b(?:him|Him)\b", "me", text)
        text = re.sub(r"\bhimself\b", "myself", text)
    return text


def _gender(word: str) -> str | None:
    low = word.lower()
    return "m" if low in ("he", "his") else "f" if low in ("she", "her") else None


def _subject_clause(body: str, subject: re.Match[str]) -> str | None:
    """A clause whose subject is the patient, in the first person (None when unsure)."""
    rest = body[subject.end():].split()
    adverb = rest[0] if rest and rest[0].lower() in _ADVERBS else None
    idx = 1 if adverb else 0
    if idx >= len(rest):
        return None
    word = rest[idx].rstrip(",.;:")
    verb = _verb(word)
    if verb is None:
        return None
    verb += rest[idx][len(word):]  # keep the punctuation after the verb
    tail = rest[idx + 1:]
    if rest[idx].lower() in _GERUND_AFTER and tail and tail[0].lower() in _GERUNDS:
        verb = "have been"
    elif rest[idx].lower() == "reports" and tail and tail[0].lower() == "that":
        verb = "say"  # "reports that these symptoms…" → "I say that…", not "I have that…"
    elif rest[idx].lower() == "denies":
        verb = ("haven't been" if tail and tail[0].lower() in _GERUNDS else
                "have no" if tail and tail[0].lower() == "history" else "haven't had")
    body = " ".join(["I", *([adverb.lower()] if adverb else []), verb, *tail])
    # In a clause about the patient, "… and lives", "while he was …" are the patient too.
    body = re.sub(r"\b(and|but|or) (\w+)\b", _coordinated, body)
    body = re.sub(rf"\b({_SUBORDINATORS}) (?:he|she) (\w+)\b", _subordinate, body)
    return _pronouns(body, _gender(subject.group(0)))


def _clause(clause: str, patient: str | None) -> str:
    """One clause in the first person, or unchanged when unsure. `patient` is the patient's
    pronoun gender where the text shows it: a clause about "he" in a text about "she" is
    about someone else."""
    lead = len(clause) - len(clause.lstrip())
    body = clause.strip()
    if _BARE_REPORT.match(body):
        body = "Patient " + body[0].lower() + body[1:]
    subject = _SUBJECT.match(body)
    others = bool(_OTHERS.search(body))
    if subject and patient and _gender(subject.group(0)) not in (None, patient):
        return clause
    if subject and not subject.group(0).lower().endswith(("'s", "’s")):
        converted = _subject_clause(body, subject)
        if converted is None:
            return clause
        body = converted
    elif _POSSESSIVE_START.match(body):
        # "Her husband says she …": she is the patient; "His father died when he was 61":
        # he is the father, so only a reporting verb with the patient's pronoun converts.
        gender = _gender(body.split()[0])
        pronoun = {"m": "he", "f": "she"}.get(gender or "", "(?:he|she)")
        body = _POSSESSIVE_START.sub("My", body, count=1)
        body = re.sub(rf"\b(says|said|thinks|thought|feels|notes|noticed|reports) {pronoun} "
                      r"(\w+)\b", _subordinate, body)
        if not others:
            body = _pronouns(body, gender)
    elif not others:
        # No one else in the sentence: "the pain began while he was lifting" is the patient.
        body = re.sub(rf"\b({_SUBORDINATORS}) (?:he|she) (\w+)\b", _subordinate, body)
        body = _pronouns(body, None)
    return clause[:lead] + re.sub(r"\bI am\b", "I'm", body)


def _coordinated(m: re.Match[str]) -> str:
    word = m.group(2)
    return f"{m.group(1)} {_verb(word)}" if word in _COORDINATED else m.group(0)


def _subordinate(m: re.Match[str]) -> str:
    verb = _verb(m.group(2))
    return f"{m.group(1)} I {verb}" if verb else m.group(0)


def first_person(text: str, lang: str) -> str:
    """English third-person patient text in the first person; other languages, and text
    already in the first person, unchanged."""
    if lang_key(lang) != "en" or not text or _FIRST.search(text):
        return text
    first = re.search(r"\b(?:he|she|his|her)\b", text, re.IGNORECASE)
    patient = _gender(first.group(0)) if first else None
    parts = re.split(r"((?<=[.!?;])\s+)", text)
    return "".join(p if not p.strip() else _clause(p, patient) for p in parts)


def attach(lang: str, key: str, text: str) -> str:
    """A lead-in template ("Yes, {text}") filled with text, first letter lowered where the
    language allows it (never for German nouns, "I", or acronyms)."""
    return phrase(lang, key, lower_first(text, lang))


def lower_first(text: str, lang: str) -> str:
    """Lower-case the first letter of text that starts a sentence, where that is safe."""
    first = text.split()[0] if text.split() else ""
    if lang_key(lang) == "de":  # German nouns keep their capital; function words do not
        return text[0].lower() + text[1:] if first.lower() in _DE_LOWER else text
    if not text or lang_key(lang) == "zh-Hans":
        return text
    if first in ("I", "I'm", "I've", "I'd", "I'll") or (len(first) > 1 and first[1].isupper()):
        return text
    return text[0].lower() + text[1:]


def sentence(text: str, lang: str) -> str:
    """A fragment as its own sentence: first letter up, one full stop."""
    text = text.strip().rstrip("。.;；,，।॥؛،")
    if not text:
        return ""
    if lang_key(lang) != "zh-Hans":
        text = text[0].upper() + text[1:]
    return phrase(lang, "fact", text)


# Onset text that ends in a verb of its own ("कल से पिंडलियों पर दाने हैं", "어제 아침, 거울을
# 보다가 알았어요") is a sentence already: "It started …" around it would say it twice.
_VERB_LAST = {"hi": r"(?:है|हैं|था|थी|थे|हुआ|हुई|हुए|गया|गई|गए|रहा|रही|रहे|लगा|लगी|लगे)$",
              "fa": r"(?:است|شد|شدم|بود|بودم|ام|ایم|کرد|کردم|آمد|گرفت|دارم|داشتم)$",
              "ko": r"(?:요|다|죠)$"}


def onset(text: str, lang: str) -> str:
    """An onset fragment: "It started 70 minutes ago." when it fits, else on its own."""
    key = lang_key(lang)
    fits = ONSET_FITS.get(key[:2])
    stripped = text.strip().rstrip(".。।")
    if key == "zh-Hans" or not fits or not re.match(fits, stripped, re.IGNORECASE) or (
            key in _VERB_LAST and re.search(_VERB_LAST[key], stripped)):
        return sentence(stripped, lang)
    return phrase(lang, "onset", lower_first(stripped, lang))


def listing(names: list[str], lang: str) -> str:
    """Names as a list in the language's style ("a, b and c", "甲、乙、丙")."""
    key = lang_key(lang)
    if key not in ("de", "zh-Hans"):
        names = [lower_first(n, lang) for n in names]
    if len(names) <= 1:
        return "".join(names)
    sep, last = phrase(lang, "list_sep"), phrase(lang, "list_and")
    return sep.join(names[:-1]) + last + names[-1]
