"""Benchmark metrics, computed the same way for model and human doctors.

Modules: `accuracy` (per-consultation correctness, Wilson intervals), `entities` (diagnosis
entity precision/recall/F1, linked by `core.clinical_text`, the vocabulary and rule the
exact moderator uses too: normal form, negation, qualifiers, ICD-10 codes); `pathway`
(RJUA-style clinical pathway, from `trace`), with `treatment` and `treatment_terms`
(treatment logicality by concept); `report_score` (LLM-judged five-part report);
`patient_reported` (LLM patient's 1–10 ratings); `upper_bound` (one-step mode); `compute`
(all metrics of one consultation, cache keys); `table` (results rows, per group and per
consultation); `names` (metric and field names, import-light).

Every metric of one consultation is a `(value, detail)` pair: `value` is a float or None
(undefined, with `detail["reason"]` saying why), never NaN.

Must not import: textual, rich, litellm, or any other bedside package (db, annotation, tui).
"""
