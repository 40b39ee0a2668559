"""The retrieval examiner: returns stored findings and results verbatim, with no model.

Each requested name is matched to an examination or test item (any level of the tree:
"troponin", "CBC", "haemoglobin") by name, synonym, containment or close spelling; the
stored subtree is returned as written. A named test that is not stored is reported as
normal. A request that names no test — or only catch-alls such as "all results",
"everything", "any tests" — is refused: the examiner never releases results unasked.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

from core.agents.base import DeltaFn, Reply
from core.agents.matching import Entry, best_for_name, make_entries, normalise
from core.agents.templates import phrase
from core.case import Item
from core.views import ExaminerView

# Words that never name a test on their own: a request made only of these is a catch-all.
_VAGUE_WORDS = {
    "all", "any", "every", "everything", "anything", "whatever", "the", "your", "my", "of",
    "them", "results", "result", "tests", "test", "findings", "finding", "available",
    "relevant", "other", "remaining", "rest", "data", "stored", "info", "information",
    "please", "labs", "investigations", "workup", "work", "up", "full", "complete",
    "entire", "whole", "record", "records", "you", "have", "give", "me", "show", "list",
    "dump", "some", "more", "basic", "routine", "standard", "usual", "necessary", "needed",
    "appropriate", "possible", "important", "abnormal", "normal", "pending", "done",
    "todo", "tutti", "todos", "todas", "tout", "tous", "toutes", "alle", "alles",
    "pruebas", "resultados", "examens", "résultats", "ergebnisse", "untersuchungen",
    "所有", "全部", "检查", "结果",
}
# Whole-exam requests: naming these returns every examination finding.
_WHOLE_EXAM = {"physical examination", "physical exam", "examination", "exam",
               "clinical examination", "physical", "examen physique", "exploración física",
               "körperliche untersuchung", "体格检查", "查体"}


def is_vague(name: str) -> bool:
    """True if a requested 'test name' names no test (e.g. 'all results', 'everything')."""
    words = normalise(name).split()
    return not words or all(w in _VAGUE_WORDS for w in words)


class RetrievalExaminer:
    """Deterministic examiner built from an ExaminerView."""

    label = "retrieval"

    def __init__(self, view: ExaminerView) -> None:
        self.lang = view.language
        self.exam_roots = list(view.physical_exam)
        pairs: list[tuple[list[str], Item]] = []
        for root in [*view.physical_exam, *view.tests]:
            pairs.extend(([item.name, *item.synonyms], item) for _, item in root.walk())
        self.entries: list[Entry] = make_entries(pairs)

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
        lines: list[str] = []
        reported: list[str] = []
        seen: set[int] = set()
        for name in named:
            items = self._lookup(name)
            if not items:
                lines.append(f"{name}: {phrase(self.lang, 'normal')}")
                reported.append(name)
            for item in items:
                if id(item) not in seen:  # "ECG, EKG" reports the ECG once
                    seen.add(id(item))
                    lines.append(item.render())
                    reported.append(item.name)
        return "\n".join(lines), reported

    def _lookup(self, name: str) -> list[Item]:
        entry = best_for_name(name, self.entries)
        if entry is not None:
            return [entry.payload]
        if normalise(name) in _WHOLE_EXAM:
            return list(self.exam_roots)
        return []


def build(view: ExaminerView) -> RetrievalExaminer:
    """Construct the retrieval examiner from its view."""
    return RetrievalExaminer(view)
