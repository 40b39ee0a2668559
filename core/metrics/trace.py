"""What the doctor actually asked and ordered, mapped to the case's items (for pathway metrics).

Questions are matched to symptoms (names and synonyms) and to history (names, synonyms and
the per-language history cues of the retrieval patient); test requests are matched to
examination and test items at any level of the tree and credited to their top-level item
('haemoglobin' obtains 'Complete blood count'). Examinations count only when requested
(`REQUEST TEST: abdominal examination`), as the protocol asks, never from a question that
merely names a body part. The patient's own opening words do not count: only what the
doctor reached. Matching reuses `core.caseindex.matching`, so the metrics agree with what the
retrieval patient and examiner would have answered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.caseindex.finder import FindingIndex
from core.caseindex.matching import cue_hit, make_entries, mentioned, normalise
from core.caseindex.cues import cues
from core.case import Case, InquiryStep
from core.transcript import Role, Transcript, Turn

# Requests for "the examination" as a whole obtain every examination item.
WHOLE_EXAM = frozenset({"physical examination", "physical exam", "examination", "exam",
                        "clinical examination", "full examination", "general examination"})


@dataclass(frozen=True)
class CaseItem:
    """One item the doctor can obtain: a symptom, history item, examination or test."""

    key: str  # "category:name", unique within a case
    category: str  # symptom | history | exam | test
    label: str
    weight: float = 1.0
    relevant: bool | None = None
    kind: str | None = None  # history kind, for history items


@dataclass
class Trace:
    """First doctor turn at which each item was obtained, and every order placed."""

    items: dict[str, CaseItem]
    first: dict[str, int] = field(default_factory=dict)  # item key → doctor turn
    orders: list[tuple[str, str | None]] = field(default_factory=list)  # (name, item key)
    doctor_turns: int = 0
    diagnosis_turn: int | None = None
    treatment_turn: int | None = None

    def reach(self, key: str, turn: int) -> None:
        """Record that `key` was obtained at `turn` (the first time counts)."""
        self.first.setdefault(key, turn)


def case_items(case: Case) -> dict[str, CaseItem]:
    """Every obtainable item of a case, by key. Missing weights count as 1."""
    out: dict[str, CaseItem] = {}

    def add(item: CaseItem) -> None:
        out.setdefault(item.key, item)

    for s in case.patient.symptoms():
        add(CaseItem(f"symptom:{s.name}", "symptom", s.name, _w(s.weight)))
    for h in case.patient.history:
        add(CaseItem(f"history:{h.name or h.kind}", "history", h.name or h.kind,
                     _w(h.weight), kind=h.kind))
    for category, roots in (("exam", case.physical_exam), ("test", case.tests)):
        for root in roots:
            add(CaseItem(f"{category}:{root.name}", category, root.name, _w(root.weight),
                         root.relevant))
    return out


def _w(weight: float | None) -> float:
    return 1.0 if weight is None else float(weight)


class _Matchers:
    """Entries for one case: symptoms, named history, and finding nodes → top-level key."""

    def __init__(self, case: Case) -> None:
        self.symptoms = make_entries([([s.name, *s.synonyms], f"symptom:{s.name}")
                                      for s in case.patient.symptoms()])
        self.history = make_entries([([h.name, *h.synonyms] if h.name else list(h.synonyms),
                                      f"history:{h.name or h.kind}") for h in case.patient.history])
        self.kind_cues = {h.kind: cues(case.language, h.kind) for h in case.patient.history}
        self.history_kinds = [(h.kind, f"history:{h.name or h.kind}") for h in case.patient.history]
        # The examiner's own parser, so an order counts exactly when the examiner answers it
        # from the case ('vitals', 'bloods', a request in another language).
        self.findings = FindingIndex(case.physical_exam, case.tests, case.language)
        self.root_key: dict[int, str] = {}
        for kind, roots in (("exam", case.physical_exam), ("test", case.tests)):
            for root in roots:
                self.root_key.update((id(i), f"{kind}:{root.name}") for _, i in root.walk())
        self.exam_keys = [f"exam:{r.name}" for r in case.physical_exam]


# The matchers of the cases scored last, by identity (the case object is held, so its id
# cannot be reused): a run scores many consultations of each case, one after another, and
# building a case's finding index was half of scoring one (a case is not changed in place
# once loaded; a changed case is a new object).
_MATCHERS: dict[int, tuple[Case, _Matchers]] = {}
_MATCHERS_KEPT = 64


def _matchers(case: Case) -> _Matchers:
    found = _MATCHERS.get(id(case))
    if found is not None and found[0] is case:
        return found[1]
    if len(_MATCHERS) >= _MATCHERS_KEPT:
        _MATCHERS.clear()
    made = _MATCHERS[id(case)] = (case, _Matchers(case))
    return made[1]


def build_trace(case: Case, transcript: Transcript) -> Trace:
    """Map every doctor turn of a transcript to the case items it reached."""
    trace = Trace(case_items(case))
    m = _matchers(case)
    for turn in transcript.turns:
        if turn.role != Role.DOCTOR:
            continue
        at = turn.doctor_turn or turn.index + 1
        trace.doctor_turns = max(trace.doctor_turns, turn.doctor_turn or 0)
        if turn.kind == "test_request":
            _orders(trace, m, turn, at)
        elif turn.kind == "diagnosis":
            trace.diagnosis_turn = trace.diagnosis_turn or at
        elif turn.kind == "report":
            trace.treatment_turn = trace.treatment_turn or at
        else:
            _question(trace, m, turn.content, at)
    if not trace.doctor_turns:  # transcripts without doctor_turn numbers: count turns
        trace.doctor_turns = sum(1 for t in transcript.turns
                                 if t.role == Role.DOCTOR and t.kind != "report")
    if trace.treatment_turn is None and transcript.report and transcript.report.treatment_plan:
        trace.treatment_turn = trace.diagnosis_turn
    return trace


def _question(trace: Trace, m: _Matchers, text: str, at: int) -> None:
    for entry in mentioned(text, m.symptoms, limit=len(m.symptoms) or 1):
        trace.reach(entry.payload, at)
    for entry in mentioned(text, m.history, limit=len(m.history) or 1):
        trace.reach(entry.payload, at)
    q = normalise(text)
    for kind, key in m.history_kinds:
        if cue_hit(q, m.kind_cues.get(kind, [])):
            trace.reach(key, at)


def _orders(trace: Trace, m: _Matchers, turn: Turn, at: int) -> None:
    for name in turn.tests:
        if normalise(name) in WHOLE_EXAM:
            for key in m.exam_keys:
                trace.reach(key, at)
            trace.orders.extend((name, key) for key in m.exam_keys)
            continue
        keys = list(dict.fromkeys(m.root_key[id(x)] for x in m.findings.lookup(name)
                                  if not isinstance(x, str) and id(x) in m.root_key))
        for key in keys:
            trace.reach(key, at)
        targets: list[str | None] = [*keys] if keys else [None]  # None: not in the case
        trace.orders.extend((name, key) for key in targets)


def step_key(step: InquiryStep, items: dict[str, CaseItem]) -> str | None:
    """The item key an expected-order step names, '<category>:*' for a whole category,
    or None when the name matches no item of the case."""
    if step.category in ("diagnosis", "treatment"):
        return step.category
    if not step.name:
        return f"{step.category}:*"
    wanted = normalise(step.name)
    for key, item in items.items():
        if item.category != step.category:
            continue
        if normalise(item.label) == wanted or (item.kind and normalise(item.kind) == wanted):
            return key
    return None
