"""The retrieval examiner: returns stored findings and results verbatim, with no model.

Each requested name is read by `core.agents.test_names`: a stored item (by name, synonym, a
multilingual concept vocabulary, region-aware imaging, loose matching, or a misspelling
corrected against known test names) is returned as written; a known test that is not stored
is reported as normal, in the case's language. A request that names no test — catch-alls
such as "all results", "todas las pruebas", "所有检查结果", or a sentence such as "Please
provide the most recent medical examination details" — is refused: the examiner never
releases results unasked. A name that is no test it knows is reported as normal (AgentClinic's
"normal readings" for model runs) or, with `strict_unknown` (a human player), said plainly.
"""

from __future__ import annotations

from core.caseindex import concepts
from core.agents import vocab_known as vk
from core.agents import vocab_requests as vr
from core.caseindex import vocab_tests as vt
from core.agents.base import DeltaFn, Reply
from core.caseindex.finder import GENERIC_WORDS, FindingIndex
from core.caseindex.matching import is_cjk, normalise
from core.agents.templates import PHRASES, phrase
from core.agents.test_names import MIN_CORRECT, WORD_ABBREVIATIONS, Reading, TestNames, \
    is_known_name, names_no_test
from core.case import Item
from core.views import ExaminerView

VERSION = "retrieval-examiner/5"
# The word lists in the matching form (Hindi words lose their virama there).
_VAGUE = frozenset(normalise(w) for w in vt.VAGUE_WORDS)
_QUANTIFIERS = frozenset(normalise(w) for w in vt.QUANTIFIERS)


def is_catch_all(name: str) -> bool:
    """True if a requested 'test name' is a catch-all ('all results', 'alle Befunde').

    A name is a catch-all when every word is a catch-all or filler word, or when it contains
    a quantifier ("all", "todas", "所有") without naming a specific test: "all tests that
    are abnormal" is one, "all vital signs" is not. A named group ("bloods") or a bare
    modality ("ultrasound") counts as specific only without a quantifier.
    """
    key = normalise(name)
    if not key:
        return True
    words = key.split()
    latin = [w for w in words if not is_cjk(w)]
    cjk = "".join(w for w in words if is_cjk(w))
    quantified = any(w in _QUANTIFIERS for w in latin) or any(
        q in cjk for q in vt.QUANTIFIERS_CJK)
    if quantified:
        return not any(concepts.tag(key, lang).specific for lang in concepts.LANGS)
    for filler in sorted(vt.VAGUE_CJK, key=len, reverse=True):
        cjk = cjk.replace(filler, "")
    return not cjk and all(w in _VAGUE for w in latin)


def is_vague(name: str) -> bool:
    """True if a request names no test: a catch-all, or a sentence with no test word in it
    and no test of the vocabularies ("please do something useful"). Used before any model
    is asked (the LLM examiner) as well as by the offline examiner."""
    if is_catch_all(name):
        return True
    key = normalise(name)
    if key in concepts.whole_exam():
        return False
    return names_no_test(name) and not is_known_name(key) and not any(
        concepts.tag(key, lang) for lang in concepts.LANGS)


class RetrievalExaminer:
    """Deterministic examiner built from an ExaminerView."""

    label = "retrieval"

    def __init__(self, view: ExaminerView, *, strict_unknown: bool = False) -> None:
        self.lang = view.language
        self.index = FindingIndex(list(view.physical_exam), list(view.tests), view.language)
        self.names = TestNames(self.index)
        # A human player is told plainly when a name is not a test this examiner knows; a
        # model run keeps AgentClinic's "normal readings" for anything named.
        self.strict_unknown = strict_unknown

    async def examine(self, tests: list[str], message: str, on_delta: DeltaFn) -> Reply:
        """Results for the named tests (instantaneous, so not streamed)."""
        readings = self.read(tests)
        text, found = self.render(readings)
        meta: dict[str, object] = {"refused": True} if not found else {"matched": found}
        corrected = {n: r.corrected for n, r in readings if r.corrected}
        unknown = [n for n, r in readings if r.kind == "unknown"]
        if corrected:
            meta["corrected"] = corrected
        if unknown:
            meta["unknown"] = unknown
        return Reply(text=text, model="retrieval", meta=meta)

    def read(self, tests: list[str]) -> list[tuple[str, Reading]]:
        """What each requested name is (stored, known, unknown, or no test)."""
        return [(t, self.names.read(t, is_catch_all(t))) for t in tests]

    def report(self, tests: list[str]) -> tuple[str, list[str]]:
        """The stored results for the named tests, and the names reported (empty: refused)."""
        return self.render(self.read(tests))

    def render(self, readings: list[tuple[str, Reading]]) -> tuple[str, list[str]]:
        """The answer to read names, and the names reported (empty: refused)."""
        named = [(t, r) for t, r in readings if r.kind != "vague"]
        if not named:
            return phrase(self.lang, "refusal"), []
        normal = phrase(self.lang, "normal")
        lines: list[str] = []
        reported: list[str] = []
        seen: set[int] = set()
        normal_tags: set[frozenset[str]] = set()  # "ECG, EKG" not stored: one normal line
        for name, reading in named:
            if reading.kind == "unknown" and self.strict_unknown:
                lines.append(phrase(self.lang, "unknown_test", name))
                continue
            found = reading.found
            if not found:
                tags = concepts.tag(reading.corrected or name, self.lang).specific
                if tags and tags in normal_tags:
                    continue
                normal_tags.add(tags)
                found = [name]
            for line in found:
                if isinstance(line, Item):
                    if id(line) in seen or _inside(line, seen, self.index):
                        continue  # "ECG, EKG" or "U&E, potassium" report the item once
                    seen.add(id(line))
                    lines.append(line.render())
                    reported.append(line.name)
                elif line not in reported:
                    lines.append(f"{line}: {normal}")
                    reported.append(line)
        return "\n".join(lines), reported


def _inside(item: Item, seen: set[int], index: FindingIndex) -> bool:
    """True if an already reported item contains this one."""
    node = next((n for n in index.nodes if n.item is item), None)
    return node is not None and any(a in seen for a in node.ancestors)


def tables() -> dict[str, object]:
    """What decides this examiner's answers, for the reproducibility hash."""
    return {"version": VERSION, "vague": sorted(vt.VAGUE_WORDS), "vague_cjk": vt.VAGUE_CJK,
            "quantifiers": sorted(vt.QUANTIFIERS), "quantifiers_cjk": vt.QUANTIFIERS_CJK,
            "phrases": {k: (v["normal"], v["refusal"], v["unknown_test"])
                        for k, v in PHRASES.items()},
            "generic_words": sorted(GENERIC_WORDS),
            "concepts": concepts.table_fingerprint(), "known": vk.KNOWN_TESTS,
            "requests": [sorted(vr.SENTENCE_WORDS), sorted(vr.TEST_WORDS),
                         sorted(vr.TEST_HEADS), vr.TEST_ENDINGS, sorted(vr.NOT_ENDINGS),
                         vr.SENTENCE_CJK, vr.TEST_CJK, vr.MIN_ENDING_WORD, MIN_CORRECT],
            "abbreviations": WORD_ABBREVIATIONS}


def build(view: ExaminerView) -> RetrievalExaminer:
    """Construct the retrieval examiner from its view."""
    return RetrievalExaminer(view)
