"""Concept tagging: which tests, examinations or imaging a name refers to, in any language.

`tag(name, lang)` finds the vocabulary names (`vocab_tests`, `vocab_imaging`) inside a
normalised name, longest first and without overlaps, and turns them into tags: explicit
concepts ("lab:cbc", "ecg", "exam:vitals"), composed imaging and examinations ("us:abdomen"
from "abdominal ultrasound" or "ecografía abdominal", "exam:abdomen" from "abdo exam"),
generic modalities ("ultrasound" alone) and named groups ("bloods"). Lookups go through
n-grams of the words (and substrings of CJK words), so tagging costs microseconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from core.caseindex import vocab_imaging as vi
from core.caseindex import vocab_tests as vt
from core.caseindex.matching import KO_PARTICLES, is_cjk, normalise
from core.scripts import is_hangul

Hit = tuple[str, str]  # (kind, id): kind is concept | modality | region | exam | group
LANGS = ("en", "es", "fr", "de", "zh", "hi", "fa", "ko")
_LANGS = LANGS
_WORD = re.compile(r"\S+")
MAX_WORDS = 6  # longest vocabulary name, in words
INFLECTION = 3  # a word may extend a one-word name of 6+ letters by this many letters


def base_lang(tag: str) -> str:
    """The vocabulary language of a BCP-47 tag ("zh-Hans" → "zh"); unknown → "en"."""
    base = tag.split("-")[0].lower()
    return base if base in _LANGS else "en"


def _sources() -> list[tuple[str, dict[str, dict[str, str]]]]:
    return [("concept", vt.LABS), ("concept", vi.EXPLICIT), ("modality", vi.MODALITIES),
            ("region", vi.REGIONS), ("exam", {"exam": vi.EXAM_WORDS}), ("group", vt.GROUPS)]


@lru_cache(maxsize=8)
def name_table(lang: str) -> dict[str, tuple[Hit, ...]]:
    """Normalised name → what it means, for cases in `lang` (its "!" names included)."""
    common: dict[str, list[Hit]] = {}
    local: dict[str, list[Hit]] = {}
    for kind, table in _sources():
        for cid, names in table.items():
            for name_lang, text in names.items():
                for raw in text.split("|"):
                    scoped = raw.startswith("!")
                    if scoped and name_lang != lang:
                        continue
                    key = normalise(raw.lstrip("!"))
                    target = local if scoped else common
                    hits = target.setdefault(key, [])
                    if (kind, cid) not in hits:
                        hits.append((kind, cid))
    common.update(local)  # a language's own meaning of an abbreviation wins
    return {k: tuple(v) for k, v in common.items() if k}


@dataclass(frozen=True)
class Tags:
    """What a name refers to."""

    specific: frozenset[str]  # concepts and composed tags: "lab:cbc", "us:abdomen"
    generic: frozenset[str]  # modalities named without a region: "us", "ct"
    groups: frozenset[str]  # named groups: "bloods", "cultures"

    @property
    def modalities(self) -> frozenset[str]:
        """Every imaging modality the name involves."""
        fams = {t.split(":")[0] for t in self.specific}
        return frozenset((fams & vi.MODALITIES.keys()) | self.generic)

    def __bool__(self) -> bool:
        return bool(self.specific or self.generic or self.groups)


def _candidates(key: str, table: dict[str, tuple[Hit, ...]]) -> list[tuple[int, int, tuple]]:
    words = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(key)]
    out: list[tuple[int, int, tuple]] = []
    for i, (start, end, word) in enumerate(words):
        for j in range(i, min(len(words), i + MAX_WORDS)):
            hit = table.get(key[start:words[j][1]])
            if hit:
                out.append((start, words[j][1], hit))
        if is_cjk(word):
            korean = is_hangul(word)
            for a in range(len(word)):
                for b in range(a + 1, min(len(word), a + 10) + 1):
                    hit = table.get(word[a:b])
                    if korean and b - a == 1 and (a or word[1:] not in KO_PARTICLES):
                        continue  # "간" is the liver as a word, not inside "간염"
                    if hit and (b - a > 1 or all(k == "region" for k, _ in hit)):
                        out.append((start + a, start + b, hit))
        elif len(word) > 6:
            for cut in range(1, INFLECTION + 1):  # "neurologische" → "neurologisch"
                hit = table.get(word[:-cut])
                if hit and len(word) - cut >= 6:
                    out.append((start, end, hit))
                    break
    return out


@lru_cache(maxsize=4096)
def tag(name: str, lang: str = "en", implied_exam: bool = False) -> Tags:
    """The tags of a test or examination name. `implied_exam`: the name is an examination
    item, so a bare region ("abdomen") means its examination."""
    key = normalise(name)
    chosen: list[tuple[int, int, tuple]] = []
    for cand in sorted(_candidates(key, name_table(base_lang(lang))),
                       key=lambda c: (c[0] - c[1], c[0])):
        if all(cand[1] <= s or cand[0] >= e for s, e, _ in chosen):
            chosen.append(cand)
    hits = [h for _, _, hs in chosen for h in hs]
    ids = {kind: {cid for k, cid in hits if k == kind} for kind in
           ("concept", "modality", "region", "exam", "group")}
    specific, generic = set(ids["concept"]), set()
    if ids["modality"]:
        if ids["region"]:
            specific |= {f"{m}:{r}" for m in ids["modality"] for r in ids["region"]}
        else:
            generic = ids["modality"]
    elif ids["region"] and (ids["exam"] or implied_exam):
        specific |= {f"exam:{r}" for r in ids["region"]}
    return Tags(frozenset(specific), frozenset(generic), frozenset(ids["group"]))


@lru_cache(maxsize=1)
def whole_exam() -> frozenset[str]:
    """Requests for the whole examination, in the matching form."""
    return frozenset(normalise(n) for n in vi.WHOLE_EXAM)


@lru_cache(maxsize=64)
def ancestors(region: str) -> frozenset[str]:
    """Every broader region of a region (transitively)."""
    out: set[str] = set()
    for parent in vi.PARENTS.get(region, ()):
        out |= {parent, *ancestors(parent)}
    return frozenset(out)


def relation(want: str, have: str) -> int:
    """How a stored tag fits a requested one: 3 same, 2 narrower (stored "us:kidney" for an
    abdominal ultrasound), 1 broader, 0 unrelated."""
    if want == have:
        return 3
    wf, _, wr = want.partition(":")
    hf, _, hr = have.partition(":")
    if wf != hf or wr not in vi.REGIONS or hr not in vi.REGIONS:
        return 0
    if wr in ancestors(hr):
        return 2
    return 1 if hr in ancestors(wr) else 0


def family(tag_id: str) -> str:
    """The family of a tag: "lab", "exam", "us", "ct", "vital", or the id itself."""
    return tag_id.split(":")[0]


def conflicts(want: frozenset[str], have: frozenset[str]) -> bool:
    """True when a stored item is plainly something else of the same family (a CT of the
    urinary tract for a "CT head"), so a loose name match must not be trusted."""
    if any(relation(w, h) for w in want for h in have):
        return False
    return bool({family(w) for w in want} & {family(h) for h in have})


def table_fingerprint() -> dict[str, object]:
    """Everything that decides tagging, for the reproducibility hash."""
    return {"sources": [(kind, table) for kind, table in _sources()],
            "parents": vi.PARENTS, "whole_exam": sorted(vi.WHOLE_EXAM),
            "members": vt.GROUP_MEMBERS, "display": vt.DISPLAY,
            "limits": [MAX_WORDS, INFLECTION]}
