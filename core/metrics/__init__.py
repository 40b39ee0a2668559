"""Benchmark metrics, computed the same way for model and human doctors.

Modules: `accuracy` (per-consultation correctness, Wilson intervals), `entities` (diagnosis
entity precision/recall/F1, linked by `core.clinical_text`, the vocabulary and rule the
exact moderator uses too: normal form, negation, qualifiers, ICD-10 codes); `pathway`
(RJUA-style clinical pathway, from `trace`), with `treatment` and `treatment_terms`
(treatment logicality by concept); `report_score` (LLM-judged five-part report);
`patient_reported` (LLM patient's 1–10 ratings, through a `complete` callable the caller
gives); `compute` (all metrics of one consultation, cache keys); `table` (results rows, per
group and per consultation); `names` (metric and field names, import-light). The scorers
(`core.scorers`) wrap them; the one-step upper bound is a solver (`core.solvers.one_step`).

Every metric of one consultation is a `(value, detail)` pair: `value` is a float or None
(undefined, with `detail["reason"]` saying why), never NaN. Metrics reach no agent, engine,
batch or model client (pyproject's import contracts): what they share with the retrieval
agents is the case index (`core.caseindex`), and their prompts live in `core.prompts`.
"""
