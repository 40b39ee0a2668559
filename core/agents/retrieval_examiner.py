"""The retrieval examiner: returns stored findings and results verbatim, with no model.

Each requested name is matched to examination and test items by `core.caseindex.finder`
(names, synonyms, a multilingual concept vocabulary, region-aware imaging, loose matching);
the stored subtree is returned as written. A named test that is not stored is reported as
normal, in the case's language. A request that names no test — or only catch-alls such as
"all results", "everything you've got", "todas las pruebas", "所有检查结果" — is refused:
the examiner never releases results unasked.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

from core.caseindex import concepts
from core.caseindex import vocab_tests as vt
from core.agents.base import DeltaFn, Reply
from core.caseindex.finder import GENERIC_WORDS, FindingIndex
from core.caseindex.matching import is_cjk, normalise
from core.agents.templates import PHRASES, phrase
from core.case import Item
from core.views import ExaminerView

VERSION = "retrieval-examiner/2"


def is_vague(name: str) -> bool:
    """True if a requested 'test name' names no test ('all results', 'alle Befunde').

    A name is vague when every word is a catch-all or filler word, or when it contains a
    quantifier ("all", "todas", "所有") without naming a specific test: "all tests that are
    abnormal" is refused, "all vital signs" is not. A named group ("bloods") or a bare
    modality ("ultrasound") counts as specific only without a quantifier.
    """
    key = normalise(name)
    if not key:
        return True
    words = key.split()
    latin = [w for w in words if not is_cjk(w)]
    cjk = "".join(w for w in words if is_cjk(w))
    quantified = any(w in vt.QUANTIFIERS for w in latin) or any(
        q in cjk for q in vt.QUANTIFIERS_CJK)
    if quantified:
        return not any(concepts.tag(key, lang).specific for lang in ("en", "es", "fr", "de", "zh"))
    for filler in sorted(vt.VAGUE_CJK, key=len, reverse=True):
        cjk = cjk.replace(filler, "")
    return not cjk and all(w in vt.VAGUE_WORDS for w in latin)


class RetrievalExaminer:
    """Deterministic examiner built from an ExaminerView."""

    label = "retrieval"

    def __init__(self, view: ExaminerView) -> None:
        self.lang = view.language
        self.index = FindingIndex(list(view.physical_exam), list(view.tests), view.language)

    async def examine(self, tests: list[str], message: str, on_delta: DeltaFn) -> Reply:
        """Results for the named tests (instantaneous, so not streamed)."""
        text, found = self.report(tests)
        meta = {"refused": True} if not found else {"matched": found}
        return Reply(text=text, model="retrieval", meta=meta)

    def report(self, tests: list[str]) -> tuple[str, list[str]]:
        """The stored results for the named tests, and the names reported (empty: refused)."""
        named = [t for t in tests if not is_vague(t)]
        if not named:
            return phrase(self.lang, "refusal"), []
        normal = phrase(self.lang, "normal")
        lines: list[str] = []
        reported: list[str] = []
        seen: set[int] = set()
        normal_tags: set[frozenset[str]] = set()  # "ECG, EKG" not stored: one normal line
        for name in named:
            found = self.index.lookup(name)
            if not found:
                tags = concepts.tag(name, self.lang).specific
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
            "phrases": {k: (v["normal"], v["refusal"]) for k, v in PHRASES.items()},
            "generic_words": sorted(GENERIC_WORDS),
            "concepts": concepts.table_fingerprint()}


def build(view: ExaminerView) -> RetrievalExaminer:
    """Construct the retrieval examiner from its view."""
    return RetrievalExaminer(view)
