"""Benchmark metrics, computed the same way for model and human doctors.

Modules: `accuracy` (per-consultation correctness, Wilson intervals), `entities` (diagnosis
entity precision/recall/F1), `pathway` (RJUA-style clinical pathway), `report_score`
(LLM-judged five-part report), `patient_reported` (LLM patient's 1–10 ratings),
`upper_bound` (one-step mode), `compute` (all offline metrics of one consultation).

Every metric of one consultation is a `(value, detail)` pair: `value` is a float or None
(undefined, with `detail["reason"]` saying why), never NaN.

Must not import: textual, rich, litellm, or any other bedside package (db, annotation, tui).
"""
