"""Fidelity checks of one examiner answer: accuracy, leak, language.

Each requested name is read the way the offline examiner reads it (`core.agents.test_names`:
stored, a known test not stored, a name that is no test it knows, or no test at all), which
says what a faithful examiner must answer:
- a stored item: its stored values, verbatim (a misspelt stored name included);
- a known test not stored: "normal" (AgentClinic);
- a name that is no known test: "normal", or saying plainly it is not a known test;
- a request naming no test: a refusal.
A leak is a stored value of an item nobody named, or the diagnosis outside the values of the
named items. The reading is shared with the offline examiner, so for that agent these
checks mostly confirm its rendering; the probe suite's labels are the independent measure.
"""

from __future__ import annotations

from core.caseindex.finder import FindingIndex
from core.caseindex.matching import normalise
from core.agents.retrieval_examiner import is_catch_all
from core.agents.test_names import Reading, TestNames
from core.case import Case, Item
from core.fidelity.models import AnswerFinding, Check
from core.fidelity.patient import language_check
from core.fidelity.record import Record
from core.fidelity.stance import is_refusal, says_normal, says_unknown_test


class ExaminerReader:
    """Reads requested names against one case's findings, as the offline examiner does."""

    def __init__(self, case: Case) -> None:
        index = FindingIndex(list(case.physical_exam), list(case.tests), case.language)
        self.names = TestNames(index)

    def read(self, tests: list[str]) -> list[tuple[str, Reading]]:
        """What each requested name is."""
        return [(t, self.names.read(t, is_catch_all(t))) for t in tests]


def check_examiner(record: Record, reader: ExaminerReader, tests: list[str], message: str,
                   answer: str, *, index: int, agent: str) -> AnswerFinding:
    """Every check of one examiner answer."""
    readings = reader.read(tests)
    allowed = [i.render() for _, r in readings for i in r.found if isinstance(i, Item)]
    accuracy = _accuracy(readings, answer)
    return AnswerFinding(index=index, role="examiner", agent=agent, prompt=message,
                         answer=answer, tests=list(tests), checks={
                             "leak": _leak(record, answer, "\n".join(allowed)),
                             "accuracy": accuracy,
                             "language": _language(record, answer, allowed)})


def _accuracy(readings: list[tuple[str, Reading]], answer: str) -> Check:
    named = [(n, r) for n, r in readings if r.kind != "vague"]
    refused = is_refusal(answer)
    if not readings or not named:
        return Check(outcome="pass") if refused else Check(
            outcome="fail", reason="answers a request that names no test")
    if refused:
        return Check(outcome="fail", reason=f"refuses a request naming '{named[0][0]}'")
    text = normalise(answer)
    for name, reading in named:
        if reading.kind == "stored":
            items = [i for i in reading.found if isinstance(i, Item)]
            values = [v.value for i in items for _, v in i.walk() if v.value]
            missing = [v for v in values if normalise(v) not in text]
            if missing:
                return Check(outcome="fail", reason=f"'{name}' does not return its stored "
                             f"value ('{missing[0][:40]}')")
            if len(items) < len(reading.found) and not says_normal(answer):
                return Check(outcome="fail", reason=f"'{name}': members not stored are not "
                             "reported normal")
        elif not (says_normal(answer) or reading.kind == "unknown"
                  and says_unknown_test(answer)):
            return Check(outcome="fail", reason=f"'{name}' is not stored and not reported "
                         "normal")
    return Check(outcome="pass")


def _leak(record: Record, answer: str, allowed: str) -> Check:
    frag = record.leaked_result(answer, allowed)
    if frag:
        return Check(outcome="fail", reason=f"returns a result not asked for ('{frag}')")
    term = record.leaked_diagnosis(answer, allowed)
    if term:
        return Check(outcome="fail", reason=f"names the diagnosis ('{term}')")
    return Check(outcome="pass")


def _language(record: Record, answer: str, allowed: list[str]) -> Check:
    """The examiner's own words (stored values left out) are in the case's language."""
    rest = answer
    for text in sorted(allowed, key=len, reverse=True):
        for line in text.splitlines():
            rest = rest.replace(line.strip(), " ")
    if len(normalise(rest).split()) < 3 and len(rest.strip()) < 6:
        return Check(outcome="na", reason="only stored values")
    return language_check(rest, record.language)
