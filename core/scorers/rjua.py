"""RJUA's single-answer tasks, scored (`core.solvers.rjua`): no model, values from the
doctor's one answer and the case.

- diagnostic reasoning: `rjua_test_precision` (of the tests ordered that the case flags
  relevant or not, the share it flags relevant) and `rjua_test_recall` (of the tests the
  case flags relevant, the share ordered) — the clinical pathway's guidance metrics
  (`core.metrics.pathway.guidance`: the same matching of names to the case's tests, and
  tests without a flag not counted);
- single-turn QA: `rjua_diagnosis` (1 right, 0 wrong or none, by the moderators' verdict
  as `accuracy` reads it) and `rjua_treatment` (the share of the case's treatment
  requirements the plan covers, `treatment_logicality`).

Each value's detail holds `hits` and `of`, so a results row pools them (tests over all
consultations, not a mean of shares) with a Wilson interval.
"""

from __future__ import annotations

from core.case import Case
from core.metrics.base import MetricValue, undefined
from core.scorers.base import Finished, Scores, TaskRow

NOT_RJUA = "not a consultation of this RJUA task"


def _counts(value: MetricValue, hits: int, of: int) -> MetricValue:
    got, detail = value
    return (got, {**detail, "hits": hits, "of": of}) if got is not None else value


class _Offline:
    """What both tasks' scorers share: no model, values from the case content only."""

    names: tuple[str, ...] = ()

    def key(self, case: Case) -> str | None:
        """None: the values depend on the case content only."""
        return None

    def compute(self, case: Case, done: Finished) -> Scores:
        """Subclasses compute here."""
        raise NotImplementedError

    async def score(self, case: Case, done: Finished) -> Scores:
        """The values (`compute`)."""
        return self.compute(case, done)


class RjuaReasoning(_Offline):
    """Precision and recall of the tests ordered from the patient's first words."""

    name = "rjua_reasoning"
    names: tuple[str, ...] = ("rjua_test_precision", "rjua_test_recall")
    title = "RJUA diagnostic reasoning"
    legend = ("tests: precision: of the tests ordered that the case flags, the share flagged "
              "relevant (n: tests ordered); recall: of the case's relevant tests, the share "
              "ordered (n: relevant tests); both from the patient's first words alone; "
              "not_reached: consultations with no test ordered (precision) or a case with "
              "no relevant test (recall)")
    rows = (TaskRow("tests: precision", "rjua_test_precision", "tests ordered"),
            TaskRow("tests: recall", "rjua_test_recall", "relevant tests"))

    def compute(self, case: Case, done: Finished) -> Scores:
        """The two values (no model call)."""
        from core.metrics.pathway import guidance
        from core.metrics.trace import build_trace

        if case.placeholder:
            return {n: undefined("case record not available") for n in self.names}
        precision, recall = guidance(build_trace(case, done.transcript))
        d = precision[1]
        judged = [k for k in d.get("ordered_tests", []) if k not in d.get("unflagged", [])]
        hits = len(d.get("relevant_ordered", []))
        return {"rjua_test_precision": _counts(precision, hits, len(judged)),
                "rjua_test_recall": _counts(recall, hits, len(d.get("relevant", [])))}


class RjuaQa(_Offline):
    """The diagnosis and the treatment given with the whole record."""

    name = "rjua_qa"
    names: tuple[str, ...] = ("rjua_diagnosis", "rjua_treatment")
    title = "RJUA single-turn QA"
    legend = ("diagnosis: right by the moderators' verdict, no diagnosis counted wrong (n: "
              "consultations); treatment: of the case's treatment requirements, the share the "
              "plan covers (n: requirements); both from the whole record at once; "
              "not_reached: no treatment plan given, or a case without a treatment")
    rows = (TaskRow("diagnosis", "rjua_diagnosis"),
            TaskRow("treatment", "rjua_treatment", "treatment requirements"))

    def compute(self, case: Case, done: Finished) -> Scores:
        """The two values (no model call)."""
        from core.metrics.accuracy import accuracy
        from core.metrics.pathway import treatment_logicality

        if case.placeholder:
            return {n: undefined("case record not available") for n in self.names}
        treatment = treatment_logicality(case, done.transcript)
        d = treatment[1]
        of = len(d["requirements"]) if "requirements" in d else \
            len(d.get("matched", [])) + len(d.get("missing", []))
        hits = sum(r["met"] for r in d["requirements"]) if "requirements" in d else \
            len(d.get("matched", []))
        return {"rjua_diagnosis": accuracy(case, done.transcript),
                "rjua_treatment": _counts(treatment, hits, of)}
